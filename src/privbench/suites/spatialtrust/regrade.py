"""Read a SpatialTrust log's answers again in another box convention, without a model call.

Why: a wrong ``--box-format`` makes every box miss (Qwen3-VL's 0–1000 boxes read as pixels
of a 1440-px capture all land in the top-left two thirds) and the run then measures the
flag, not the model. Everything needed to score the same answers under another
convention is in the log: the answer as written (the score's ``answer``), the locks of a
staged/guard run and the judge's q4/q5 verdicts, which never depend on boxes (the judge
does not see them; privbench computes IoU). So :func:`convention_check` scores every
convention after a run and says when another fits far better, and
:func:`regraded_log` gives the log as it would have been scored under the convention a
user names (``privbench show LOG --box-format …``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypedDict

from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from inspect_ai.scorer import Score

from privbench.suites.spatialtrust.aggregate import spatial_scores
from privbench.suites.spatialtrust.boxes import (
    BOX_CONVENTIONS,
    BOX_FORMATS,
    BoxConvention,
    get_convention,
)
from privbench.suites.spatialtrust.dataset import EXPLANATION_QUESTIONS, QUESTION_IDS, SpatialItem
from privbench.suites.spatialtrust.judge import verdict_from_record
from privbench.suites.spatialtrust.reading import SpatialAnswer, answer_record, parse_answer
from privbench.suites.spatialtrust.record import SPATIAL_SCORER, SpatialScoreRecord, StrategyRecord
from privbench.suites.spatialtrust.scorer import rule_scores
from privbench.suites.spatialtrust.scoring import score_explanation, verdict_problem
from privbench.suites.spatialtrust.selection import Locked, apply_locks

MIN_GAIN = 2.0
"""Points of overall score another convention must add before the run is told about it
(a wrong convention costs far more: its boxes almost never reach IoU 0.5)."""


@dataclass(frozen=True)
class LoggedAnswer:
    """One image's answer as written, its locks and its judge verdicts, from the log."""

    id: str
    written: str
    locked: Locked | None
    scores: dict[str, float | None]
    verdicts: dict[str, dict[str, object] | None]


def _locked(strategy: StrategyRecord | None) -> Locked | None:
    if strategy is None or not strategy.is_pipeline:
        return None
    chosen = strategy.kept if strategy.strategy == "guard" else None
    chosen = chosen or strategy.selected
    return {qid: tuple(letters) for qid, letters in chosen.items()}


def logged_answer(sample: EvalSample) -> LoggedAnswer | None:
    """What regrading needs from a scored sample (None: not scored, or no answer kept)."""
    score = (sample.scores or {}).get(SPATIAL_SCORER)
    if score is None or not score.answer:
        return None
    record = SpatialScoreRecord.from_score(score)
    details = record.judge_details
    return LoggedAnswer(
        str(sample.id),
        str(score.answer),
        _locked(record.strategy),
        record.question_scores(QUESTION_IDS),
        {qid: details[qid].verdict if qid in details else None for qid in EXPLANATION_QUESTIONS},
    )


def regrade(
    item: SpatialItem, logged: LoggedAnswer, convention: BoxConvention
) -> tuple[dict[str, float | None], SpatialAnswer]:
    """One image's scores with its answer read in ``convention`` (pure)."""
    answer = parse_answer(logged.written, item, convention)
    if logged.locked is not None:
        answer, _ = apply_locks(answer, logged.locked)
    values: dict[str, float | None] = dict(rule_scores(item, answer))
    for qid in EXPLANATION_QUESTIONS:
        given = answer.explanation(qid)
        truth = [factor.box for factor in item.explanation(qid).factors]
        verdict = verdict_from_record(logged.verdicts.get(qid))
        if given is None:
            values[qid] = 0.0
        elif verdict is None or verdict_problem(verdict, len(truth), len(given.factors)):
            values[qid] = logged.scores[qid]  # unscored, or a verdict that no longer fits
        else:
            values[qid] = score_explanation(verdict, truth, [f.box for f in given.factors])
    return values, answer


