"""From an inspect log to Priv-IQ grades, scores and the ``--json`` document.

Why from the log: the log is the record of a run (every judge reply, every epoch), so the
tables, the exports and the JSON all derive from it and agree with ``inspect view``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from inspect_ai.log import EvalLog, EvalSampleSummary

from privbench.log_reading import LoggedSample, log_samples, sample_error
from privbench.priviq.competencies import combination_label
from privbench.priviq.scores import ItemGrades, PrivIQScores, ScoreCell

SCORER_NAME = "priviq_judge"


@dataclass(frozen=True)
class JudgeIdentity:
    """Which judge graded, with which protocol and prompt template."""

    judge: str
    protocol: str
    prompt_hash: str


@dataclass(frozen=True)
class RunRecord:
    """One judged run of one item as the grade file stores it."""

    score: float | None
    content: str
    model: str


@dataclass(frozen=True)
class GradedLog:
    """Per-item grades of a Priv-IQ log plus what is needed for exports."""

    grades: list[ItemGrades]
    records: dict[str, list[RunRecord]]
    judge: JudgeIdentity
    judge_parse_failures: int
    errors: dict[str, str]
    """Items whose run failed (after inspect's retries): id → error message."""


def _score_value(sample: LoggedSample) -> tuple[float | None, dict[str, Any]]:
    score = (sample.scores or {}).get(SCORER_NAME)
    if score is None:
        return None, {}
    value = score.value
    number = float(value) if isinstance(value, int | float) else math.nan
    return (None if math.isnan(number) else number), dict(score.metadata or {})


def _has_replies(summary: EvalSampleSummary) -> bool:
    """Whether the summary holds the judge's replies whole (long ones are thinned out)."""
    _, metadata = _score_value(summary)
    return isinstance(metadata.get("replies", []), list) and "competencies" in summary.metadata


def graded_log(log: EvalLog) -> GradedLog:
    """Collect every sample's runs (epochs) from a Priv-IQ log, in dataset order."""
    by_item: dict[str, dict[int, LoggedSample]] = defaultdict(dict)
    errors: dict[str, str] = {}
    for sample in log_samples(log, _has_replies):
        error = sample_error(sample)
        if error is not None:
            errors[str(sample.id)] = error
            continue
        by_item[str(sample.id)][sample.epoch] = sample
    grades: list[ItemGrades] = []
    records: dict[str, list[RunRecord]] = {}
    judges: set[str] = set()
    protocol, prompt_hash = "", ""
    parse_failures = 0
    for item_id, epochs in by_item.items():
        runs: list[float | None] = []
        item_records: list[RunRecord] = []
        no_answer = False
        competencies: tuple[str, ...] = ()
        for epoch in sorted(epochs):
            sample = epochs[epoch]
            competencies = tuple(sample.metadata.get("competencies", ()))
            value, metadata = _score_value(sample)
            replies = [str(r) for r in metadata.get("replies", [])]
            if not metadata.get("reused"):
                parse_failures += len(replies) - (0 if value is None else 1)
            runs.append(value)
            no_answer = no_answer or bool(metadata.get("no_answer"))
            judge = str(metadata.get("judge", ""))
            if judge:
                judges.add(judge)
            protocol = str(metadata.get("protocol", protocol))
            prompt_hash = str(metadata.get("prompt_hash", prompt_hash))
            reported = str(metadata.get("judge_reported_model") or judge)
            item_records.append(RunRecord(value, replies[-1] if replies else "", reported))
        grades.append(ItemGrades(item_id, competencies, tuple(runs), no_answer))
        records[item_id] = item_records
    identity = JudgeIdentity(", ".join(sorted(judges)), protocol, prompt_hash)
    return GradedLog(grades, records, identity, parse_failures, errors)


def _cells(cells: dict[str, ScoreCell]) -> dict[str, float | None]:
    return {name: cell.score for name, cell in cells.items()}


def json_document(
    scores: PrivIQScores,
    graded: GradedLog,
    *,
    model: str,
    log_location: str,
    exports: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The one JSON document of SPEC §5 for a Priv-IQ run (full precision)."""
    combinations = {combination_label(c): cell for c, cell in scores.combinations.items()}
    return {
        "benchmark": "priviq",
        "model": model,
        "judge": graded.judge.judge,
        "judge_protocol": graded.judge.protocol,
        "prompt_hash": graded.judge.prompt_hash,
        "overall": scores.overall.score,
        "competencies": _cells(scores.competencies),
        "combinations": _cells(combinations),
        "std": {
            "overall": scores.overall.std,
            "competencies": {k: c.std for k, c in scores.competencies.items()},
            "combinations": {k: c.std for k, c in combinations.items()},
        },
        "runs": list(scores.overall.runs),
        "counts": {
            "items": scores.overall.n,
            "runs": scores.n_runs,
            "competencies": {k: c.n for k, c in scores.competencies.items()},
            "combinations": {k: c.n for k, c in combinations.items()},
        },
        "unscored": scores.unscored_runs,
        "unscored_items": scores.unscored_items,
        "judge_parse_failures": graded.judge_parse_failures,
        "no_answer": len(scores.no_answer),
        "no_answer_items": scores.no_answer,
        "errors": len(graded.errors),
        "error_items": graded.errors,
        "items": scores.items,
        "log": log_location,
        "exports": exports or {},
    }
