"""inspect scorer for Priv-IQ: ask the ``grader`` model role per SPEC §2.3.

Why a thin adapter: the prompt and the reply parsing live in :mod:`judge` (pure); this
module only talks to inspect. It fetches the judge as the ``grader`` role (default the
paper's ``openai/gpt-4o``; never the model under test grading itself), re-asks unparsable
replies, keeps every raw reply, reuses runs already in a grade file (resume), and records
an item whose replies never parse as *unscored* rather than 0.0."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from inspect_ai.model import ModelOutput, get_model
from inspect_ai.scorer import (
    SampleScore,
    Score,
    Target,
    Value,
    metric,
    scorer,
)
from inspect_ai.solver import TaskState

from privbench.judges import offline as offline_judge
from privbench.judging import DEFAULT_JUDGE, OFFLINE_JUDGE, ask_until_parsed, is_offline
from privbench.priviq.competencies import COMPETENCIES
from privbench.priviq.judge import MAX_TRIES, get_protocol
from privbench.priviq.predictions import load_grade_file


def answer_text(output: ModelOutput | None) -> tuple[str, bool]:
    """The model's answer and whether it counts as *no answer* (empty, refused or None)."""
    if output is None or not output.choices:
        return "", True
    if output.stop_reason == "content_filter":
        return "", True
    text = output.completion or ""
    return (text, False) if text.strip() else ("", True)


def _finite(values: list[float]) -> list[float]:
    return [v for v in values if not math.isnan(v)]


def _as_float(score: SampleScore) -> float:
    value = score.score.value
    return float(value) if isinstance(value, int | float) else math.nan


@metric
def overall() -> Any:
    """Eq. 1: 100 × mean item score over scored items."""

    def compute(scores: list[SampleScore]) -> Value:
        values = _finite([_as_float(s) for s in scores])
        return 100 * sum(values) / len(values) if values else math.nan

    return compute


@metric
def competency() -> Any:
    """Eq. 2 per competency; an item counts toward every competency it requires."""

    def compute(scores: list[SampleScore]) -> Value:
        result: dict[str, float] = {}
        for code in COMPETENCIES:
            values = _finite(
                [
                    _as_float(s)
                    for s in scores
                    if code in (s.sample_metadata or {}).get("competencies", ())
                ]
            )
            if values:
                result[code] = 100 * sum(values) / len(values)
        return result

    return compute


@metric
def unscored() -> Any:
    """Number of items the judge could not score in any run."""

    def compute(scores: list[SampleScore]) -> Value:
        return sum(1 for s in scores if math.isnan(_as_float(s)))

    return compute


@scorer(metrics=[overall(), competency(), unscored()])
def priviq_judge(
    protocol: str = "paper",
    max_tries: int = MAX_TRIES,
    grades: str | None = None,
    judge: str | None = None,
) -> Any:
    """Grade the answer against the reference with the Priv-IQ judge (paper or hardened).

    Args:
        protocol: ``paper`` or ``hardened`` (see :mod:`privbench.priviq.judge`).
        max_tries: judge tries before the item is unscored.
        grades: an earlier grade file; a run it holds a score for is reused, not re-judged.
        judge: ``offline`` grades with :mod:`privbench.judges.offline` instead of a model.
    """
    judge_protocol = get_protocol(protocol)
    prior = load_grade_file(Path(grades)) if grades else {}
    offline = is_offline(judge)
    protocol_name = offline_judge.PROTOCOL if offline else judge_protocol.name
    prompt_hash = offline_judge.rules_hash() if offline else judge_protocol.template_hash

    async def score(state: TaskState, target: Target) -> Score:
        prediction, no_answer = answer_text(state.output)
        metadata: dict[str, Any] = {
            "protocol": protocol_name,
            "prompt_hash": prompt_hash,
            "no_answer": no_answer,
        }
        earlier = prior.get(str(state.sample_id), [])
        run = state.epoch - 1
        if run < len(earlier) and (reused := earlier[run]).score is not None:
            metadata.update(reused=True, replies=[reused.content], judge=reused.model)
            return Score(value=reused.score, answer=prediction, metadata=metadata)

        if offline:
            value = offline_judge.grade(target.text, prediction)
            metadata.update(reused=False, replies=[f"{value:.1f}"], tries=1, judge=OFFLINE_JUDGE)
            return Score(
                value=value, answer=prediction, explanation=f"{value:.1f}", metadata=metadata
            )
        judge = get_model(role="grader", default=DEFAULT_JUDGE)
        question, reference = state.input_text, target.text
        reply = await ask_until_parsed(
            judge,
            lambda attempt: judge_protocol.prompt(question, reference, prediction, attempt=attempt),
            judge_protocol.parse_reply,
            max_tries=max_tries,
            max_tokens=judge_protocol.max_tokens,
        )
        metadata.update(
            reused=False,
            replies=reply.replies,
            tries=len(reply.replies),
            judge=str(judge),
            judge_reported_model=reply.reported_model,
        )
        if reply.verdict is None:
            return Score.unscored(
                reason=f"judge reply did not parse after {len(reply.replies)} tries",
                answer=prediction,
                explanation=reply.replies[-1] if reply.replies else None,
                metadata=metadata,
            )
        return Score(
            value=reply.verdict, answer=prediction, explanation=reply.replies[-1], metadata=metadata
        )

    return score
