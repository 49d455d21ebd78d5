"""The selection stage of the staged and guard strategies, and the locks it sets.

A selection call chooses the q1–q3 options only; the choices that parse are *locked*:
the grounded-answer call is shown them, and whatever that call answers for q1–q3 is
replaced by them afterwards (each disagreement counted), keeping boxes only for locked
options. Locking is done here in code rather than left to the model, which is what the
paper's staged pipeline asks for. :mod:`privbench.suites.spatialtrust.regrade` applies the same
locks when a logged run is scored again in another box convention.
"""

from __future__ import annotations

from dataclasses import dataclass

from privbench.suites.spatialtrust.answer_text import final_answer_record
from privbench.suites.spatialtrust.dataset import CHOICE_QUESTIONS, SpatialItem
from privbench.suites.spatialtrust.reading import (
    ChoiceAnswer,
    ChoiceReading,
    SpatialAnswer,
    read_choice,
)

Locked = dict[str, tuple[str, ...]]
"""Question id → the option letters locked for it (q1 holds exactly one)."""


def normalize_selection(letters: tuple[str, ...], none_option: str | None) -> tuple[str, ...]:
    """A choice set where "None of the above" is exclusive: dropped when factors are chosen."""
    factors = tuple(letter for letter in letters if letter != none_option)
    return factors if factors else letters


def parse_selection(reply: str, item: SpatialItem) -> tuple[Locked, dict[str, str]]:
    """Locked choices from a selection reply, and why each unlocked question did not parse.

    The reply is read like any answer (its final JSON object, or prose such as
    ``q1: A`` / ``q2: B, D``); q1 must be one option, q2/q3 at least one.
    """
    record, why = final_answer_record(reply)
    locked: Locked = {}
    failed: dict[str, str] = {}
    raw_q1 = record.get("q1")
    if isinstance(raw_q1, dict):
        raw_q1 = raw_q1.get("choice", raw_q1.get("answer", raw_q1.get("choices")))
    reading = read_choice(raw_q1, item.q1) if "q1" in record else None
    if reading is None or reading.failure or len(reading.letters) != 1:
        failed["q1"] = why or _selection_failure(reading, single=True)
    else:
        locked["q1"] = (reading.letters[0],)
    for qid in CHOICE_QUESTIONS:
        question = item.choice(qid)
        reading = read_choice(record[qid], question) if qid in record else None
        if reading is None or reading.failure or not reading.letters:
            failed[qid] = why or _selection_failure(reading, single=False)
        else:
            locked[qid] = normalize_selection(tuple(reading.letters), question.none_option)
    return locked, failed


def _selection_failure(reading: ChoiceReading | None, *, single: bool) -> str:
    if reading is None:
        return "missing"
    if reading.failure:
        return str(reading.failure)
    if single and len(reading.letters) > 1:
        return f"hedges between options {' and '.join(reading.letters)} (single choice)"
    return "no option chosen"


@dataclass(frozen=True)
class LockOutcome:
    """How a final answer met the locked choices."""

    disagreements: list[str]
    """Questions answered, but differently from the lock."""
    unparsed: list[str]
    """Locked questions whose answer did not parse."""


def apply_locks(answer: SpatialAnswer, locked: Locked) -> tuple[SpatialAnswer, LockOutcome]:
    """The answer with its q1–q3 choices replaced by ``locked``, and where it differed."""
    outcome = LockOutcome([], [])
    q1 = answer.q1
    if "q1" in locked:
        if answer.q1 is None:
            outcome.unparsed.append("q1")
        elif answer.q1 != locked["q1"][0]:
            outcome.disagreements.append("q1")
        q1 = locked["q1"][0]
    choices: dict[str, ChoiceAnswer | None] = {}
    for qid in CHOICE_QUESTIONS:
        given = answer.choice(qid)
        if qid not in locked:
            choices[qid] = given
            continue
        if given is None:
            outcome.unparsed.append(qid)
        elif set(given.choices) != set(locked[qid]):
            outcome.disagreements.append(qid)
        boxes = {k: v for k, v in (given.boxes if given else {}).items() if k in locked[qid]}
        choices[qid] = ChoiceAnswer(locked[qid], boxes)
    failures = {q: why for q, why in answer.failures.items() if q not in locked}
    locked_answer = SpatialAnswer(
        q1, choices["q2"], choices["q3"], answer.q4, answer.q5, failures, answer.invalid_boxes
    )
    return locked_answer, outcome
