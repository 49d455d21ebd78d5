"""inspect scorer for SpatialTrust: q1–q3 by rule, q4/q5 by the structured judge + IoU.

Why a thin adapter: the arithmetic is :mod:`scoring` and the verdict checks :mod:`judge`
(both pure). This module reads the strategy's stored answer (or parses the completion),
asks the ``grader`` role for the q4 and q5 verdicts concurrently, and returns one score
per question (``{"q1": …, "q5": …}``). A question whose answer did not parse scores 0 and
is listed in ``parse_failures``; a q4/q5 whose verdict never validated is NaN (unscored)
and listed in ``unscored`` — never a silent 0.
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import TaskState

from privbench.judges.choice import grader, parse_judge
from privbench.judges.grading import Grader, JudgeQuestion
from privbench.runtime.calls import sample_call_counts
from privbench.runtime.running import model_reported
from privbench.suites.spatialtrust import judge as st_judge
from privbench.suites.spatialtrust.aggregate import TASKS
from privbench.suites.spatialtrust.boxes import BoxConvention, get_convention
from privbench.suites.spatialtrust.dataset import (
    CHOICE_QUESTIONS,
    EXPLANATION_QUESTIONS,
    QUESTION_IDS,
    ExplanationQuestion,
    SpatialItem,
    load_spatialtrust,
)
from privbench.suites.spatialtrust.reading import (
    ExplanationAnswer,
    InvalidBox,
    SpatialAnswer,
    answer_record,
    parse_answer,
    parse_record,
)
from privbench.suites.spatialtrust.record import JudgeDetail, SpatialScoreRecord
from privbench.suites.spatialtrust.scoring import (
    ExplanationVerdict,
    score_choice,
    score_explanation,
    score_single,
)
from privbench.suites.spatialtrust.solvers import ANSWER_KEY, STATS_KEY, StoredAnswer


def _from_store(stored: StoredAnswer, item: SpatialItem) -> SpatialAnswer:
    parsed = parse_record(stored["record"], item)
    failures = {**parsed.failures, **stored.get("failures", {})}
    found = tuple(InvalidBox.from_record(b) for b in stored.get("invalid_boxes", ()))
    return SpatialAnswer(
        parsed.q1,
        parsed.q2,
        parsed.q3,
        parsed.q4,
        parsed.q5,
        failures,
        found + parsed.invalid_boxes,  # the stored record holds only boxes that were valid
    )


def stored_answer(state: TaskState, item: SpatialItem, convention: BoxConvention) -> SpatialAnswer:
    """The strategy's stored answer, else the completion parsed in ``convention``."""
    stored: StoredAnswer | None = state.store.get(ANSWER_KEY)
    if stored is None:
        return parse_answer(state.output.completion, item, convention)
    return _from_store(stored, item)


def first_answer(state: TaskState, item: SpatialItem) -> SpatialAnswer | None:
    """The answer before any re-ask (None when the answer was not re-asked)."""
    stored = state.store.get(ANSWER_KEY) or {}
    return _from_store(stored["first"], item) if "first" in stored else None


def rule_scores(item: SpatialItem, answer: SpatialAnswer) -> dict[str, float]:
    """q1–q3 scores (eqs. 1–4); an unparsed question scores 0."""
    scores = {"q1": score_single(item.q1.answer[0], answer.q1)}
    for qid in CHOICE_QUESTIONS:
        given, question = answer.choice(qid), item.choice(qid)
        scores[qid] = (
            0.0
            if given is None
            else score_choice(question.answer, given.choices, question.evidence, given.boxes)
        )
    return scores


@dataclass(frozen=True)
class ExplanationJudge:
    """The q4/q5 judge as a run asks it: the grader, its tries per verdict, and whether
    inspect's model cache serves repeated questions (the three always travel together).

    Why on its own: a run scores the verdict against boxes, and ``privbench judge check``
    compares it with reference verdicts; both must ask the judge in exactly the same way.
    """

    grader: Grader
    max_tries: int
    cache: bool = False

    async def verdict(
        self, question: ExplanationQuestion, given: ExplanationAnswer
    ) -> tuple[ExplanationVerdict | None, JudgeDetail]:
        """The judge's verdict on one q4/q5 answer (``None``: no reply validated) and what
        it said."""
        reply = await self.grader.ask(
            JudgeQuestion(
                prompt=lambda attempt: st_judge.judge_prompt(question, given, retry=attempt > 0),
                parse=lambda text: st_judge.parse_verdict(
                    text, len(question.factors), len(given.factors)
                ),
                rules=lambda: st_judge.offline_verdict(question, given),
                max_tries=self.max_tries,
                max_tokens=st_judge.MAX_TOKENS,
                cache=self.cache,
            )
        )
        said: dict[str, object] = (
            {"replies": reply.replies, "reported_model": reply.reported_model}
            if reply.replies  # the rules send nothing: no reply, no reporting model
            else {}
        )
        if reply.verdict is None:
            return None, JudgeDetail.model_validate(said)
        return reply.verdict, JudgeDetail.model_validate(
            {**said, "verdict": st_judge.verdict_record(reply.verdict)}
        )

    async def score(
        self, item: SpatialItem, qid: str, answer: SpatialAnswer
    ) -> tuple[float | None, JudgeDetail]:
        """Score q4 or q5 (eqs. 5–6): the judge's verdict, IoU computed here."""
        given, question = answer.explanation(qid), item.explanation(qid)
        if given is None:
            return 0.0, JudgeDetail()
        verdict, detail = await self.verdict(question, given)
        if verdict is None:
            return None, detail
        boxes = [factor.box for factor in given.factors]
        truth = [f.box for f in question.factors]
        return score_explanation(verdict, truth, boxes), detail


