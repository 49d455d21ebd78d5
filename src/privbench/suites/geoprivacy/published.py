"""The authors' released responses beside a run, over exactly the photos the run answered.

Why recomputed here: the reference releases every model's answers per photo (its
``evaluation/main`` files, fetched by ``privbench download geoprivacy`` into
``ROOT/released/``) but prints its figures only for all 1,200 photos. A run on the photos a
user could download covers fewer; a released model's figure over *those* photos is the one
that can stand beside it. Each released answer is read as privbench reads a run's (the
stored multiple-choice letter; the stored judge label of a free-form answer — the authors'
GPT-4.1-mini verdict, which is what they published), and a model is shown only when its file
answers every photo the runs answered (some released runs are short).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from privbench.json_files import read_json_value
from privbench.suites.geoprivacy.dataset import GeoItem, load_geoprivacy
from privbench.suites.geoprivacy.layout import COMMIT, RELEASED_DIR
from privbench.suites.geoprivacy.prompts import MCQ, MODES, answer_letter, judge_letter
from privbench.suites.geoprivacy.scoring import GranularityFigures, granularity_figures

MANIFEST = Path(__file__).parent / "data" / "release.json"
MODELS = (
    "gpt-5", "o3", "o4-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-4o", "gemini-2.5-flash",
    "claude-sonnet-4-20250514", "Llama-4-Maverick-17B-128E-Instruct-FP8",
)  # fmt: skip
"""The API models whose responses the reference releases for every protocol."""
LABEL = f"released run (99starman/VLM-GeoPrivacyBench@{COMMIT[:7]})"


def released_path(variant: str, model: str) -> str:
    """The repository path of a model's released responses to one protocol or mode."""
    if variant == MCQ:
        return f"evaluation/main/mcq/api_gen_zs_heuristics_{model}_combined.json"
    return f"evaluation/main/{variant}/responses/api_gen_{variant}_free-form_{model}_combined.json"


@cache
def _pinned() -> frozenset[str]:
    document = json.loads(MANIFEST.read_text(encoding="utf-8"))
    return frozenset(str(entry["path"]) for entry in document["files"])


def _letters(path: Path, variant: str) -> dict[str, str | None] | None:
    """Item id → the released answer's granularity letter; None if the file is unreadable."""
    data, problems = read_json_value(path, str(path))
    if problems or not isinstance(data, list):
        return None
    found: dict[str, str | None] = {}
    for row in data:
        if not isinstance(row, dict) or "id" not in row:
            continue
        if variant == MCQ:
            value = row.get("Q7")
            found[str(row["id"])] = answer_letter(str(value), "Q7") if value is not None else None
        else:
            label = row.get("Q7-label")
            found[str(row["id"])] = judge_letter(label) if isinstance(label, str) else None
    return found


@dataclass(frozen=True)
class ReleasedRow:
    """One released model's granularity figures over the chosen photos."""

    model: str
    figures: GranularityFigures


def released_rows(
    root: Path, variant: str, photos: Iterable[str]
) -> tuple[list[ReleasedRow], list[str]]:
    """Each released model's figures over ``photos`` (item ids), and the models left out
    (their file is absent or does not answer every photo)."""
    wanted = sorted(set(photos))
    gold = {item.id: item.gold["Q7"] for item in load_geoprivacy(root)}
    rows: list[ReleasedRow] = []
    left_out: list[str] = []
    for model in MODELS:
        path = released_path(variant, model)
        letters = _letters(root / RELEASED_DIR / path, variant) if path in _pinned() else None
        if letters is None or any(p not in letters or p not in gold for p in wanted):
            left_out.append(model)
            continue
        figures = granularity_figures([gold[p] for p in wanted], [letters[p] for p in wanted])
        rows.append(ReleasedRow(model, figures))
    return rows, left_out


def has_released(root: Path) -> bool:
    """Whether a copy holds the released responses (``download geoprivacy`` fetches them)."""
    return (root / RELEASED_DIR).is_dir()


def columns_of(figures: GranularityFigures) -> Mapping[str, float]:
    """A released row's cells in percent: accuracy and over-disclosure."""
    values = {
        "accuracy": figures.accuracy.value,
        "over": figures.over_disclosure.value,
    }
    return {k: 100 * v for k, v in values.items() if v is not None and not math.isnan(v)}


__all__ = ["LABEL", "MODES", "GeoItem", "ReleasedRow", "has_released", "released_rows"]
