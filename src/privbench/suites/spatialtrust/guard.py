"""The guard strategy's verification stage (SpatialTrustGuard's conservative audit).

Between the selection and the grounded answer, each selected non-"None" option of q2/q3
is re-examined in a call of its own, whose reply may only keep or delete it. The code,
not the verifier, guarantees what the paper asks of this stage: the kept set is a subset
of the selected set whatever the verifier replies, q1 is never touched, an unreadable
reply keeps the option (only a clear deletion acts), and a category whose options are
all deleted becomes "None of the above".
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from privbench.suites.spatialtrust.dataset import CHOICE_QUESTIONS, SpatialItem
from privbench.suites.spatialtrust.prompts import verification_prompt
from privbench.suites.spatialtrust.selection import Locked

_DECISION = re.compile(r"\b(KEEP|DELETE)\b", re.IGNORECASE)


def parse_decision(reply: str) -> str | None:
    """``keep`` or ``delete`` from a verifier reply (its first such word), else None."""
    match = _DECISION.search(reply)
    return match.group(1).lower() if match else None


def verify_selection(
    selected: tuple[str, ...], decisions: dict[str, str | None], none_option: str | None
) -> tuple[str, ...]:
    """The selected options the verifier did not delete (deletion only).

    Only options in ``selected`` are considered, so nothing can be added or swapped in;
    an unreadable decision keeps the option. If every factor is deleted the category
    becomes "None of the above".
    """
    kept = tuple(
        letter for letter in selected if letter == none_option or decisions.get(letter) != "delete"
    )
    factors = tuple(letter for letter in kept if letter != none_option)
    if factors:
        return factors
    return (none_option,) if none_option else ()


@dataclass(frozen=True)
class Verification:
    """What the verification stage did to one capture's locks."""

    locked: Locked
    """The locks after deletions (q1 and unlocked questions as they were)."""
    deleted: dict[str, list[str]]
    """Verified question id → the letters deleted from its lock."""
    calls: int
    """Verifier calls made."""
    unreadable: list[str]
    """``q2:B``-style entries whose verifier reply was neither KEEP nor DELETE (kept)."""


async def verify_locks(
    locked: Locked, item: SpatialItem, ask: Callable[[str], Awaitable[str]]
) -> Verification:
    """Verify every locked non-"None" q2/q3 option; ``ask`` sends one verification prompt
    (with the capture) and returns the reply's text."""
    after = dict(locked)
    deleted: dict[str, list[str]] = {}
    calls = 0
    unreadable: list[str] = []
    for qid in CHOICE_QUESTIONS:
        if qid not in locked:
            continue
        none_option = item.choice(qid).none_option
        decisions: dict[str, str | None] = {}
        for letter in locked[qid]:
            if letter == none_option:
                continue
            reply = await ask(verification_prompt(item, qid, letter))
            calls += 1
            decisions[letter] = parse_decision(reply)
            if decisions[letter] is None:
                unreadable.append(f"{qid}:{letter}")
        kept = verify_selection(locked[qid], decisions, none_option)
        deleted[qid] = [x for x in locked[qid] if x not in kept]
        after[qid] = kept
    return Verification(after, deleted, calls, unreadable)
