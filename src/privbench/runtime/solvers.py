"""The solver every benchmark's eval task uses when the model answers the prompt once.

Why shared: asking the model under test once, through
:func:`privbench.runtime.calls.generate_once` (a malformed or empty reply retries only this
call), is the same step in every benchmark that sends its prompt as it stands; each inspect
epoch is one more answer to the same prompt, cached apart when ``cache`` is on.
"""

from __future__ import annotations

from inspect_ai.model import CachePolicy, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from privbench.runtime.calls import generate_once


@solver
def answer_once(cache: bool = False) -> Solver:
    """The model under test answers the prompt once (per epoch).

    ``cache``: inspect's model cache (a rerun of the same run sends nothing).
    """
    policy = CachePolicy(expiry=None, per_epoch=True) if cache else False

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = await generate_once(get_model(), state.messages, role="model", cache=policy)
        state.messages.append(state.output.message)
        return state

    return solve
