"""PrivacyLens's grading solver: a stored final action is used instead of a model call.

The eval tasks use :func:`privbench.runtime.solvers.answer_once`: the prompt is one user
message and nothing else, as the reference sends it (its chat-template and API calls alike).
"""

from __future__ import annotations

from collections.abc import Mapping

from inspect_ai.model import ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver


@solver
def stored_action(answers: Mapping[str, str]) -> Solver:
    """The sample's action from the predictions instead of a model call."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        answer = answers.get(str(state.sample_id), "")
        state.output = ModelOutput.from_content(model="predictions", content=answer)
        return state

    return solve
