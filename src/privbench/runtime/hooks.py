"""What a benchmark's resume and read-log hooks do, written once for every benchmark.

Why here: continuing an interrupted run and reading a finished log take the same steps in
every benchmark whose runs end in one ``finish`` function: check ``--out`` before anything
else, resume the log (or read its header), then let the benchmark turn the log into its
figures. Only that last step is the benchmark's own, so it is the one thing passed in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, TypedDict, TypeVar

from inspect_ai.log import EvalLog, read_eval_log

from privbench.runtime.cost.plan import Prices
from privbench.runtime.output_dirs import ensure_writable_dir
from privbench.runtime.running import BenchmarkRun, RunOptions, resume_task
from privbench.runtime.suite import EvalRequest, GradeRequest, ReadRequest, ResumeRequest

RunT_co = TypeVar("RunT_co", bound=BenchmarkRun, covariant=True)


class Finish(Protocol[RunT_co]):
    """A benchmark's figures (and, with ``out_dir``, exports) of a log."""

    def __call__(
        self, log: EvalLog, model_name: str | None, out_dir: Path | None, *, compare_published: bool
    ) -> RunT_co: ...


class ReadLog(Protocol[RunT_co]):
    """A benchmark's reader of a finished log (no model or judge call)."""

    def __call__(
        self,
        log: str | Path,
        *,
        model: str | None = None,
        out_dir: str | Path | None = None,
        compare_published: bool = False,
    ) -> RunT_co: ...


def checked_out_dir(out_dir: str | Path | None) -> Path | None:
    """``--out``, created and proved writable before any work (None when not given)."""
    return ensure_writable_dir(out_dir, "--out") if out_dir else None


def resumed(request: ResumeRequest, task_names: tuple[str, ...]) -> tuple[Path | None, EvalLog]:
    """The checked ``--out`` and the log of the continued run.

    Two samples wait per judge connection, so a freed connection is reused at once."""
    out = checked_out_dir(request.out)
    options = request.options
    return out, resume_task(request.log, task_names, options, 2 * options.judge_connections)


def log_reader(finish: Finish[RunT_co]) -> ReadLog[RunT_co]:
    """A reader of existing logs for a benchmark that ends its runs in ``finish``."""

    def read_log(
        log: str | Path,
        *,
        model: str | None = None,
        out_dir: str | Path | None = None,
        compare_published: bool = False,
    ) -> RunT_co:
        out = checked_out_dir(out_dir)
        header = read_eval_log(str(log), header_only=True)
        return finish(header, model, out, compare_published=compare_published)

    return read_log


def read_request(read: ReadLog[BenchmarkRun], request: ReadRequest) -> BenchmarkRun:
    """The read-log hook of a benchmark whose reader takes no option of its own."""
    return read(
        request.log,
        model=request.model,
        out_dir=request.out,
        compare_published=request.compare_published,
    )


class RunArgs(TypedDict):
    """What every benchmark's eval and grade functions take from the request alike."""

    out_dir: Path | None
    options: RunOptions
    label: str | None
    prices: Prices


def run_args(request: EvalRequest | GradeRequest) -> RunArgs:
    """The request's exports directory, run options, label and prices, as keyword arguments
    of a benchmark's eval or grade function (``**run_args(request)``)."""
    return {
        "out_dir": request.out,
        "options": request.options,
        "label": request.label,
        "prices": request.prices,
    }
