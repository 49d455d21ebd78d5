"""Read answers made elsewhere (``results.json``) and earlier grade files (README: Grade a results.json).

Why strict: a predictions file that misses items would silently shrink the denominator
of eq. 1, so missing ids are one clear error listing them. An answer that is ``null`` or
empty is kept as an empty answer and counted as *no answer* — never the string "None".
A top-level ``"model"`` key that is no item's id names the model that answered (the run's
name then comes from the file, not from its path).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from privbench.json_files import read_json_object
from privbench.runtime.errors import DatasetError, Problem, missing_ids_error

MODEL_KEY = "model"
"""The key of a ``results.json`` that names the model which answered (when no item has
that id)."""


class Answers(dict[str, str | None]):
    """``{id: answer or None}`` of a ``results.json``, and the ids that match no item.

    ``extra_ids`` (file order) are not graded; the run reports them so that a typo'd or
    misplaced id does not vanish unseen. ``model``: the model the file names (``""``: none).
    """

    def __init__(
        self, answers: dict[str, str | None], extra_ids: list[str], model: str = ""
    ) -> None:
        super().__init__(answers)
        self.extra_ids = extra_ids
        self.model = model


def load_predictions(path: Path, item_ids: list[str] | None) -> Answers:
    """``{id: answer or None}``; raises listing what is wrong, e.g. ids of ``item_ids`` missing.

    With ``item_ids`` the answers are those items' (in their order), the rest is
    ``extra_ids``; without, every answer of the file.
    """
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
        return Answers(dict(data), [])
    missing = [item_id for item_id in item_ids if item_id not in data]
    if missing:
        raise missing_ids_error(display, missing, "answer")
    known = set(item_ids)
    named = data.get(MODEL_KEY) if MODEL_KEY not in known else None
    model = named.strip() if isinstance(named, str) else ""
    extra = [key for key in data if key not in known and not (key == MODEL_KEY and model)]
    return Answers({item_id: data[item_id] for item_id in item_ids}, extra, model)


def answer_hash(answer: str) -> str:
    """The identity of a graded answer, stored beside its grades (SHA-256, 16 hex digits).

    A grade is only ever reused for the very answer it graded.
    """
    return hashlib.sha256(answer.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class GradeRecord:
    """One judge run of one item in a reference-format grade file, with its identity.

    ``answer_hash``, ``judge``, ``protocol`` and ``prompt_hash`` are privbench's additions
    (the reference ignores extra keys); a file without them never matches, so its runs
    are graded again rather than trusted — unless the user opts in to reusing them without
    an answer check (:func:`privbench.suites.priviq.scoring.reusable_runs`).
    """

    score: float | None
    content: str
    model: str
    answer_hash: str = ""
    judge: str = ""
    protocol: str = ""
    prompt_hash: str = ""


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
    return {key: _records(entry) for key, entry in data.items()}


def _records(entry: dict[str, Any]) -> list[GradeRecord]:
    identity = {
        name: str(entry.get(name) or "")
        for name in ("answer_hash", "judge", "protocol", "prompt_hash")
    }
    return [
        GradeRecord(None if s is None else float(s), str(c), str(m), **identity)
        for m, c, s in zip(entry["model"], entry["content"], entry["score"], strict=True)
    ]
