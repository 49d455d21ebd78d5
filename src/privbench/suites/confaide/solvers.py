"""ConfAIde's grading solver: a stored answer is used instead of a model call.

The eval task's :func:`privbench.runtime.solvers.answer_once` sends the prompt as one user
message and nothing else (no system message), as the reference does; each inspect epoch is
one of the reference's ``n_samples`` answers. ``stored_answer`` takes the epoch's answer from a predictions file, so grading calls no model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inspect_ai.model import ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver


@solver
def stored_answer(answers: Mapping[str, Sequence[str]]) -> Solver:
    """The epoch's answer from the predictions instead of a model call."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        given = answers.get(str(state.sample_id), ())
        answer = given[state.epoch - 1] if 0 < state.epoch <= len(given) else ""
        state.output = ModelOutput.from_content(model="predictions", content=answer)
        return state

    return solve
