"""Read SpatialTrust predictions made elsewhere (``preds.jsonl``, docs/spatialtrust.md).

Why strict: a file that misses images would silently shrink every mean, so missing ids
are one error listing them; a line that is not JSON is reported with its number. Ids that
match no image are kept aside (``extra_ids``) so the run can warn about them instead of
ignoring them. A file whose questions mostly do not parse is almost always the wrong file
or the wrong shape, not a bad model: scoring it would print a confident 0.0, so
:func:`parse_predictions` stops it with the likely cause before any judge is paid.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from privbench.json_files import JsonValue, read_jsonl
from privbench.runtime.errors import DatasetError, PrivbenchError, Problem, missing_ids_error
from privbench.suites.spatialtrust.boxes import BoxConvention
from privbench.suites.spatialtrust.dataset import EXPLANATION_QUESTIONS, QUESTION_IDS, SpatialItem
from privbench.suites.spatialtrust.reading import (
    NOT_AN_OPTION,
    NOT_OPTION_LETTERS,
    PIXELS,
    SpatialAnswer,
    parse_record,
)


@dataclass(frozen=True)
class SpatialPredictions:
    """A ``preds.jsonl`` read against a dataset."""

    path: Path
    records: dict[str, dict[str, JsonValue]]
    """The record of every dataset image, by id, in dataset order."""
    extra_ids: list[str]
    """Ids of the file that match no image of the dataset (file order); they are not scored."""


def load_spatial_predictions(path: Path, item_ids: list[str]) -> SpatialPredictions:
    """Every dataset image's record; raises naming the line or the ids that are missing."""
    display = str(path)
    lines, problems = read_jsonl(path, display)
    records: dict[str, dict[str, JsonValue]] = {}
    for number, record in lines:
        item_id = record.get("id") if isinstance(record, dict) else None
        if not isinstance(record, dict) or not isinstance(item_id, str):
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
    known = set(item_ids)
    return SpatialPredictions(
        path,
        {item_id: records[item_id] for item_id in item_ids},
        [item_id for item_id in records if item_id not in known],
    )


def _example(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:60] + "…"


def _kind(qid: str, reason: str) -> str:
    """Failures that share a likely cause: every unreadable choice of q1–q3 is one."""
    choices = NOT_AN_OPTION in reason or "names no option" in reason or reason == NOT_OPTION_LETTERS
    return "choices" if choices else reason


def likely_cause(records: Sequence[Mapping[str, object]], answers: list[SpatialAnswer]) -> str:
    """Why most questions of a predictions file did not parse, in a few words."""
    if any("questions" in record for record in records):
        return "this looks like a SpatialTrust dataset file (records have 'questions'), not predictions"
    failures = [
        (qid, reason, record.get(qid))
        for record, answer in zip(records, answers, strict=True)
        for qid, reason in answer.failures.items()
    ]
    missing = sum(1 for _, reason, _ in failures if reason == "missing")
    if 2 * missing > len(failures):
        for record in records:
            for key, value in record.items():
                if isinstance(value, dict) and any(qid in value for qid in QUESTION_IDS):
                    return f"q1–q5 are nested under '{key}'; put them at the top level of each line"
        keys = Counter(key for record in records for key in record if key != "id")
        found = ", ".join(key for key, _ in keys.most_common(6)) or "none"
        return f"the records have no q1–q5 keys (keys found: {found})"
    present = [(_kind(qid, reason), qid, reason, value) for qid, reason, value in failures]
    kinds = Counter(kind for kind, _, reason, _ in present if reason != "missing")
    top, _ = kinds.most_common(1)[0]
    _, qid, reason, value = next(f for f in present if f[0] == top)
    if top == "choices":
        return (
            "choices are neither option letters (A, B, …) nor the exact option texts, "
            f"e.g. {qid}: {_example(value)}"
        )
    if qid in EXPLANATION_QUESTIONS:
        return (
            'q4/q5 must be a text or {"text": ..., "factors": [{"name", "why", "box"}]}, '
            f"e.g. {qid}: {_example(value)}"
        )
    return f"{qid}: {reason}, e.g. {_example(value)}"


def parse_predictions(
    predictions: SpatialPredictions, items: list[SpatialItem], convention: BoxConvention = PIXELS
) -> dict[str, SpatialAnswer]:
    """Every image's parsed prediction (boxes read in ``convention``), by id.

    Raises :class:`PrivbenchError` when more than half of all questions fail to parse,
    naming the file, the counts per question and the likely cause.
    """
    answers = {
        item.id: parse_record(predictions.records[item.id], item, convention) for item in items
    }
    total = len(QUESTION_IDS) * len(answers)
    per_question = Counter(qid for answer in answers.values() for qid in answer.failures)
    failed = sum(per_question.values())
    if total and 2 * failed > total:
        counts = ", ".join(f"{qid} {per_question[qid]}" for qid in QUESTION_IDS)
        cause = likely_cause(
            [predictions.records[item_id] for item_id in answers], list(answers.values())
        )
        raise PrivbenchError(
            f"{predictions.path}: {failed} of {total} questions failed to parse ({counts}); "
            f"likely cause: {cause} (format: docs/spatialtrust.md)"
        )
    return answers
