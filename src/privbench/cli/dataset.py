"""``privbench validate`` and ``privbench audit``: what a benchmark directory holds."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from privbench.cli.options import JsonOption
from privbench.cli.output import echo_lines, print_json, print_tables, run_command
from privbench.cli.settings import data_dir


def validate(directory: Annotated[Path, typer.Argument(help="Benchmark directory.")]) -> None:
    """Report every problem of a benchmark directory, one line each (exit 1 if any)."""
    from privbench.validation import validate_directory

    def action() -> int:
        report = validate_directory(data_dir(directory))
        echo_lines(str(problem) for problem in report.problems)
        if report.problems:
            typer.echo(f"{len(report.problems)} problem(s) in {directory}", err=True)
            return 1
        typer.echo(report.summary)
        return 0

    raise typer.Exit(run_command(action))


def audit(
    directories: Annotated[
        list[Path] | None,
        typer.Argument(help="Benchmark directories (default: both shipped suites)."),
    ] = None,
    as_json: JsonOption = False,
    ocr: Annotated[
        bool,
        typer.Option("--ocr", help="{ocr_title}: how much of each answer is printed in the image."),
    ] = False,
) -> None:
    """Trivial baselines, answer leakage and distributions of a dataset (docs/audit.md)."""
    from privbench import registry
    from privbench.audit import audit_directory
    from privbench.audit.tables import audit_tables, summary_lines

    def action() -> None:
        shipped = [
            path for suite in registry.SUITES.values() if (path := suite.default_copy().path)
        ]
        paths = [data_dir(p) for p in directories or shipped]
        documents = [audit_directory(path, ocr=ocr) for path in paths]
        if as_json:
            print_json(documents[0] if len(documents) == 1 else {"audits": documents})
            return
        for document in documents:
            print_tables(audit_tables(document))
            echo_lines(summary_lines(document))

    run_command(action)
