"""SpatialTrust inference strategies as one inspect solver (the paper's section 4).

* ``direct``: one call answers all five questions.
* ``staged``: a selection call chooses the q1–q3 options only; a grounded-answer call then
  answers all five with those choices locked (:mod:`~privbench.suites.spatialtrust.selection`).
* ``guard`` (SpatialTrustGuard): staged plus the conservative audit between the two calls:
  each selected non-"None" option of q2/q3 is re-examined on its own and may only be kept
  or deleted (:mod:`~privbench.suites.spatialtrust.guard`).

What the paper asks of the pipeline is enforced in code, not left to the model: the audit
can only delete (the kept set is a subset of the selected set whatever the verifier
replies, and q1 is never touched); a category whose options are all deleted becomes
"None of the above"; the final answer's q1–q3 choices are replaced by the locked ones
(each disagreement is counted) and boxes are kept only for locked options. Whatever
strategy ran, the final answer and what the strategy did are kept in the sample's store
under the same keys, so the scorer and every reader treat the three alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, NotRequired, TypedDict

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
from privbench.suites.spatialtrust.boxes import get_convention
from privbench.suites.spatialtrust.dataset import load_spatialtrust
from privbench.suites.spatialtrust.guard import verify_locks
from privbench.suites.spatialtrust.prompts import (
    SYSTEM_PROMPT,
    direct_prompt,
    grounded_prompt,
    reask_prompt,
    selection_prompt,
)
from privbench.suites.spatialtrust.reading import SpatialAnswer, answer_record, parse_answer
from privbench.suites.spatialtrust.selection import apply_locks, parse_selection

Strategy = Literal["direct", "staged", "guard"]
STRATEGIES: tuple[Strategy, ...] = ("direct", "staged", "guard")


def parse_strategy(name: str) -> Strategy:
    """The strategy called ``name``; ValueError naming the choices otherwise.

    The one check of a strategy name: the command line and the task (inspect's entry) read
    it here, and everything below them receives the checked value.
    """
    for strategy in STRATEGIES:
        if strategy == name:
            return strategy
    raise ValueError(f"unknown strategy '{name}' (choose from {', '.join(STRATEGIES)})")


ANSWER_KEY = "spatialtrust_answer"
"""Store key of the final structured answer (predictions-format record, failures, invalid boxes)."""
STATS_KEY = "spatialtrust_strategy"
"""Store key of what the strategy did (stage calls, deletions, lock mismatches)."""


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


def stage_messages(image: str, prompt: str) -> list[ChatMessage]:
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


class StoredAnswer(TypedDict):
    """An answer as the task state keeps it (JSON): what the scorer reads back."""

    record: dict[str, object]
    """The predictions-format record, boxes in pixels (only boxes that were valid)."""
    failures: dict[str, str]
    """Question id → why its answer did not parse."""
    invalid_boxes: list[dict[str, object]]
    """Each invalid box as :meth:`InvalidBox.record` writes it."""
    first: NotRequired[StoredAnswer]
    """The answer before a re-ask (only when the answer was re-asked)."""


def answer_store(answer: SpatialAnswer) -> StoredAnswer:
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
    strategy: Strategy, data: str, box_format: str, cache: bool = False, reask_unparsed: int = 0
) -> Solver:
    """Answer each capture of ``data`` with the ``direct``, ``staged`` or ``guard`` strategy.

    ``cache``: inspect's model cache for every call (a rerun of the same run is free).
    ``reask_unparsed``: how many times a final answer that cannot be read in full is asked
    again, the format restated (0, the paper's one-pass protocol, by default).
    """
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

        async def verify(prompt: str) -> str:
            return (await ask(stage_messages(image, prompt))).completion

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
            verification = await verify_locks(locked, item, verify)
            locked = verification.locked
            stats.deleted = verification.deleted
            stats.verifier_calls = verification.calls
            stats.verifier_unreadable = verification.unreadable
            stats.kept = {qid: list(v) for qid, v in locked.items()}

        final, first = await final_answer(
            stage_messages(image, grounded_prompt(item, locked, convention))
        )
        answer, outcome = apply_locks(final, locked)
        stats.lock_disagreements, stats.final_unparsed = outcome.disagreements, outcome.unparsed
        store_answer(state, answer, stats, None if first is None else apply_locks(first, locked)[0])
        return state

    return solve
