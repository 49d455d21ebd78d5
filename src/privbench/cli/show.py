"""``privbench show``: tables and exports of finished logs, or their paper tables."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from privbench.cli.options import (
    ComparePublishedOption,
    JsonOption,
    OverwriteOption,
    TableFormatOption,
)
from privbench.cli.output import print_json, run_command
from privbench.cli.runs import show_run, warn_logged_card
from privbench.runtime.errors import UsageError

if TYPE_CHECKING:
    from privbench.runtime.running import BenchmarkRun


def show(
    logs: Annotated[
        list[Path], typer.Argument(help="privbench inspect logs (.eval or .json), or folders.")
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help="Write the exports of this log (with --format: the tables) here."
        ),
    ] = None,
    model_name: Annotated[
        str | None, typer.Option("--model-name", help="Label of the model (default: the log's).")
    ] = None,
    box_format: Annotated[
        str | None,
        typer.Option(
            "--box-format",
            help="{box_title}: read the answers' boxes in this convention instead of the "
            "run's (no model or judge call): xyxy, xyxy1000, yxyx1000, xyxy1, qwen25.",
        ),
    ] = None,
    overwrite: OverwriteOption = False,
    compare_published: ComparePublishedOption = False,
    as_json: JsonOption = False,
    table_format: TableFormatOption = None,
) -> None:
    """Tables and exports of finished privbench logs (also ones finished by inspect eval-retry)."""
    from privbench import registry
    from privbench.analysis.runs import log_paths
    from privbench.runtime.log_reading import benchmark_of
    from privbench.runtime.suite import ReadRequest

    def one(log: Path) -> BenchmarkRun:
        suite = registry.get(benchmark_of(log))
        request = ReadRequest(
            log,
            model=model_name,
            out=out,
            compare_published=compare_published,
            settings={"box_format": box_format, "overwrite": overwrite},
        )
        run = suite.read_log(request)
        if compare_published and (reason := run.published_missing) is not None:
            typer.echo(f"--compare-published: no published {suite.title} rows: {reason}", err=True)
        return run

    def action() -> None:
        if table_format is not None:
            _show_tables(logs, table_format, out, model_name, box_format, overwrite, as_json)
            return
        found = log_paths(logs)  # a folder stands for the logs in it, as its help says
        if len(found) == 1:
            show_run(one(found[0]), as_json)
            return
        _show_several(found, one, out, model_name, as_json)

    run_command(action)


def _show_several(
    logs: Sequence[Path],
    one: Callable[[Path], BenchmarkRun],
    out: Path | None,
    model_name: str | None,
    as_json: bool,
) -> None:
    """``show`` of several logs without ``--format``: each log as alone, in turn; with
    ``--json`` one document ``{"logs": [...]}``."""
    if out is not None or model_name is not None:
        option = "--out" if out is not None else "--model-name"
        raise UsageError(f"{option}: one log at a time (or --format to tabulate several)")
    if as_json:
        from privbench.runtime.records.identity import RunIdentity

        runs = [one(log) for log in logs]
        for run in runs:
            warn_logged_card(RunIdentity.from_log(run.log))
        print_json({"logs": [run.json() for run in runs]})
        for run in runs:
            run.require_success()
        return
    for index, log in enumerate(logs):
        if index:
            typer.echo("")
        typer.echo(f"== {log}")
        show_run(one(log), False)


def _show_tables(
    logs: Sequence[Path],
    table_format: str,
    out: Path | None,
    model_name: str | None,
    box_format: str | None,
    overwrite: bool,
    as_json: bool,
) -> None:
    """``show --format``: the paper tables of the logs, on stdout or as files in ``--out``."""
    from privbench.analysis.table_formats import check_format, log_tables, render, write_tables

    check_format(table_format)
    if as_json:
        raise UsageError("--json: not with --format (one output at a time)")
    if box_format is not None:
        raise UsageError("--box-format: not with --format (the tables read the scores as logged)")
    if model_name is not None and len(logs) > 1:
        raise UsageError("--model-name: one log at a time")
    tables, notes = log_tables(logs, [model_name] if model_name is not None else ())
    if out is None:
        sys.stdout.write(render(tables, table_format))
    else:
        for path in write_tables(tables, out, [table_format], overwrite=overwrite):
            typer.echo(f"table: {path}")
    for note in notes:
        typer.echo(f"note: {note}", err=True)
