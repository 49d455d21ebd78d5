"""VLM-GeoPrivacy's solvers: the iterative protocol's follow-ups, and stored answers.

The zero-shot, malicious and multiple-choice requests are answered once
(:func:`privbench.runtime.solvers.answer_once`): the sample's messages are the reference's
system message and its user message (a newline, the photo, the FigStep image for the
malicious request, the text).

The iterative protocol (``iter-cot``) follows the reference's ``call_api_iterative``: after
each answer the judge names its granularity; while that label is not ``C`` (compared as the
reference compares the judge's raw reply) and at most three times, the model is asked again
in a *new* conversation (the same system message and photo, no history) for a country, a
specific place, or more detail. Only the last answer is scored; the earlier ones and their
labels are kept in the sample's store (``turns``) and recorded by the scorer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inspect_ai.model import (
    CachePolicy,
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    Content,
    ContentImage,
    ContentText,
    ModelOutput,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

from privbench.judges.choice import grader, parse_judge
from privbench.runtime.calls import generate_once
from privbench.suites.geoprivacy.judging import judge_granularity
from privbench.suites.geoprivacy.prompts import MAX_FOLLOW_UPS, Prompt, follow_up

TURNS_KEY = "geoprivacy_turns"
LABELS_KEY = "geoprivacy_turn_labels"
STORED_KEY = "geoprivacy_stored"
"""Where a sample's earlier answers, their labels, and a graded file's parsed answers are
kept in inspect's per-sample store for the scorer."""


def request(prompt: Prompt, photo: str, figstep: str | None) -> list[ChatMessage]:
    """The reference's message layout: system, then the user's newline, images and text."""
    content: list[Content] = [ContentText(text="\n"), ContentImage(image=photo)]
    if prompt.figstep and figstep is not None:
        content.append(ContentImage(image=figstep))
    content.append(ContentText(text=prompt.user))
    return [ChatMessageSystem(content=prompt.system), ChatMessageUser(content=content)]


def _photo_of(messages: Sequence[ChatMessage]) -> tuple[str, str]:
    """The system message and the photo of a sample's request."""
    system = str(messages[0].text)
    user = messages[1].content
    assert not isinstance(user, str)
    photo = next(part.image for part in user if isinstance(part, ContentImage))
    return system, photo


@solver
def iterative(judge: str | None, cache: bool = False) -> Solver:
    """Answer, then ask again while the judge does not call the answer exact (``iter-cot``)."""
    policy = CachePolicy(expiry=None, per_epoch=True) if cache else False

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        state.output = await generate_once(model, state.messages, role="model", cache=policy)
        state.messages.append(state.output.message)
        system, photo = _photo_of(state.messages)
        asker = grader(parse_judge(judge))
        turns: list[str] = []
        labels: list[str] = []
        for _ in range(MAX_FOLLOW_UPS):
            text = state.output.completion
            label = (await judge_granularity(asker, text)).reference_label
            if label == "C":
                break
            turns.append(text)
            labels.append(label)
            again = request(Prompt(system, follow_up(label)), photo, None)
            state.output = await generate_once(model, again, role="model", cache=policy)
            state.messages += [again[-1], state.output.message]
        state.store.set(TURNS_KEY, turns)
        state.store.set(LABELS_KEY, labels)
        return state

    return solve


@solver
def stored_answers(texts: Mapping[str, str], parsed: Mapping[str, Sequence[str]]) -> Solver:
    """A graded file's answer instead of a model call: its text, or (a reference
    multiple-choice file, which keeps only parsed answers) those answers as stored."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        key = str(state.sample_id)
        if key in parsed:
            state.store.set(STORED_KEY, list(parsed[key]))
            content = "\n".join(parsed[key])
        else:
            content = texts.get(key, "")
        state.output = ModelOutput.from_content(model="predictions", content=content)
        return state

    return solve


@solver
def answer(judge: str | None, cache: bool = False) -> Solver:
    """Each sample as its protocol asks: once, or iteratively (``iter-cot``)."""
    from privbench.runtime.solvers import answer_once
    from privbench.suites.geoprivacy.prompts import ITERATIVE
    from privbench.suites.geoprivacy.record import GeoSampleRecord

    once = answer_once(cache)
    again = iterative(judge, cache)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        mode = GeoSampleRecord.from_metadata(state.metadata).mode
        return await (again if mode == ITERATIVE else once)(state, generate)

    return solve
