"""The questions VLM-GeoPrivacy asks its judge: the granularity of a free-form answer, and
the one place name to locate an exact answer.

Why one module: the iterative solver (which asks the granularity after every answer, as the
reference's loop does) and the scorer ask the same question through the one grader
interface (:mod:`privbench.judges.grading`): a model judge gets the reference's prompt with
its system message and is re-asked when a reply states no letter; the offline judge applies
privbench's rules (:mod:`.offline`, an approximation).
"""

from __future__ import annotations

from dataclasses import dataclass

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser

from privbench.judges.grading import Grader, JudgeQuestion
from privbench.suites.geoprivacy import offline
from privbench.suites.geoprivacy.prompts import (
    Prompt,
    extraction_prompt,
    judge_letter,
    judge_prompt,
    read_place_name,
    refusal_label,
)

JUDGE_MAX_TOKENS = 1200
"""The reference judge's output limit (its shared ``call_api`` default)."""
JUDGE_MAX_TRIES = 3
"""Tries of one judge question whose replies state no letter."""
DETECTOR = f"geoprivacy-rules v{offline.DETECTOR_VERSION}"
"""The offline granularity rules' name as every offline grade records it."""


def messages(prompt: Prompt) -> list[ChatMessage]:
    """A judge request as the reference sends it: its system message, then the text."""
    return [ChatMessageSystem(content=prompt.system), ChatMessageUser(content=prompt.user)]


def granularity_question(text: str) -> JudgeQuestion[str]:
    """Which granularity does ``text`` disclose (A–D)? The reference's prompt, or the rules."""
    return JudgeQuestion(
        prompt=lambda attempt: messages(judge_prompt(text)),
        parse=judge_letter,
        rules=lambda: offline.offline_granularity(text),
        max_tries=JUDGE_MAX_TRIES,
        max_tokens=JUDGE_MAX_TOKENS,
        rules_reply=lambda verdict: [verdict],
    )


def place_question(text: str) -> JudgeQuestion[str]:
    """The one place name of ``text`` to geocode: the reference's extraction prompt (its
    first line, cleaned), or the offline rules' most specific known place in the text."""
    return JudgeQuestion(
        prompt=lambda attempt: messages(extraction_prompt(text)),
        parse=read_place_name,
        rules=lambda: offline.place_in_text(text) or "",
        max_tries=1,
        max_tokens=JUDGE_MAX_TOKENS,
    )


@dataclass(frozen=True)
class Granularity:
    """A free-form answer's granularity: the reference's stored label and privbench's."""

    reference_label: str
    """The refusal rule's letter, or the judge's last reply stripped (as the reference
    stores it); the offline rules' letter with the offline judge."""
    label: str | None
    """A–D, or None when no judge reply stated a letter."""
    replies: list[str]
    shortcut: bool
    reported_model: str


async def judge_granularity(judge: Grader, text: str) -> Granularity:
    """The reference's order: the refusal rule first (no judge call), then the judge."""
    ruled = refusal_label(text)
    if ruled is not None:
        return Granularity(ruled, ruled, [], True, "")
    reply = await judge.ask(granularity_question(text))
    last = reply.replies[-1].strip() if reply.replies else (reply.verdict or "")
    return Granularity(last, reply.verdict, list(reply.replies), False, reply.reported_model)
