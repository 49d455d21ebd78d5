"""inspect scorer for Priv-IQ: ask the ``grader`` model role per the paper's protocol (docs/judge.md), N judge runs.

Why a thin adapter: the prompt and the reply parsing live in :mod:`judge` (pure); this
module only talks to inspect. It fetches the judge as the ``grader`` role (default the
paper's ``openai/gpt-4o``; never the model under test grading itself), grades the one
answer of each item ``judge_runs`` times (the paper's ``num_run``), re-asks unparsable
replies, keeps every raw reply, reuses runs of an earlier grade file only where the
answer, the judge and the protocol are the same (or, opted in, runs of a file that records
no answers where the judge is the same), and records a run whose replies never
parse as *unscored* rather than 0.0.

The score value is a dict, ``{"score": mean over scored runs, "unscored_runs": k}``, so
that an item no run could score still reaches inspect's metrics (inspect leaves NaN-valued
scores out of them) and the log's ``unscored`` metric is the real count.
"""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    Value,
    metric,
    scorer,
)
from inspect_ai.solver import TaskState

from privbench.judges import offline as offline_judge
from privbench.judges.choice import JudgeChoice, ProtocolHash, grader, parse_judge
from privbench.judges.grading import JudgeQuestion
from privbench.runtime.calls import sample_call_counts
from privbench.runtime.metrics import key_total
from privbench.runtime.running import model_reported
from privbench.suites.priviq.competencies import COMPETENCIES
from privbench.suites.priviq.judge import MAX_TRIES, JudgeProtocol, get_protocol, truncate_for_judge
from privbench.suites.priviq.predictions import GradeRecord, answer_hash, load_grade_file
from privbench.suites.priviq.reading import answer_text, blank_or_text
from privbench.suites.priviq.record import (
    UNSCORED_KEY,
    PrivIQSampleRecord,
    PrivIQScoreRecord,
    priviq_value_score,
)
from privbench.suites.priviq.scoring import item_value, reusable_runs


def protocol_identity(protocol: str, judge: JudgeChoice) -> ProtocolHash:
    """The protocol name and prompt hash a grade run records (and a reuse must match)."""

    def model_identity() -> ProtocolHash:
        judge_protocol = get_protocol(protocol)
        return judge_protocol.name, judge_protocol.template_hash

    return judge.identity(model_identity)


def runs_to_grade(
    prior: dict[str, list[GradeRecord]],
    answers: dict[str, str | None],
    *,
    judge: JudgeChoice,
    protocol: str,
    judge_runs: int,
    reuse_unverified: bool = False,
) -> int:
    """How many judge runs a grade run must send, given an earlier grade file.

    Uses the scorer's own rules (the answer as judged, :func:`reusable_runs`), so a run
    that reuses everything need not even check the judge.
    """
    protocol_name, prompt_hash = protocol_identity(protocol, judge)
    missing = 0
    for item_id, raw in answers.items():
        judged, _ = truncate_for_judge(blank_or_text(raw)[0])
        reusable = reusable_runs(
            prior.get(item_id, []),
            answer=judged,
            judge=judge.name,
            protocol=protocol_name,
            prompt_hash=prompt_hash,
            reuse_unverified=reuse_unverified,
        )
        missing += max(0, judge_runs - len(reusable))
    return missing


def _scored(scores: list[SampleScore]) -> list[tuple[float, SampleScore]]:
    pairs = [(priviq_value_score(s.score.value), s) for s in scores]
    return [(v, s) for v, s in pairs if not math.isnan(v)]


@metric
def overall() -> Metric:
    """Eq. 1: 100 × mean item score over scored items."""

    def compute(scores: list[SampleScore]) -> Value:
        values = [v for v, _ in _scored(scores)]
        return 100 * sum(values) / len(values) if values else math.nan

    return compute


@metric
def competency() -> Metric:
    """Eq. 2 per competency; an item counts toward every competency it requires."""

    def compute(scores: list[SampleScore]) -> Value:
        result: dict[str, float] = {}
        scored = _scored(scores)
        for code in COMPETENCIES:
            values = [
                v
                for v, s in scored
                if code in PrivIQSampleRecord.from_metadata(s.sample_metadata).competencies
            ]
            if values:
                result[code] = 100 * sum(values) / len(values)
        return result

    return compute


@metric
def unscored() -> Metric:
    """Judge runs that no reply could score, over all items (never a silent 0.0)."""

    def compute(scores: list[SampleScore]) -> Value:
        unread = sum(
            1 for s in scores if isinstance(s.score.value, float) and math.isnan(s.score.value)
        )  # a sample whose score is NaN: no run was scored
        return key_total(scores, UNSCORED_KEY) + unread

    return compute


