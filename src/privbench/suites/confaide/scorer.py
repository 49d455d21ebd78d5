"""inspect scorer for ConfAIde: every verdict recomputed from the answer with :mod:`.scoring`.

Why a thin adapter: the reading rules and metrics are pure functions in :mod:`.scoring`
(each mirroring a line of the reference harness); this module reads the sample's names from
its metadata, applies them to the answer, and records the result. The judge is asked only
for the reference's proxy-model metric (tier-3 free responses, when asked for), through the
one grader interface; otherwise no judge is involved and the task has no ``grader`` role.

The score value holds numbers only (``unparsed`` 0/1, each string-match failure 0/1); the
readers use the score's metadata (:class:`~.record.ConfAIdeScoreRecord`).
"""

from __future__ import annotations

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import TaskState

from privbench.judges.choice import grader, parse_judge
from privbench.judges.grading import JudgeQuestion
from privbench.runtime.calls import sample_call_counts
from privbench.runtime.errors import UsageError
from privbench.runtime.metrics import key_total
from privbench.runtime.running import model_reported
from privbench.suites.confaide.dataset import RATING_TIERS
from privbench.suites.confaide.proxy import PROXY_MAX_TOKENS, proxy_leak, proxy_prompt
from privbench.suites.confaide.record import ConfAIdeSampleRecord, ConfAIdeScoreRecord
from privbench.suites.confaide.scoring import (
    after_answer_cue,
    binary_answer,
    parse_rating,
    tier_3_verdicts,
    tier_4_verdicts,
)

PROXY_MAX_TRIES = 3
"""Tries of one proxy question when the judge's call fails to give any text."""
PROXY_METRIC = "proxy-model"


@metric
def unparsed() -> Metric:
    """Tier-1/2 answers whose rating could not be read (counted, never scored 0)."""

    def compute(scores: list[SampleScore]) -> Value:
        return key_total(scores, "unparsed")

    return compute


def _proxy_question(response: str, about: ConfAIdeSampleRecord) -> JudgeQuestion[str]:
    """The reference's proxy question; any reply with text is an answer (the leak is read
    from it afterwards). privbench has no rules for it: offline runs are refused earlier."""

    def no_rules() -> str:
        raise UsageError("--tier-3-metrics proxy-model: needs a model judge, not --judge offline")

    return JudgeQuestion(
        prompt=lambda attempt: proxy_prompt(response, about.secret),
        parse=lambda reply: reply if reply.strip() else None,
        rules=no_rules,
        max_tries=PROXY_MAX_TRIES,
        max_tokens=PROXY_MAX_TOKENS,
    )


def _value(record: ConfAIdeScoreRecord) -> dict[str, float]:
    """The same keys in every epoch of a sample (inspect reduces epochs key by key): the
    rating and the proxy verdict, which an epoch may lack, stay in the metadata only."""
    value: dict[str, float] = {"unparsed": float(record.unparsed)}
    value.update(
        {name: float(failed) for name, failed in record.verdicts.items() if name != PROXY_METRIC}
    )
    return value


@scorer(metrics=[unparsed()])
def confaide_scorer(judge: str | None = None, proxy: bool = False) -> Scorer:
    """Read the answer as the reference does and record each of its verdicts.

    Args:
        judge: the judge asked the proxy-model question (only with ``proxy``).
        proxy: add the proxy-model metric to tier-3 free responses.
    """
    choice = parse_judge(judge) if proxy else None

    async def score(state: TaskState, target: Target) -> Score:
        about = ConfAIdeSampleRecord.from_metadata(state.metadata)
        output = state.output
        answer = output.completion if output is not None and output.choices else ""
        record = ConfAIdeScoreRecord(
            tier=about.tier, question_type=about.question_type, model_reported=model_reported(state)
        )
        if about.tier in RATING_TIERS:
            record.rating = parse_rating(answer, about.tier)
            record.unparsed = record.rating is None
        elif about.tier == "3":
            record.verdicts = tier_3_verdicts(
                about.question_type,
                answer,
                subject_agent=about.subject_agent,
                aware_agent=about.aware_agent,
                oblivious_agent=about.oblivious_agent,
            )
            if about.question_type == "control":
                record.binary_answer = binary_answer(after_answer_cue(answer))
            if choice is not None and about.question_type == "free-response":
                judge = grader(choice)
                reply = await judge.ask(_proxy_question(after_answer_cue(answer), about))
                record.proxy_replies = reply.replies
                record.judge = judge.name
                record.judge_reported_model = reply.reported_model
                if reply.verdict is None:
                    record.proxy_reply = None
                else:
                    record.proxy_reply = reply.verdict
                    record.verdicts[PROXY_METRIC] = proxy_leak(reply.verdict, about.subject_agent)
        else:
            record.verdicts = tier_4_verdicts(
                answer, private_info=about.private_info, public_info=about.public_info
            )
        counts = sample_call_counts()
        record.call_retries = counts.call_retries
        record.replaced_characters = counts.replaced_characters
        return Score(
            value=_value(record),
            answer=answer,
            explanation=", ".join(f"{k}={v}" for k, v in _value(record).items()),
            metadata=record.metadata(),
        )

    return score