def full_samples(log: EvalLog) -> list[EvalSample]:
    """Every sample of the log in full (the answer as written is thinned in summaries)."""
    if log.samples is not None:
        return list(log.samples)
    return list(read_eval_log(str(log.location)).samples or [])


class ConventionCheck(TypedDict):
    """The ``box_convention_check`` object of ``--json``."""

    given: str
    overall: dict[str, float | None]
    """Overall score per box convention (None: nothing scored)."""
    invalid_boxes: dict[str, int]
    likely: str
    warning: str | None


def convention_check(
    answers: list[LoggedAnswer], items: dict[str, SpatialItem], given: str
) -> ConventionCheck:
    """The overall score and invalid boxes under every convention, the likely one, and a
    warning line when another convention scores :data:`MIN_GAIN` points more (or has
    far fewer invalid boxes at no loss)."""
    usable = [a for a in answers if a.id in items]
    overall: dict[str, float | None] = {}
    invalid: dict[str, int] = {}
    for name in BOX_FORMATS:
        graded = [regrade(items[a.id], a, BOX_CONVENTIONS[name]) for a in usable]
        overall[name] = (
            spatial_scores(
                {a.id: scores for a, (scores, _) in zip(usable, graded, strict=True)}
            ).overall
            if graded
            else None
        )
        invalid[name] = sum(len(answer.invalid_boxes) for _, answer in graded)
    check: ConventionCheck = {
        "given": given,
        "overall": overall,
        "invalid_boxes": invalid,
        "likely": given,
        "warning": None,
    }
    if overall.get(given) is None:
        return check

    def rank(name: str) -> tuple[float, int]:
        return (overall[name] or 0.0, -invalid[name])

    best = max(BOX_FORMATS, key=rank)
    gain = (overall[best] or 0.0) - (overall[given] or 0.0)
    fewer = invalid[given] - invalid[best]
    if best != given and (gain >= MIN_GAIN or (gain >= 0 and fewer >= max(5, invalid[given] / 2))):
        check["likely"] = best
        check["warning"] = (
            f"warning: the boxes fit --box-format {best} far better than {given} "
            f"(overall {overall[best]:.1f} instead of {overall[given]:.1f}; invalid boxes "
            f"{invalid[best]} instead of {invalid[given]}); regrade without calling the model: "
            f"privbench show LOG --box-format {best}"
        )
    return check


def regraded_log(log: EvalLog, items: dict[str, SpatialItem], box_format: str) -> EvalLog:
    """A copy of ``log`` (samples in full) scored as if its boxes were in ``box_format``."""
    convention = get_convention(box_format)
    regraded = read_eval_log(str(log.location)) if log.samples is None else log.model_copy()
    samples = []
    for sample in regraded.samples or []:
        logged = logged_answer(sample)
        score = (sample.scores or {}).get(SPATIAL_SCORER)
        if logged is None or score is None or logged.id not in items:
            samples.append(sample)
            continue
        values, answer = regrade(items[logged.id], logged, convention)
        record = SpatialScoreRecord.from_score(score)
        record.prediction = answer_record(answer)
        record.parse_failures = answer.failures
        record.invalid_boxes = [box.record() for box in answer.invalid_boxes]
        record.regraded_box_format = box_format
        value = {qid: math.nan if v is None else v for qid, v in values.items()}
        new_score = Score(value=value, answer=score.answer, metadata=record.metadata())
        scores = {**(sample.scores or {}), SPATIAL_SCORER: new_score}
        samples.append(sample.model_copy(update={"scores": scores}))
    task_args = {**regraded.eval.task_args, "box_format": box_format}
    metadata = {**(regraded.eval.metadata or {}), "box_format": box_format}
    header = regraded.eval.model_copy(update={"task_args": task_args, "metadata": metadata})
    return regraded.model_copy(update={"samples": samples, "eval": header})
