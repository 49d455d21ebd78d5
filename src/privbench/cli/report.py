"""``privbench report``: one self-contained HTML report of runs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from privbench.cli.options import BootstrapSeedOption, ComparePublishedOption
from privbench.cli.output import run_command


def report(
    logs: Annotated[list[Path], typer.Argument(help="inspect logs, or directories of logs.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="The HTML file to write.")] = Path(
        "report.html"
    ),
    label: Annotated[
        list[str] | None,
        typer.Option("--label", help="Run labels, one per log in order (default: model names)."),
    ] = None,
    seed: BootstrapSeedOption = 0,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", min=100, help="Bootstrap resamples.")
    ] = 1000,
    browse: Annotated[
        int, typer.Option("--browse", min=0, help="Items / images shown in the sample browser.")
    ] = 200,
    ratings: Annotated[
        list[Path] | None,
        typer.Option(
            "--ratings",
            help="Filled rating sheets or rating files, as for agreement: adds judge–human "
            "agreement. Read and checked before anything is computed.",
        ),
    ] = None,
    key: Annotated[
        list[Path] | None,
        typer.Option(
            "--key",
            help="survey_key.json of a blind survey, as for agreement (default: found beside "
            "the ratings).",
        ),
    ] = None,
    scale: Annotated[
        float | None,
        typer.Option(
            "--scale",
            help="Human rating range of --ratings: 1 or 10 (default: what the rating files "
            "declare, else 1; judge: 0–1).",
        ),
    ] = None,
    compare_published: ComparePublishedOption = False,
    tables: Annotated[
        Path | None,
        typer.Option("--tables", help="Also write the paper tables here (LaTeX, Markdown, CSV)."),
    ] = None,
) -> None:
    """One self-contained HTML report: tables, intervals, comparisons, figures, samples."""
    from privbench.report.html import ReportSettings, write_report

    def action() -> None:
        settings = ReportSettings(
            labels=label or (),
            seed=seed,
            n_boot=bootstrap,
            browse=browse,
            ratings=ratings or None,
            keys=key or (),
            scale=scale,
            compare_published=compare_published,
            tables=tables,
        )
        path, notes = write_report(logs, output, settings)
        for note in notes:
            typer.echo(f"note: {note}", err=True)
        typer.echo(f"report: {path}")
        typer.echo(f"figures: {path.with_name(path.stem + '_figures')}")
        if tables is not None:
            typer.echo(f"tables: {tables}")

    run_command(action)
