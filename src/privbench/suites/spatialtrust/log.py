"""From an inspect log to a SpatialTrust run's per-image scores, counters and ``--json``.

Why from the log: the log is the record of a run, so the tables, the exports and the JSON
all derive from it and agree with ``inspect view``. Each score is read through
:class:`~privbench.suites.spatialtrust.record.SpatialScoreRecord`; parse failures are counted per
question, and every pipeline counter reaches the document.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from inspect_ai.log import EvalLog

from privbench.runtime.calls import CallCounts
from privbench.runtime.log_reading import (
    dataset_order,
    finished_samples,
    token_totals,
)
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.records.task import DraftAnnotations, expected_ids
from privbench.runtime.records.versions import ReportedVersions
from privbench.suites.spatialtrust.aggregate import ImageScores, SpatialScores, spatial_scores
from privbench.suites.spatialtrust.baseline import run_baseline
from privbench.suites.spatialtrust.dataset import QUESTION_IDS
from privbench.suites.spatialtrust.record import SPATIAL_SCORER, SpatialScoreRecord, StrategyRecord

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

    def add(self, stats: StrategyRecord) -> None:
        """Count one image's strategy record (:class:`~privbench.suites.spatialtrust.solvers.StrategyStats`)."""
        self.images += 1
        for qid in stats.selection_failures:  # a list (older logs) or qid → reason
            self.selection_failures[qid] = self.selection_failures.get(qid, 0) + 1
        self.images_without_lock += bool(stats.selection_failures)
        self.verifier_calls += stats.verifier_calls
        self.verifier_unreadable += stats.unreadable_verifier_replies
        self.audit_deletions += sum(len(v) for v in stats.deleted.values())
        self.lock_disagreements += stats.disagreements
        self.final_unparsed += stats.unparsed_locked

    def record(self) -> dict[str, object]:
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
class SpatialTrustLog:
    """Per-image scores of a SpatialTrust log and its counts."""

    items: dict[str, ImageScores]
    parse_failures: dict[str, int]
    invalid_boxes: list[dict[str, object]]
    """Every predicted box that was not scored: ``id``, ``question``, ``option``, ``box``,
    ``reason`` (:class:`~privbench.suites.spatialtrust.reading.InvalidBox`), in log order."""
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
    drafts: DraftAnnotations | None = None
    """The run's images no person reviewed, as its task recorded them (``--allow-drafts``)."""
    versions: ReportedVersions = field(default_factory=ReportedVersions)
    """The model names the providers reported, per role."""

    @property
    def complete(self) -> bool:
        """Every image was scored: none failed and none is missing."""
        return not self.errors and not self.missing


def _finite_or_none(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else float(value)


def spatialtrust_log(log: EvalLog) -> SpatialTrustLog:
    """Collect per-image scores and counts from a SpatialTrust log."""
    items: dict[str, ImageScores] = {}
    invalid_boxes: list[dict[str, object]] = []
    failed_questions: dict[str, dict[str, str]] = {}
    pipeline = PipelineCounts()
    reask = ReaskCounts()
    calls = CallCounts()
    versions = ReportedVersions()
    judges: set[str] = set()
    finished, errors = finished_samples(log, SpatialScoreRecord.summary_is_complete)
    for sample in finished:  # the cancelled ones are counted as missing below
        score = (sample.scores or {}).get(SPATIAL_SCORER)
        if score is None:
            continue
        record = SpatialScoreRecord.from_score(score)
        image_id = str(sample.id)
        items[image_id] = record.question_scores(QUESTION_IDS)
        if record.parse_failures:
            failed_questions[image_id] = dict(record.parse_failures)
        invalid_boxes += record.listed_invalid_boxes(image_id)
        calls.add(record)
        versions.add(record)
        strategy = record.strategy or StrategyRecord()
        if strategy.is_pipeline:
            pipeline.add(strategy)
        reask.without[image_id] = items[image_id]
        if strategy.reasks:
            reask.reasks += strategy.reasks
            reask.images += 1
            for qid in record.first_parse_failures or {}:
                reask.first_parse_failures[qid] = reask.first_parse_failures.get(qid, 0) + 1
            if record.without_reask is not None:
                reask.without[image_id] = {
                    qid: _finite_or_none(record.without_reask.get(qid)) for qid in QUESTION_IDS
                }
        if record.judge:
            judges.add(record.judge)
    failures = Counter(qid for failed in failed_questions.values() for qid in failed)
    done = set(items) | set(errors)
    return SpatialTrustLog(
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
        drafts=RunIdentity.from_log(log).draft_annotations,
        versions=versions,
    )


def json_document(
    scores: SpatialScores,
    logged: SpatialTrustLog,
    *,
    label: str,
    strategy: str,
    log: EvalLog,
    extra_ids: dict[str, list[str]] | None = None,
    exports: dict[str, str] | None = None,
) -> dict[str, object]:
    """The one ``--json`` document for a SpatialTrust run (full precision).

    ``label``: the run's display name; ``extra_ids``: per input file, ids that match no
    image (not scored).
    """
    log_location = str(log.location)
    identity = RunIdentity.from_log(log)
    return {
        "benchmark": "spatialtrust",
        "model": identity.answered_by,
        "label": label,
        "strategy": strategy,
        "status": "complete" if logged.complete and log.status == "success" else "partial",
        "log_status": log.status,
        "dataset_hash": identity.dataset_hash or None,
        "draft_annotations": None if logged.drafts is None else logged.drafts.model_dump(),
        "judge": logged.judge,
        "reported_models": logged.versions.record(),
        "judge_card": None if identity.judge_card is None else identity.judge_card.model_dump(),
        "judge_agreement": identity.judge_agreement_line,
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


def reask_document(logged: SpatialTrustLog) -> dict[str, object]:
    """The ``reask`` object of ``--json``: counts, and the scores without re-asks."""
    reask = logged.reask
    without = spatial_scores(reask.without) if reask.images else None
    return {
        "reasks": reask.reasks,
        "images": reask.images,
        "first_parse_failures": reask.first_parse_failures,
        "without_reask": None if without is None else {**without.tasks, "overall": without.overall},
    }
