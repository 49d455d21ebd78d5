"""The ConfAIde solvers: the model answers the prompt once per sample, or a stored answer is used.

``answer_once`` sends the prompt as one user message and nothing else (no system message), as
the reference does; each inspect epoch is one of the reference's ``n_samples`` answers.
``stored_answer`` takes the epoch's answer from a predictions file, so grading calls no model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inspect_ai.model import CachePolicy, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from privbench.runtime.calls import generate_once


@solver
def answer_once(cache: bool = False) -> Solver:
    """The model under test answers the prompt (a malformed or empty reply retries only this
    call: :func:`privbench.runtime.calls.generate_once`)."""
    policy = CachePolicy(expiry=None, per_epoch=True) if cache else False

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = await generate_once(get_model(), state.messages, role="model", cache=policy)
        state.messages.append(state.output.message)
        return state

    return solve


@solver
def stored_answer(answers: Mapping[str, Sequence[str]]) -> Solver:
    """The epoch's answer from the predictions instead of a model call."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        given = answers.get(str(state.sample_id), ())
        answer = given[state.epoch - 1] if 0 < state.epoch <= len(given) else ""
        state.output = ModelOutput.from_content(model="predictions", content=answer)
        return state

    return solve
