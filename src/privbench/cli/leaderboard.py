"""``privbench leaderboard``: one row per run in a folder of logs."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from privbench.cli.output import run_command
from privbench.runtime.errors import UsageError


def leaderboard(
    directory: Annotated[Path, typer.Argument(help="A folder of inspect logs (recursive).")],
    output_format: Annotated[
        str, typer.Option("--format", help="csv or markdown (one table per benchmark).")
    ] = "markdown",
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the table here (default: stdout).")
    ] = None,
) -> None:
    """One row per run under DIR: the paper columns, judge, judge card, data, status."""
    from privbench.analysis.leaderboard import check_format, render
    from privbench.analysis.leaderboard import leaderboard as make_leaderboard

    def action() -> None:
        check_format(output_format)
        if out is not None and not out.parent.is_dir():
            raise UsageError(f"--out {out}: its folder does not exist")
        board = make_leaderboard(directory)
        text = render(board, output_format)
        if line := board.skipped_line():
            typer.echo(line, err=True)
        if out is None:
            sys.stdout.write(text)
        else:
            out.write_text(text, encoding="utf-8")
            typer.echo(f"leaderboard: {out} ({len(board.rows)} runs)", err=True)

    run_command(action)
