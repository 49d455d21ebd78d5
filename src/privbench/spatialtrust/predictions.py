"""Read SpatialTrust predictions made elsewhere (``preds.jsonl``, SPEC §3.2).

Why strict: a file that misses images would silently shrink every mean, so missing ids
are one error listing them; a line that is not JSON is reported with its number.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from privbench.errors import DatasetError, Problem, missing_ids_error
from privbench.json_files import read_jsonl


def load_spatial_predictions(path: Path, item_ids: list[str]) -> dict[str, dict[str, Any]]:
    """``{id: record}`` for every id of the dataset; raises naming the line or the ids."""
    display = str(path)
    lines, problems = read_jsonl(path, display)
    records: dict[str, dict[str, Any]] = {}
    for number, record in lines:
        item_id = record.get("id") if isinstance(record, dict) else None
        if not isinstance(item_id, str):
            problems.append(
                Problem(f"{display}:{number}", None, "a prediction needs a string 'id'")
            )
        elif item_id in records:
            problems.append(Problem(f"{display}:{number}", item_id, "duplicate id"))
        else:
            records[item_id] = record
    if problems:
        raise DatasetError(problems)
    missing = [item_id for item_id in item_ids if item_id not in records]
    if missing:
        raise missing_ids_error(display, missing, "prediction")
    return records
