"""The Priv-IQ solvers: how an item's answer is obtained before the judge grades it.

``answer_once`` asks the model under test once; ``stored_answer`` reads the answer a
model produced elsewhere (``results.json``), so grading never calls a model.
"""

from __future__ import annotations

from pathlib import Path

from inspect_ai.model import CachePolicy, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from privbench.runtime.calls import generate_once
from privbench.suites.priviq.predictions import load_predictions


@solver
def answer_once(cache: bool = False) -> Solver:
    """The model under test answers the item once (inspect's ``generate``, but a malformed
    or empty reply retries only this call: :func:`privbench.runtime.calls.generate_once`).

    ``cache``: inspect's model cache (a rerun of the same run sends nothing).
    """
    policy = CachePolicy(expiry=None) if cache else False

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = await generate_once(get_model(), state.messages, role="model", cache=policy)
        state.messages.append(state.output.message)
        return state

    return solve


@solver
def stored_answer(predictions: str) -> Solver:
    """Use the answer from a predictions file (``results.json``) instead of calling a model."""
    answers = load_predictions(Path(predictions), None)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        answer = answers.get(str(state.sample_id))
        state.output = ModelOutput.from_content(model="predictions", content=answer or "")
        return state

    return solve