def _question(
    protocol: JudgeProtocol,
    question: str,
    reference: str,
    prediction: str,
    max_tries: int,
    cache: bool,
) -> JudgeQuestion[float]:
    """One grading of ``prediction`` against ``reference``: the protocol's prompt and reply
    reading for a model judge, the offline rules' grade (and the rules behind it)."""
    return JudgeQuestion(
        prompt=lambda attempt: protocol.prompt(question, reference, prediction, attempt=attempt),
        parse=protocol.parse_reply,
        parse_cut=protocol.parse_cut_reply,
        rules=lambda: offline_judge.grade(reference, prediction, question),
        rules_reply=lambda grade: [f"{grade:.1f}"],
        explain_rules=lambda: offline_judge.explain(reference, prediction, question).lines(),
        max_tries=max_tries,
        max_tokens=protocol.max_tokens,
        cache=cache,
    )


@scorer(metrics=[overall(), competency(), unscored()])
def priviq_judge(
    protocol: str = "paper",
    max_tries: int = MAX_TRIES,
    grades: str | None = None,
    judge: str | None = None,
    judge_runs: int = 1,
    cache: bool = False,
    explain: bool = False,
    reuse_unverified: bool = False,
) -> Scorer:
    """Grade the answer against the reference with the Priv-IQ judge, ``judge_runs`` times.

    Args:
        protocol: ``paper`` or ``hardened`` (see :mod:`privbench.suites.priviq.judge`).
        max_tries: judge tries per run before that run is unscored.
        grades: an earlier grade file; its runs are reused where answer, judge and
            protocol match.
        judge: ``offline`` grades with :mod:`privbench.judges.offline` instead of a model.
        judge_runs: times the judge grades each answer (the paper's ``num_run``: 5).
        cache: use inspect's model cache for judge calls.
        explain: with the offline judge, record the rules that made each grade.
        reuse_unverified: also reuse runs of ``grades`` that record no answer hash (the
            reference evaluator's) where the judge is the same, without an answer check.
    """
    judge_protocol = get_protocol(protocol)
    prior = load_grade_file(Path(grades)) if grades else {}
    choice = parse_judge(judge)  # inspect passes the task's string: read once, here
    protocol_name, prompt_hash = protocol_identity(protocol, choice)

    async def score(state: TaskState, target: Target) -> Score:
        prediction, no_answer = answer_text(state.output)
        answer_chars = len(prediction)
        prediction, truncated = truncate_for_judge(prediction)  # what the judge sees, all runs
        judge = grader(choice)
        reused = reusable_runs(
            prior.get(str(state.sample_id), []),
            answer=prediction,
            judge=judge.name,
            protocol=protocol_name,
            prompt_hash=prompt_hash,
            reuse_unverified=reuse_unverified,
        )[:judge_runs]
        runs: list[float | None] = [r.score for r in reused]
        replies: list[list[str]] = [[r.content] for r in reused]
        reported = [r.model for r in reused]
        question = _question(judge_protocol, state.input_text, target.text, prediction,
                             max_tries, cache)  # fmt: skip
        fresh = await asyncio.gather(
            *[judge.ask(question) for _ in range(judge_runs - len(reused))]
        )
        for reply in fresh:
            runs.append(reply.verdict)
            replies.append(reply.replies)
            reported.append(reply.reported_model)
        rules = judge.explain(question) if explain else None
        counts = sample_call_counts()
        record = PrivIQScoreRecord(
            protocol=protocol_name,
            prompt_hash=prompt_hash,
            judge=judge.name,
            answer_hash=answer_hash(prediction),
            no_answer=no_answer,
            truncated=truncated,
            answer_chars=answer_chars,
            runs=runs,
            replies=replies,
            judge_reported_model=reported,
            reused_runs=len(reused),
            unverified_runs=sum(1 for r in reused if not r.answer_hash),
            model_reported=model_reported(state),
            call_retries=counts.call_retries,
            replaced_characters=counts.replaced_characters,
        )
        if rules is not None:
            record.offline_rules = rules
        last = next((r[-1] for r in reversed(replies) if r), None)
        explanation = " | ".join("unscored" if r is None else f"{r:.1f}" for r in runs)
        return Score(
            value=item_value(runs),
            answer=prediction,
            explanation=f"runs: {explanation}; last reply: {last}",
            metadata=record.metadata(),
        )

    return score
