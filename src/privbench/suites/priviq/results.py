"""A Priv-IQ log as rows of the cross-run tables (:mod:`privbench.analysis.runs`).

Why here: what a graded sample holds (competencies, the judge's runs and replies) is
Priv-IQ's; the generic reader calls :data:`READING` for every Priv-IQ log it is given.
Rows: one per (run, item, epoch): ``score`` (0–1, NaN when unscored), ``competencies``,
``combination``, question, reference, answer, judge reply, image.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ContentText

from privbench.formatting import grade
from privbench.runtime.cross_run import (
    DiffItem,
    DiffReading,
    LogScores,
    Row,
    RunCounts,
    RunReading,
    ScoreColumns,
)
from privbench.runtime.log_reading import scored_samples
from privbench.suites.priviq.aggregate import priviq_scores
from privbench.suites.priviq.competencies import COMPETENCIES, combination_label
from privbench.suites.priviq.log import priviq_log
from privbench.suites.priviq.published import TOTAL
from privbench.suites.priviq.record import PRIVIQ_SCORER, PrivIQSampleRecord, PrivIQScoreRecord


def _input_text(messages: Sequence[ChatMessage]) -> str:
    texts = []
    for message in messages:
        content = message.content
        if isinstance(content, str):
            texts.append(content)
        else:
            texts += [part.text for part in content if isinstance(part, ContentText)]
    return "\n".join(texts)


def item_rows(log: EvalLog, label: str) -> list[Row]:
    """One row per (item, judge run) of a graded log."""
    rows: list[Row] = []
    for sample, score in scored_samples(log, PRIVIQ_SCORER):
        record = PrivIQScoreRecord.from_score(score)
        about = PrivIQSampleRecord.from_metadata(sample.metadata)
        codes = tuple(code for code in COMPETENCIES if code in about.competencies)
        per_run = record.runs is not None
        common = {
            "run": label,
            "item": str(sample.id),
            "competencies": codes,
            "combination": combination_label(codes),
            "question": sample.input
            if isinstance(sample.input, str)
            else _input_text(sample.input),
            "reference": sample.target
            if isinstance(sample.target, str)
            else " / ".join(sample.target),
            "answer": score.answer or "",
            "no_answer": record.no_answer,
            "image": about.image,
        }
        for index, run in enumerate(record.judge_runs()):
            rows.append(
                {
                    **common,
                    "epoch": index + 1 if per_run else sample.epoch,
                    "score": math.nan if run.score is None else run.score,
                    "judge_reply": run.last_reply,
                }
            )
    return rows


def run_counts(log: EvalLog) -> RunCounts:
    """Unscored judgments, unreadable judge replies, judge runs, versions of a log."""
    counts = RunCounts()
    for _, score in scored_samples(log, PRIVIQ_SCORER):
        record = PrivIQScoreRecord.from_score(score)
        counts.versions.add(record)
        runs = record.judge_runs()
        counts.judge_runs = max(counts.judge_runs, len(runs))
        counts.unverified += record.unverified_runs
        counts.unscored += sum(1 for run in runs if run.score is None)
        counts.parse_failures += sum(run.unreadable_replies for run in runs)
        counts.unreadable_judge += sum(run.unreadable_replies for run in runs)
        if "prompt_hash" in record.model_fields_set:
            counts.prompt_hash = record.prompt_hash
        if record.judge:
            counts.judges.add(record.judge)
    return counts


READING = RunReading(item_rows=item_rows, counts=run_counts)


def log_scores(log: EvalLog) -> LogScores:
    """Table 3's row of a log: per competency and the total (%), as ``show`` prints it."""
    graded = priviq_log(log)
    scores = priviq_scores(graded.grades)
    columns: dict[str, float | None] = {
        code: scores.competencies[code].score for code in COMPETENCIES
    }
    columns[TOTAL] = scores.overall.score
    return LogScores(columns, scores.overall.n, graded.judge.judge, graded.complete)


SCORE_COLUMNS = ScoreColumns(
    columns=(*COMPETENCIES, TOTAL), total=TOTAL, unit="items", scores=log_scores
)


def diff_items(log: EvalLog) -> tuple[dict[str, DiffItem], str, bool]:
    """An item's score is the mean of its judge runs' grades (unscored when none was)."""
    graded = priviq_log(log)
    items = {}
    for grades in graded.grades:
        mean = grades.mean
        items[grades.id] = DiffItem(
            grades.id,
            mean,
            {code: mean for code in grades.competencies},
            grades.runs,
            grades.no_answer,
        )
    return items, graded.judge.judge, graded.complete


def grade_text(item: DiffItem) -> str:
    """The mean judge grade (0–1), and the runs' grades when several."""
    if item.score is None:
        return "unscored"
    runs = f" ({', '.join(grade(g) for g in item.grades)})" if len(item.grades) > 1 else ""
    return f"{item.score:.2f}{runs}"


def diff_record(item: DiffItem) -> dict[str, object]:
    return {"grades": list(item.grades), "no_answer": item.no_answer}


DIFF = DiffReading(
    items=diff_items,
    groups=tuple((code, code) for code in COMPETENCIES),
    group_kind="competency",
    grade_text=grade_text,
    item_record=diff_record,
    parts_key="competencies",
)
