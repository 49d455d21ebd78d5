"""A SpatialTrust log as rows of the cross-run tables (:mod:`privbench.analysis.runs`).

Why here: what a graded capture holds (five questions, boxes, the staged strategies'
counters) is SpatialTrust's; the generic reader calls :data:`READING` for every
SpatialTrust log it is given. Rows: one per (run, image, question): ``score`` (0–1, NaN
when unscored), the parse failure, ground truth, prediction, invalid boxes, judge details.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping

from inspect_ai.log import EvalLog

from privbench.formatting import grade
from privbench.runtime.cross_run import (
    DiffItem,
    DiffReading,
    LogScores,
    Row,
    RunCounts,
    RunReading,
    ScoreColumns,
    number_or_nan,
)
from privbench.runtime.log_reading import scored_samples
from privbench.suites.spatialtrust.aggregate import TASKS, spatial_scores
from privbench.suites.spatialtrust.dataset import QUESTION_IDS
from privbench.suites.spatialtrust.log import PipelineCounts, spatialtrust_log
from privbench.suites.spatialtrust.published import OVERALL
from privbench.suites.spatialtrust.record import (
    SPATIAL_SCORER,
    SpatialSampleRecord,
    SpatialScoreRecord,
    StrategyRecord,
)


def item_rows(log: EvalLog, label: str) -> list[Row]:
    """One row per (image, question) of a graded log."""
    rows: list[Row] = []
    for sample, score in scored_samples(log, SPATIAL_SCORER):
        record = SpatialScoreRecord.from_score(score)
        capture = SpatialSampleRecord.from_metadata(sample.metadata)
        values = score.value if isinstance(score.value, dict) else {}
        for qid in QUESTION_IDS:
            rows.append(
                {
                    "run": label,
                    "image_id": str(sample.id),
                    "qid": qid,
                    "score": number_or_nan(values.get(qid)),
                    "parse_failure": qid in record.parse_failures,
                    "image": capture.image,
                    "width": capture.width,
                    "height": capture.height,
                    "ground_truth": capture.ground_truth.get(qid, {}),
                    "prediction": record.prediction.get(qid),
                    "invalid_boxes": [
                        box
                        for box in record.listed_invalid_boxes(str(sample.id))
                        if box.get("question") == qid
                    ],
                    "judge": record.judge_details[qid].model_dump(exclude_unset=True)
                    if qid in record.judge_details
                    else {},
                }
            )
    return rows


def run_counts(log: EvalLog) -> RunCounts:
    """Unscored questions, unreadable answers and judge replies, re-asks and the staged
    strategies' counters of a log."""
    counts = RunCounts()
    pipeline = PipelineCounts()
    for sample in log.samples or []:
        for name, score in (sample.scores or {}).items():
            if name != SPATIAL_SCORER or not isinstance(score.value, dict):
                continue
            spatial = SpatialScoreRecord.from_score(score)
            counts.versions.add(spatial)
            counts.unscored += sum(1 for v in score.value.values() if math.isnan(number_or_nan(v)))
            counts.parse_failures += len(spatial.parse_failures)
            counts.unreadable_judge += sum(
                d.unreadable_replies for d in spatial.judge_details.values()
            )
            for qid in spatial.parse_failures:
                counts.failed_questions[qid] = counts.failed_questions.get(qid, 0) + 1
            stats = spatial.strategy or StrategyRecord()
            counts.reasks += stats.reasks
            if stats.is_pipeline:
                pipeline.add(stats)
            if spatial.judge:
                counts.judges.add(spatial.judge)
    counts.unreadable_answers = counts.parse_failures
    counts.pipeline = pipeline.record() if pipeline.images else None
    counts.pipeline_warnings = pipeline.warnings()
    return counts


READING = RunReading(item_rows=item_rows, counts=run_counts, item_key="image_id", whole_items=True)


def log_scores(log: EvalLog) -> LogScores:
    """Table 2's row of a log: per task and overall (%), as ``show`` prints it."""
    logged = spatialtrust_log(log)
    spatial = spatial_scores(logged.items)
    columns: dict[str, float | None] = {name: spatial.tasks[name] for _, name in TASKS}
    columns[OVERALL] = spatial.overall
    return LogScores(columns, spatial.n_images, logged.judge, logged.complete)


SCORE_COLUMNS = ScoreColumns(
    columns=(*(name for _, name in TASKS), OVERALL),
    total=OVERALL,
    unit="images",
    scores=log_scores,
)


def image_score(scores: Mapping[str, float | None]) -> float | None:
    """An image's 0–1 score: the mean of its five question scores; None if any is unscored
    (so that the mean of the image differences is the difference of two runs' overall
    scores on those images)."""
    values = [scores.get(qid) for qid, _ in TASKS]
    present = [v for v in values if v is not None]
    return statistics.fmean(present) if len(present) == len(TASKS) else None


def diff_items(log: EvalLog) -> tuple[dict[str, DiffItem], str, bool]:
    """An image's score is :func:`image_score`; its parts are the five question scores."""
    logged = spatialtrust_log(log)
    items = {
        image_id: DiffItem(image_id, image_score(scores), dict(scores))
        for image_id, scores in logged.items.items()
    }
    return items, logged.judge, logged.complete


def grade_text(item: DiffItem) -> str:
    """The image's score per question."""
    return " ".join(f"{qid} {grade(item.parts.get(qid))}" for qid, _ in TASKS)


def diff_record(item: DiffItem) -> dict[str, object]:
    return {"scores": {qid: item.parts.get(qid) for qid, _ in TASKS}}


DIFF = DiffReading(
    items=diff_items,
    groups=tuple((qid, f"{qid} {name.replace('_', ' ')}") for qid, name in TASKS),
    group_kind="question",
    grade_text=grade_text,
    item_record=diff_record,
)