@metric
def task_scores() -> Metric:
    """The five task-level scores (percent) and overall = their mean (paper Table 2)."""

    def compute(scores: list[SampleScore]) -> Value:
        result: dict[str, float] = {}
        for qid, name in TASKS:
            values = []
            for sample in scores:
                value = sample.score.value
                number = value.get(qid) if isinstance(value, dict) else None
                if isinstance(number, int | float) and not math.isnan(number):
                    values.append(float(number))
            result[name] = 100 * sum(values) / len(values) if values else math.nan
        finite = [v for v in result.values() if not math.isnan(v)]
        result["overall"] = sum(finite) / len(finite) if finite else math.nan
        return result

    return compute


@scorer(metrics=[task_scores()])
def spatialtrust_scorer(
    data: str,
    box_format: str = "xyxy",
    max_tries: int = st_judge.MAX_TRIES,
    cache: bool = False,
    judge: str | None = None,
) -> Scorer:
    """Score all five SpatialTrust questions of a capture.

    Args:
        data: the SpatialTrust directory (ground truth).
        box_format: convention of boxes in a raw completion (stored answers are pixels).
        max_tries: judge tries for a q4/q5 verdict before the question is unscored.
        cache: inspect's model cache for the judge's calls.
        judge: ``offline`` builds q4/q5 verdicts from text similarity instead of a model.
    """
    items = {item.id: item for item in load_spatialtrust(data)}
    convention = get_convention(box_format)  # inspect passes the name: read once, here
    choice = parse_judge(judge)  # inspect passes the task's string: read once, here

    async def score(state: TaskState, target: Target) -> Score:
        item = items[str(state.sample_id)]
        answer = stored_answer(state, item, convention)
        values: dict[str, float] = dict(rule_scores(item, answer))
        judge = grader(choice)
        explaining = ExplanationJudge(judge, max_tries, cache)
        judged = await asyncio.gather(
            *(explaining.score(item, qid, answer) for qid in EXPLANATION_QUESTIONS)
        )
        unscored = []
        details: dict[str, JudgeDetail] = {}
        for qid, (value, detail) in zip(EXPLANATION_QUESTIONS, judged, strict=True):
            values[qid] = math.nan if value is None else value
            if value is None:
                unscored.append(qid)
            details[qid] = detail
        counts = sample_call_counts()
        record = SpatialScoreRecord(
            prediction=answer_record(answer),
            parse_failures=answer.failures,
            invalid_boxes=[box.record() for box in answer.invalid_boxes],
            unscored=unscored,
            judge=judge.served_name,
            judge_details=details,
            strategy=state.store.get(STATS_KEY),
            model_reported=model_reported(state),
            call_retries=counts.call_retries,
            replaced_characters=counts.replaced_characters,
        )
        first = first_answer(state, item)
        if first is not None:
            record.without_reask = await score_without_reask(
                explaining, item, first, answer, values
            )
            record.first_parse_failures = first.failures
        return Score(
            value={qid: values[qid] for qid in QUESTION_IDS},
            answer=state.output.completion if state.output else "",
            metadata=record.metadata(),
        )

    return score


async def score_without_reask(
    judge: ExplanationJudge,
    item: SpatialItem,
    first: SpatialAnswer,
    final: SpatialAnswer,
    final_values: dict[str, float],
) -> dict[str, float | None]:
    """The image's scores had the first (unreadable) answer been kept, as the one-pass
    protocol would score it: q1–q3 by rule; a q4/q5 the re-ask did not change keeps its
    score, a changed one is judged again."""
    values: dict[str, float | None] = dict(rule_scores(item, first))
    for qid in EXPLANATION_QUESTIONS:
        if first.explanation(qid) == final.explanation(qid):
            final_value = final_values[qid]
            values[qid] = None if math.isnan(final_value) else final_value
        else:
            values[qid], _ = await judge.score(item, qid, first)
    return values
