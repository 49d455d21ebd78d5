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
from privbench.runtime.calls import CallCounts
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


WARN_SHARE = 0.10
"""A pipeline counter above this share of images gets a warning line: at that rate a
stage's failures move scores by more than the effects the benchmark measures."""


@dataclass
class PipelineCounts:
    """What the staged/guard stages did over a run, counted per kind (never summed away).

    ``images_without_lock``: images where at least one of q1–q3 ran without a lock
    because its selection did not parse. ``verifier_unreadable``: verifier replies that
    were neither KEEP nor DELETE (the option was kept). ``lock_disagreements``: locked
    questions the final answer answered differently (the lock was applied), counted
    apart from ``final_unparsed``: locked questions whose final answer did not parse.
    """

    images: int = 0
    selection_failures: dict[str, int] = field(default_factory=dict)
    images_without_lock: int = 0
    verifier_calls: int = 0
    verifier_unreadable: int = 0
    audit_deletions: int = 0
    lock_disagreements: int = 0
    final_unparsed: int = 0

    def add(self, stats: dict[str, Any]) -> None:
        """Count one image's :class:`~privbench.spatialtrust.solvers.StrategyStats`."""
        self.images += 1
        failures = stats.get("selection_failures") or {}
        for qid in failures:  # a list (older logs) or qid → reason
            self.selection_failures[qid] = self.selection_failures.get(qid, 0) + 1
        self.images_without_lock += bool(failures)
        self.verifier_calls += int(stats.get("verifier_calls", 0))
        unreadable = stats.get("verifier_unreadable", stats.get("verifier_unparsed", 0))
        self.verifier_unreadable += (
            len(unreadable) if isinstance(unreadable, list) else int(unreadable)
        )
        self.audit_deletions += sum(len(v) for v in (stats.get("deleted") or {}).values())
        if "lock_disagreements" in stats:
            self.lock_disagreements += len(stats["lock_disagreements"])
            self.final_unparsed += len(stats.get("final_unparsed", []))
        else:  # older logs counted both as one "lock mismatch"
            self.lock_disagreements += len(stats.get("lock_mismatches", []))

    def record(self) -> dict[str, Any]:
        """The ``pipeline`` object of ``--json``."""
        return {
            "images": self.images,
            "selection_failures": {
                q: self.selection_failures.get(q, 0) for q in ("q1", "q2", "q3")
            },
            "images_without_lock": self.images_without_lock,
            "verifier_calls": self.verifier_calls,
            "verifier_unreadable": self.verifier_unreadable,
            "audit_deletions": self.audit_deletions,
            "lock_disagreements": self.lock_disagreements,
            "final_unparsed": self.final_unparsed,
        }

    def warnings(self) -> list[str]:
        """One line per counter above :data:`WARN_SHARE` of images."""
        if not self.images:
            return []
        limit = WARN_SHARE * self.images
        checks = [
            (self.images_without_lock, "images ran without a lock (their selection did not parse)"),
            (self.verifier_unreadable, "verifier replies were unreadable (the option was kept)"),
            (
                self.lock_disagreements,
                "locked answers disagreed with the lock (the lock was applied)",
            ),
            (
                self.final_unparsed,
                "locked questions' final answers did not parse (the lock stood in)",
            ),
        ]
        return [
            f"warning: {count} of {self.images} {what}" for count, what in checks if count > limit
        ]


@dataclass
class ReaskCounts:
    """Re-asks of unreadable answers (``--reask-unparsed``) and the scores without them."""

    reasks: int = 0
    images: int = 0
    """Images whose answer was asked again."""
    first_parse_failures: dict[str, int] = field(default_factory=dict)
    without: dict[str, ImageScores] = field(default_factory=dict)
    """Per image, its scores had the first answer been kept (= its scores if not re-asked)."""


@dataclass(frozen=True)
class SpatialLog:
    """Per-image scores of a SpatialTrust log and its counts."""

    items: dict[str, ImageScores]
    parse_failures: dict[str, int]
    invalid_boxes: list[dict[str, Any]]
    """Every predicted box that was not scored: ``id``, ``question``, ``option``, ``box``,
    ``reason`` (:class:`~privbench.spatialtrust.parsing.InvalidBox`), in log order."""
    pipeline: PipelineCounts | None
    """Staged/guard stage counters (None for direct runs and predictions)."""
    reask: ReaskCounts
    calls: CallCounts
    """Calls retried after a malformed or empty reply, and replies with replaced characters."""
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
    pipeline = PipelineCounts()
    reask = ReaskCounts()
    calls = CallCounts()
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
        calls.add(metadata)
        strategy = metadata.get("strategy") or {}
        if strategy.get("strategy") in ("staged", "guard"):
            pipeline.add(strategy)
        image_id = str(sample.id)
        reask.without[image_id] = items[image_id]
        if strategy.get("reasks"):
            reask.reasks += int(strategy["reasks"])
            reask.images += 1
            for qid in metadata.get("first_parse_failures") or {}:
                reask.first_parse_failures[qid] = reask.first_parse_failures.get(qid, 0) + 1
            if isinstance(metadata.get("without_reask"), dict):
                reask.without[image_id] = _image_scores(metadata["without_reask"])
        if metadata.get("judge"):
            judges.add(str(metadata["judge"]))
    failures = Counter(qid for failed in failed_questions.values() for qid in failed)
    done = set(items) | set(errors)
    return SpatialLog(
        {i: items[i] for i in dataset_order(log, list(items))},
        {qid: failures[qid] for qid in QUESTION_IDS},
        invalid_boxes,
        pipeline if pipeline.images else None,
        reask,
        calls,
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
    """The one ``--json`` document for a SpatialTrust run (full precision).

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
        "pipeline": None if logged.pipeline is None else logged.pipeline.record(),
        "reask": reask_document(logged),
        **logged.calls.record(),
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


def reask_document(logged: SpatialLog) -> dict[str, Any]:
    """The ``reask`` object of ``--json``: counts, and the scores without re-asks."""
    reask = logged.reask
    without = spatial_scores(reask.without) if reask.images else None
    return {
        "reasks": reask.reasks,
        "images": reask.images,
        "first_parse_failures": reask.first_parse_failures,
        "without_reask": None if without is None else {**without.tasks, "overall": without.overall},
    }
