"""SpatialTrust inference strategies as inspect solvers (paper §4).

* ``direct``: one call answers all five questions.
* ``staged``: a selection call chooses the q1–q3 options only; a grounded-answer call then
  answers all five with those choices locked.
* ``guard`` (SpatialTrustGuard): staged plus the conservative audit between the two calls:
  each selected non-"None" option of q2/q3 is re-examined on its own and may only be kept
  or deleted.

What the paper asks of the pipeline is enforced here in code, not left to the model: the
audit can only delete (the kept set is a subset of the selected set whatever the verifier
replies, and q1 is never touched); a category whose options are all deleted becomes
"None of the above"; the final answer's q1–q3 choices are replaced by the locked ones
(each disagreement is counted) and boxes are kept only for locked options.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from inspect_ai.model import (
    CachePolicy,
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    ContentImage,
    ContentText,
    ModelOutput,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

from privbench.runtime.calls import generate_once
from privbench.spatialtrust.answer_text import final_answer_record
from privbench.spatialtrust.boxes import get_convention
from privbench.spatialtrust.dataset import CHOICE_QUESTIONS, SpatialItem, load_spatialtrust
from privbench.spatialtrust.parsing import (
    ChoiceAnswer,
    SpatialAnswer,
    answer_record,
    parse_answer,
    read_choice,
)
from privbench.spatialtrust.prompts import (
    SYSTEM_PROMPT,
    direct_prompt,
    grounded_prompt,
    reask_prompt,
    selection_prompt,
    verification_prompt,
)

Strategy = Literal["direct", "staged", "guard"]
STRATEGIES: tuple[str, ...] = ("direct", "staged", "guard")
ANSWER_KEY = "spatialtrust_answer"
"""Store key of the final structured answer (predictions-format record, failures, invalid boxes)."""
STATS_KEY = "spatialtrust_strategy"
"""Store key of what the strategy did (stage calls, deletions, lock mismatches)."""

Locked = dict[str, tuple[str, ...]]


@dataclass
class StrategyStats:
    """What a strategy did for one image, kept in the sample's store and score metadata.

    Every counter here reaches the summary, ``--json`` (``pipeline``, ``reask``) and the
    report: a stage that silently failed would otherwise look like a model decision.
    """

    strategy: str
    selected: dict[str, list[str]] = field(default_factory=dict)
    """The q1–q3 choices the selection stage locked (a question that did not parse is
    absent: it was answered without a lock)."""
    kept: dict[str, list[str]] = field(default_factory=dict)
    deleted: dict[str, list[str]] = field(default_factory=dict)
    selection_failures: dict[str, str] = field(default_factory=dict)
    """Question id → why its selection did not parse (that question ran without a lock)."""
    verifier_calls: int = 0
    verifier_unreadable: list[str] = field(default_factory=list)
    """``q2:B``-style entries whose verifier reply was neither KEEP nor DELETE (kept)."""
    lock_disagreements: list[str] = field(default_factory=list)
    """Locked questions the final answer answered differently (the lock was applied)."""
    final_unparsed: list[str] = field(default_factory=list)
    """Locked questions whose final answer did not parse (the lock stood in for it)."""
    reasks: int = 0
    """Times the final answer was asked again because it could not be read."""


def stage_messages(image: str, prompt: str) -> list[Any]:
    """One stage's conversation: the system prompt, then the image and the stage's prompt."""
    return [
        ChatMessageSystem(content=SYSTEM_PROMPT),
        ChatMessageUser(content=[ContentImage(image=image), ContentText(text=prompt)]),
    ]


def sample_image(state: TaskState) -> str:
    """The capture as inspect materialised it from the sample's input (a data URI)."""
    for message in state.messages:
        if isinstance(message.content, list):
            for part in message.content:
                if isinstance(part, ContentImage):
                    return part.image
    raise ValueError(f"sample {state.sample_id} has no image")


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


def _selection_failure(reading: Any, *, single: bool) -> str:
    if reading is None:
        return "missing"
    if reading.failure:
        return str(reading.failure)
    if single and len(reading.letters) > 1:
        return f"hedges between options {' and '.join(reading.letters)} (single choice)"
    return "no option chosen"


_DECISION = re.compile(r"\b(KEEP|DELETE)\b", re.IGNORECASE)


def parse_decision(reply: str) -> str | None:
    """``keep`` or ``delete`` from a verifier reply (its first such word), else None."""
    match = _DECISION.search(reply)
    return match.group(1).lower() if match else None


