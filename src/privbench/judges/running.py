"""Run a benchmark task with the judge its options name.

Why here: the runtime builds the ``grader`` role from a model name and cannot read a
``--judge`` string (that is :func:`privbench.judges.choice.parse_judge`'s job, a layer up);
every benchmark's eval and grade made that same translation before each run.
"""

from __future__ import annotations

from inspect_ai import Task
from inspect_ai.log import EvalLog

from privbench.judges.choice import parse_judge
from privbench.runtime.running import NO_MODEL, RunOptions, run_model_task, run_task


def eval_with_judge(
    task: Task, model: str, options: RunOptions, limit: int | None, connections: int | None
) -> EvalLog:
    """Run ``task`` whose solver calls ``model``, graded by ``options.judge``: at most
    ``limit`` items, ``connections`` to the model (None: the defaults)."""
    judge_model = parse_judge(options.judge).model
    return run_model_task(
        task, model, options, judge_model=judge_model, limit=limit, model_connections=connections
    )


def grade_with_judge(
    task: Task, options: RunOptions, needs_judge: bool, max_samples: int
) -> EvalLog:
    """Run ``task`` on stored answers (no model), graded by ``options.judge``.

    ``needs_judge``: whether the judge's endpoint is checked first (False when nothing is
    left to send to it); ``max_samples`` as :func:`privbench.runtime.running.run_task`."""
    judge_model = parse_judge(options.judge).model
    return run_task(task, NO_MODEL, options, needs_judge, max_samples, judge_model=judge_model)
