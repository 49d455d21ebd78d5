"""Read answers made elsewhere (``results.json``) and earlier grade files (SPEC §2.2, §2.4).

Why strict: a predictions file that misses items would silently shrink the denominator
of eq. 1, so missing ids are one clear error listing them. An answer that is ``null`` or
empty is kept as an empty answer and counted as *no answer* — never the string "None".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from privbench.errors import DatasetError, Problem, missing_ids_error
from privbench.json_files import read_json_object


def load_predictions(path: Path, item_ids: list[str] | None) -> dict[str, str | None]:
    """``{id: answer or None}``; raises listing what is wrong, e.g. ids of ``item_ids`` missing."""
    display = str(path)
    data, problems = read_json_object(path, display)
    if data is None:
        raise DatasetError(problems)
    problems.extend(Problem(display, key, "duplicate id") for key in data.duplicates)
    for key, value in data.items():
        if value is not None and not isinstance(value, str):
            problems.append(Problem(display, key, "answer must be a string or null"))
    if problems:
        raise DatasetError(problems)
    if item_ids is None:
        return dict(data)
    missing = [item_id for item_id in item_ids if item_id not in data]
    if missing:
        raise missing_ids_error(display, missing, "answer")
    return {item_id: data[item_id] for item_id in item_ids}


@dataclass(frozen=True)
class GradeRecord:
    """One judge run of one item in a reference-format grade file."""

    score: float | None
    content: str
    model: str


def _runs_problem(entry: object) -> str | None:
    if not isinstance(entry, dict):
        return "entry must be an object with 'model', 'content' and 'score' lists"
    lists = [entry.get(key) for key in ("model", "content", "score")]
    if not all(isinstance(value, list) for value in lists):
        return "'model', 'content' and 'score' must all be lists"
    if len({len(value) for value in lists if isinstance(value, list)}) != 1:
        return "'model', 'content' and 'score' lists differ in length"
    for score in entry["score"]:
        valid = score is None or (
            isinstance(score, int | float)
            and not isinstance(score, bool)
            and math.isfinite(score)
            and 0.0 <= score <= 1.0
        )
        if not valid:
            return f"score {score!r} is not null or a number in 0.0–1.0"
    return None


def load_grade_file(path: Path) -> dict[str, list[GradeRecord]]:
    """Runs per item of a grade file ``{id: {"model": [...], "content": [...], "score": [...]}}``."""
    display = str(path)
    data, problems = read_json_object(path, display)
    if data is None:
        raise DatasetError(problems)
    for key, entry in data.items():
        problem = _runs_problem(entry)
        if problem is not None:
            problems.append(Problem(display, key, problem))
    if problems:
        raise DatasetError(problems)
    return {
        key: [
            GradeRecord(None if s is None else float(s), str(c), str(m))
            for m, c, s in zip(entry["model"], entry["content"], entry["score"], strict=True)
        ]
        for key, entry in data.items()
    }
