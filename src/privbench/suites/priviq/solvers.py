"""Priv-IQ's grading solver: how an item's answer is obtained when no model is called.

The eval task's :func:`privbench.runtime.solvers.answer_once` asks the model under test once; ``stored_answer`` reads the answer a
model produced elsewhere (``results.json``), so grading never calls a model.
"""

from __future__ import annotations

from pathlib import Path

from inspect_ai.model import ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from privbench.suites.priviq.predictions import load_predictions


@solver
def stored_answer(predictions: str) -> Solver:
    """Use the answer from a predictions file (``results.json``) instead of calling a model."""
    answers = load_predictions(Path(predictions), None)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        answer = answers.get(str(state.sample_id))
        state.output = ModelOutput.from_content(model="predictions", content=answer or "")
        return state

    return solve