def audit(
    selected: tuple[str, ...], decisions: dict[str, str | None], none_option: str | None
) -> tuple[str, ...]:
    """Deletion-only audit: keep a selected option unless its decision is ``delete``.

    Only options in ``selected`` are considered, so nothing can be added or swapped in;
    an unreadable decision keeps the option (the audit only acts on a clear deletion). If
    every factor is deleted the category becomes "None of the above".
    """
    kept = tuple(
        letter for letter in selected if letter == none_option or decisions.get(letter) != "delete"
    )
    factors = tuple(letter for letter in kept if letter != none_option)
    if factors:
        return factors
    return (none_option,) if none_option else ()


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


def answer_store(answer: SpatialAnswer) -> dict[str, Any]:
    """An answer as kept in the store: the pixel record, failures and invalid boxes."""
    return {
        "record": answer_record(answer),
        "failures": answer.failures,
        "invalid_boxes": [box.record() for box in answer.invalid_boxes],
    }


def store_answer(
    state: TaskState,
    answer: SpatialAnswer,
    stats: StrategyStats,
    first: SpatialAnswer | None = None,
) -> None:
    """Keep the final answer, what the strategy did, and (after a re-ask) the first answer,
    so the score without re-asks can be reported beside the score with them."""
    stored = answer_store(answer)
    if first is not None:
        stored["first"] = answer_store(first)
    state.store.set(ANSWER_KEY, stored)
    state.store.set(STATS_KEY, stats.__dict__)


@solver
def spatialtrust_strategy(
    strategy: str, data: str, box_format: str, cache: bool = False, reask_unparsed: int = 0
) -> Solver:
    """Answer each capture of ``data`` with the ``direct``, ``staged`` or ``guard`` strategy.

    ``cache``: inspect's model cache for every call (a rerun of the same run is free).
    ``reask_unparsed``: how many times a final answer that cannot be read in full is asked
    again, the format restated (0, the paper's one-pass protocol, by default).
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy '{strategy}' (choose from {', '.join(STRATEGIES)})")
    convention = get_convention(box_format)
    items = {item.id: item for item in load_spatialtrust(data)}

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        item = items[str(state.sample_id)]
        image = sample_image(state)
        model = get_model()
        policy = CachePolicy(expiry=None) if cache else False
        stats = StrategyStats(strategy)

        async def ask(messages: list[ChatMessage]) -> ModelOutput:
            return await generate_once(model, messages, role="model", cache=policy)

        async def final_answer(
            messages: list[ChatMessage],
        ) -> tuple[SpatialAnswer, SpatialAnswer | None]:
            """The answer, re-asked while unreadable; and the first answer if re-asked."""
            state.output = await ask(messages)
            conversation = [*messages, state.output.message]
            answer = parse_answer(state.output.completion, item, convention)
            first = answer
            while answer.failures and stats.reasks < reask_unparsed:
                stats.reasks += 1
                conversation.append(ChatMessageUser(content=reask_prompt(answer, item, convention)))
                state.output = await ask(conversation)
                conversation.append(state.output.message)
                answer = parse_answer(state.output.completion, item, convention)
            state.messages = conversation
            return answer, (first if stats.reasks else None)

        if strategy == "direct":
            answer, first = await final_answer(
                stage_messages(image, direct_prompt(item, convention))
            )
            store_answer(state, answer, stats, first)
            return state

        selection = await ask(stage_messages(image, selection_prompt(item)))
        locked, stats.selection_failures = parse_selection(selection.completion, item)
        stats.selected = {qid: list(v) for qid, v in locked.items()}
        if strategy == "guard":
            for qid in CHOICE_QUESTIONS:
                if qid not in locked:
                    continue
                none_option = item.choice(qid).none_option
                decisions: dict[str, str | None] = {}
                for letter in locked[qid]:
                    if letter == none_option:
                        continue
                    prompt = verification_prompt(item, qid, letter)
                    reply = await ask(stage_messages(image, prompt))
                    stats.verifier_calls += 1
                    decisions[letter] = parse_decision(reply.completion)
                    if decisions[letter] is None:
                        stats.verifier_unreadable.append(f"{qid}:{letter}")
                kept = audit(locked[qid], decisions, none_option)
                stats.deleted[qid] = [x for x in locked[qid] if x not in kept]
                locked[qid] = kept
            stats.kept = {qid: list(v) for qid, v in locked.items()}

        final, first = await final_answer(
            stage_messages(image, grounded_prompt(item, locked, convention))
        )
        answer, outcome = apply_locks(final, locked)
        stats.lock_disagreements, stats.final_unparsed = outcome.disagreements, outcome.unparsed
        store_answer(state, answer, stats, None if first is None else apply_locks(first, locked)[0])
        return state

    return solve
