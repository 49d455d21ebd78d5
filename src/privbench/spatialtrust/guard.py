"""SpatialTrust inference strategies as inspect solvers (SPEC §3.5, paper §4).

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

from privbench.spatialtrust.boxes import get_convention
from privbench.spatialtrust.dataset import CHOICE_QUESTIONS, SpatialItem, load_spatialtrust
from privbench.spatialtrust.parsing import (
    ChoiceAnswer,
    SpatialAnswer,
    answer_record,
    extract_json_object,
    option_letter,
    option_letters,
    parse_answer,
)
from privbench.spatialtrust.prompts import (
    SYSTEM_PROMPT,
    direct_prompt,
    grounded_prompt,
    selection_prompt,
    verification_prompt,
)

Strategy = Literal["direct", "staged", "guard"]
STRATEGIES: tuple[str, ...] = ("direct", "staged", "guard")
ANSWER_KEY = "spatialtrust_answer"
"""Store key of the final structured answer (SPEC §3.2 record, failures, invalid boxes)."""
STATS_KEY = "spatialtrust_strategy"
"""Store key of what the strategy did (stage calls, deletions, lock mismatches)."""

Locked = dict[str, tuple[str, ...]]


@dataclass
class StrategyStats:
    """What a staged/guard run did, kept in the sample's store and score metadata."""

    strategy: str
    selected: dict[str, list[str]] = field(default_factory=dict)
    kept: dict[str, list[str]] = field(default_factory=dict)
    deleted: dict[str, list[str]] = field(default_factory=dict)
    verifier_unparsed: int = 0
    selection_failures: list[str] = field(default_factory=list)
    lock_mismatches: list[str] = field(default_factory=list)


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


def parse_selection(reply: str, item: SpatialItem) -> tuple[Locked, list[str]]:
    """Locked choices from a selection reply, and the qids whose selection did not parse."""
    data = extract_json_object(reply) or {}
    locked: Locked = {}
    failed: list[str] = []
    q1 = option_letter(data.get("q1"), item.q1)
    if q1 is None:
        failed.append("q1")
    else:
        locked["q1"] = (q1,)
    for qid in CHOICE_QUESTIONS:
        raw = data.get(qid)
        if isinstance(raw, dict):
            raw = raw.get("choices")
        question = item.choice(qid)
        letters = option_letters(raw, question) if raw is not None else None
        if not letters:
            failed.append(qid)
        else:
            locked[qid] = normalize_selection(letters, question.none_option)
    return locked, failed


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


def apply_locks(answer: SpatialAnswer, locked: Locked) -> tuple[SpatialAnswer, list[str]]:
    """The answer with its q1–q3 choices replaced by ``locked``; qids that disagreed."""
    mismatches: list[str] = []
    q1 = answer.q1
    if "q1" in locked:
        if answer.q1 != locked["q1"][0]:
            mismatches.append("q1")
        q1 = locked["q1"][0]
    choices: dict[str, ChoiceAnswer | None] = {}
    for qid in CHOICE_QUESTIONS:
        given = answer.choice(qid)
        if qid not in locked:
            choices[qid] = given
            continue
        if given is None or set(given.choices) != set(locked[qid]):
            mismatches.append(qid)
        boxes = {k: v for k, v in (given.boxes if given else {}).items() if k in locked[qid]}
        choices[qid] = ChoiceAnswer(locked[qid], boxes)
    failures = {q: why for q, why in answer.failures.items() if q not in locked}
    locked_answer = SpatialAnswer(
        q1, choices["q2"], choices["q3"], answer.q4, answer.q5, failures, answer.invalid_boxes
    )
    return locked_answer, mismatches


def store_answer(state: TaskState, answer: SpatialAnswer, stats: StrategyStats) -> None:
    state.store.set(
        ANSWER_KEY,
        {
            "record": answer_record(answer),
            "failures": answer.failures,
            "invalid_boxes": [box.record() for box in answer.invalid_boxes],
        },
    )
    state.store.set(STATS_KEY, stats.__dict__)


@solver
def spatialtrust_strategy(strategy: str, data: str, box_format: str, cache: bool = False) -> Solver:
    """Answer each capture of ``data`` with the ``direct``, ``staged`` or ``guard`` strategy.

    ``cache``: inspect's model cache for every call (a rerun of the same run is free).
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

        async def ask(messages: list[ChatMessage]) -> ModelOutput:
            return await model.generate(messages, cache=policy)

        stats = StrategyStats(strategy)
        if strategy == "direct":
            messages = stage_messages(image, direct_prompt(item, convention))
            state.output = await ask(messages)
            state.messages = [*messages, state.output.message]
            store_answer(state, parse_answer(state.output.completion, item, convention), stats)
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
                    decisions[letter] = parse_decision(reply.completion)
                    stats.verifier_unparsed += decisions[letter] is None
                kept = audit(locked[qid], decisions, none_option)
                stats.deleted[qid] = [x for x in locked[qid] if x not in kept]
                locked[qid] = kept
            stats.kept = {qid: list(v) for qid, v in locked.items()}

        messages = stage_messages(image, grounded_prompt(item, locked, convention))
        state.output = await ask(messages)
        state.messages = [*messages, state.output.message]
        answer, stats.lock_mismatches = apply_locks(
            parse_answer(state.output.completion, item, convention), locked
        )
        store_answer(state, answer, stats)
        return state

    return solve
