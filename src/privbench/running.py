"""Running an inspect task with a judge: the settings and the one call both benchmarks use.

Why here: Priv-IQ and SpatialTrust runs share everything about *how* they run — the judge
and its own connection limit and timeout, the check that it answers before anything is
graded, sample retries, logging settings measured by ``bench/judge_throughput.py`` and
fewer GC pauses — and differ only in the task.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from typing import Any

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from privbench.errors import PrivbenchError
from privbench.gc_tuning import fewer_gc_pauses
from privbench.judge_check import check_judge, make_judge, make_model
from privbench.judging import DEFAULT_JUDGE, is_offline

DEFAULT_JUDGE_CONNECTIONS = 32


@dataclass(frozen=True)
class RunOptions:
    """Settings shared by eval and grade runs."""

    judge: str = DEFAULT_JUDGE
    epochs: int = 1
    protocol: str = "paper"
    judge_connections: int = DEFAULT_JUDGE_CONNECTIONS
    judge_timeout: int = 120
    retry_on_error: int = 3
    log_dir: str = "logs"
    display: str | None = None
    max_samples: int | None = None
    eval_args: dict[str, Any] = field(default_factory=dict)

    @property
    def task_judge(self) -> str | None:
        """What a task is told about its judge: ``offline``, or None when the judge is a
        model given to inspect as the ``grader`` role by :func:`run_task`."""
        return self.judge if is_offline(self.judge) else None


def run_task(
    task: Task, model: str, options: RunOptions, needs_judge: bool, max_samples: int
) -> EvalLog:
    """Check the judge (if anything needs judging), run ``task``, return the log header.

    ``protocol`` only applies to Priv-IQ; ``max_samples`` is the default sample
    concurrency unless ``options.max_samples`` is set.
    """
    roles: dict[str, Any] = {}
    if not is_offline(options.judge):
        judge = make_judge(
            options.judge,
            connections=options.judge_connections,
            attempt_timeout=options.judge_timeout,
        )
        if needs_judge:
            asyncio.run(check_judge(judge))
        roles["grader"] = judge
    settings: dict[str, Any] = {
        "log_dir": options.log_dir,
        "display": options.display,
        "max_samples": options.max_samples or max_samples,
        "fail_on_error": False,
        # a sample whose call failed in a way the provider does not retry (e.g. a
        # malformed reply body) is run again; what still fails is reported per item
        "retry_on_error": options.retry_on_error,
        "score_display": False,
        # per-sample overhead, measured by bench/judge_throughput.py: the raw HTTP
        # request of each judge call would double what every sample serializes, and
        # the caller reads samples back as summaries, not from the returned log
        "log_model_api": False,
        "log_realtime": False,
        "log_header_only": True,
        **options.eval_args,
    }
    subject = make_model(model)
    with fewer_gc_pauses():
        logs = inspect_eval(
            task, model=subject, model_roles=roles, epochs=options.epochs, **settings
        )
    return logs[0]


def run_model_task(
    task: Task,
    model: str,
    options: RunOptions,
    *,
    limit: int | None = None,
    model_connections: int | None = None,
) -> EvalLog:
    """Run a task whose solver calls ``model``: optional item limit and model connections."""
    eval_args = dict(options.eval_args)
    if limit is not None:
        eval_args["limit"] = limit
    if model_connections is not None:
        eval_args["max_connections"] = model_connections
    max_samples = max(options.judge_connections, model_connections or 0)
    return run_task(task, model, replace(options, eval_args=eval_args), True, max_samples)


@dataclass
class RunOutcome:
    """What every run returns: the model's label and the log; subclasses add the scores."""

    model: str
    log: EvalLog

    @property
    def log_location(self) -> str:
        return str(self.log.location)

    @property
    def item_errors(self) -> dict[str, str]:
        """Items whose run failed after inspect's retries: id → error message."""
        return {}

    @property
    def error(self) -> str | None:
        """Why the run is incomplete (stopped early, or items failed), or None."""
        if self.log.status != "success":
            message = self.log.error.message if self.log.error else self.log.status
            return f"run {self.log.status}: {message}"
        if self.item_errors:
            item, message = next(iter(self.item_errors.items()))
            return f"{len(self.item_errors)} item(s) failed; first, {item}: {message}"
        return None

    def require_success(self) -> None:
        """Raise if the run is incomplete (what completed is already in the log and exports)."""
        if self.error is not None:
            raise PrivbenchError(f"{self.error} (partial results in {self.log_location})")
