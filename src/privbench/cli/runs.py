"""Running a benchmark from the command line: one dispatch for every eval and grade command.

Why one: the eval and grade commands of every benchmark differ only in the benchmark and
its own options; the order of the checks, the dry run, ``--resume``, what is printed and
the exit code are the same, so they are written once here, and each command is built from
what its benchmark declares (:mod:`privbench.cli.eval_grade`). The benchmark's hooks come from
:mod:`privbench.registry`.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import typer

from privbench.cli import settings
from privbench.cli.output import print_json, print_parts, run_command
from privbench.runtime.errors import UsageError

if TYPE_CHECKING:
    from privbench.runtime.cost.plan import Prices
    from privbench.runtime.records.identity import RunIdentity
    from privbench.runtime.running import BenchmarkRun
    from privbench.runtime.suite import RunKind, Settings


def resume_hint(command: str, run: BenchmarkRun, out: Path | None, log_dir: str) -> str:
    """The command line that continues ``run`` (``privbench eval BENCHMARK --resume LOG``)."""
    parts = ["privbench", *command.split(), "--resume", shlex.quote(run.log_location)]
    if out is not None:
        parts += ["--out", shlex.quote(str(out))]
    if log_dir != "logs":
        parts += ["--log-dir", shlex.quote(log_dir)]
    return " ".join(parts)


def _stop_if_interrupted(run: BenchmarkRun, resume: str) -> None:
    """After Ctrl-C / SIGTERM: where the partial log and exports are, how to go on; exit 130."""
    if not run.interrupted:
        return
    typer.echo(f"interrupted: partial log {run.log_location}", err=True)
    for kind, path in run.exports.items():
        typer.echo(f"partial {kind}: {path}", err=True)
    typer.echo(
        f"resume (completed items and answers already received are not sent again): {resume}",
        err=True,
    )
    raise typer.Exit(130)


def _offline_notice(judge: str) -> None:
    from privbench.judges import offline_notice

    notice = offline_notice(judge)
    if notice:
        typer.echo(notice, err=True)


def warn_logged_card(identity: RunIdentity) -> None:
    """One warning line on stderr when the card the run's log records failed its check."""
    if identity.judge_card_problem:
        typer.echo(
            f"warning: {identity.judge_card_problem}; the judge counts as not checked", err=True
        )


def _warn_extra_ids(run: BenchmarkRun) -> None:
    """One warning line on stderr per input file with ids that match no item."""
    from privbench.runtime.errors import extra_ids_warning

    for file, ids in run.extra_ids.items():
        typer.echo(extra_ids_warning(file, ids), err=True)


def show_run(run: BenchmarkRun, as_json: bool, resume: str | None = None) -> None:
    """A run's ``--json`` document or its tables and lines, then its notices and exit."""
    from privbench.runtime.records.identity import RunIdentity

    identity = RunIdentity.from_log(run.log)  # the card line and its warning read it once
    warn_logged_card(identity)
    if as_json:
        print_json(run.json())
    else:
        print_parts(run.terminal())
        if identity.judge_agreement_line:  # none for a run no judge graded
            typer.echo(identity.judge_agreement_line)
    _offline_notice(run.judge_name)
    _warn_extra_ids(run)
    if resume is not None:
        _stop_if_interrupted(run, resume)
    run.require_success()


@dataclass(frozen=True)
class RunArguments:
    """What an eval or grade command was given: the options every one of them takes (at
    the defaults a command without the option has) and the benchmark's own (``settings``)."""

    kind: RunKind
    suite: str
    source: str | Path | None
    """``--model`` (eval) or ``--predictions`` (grade)."""
    data: Path | None
    judge: str
    judge_temperature: float
    out: Path | None
    label: str | None
    judge_connections: int
    log_dir: str
    resume: Path | None
    seed: int | None
    max_retries: int
    timeout: int
    cache: bool
    batch: bool
    judge_card: Path | None
    as_json: bool
    dry_run: bool
    price: str | None
    judge_price: str | None
    judge_runs: int = 1
    judge_protocol: str = "paper"
    temperature: float | None = None
    max_tokens: int | None = None
    limit: int | None = None
    max_connections: int | None = None
    model_name: str | None = None
    compare_published: bool = False
    epochs: int | None = None
    settings: Settings = field(default_factory=dict)


class _SharedRequestFields(TypedDict):
    """The fields an eval and a grade request take alike from the command line."""

    out: Path | None
    label: str | None
    prices: Prices
    compare_published: bool
    settings: Settings


def _shared_request_fields(args: RunArguments, prices: Prices) -> _SharedRequestFields:
    return {
        "out": args.out,
        "label": args.label,
        "prices": prices,
        "compare_published": args.compare_published,
        "settings": args.settings,
    }


def run_benchmark(args: RunArguments) -> None:
    """``privbench eval|grade BENCHMARK``: check, then dry-run, resume, eval or grade, and
    show the run (exit 130 with the resume command when interrupted)."""
    from privbench import registry
    from privbench.runtime.suite import EvalRequest, GradeRequest, ResumeRequest

    def action() -> None:
        suite = registry.get(args.suite)
        settings.no_epochs(args.epochs)
        suite.check_settings(args.kind, args.settings)
        settings.check_label(args.label, args.resume)
        prices = settings.prices(args.price, args.judge_price, judge_only=args.kind == "grade")
        temperature = args.temperature
        if temperature is None:  # the benchmark's own default (most answer at 0)
            temperature = suite.default_temperature
        generation = settings.generation(
            temperature,
            args.seed,
            args.max_tokens,
            args.max_retries,
            args.timeout,
            args.cache,
            args.batch,
            args.judge_temperature,
        )
        options = settings.run_options(
            args.judge,
            args.judge_runs,
            args.judge_protocol,
            args.judge_connections,
            args.log_dir,
            args.as_json,
            generation,
            args.judge_card,
            suite.judge_protocols,
        )
        run: BenchmarkRun
        if args.resume is not None:
            if args.dry_run:
                settings.dry_run(suite.resume_plan(args.resume, options), prices, args.as_json)
                return
            run = suite.resume(
                ResumeRequest(
                    args.resume,
                    options,
                    out=args.out,
                    model_name=args.model_name,
                    prices=prices,
                    compare_published=args.compare_published,
                    settings=args.settings,
                )
            )
        elif args.source is None:
            option = "--model" if args.kind == "eval" else "--predictions"
            raise UsageError(f"{option}: required (or --resume LOG)")
        else:
            data = settings.suite_data_dir(suite, args.data)
            if args.kind == "eval":
                request = EvalRequest(
                    data,
                    str(args.source),
                    options,
                    limit=args.limit,
                    model_connections=args.max_connections,
                    **_shared_request_fields(args, prices),
                )
                plan, start = partial(suite.eval_plan, request), partial(suite.eval, request)
            else:
                grade = GradeRequest(
                    data,
                    Path(args.source),
                    options,
                    model_name=args.model_name,
                    **_shared_request_fields(args, prices),
                )
                plan, start = partial(suite.grade_plan, grade), partial(suite.grade, grade)
            if args.dry_run:
                settings.dry_run(plan(), prices, args.as_json)
                return
            run = start()
        hint = resume_hint(f"{args.kind} {suite.name}", run, args.out, args.log_dir)
        show_run(run, args.as_json, hint)

    run_command(action)
