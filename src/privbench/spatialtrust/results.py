"""SpatialTrust scores from per-image question scores (pure) and from an inspect log.

Task-level scores are means over images per question, as percentages; overall is the
mean of the five (paper §5.1). An unscored q4/q5 (judge verdict never valid) is left out
of that question's mean and counted; parse failures are counted per question.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.log import EvalLog, EvalSampleSummary

from privbench.audit.spatialtrust import run_baseline
from privbench.dataset_identity import DATASET_HASH_KEY
from privbench.runtime.log_reading import (
    LoggedSample,
    dataset_order,
    expected_ids,
    log_samples,
    sample_error,
    token_totals,
    was_cancelled,
)
from privbench.spatialtrust.dataset import QUESTION_IDS
from privbench.spatialtrust.scorer import TASKS

SCORER_NAME = "spatialtrust_scorer"
TASK_LABELS = {
    "detection": "Detection",
    "direct_identification": "Direct identification",
    "indirect_identification": "Indirect identification",
    "direct_explanation": "Direct explanation",
    "indirect_explanation": "Indirect explanation",
}

ImageScores = dict[str, float | None]
"""One image's score per question (q1–q5), None where unscored."""


@dataclass(frozen=True)
class SpatialScores:
    """Everything the Table 2 row and the ``--json`` document report."""

    tasks: dict[str, float | None]
    overall: float | None
    n_images: int
    scored: dict[str, int]
    items: dict[str, ImageScores]
    unscored: dict[str, list[str]] = field(default_factory=dict)


def spatial_scores(items: dict[str, ImageScores]) -> SpatialScores:
    """Per-question means (percent) over images, and overall = mean of the five."""
    tasks: dict[str, float | None] = {}
    scored: dict[str, int] = {}
    unscored: dict[str, list[str]] = {}
    for qid, name in TASKS:
        values = [v for v in (scores.get(qid) for scores in items.values()) if v is not None]
        tasks[name] = 100 * math.fsum(values) / len(values) if values else None
        scored[qid] = len(values)
        unscored[qid] = [i for i, scores in items.items() if scores.get(qid) is None]
    present = [v for v in tasks.values() if v is not None]
    overall = statistics.fmean(present) if len(present) == len(TASKS) else None
    return SpatialScores(tasks, overall, len(items), scored, items, unscored)


@dataclass(frozen=True)
class SpatialLog:
    """Per-image scores of a SpatialTrust log and its counts."""

    items: dict[str, ImageScores]
    parse_failures: dict[str, int]
    invalid_boxes: list[dict[str, Any]]
    """Every predicted box that was not scored: ``id``, ``question``, ``option``, ``box``,
    ``reason`` (:class:`~privbench.spatialtrust.parsing.InvalidBox`), in log order."""
    lock_mismatches: int
    audit_deletions: int
    judge: str
    errors: dict[str, str]
    failed_questions: dict[str, dict[str, str]] = field(default_factory=dict)
    """Per image with a parse failure: question id → why it did not parse."""
    missing: list[str] = field(default_factory=list)
    """Images the run was asked to do that have no sample in the log (cancelled)."""

    @property
    def complete(self) -> bool:
        """Every image was scored: none failed and none is missing."""
        return not self.errors and not self.missing


def _complete(summary: EvalSampleSummary) -> bool:
    score = (summary.scores or {}).get(SCORER_NAME)
    metadata = (score.metadata if score is not None else None) or {}
    # inspect thins a summary's metadata values over 1 kB: such a sample is read in full
    return isinstance(metadata.get("parse_failures"), dict) and isinstance(
        metadata.get("invalid_boxes"), list | int
    )


def _invalid_boxes(image_id: str, value: object) -> list[dict[str, Any]]:
    """One image's invalid boxes with its id (a log before they were listed holds a count)."""
    if isinstance(value, int):
        return [{"id": image_id, "reason": "not listed by this log's privbench"}] * value
    return [{"id": image_id, **box} for box in value] if isinstance(value, list) else []


def _image_scores(value: Any) -> ImageScores:
    result: ImageScores = {}
    for qid in QUESTION_IDS:
        number = value.get(qid) if isinstance(value, dict) else None
        finite = isinstance(number, int | float) and not math.isnan(number)
        result[qid] = float(number) if finite else None  # type: ignore[arg-type]
    return result


def spatial_log(log: EvalLog) -> SpatialLog:
    """Collect per-image scores and counts from a SpatialTrust log."""
    items: dict[str, ImageScores] = {}
    errors: dict[str, str] = {}
    invalid_boxes: list[dict[str, Any]] = []
    failed_questions: dict[str, dict[str, str]] = {}
    mismatches = deletions = 0
    judges: set[str] = set()
    samples: list[LoggedSample] = log_samples(log, _complete)
    for sample in samples:
        if was_cancelled(sample):
            continue  # counted as missing below
        error = sample_error(sample)
        if error is not None:
            errors[str(sample.id)] = error
            continue
        score = (sample.scores or {}).get(SCORER_NAME)
        if score is None:
            continue
        metadata = score.metadata or {}
        items[str(sample.id)] = _image_scores(score.value)
        if metadata.get("parse_failures"):
            failed_questions[str(sample.id)] = dict(metadata["parse_failures"])
        invalid_boxes += _invalid_boxes(str(sample.id), metadata.get("invalid_boxes"))
        strategy = metadata.get("strategy") or {}
        mismatches += len(strategy.get("lock_mismatches", []))
        deletions += sum(len(v) for v in strategy.get("deleted", {}).values())
        if metadata.get("judge"):
            judges.add(str(metadata["judge"]))
    failures = Counter(qid for failed in failed_questions.values() for qid in failed)
    done = set(items) | set(errors)
    return SpatialLog(
        {i: items[i] for i in dataset_order(log, list(items))},
        {qid: failures[qid] for qid in QUESTION_IDS},
        invalid_boxes,
        mismatches,
        deletions,
        ", ".join(sorted(judges)),
        {i: errors[i] for i in dataset_order(log, list(errors))},
        {i: failed_questions[i] for i in dataset_order(log, list(failed_questions))},
        missing=[i for i in expected_ids(log) if i not in done],
    )


def json_document(
    scores: SpatialScores,
    logged: SpatialLog,
    *,
    model: str,
    strategy: str,
    log: EvalLog,
    extra_ids: dict[str, list[str]] | None = None,
    exports: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The one JSON document of SPEC §5 for a SpatialTrust run (full precision).

    ``extra_ids``: per input file, ids that match no image (not scored).
    """
    log_location = str(log.location)
    return {
        "benchmark": "spatialtrust",
        "model": model,
        "strategy": strategy,
        "status": "complete" if logged.complete and log.status == "success" else "partial",
        "log_status": log.status,
        "dataset_hash": (log.eval.metadata or {}).get(DATASET_HASH_KEY),
        "judge": logged.judge,
        **scores.tasks,
        "overall": scores.overall,
        "counts": {"images": scores.n_images, "scored": scores.scored},
        "unscored": sum(len(ids) for ids in scores.unscored.values()),
        "unscored_items": {qid: ids for qid, ids in scores.unscored.items() if ids},
        "parse_failures": logged.parse_failures,
        "parse_failure_items": logged.failed_questions,
        "invalid_boxes": len(logged.invalid_boxes),
        "invalid_box_items": logged.invalid_boxes,
        "lock_mismatches": logged.lock_mismatches,
        "audit_deletions": logged.audit_deletions,
        "errors": len(logged.errors),
        "error_items": logged.errors,
        "missing": len(logged.missing),
        "missing_items": logged.missing,
        "tokens": token_totals(log),
        "extra_ids": extra_ids or {},
        "baseline": run_baseline(log_location, scores.items),
        "items": scores.items,
        "log": log_location,
        "exports": exports or {},
    }
