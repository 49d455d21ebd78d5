"""``privbench survey``: blind rating sheets for judge–human agreement studies."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from privbench.cli.output import run_command
from privbench.runtime.errors import UsageError


def survey_export(
    log: Annotated[
        list[Path], typer.Option("--log", help="Graded {graded_title} log(s) or directories.")
    ],
    n: Annotated[int, typer.Option("--n", min=1, help="Samples to rate.")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the draw, order and ids.")] = 0,
    raters: Annotated[
        int, typer.Option("--raters", min=1, help="Blank rows per sample in the CSV sheet.")
    ] = 3,
    survey: Annotated[str, typer.Option("--survey", help="Survey name.")] = "Survey 1",
    scale: Annotated[
        int, typer.Option("--scale", help="Raters score on 0–1 (1) or 0–10 (10).")
    ] = 1,
    out: Annotated[
        Path, typer.Option("--out", help="Directory for the key and the for_raters folder.")
    ] = Path("survey"),
) -> None:
    """Write a blind rating form (HTML + CSV) of randomly drawn graded samples, and its key."""
    from privbench.analysis.survey import export_survey

    def action() -> None:
        written = export_survey(log, out, n=n, seed=seed, raters=raters, survey=survey, scale=scale)
        typer.echo(
            f"send to raters: {written.form.parent} (form {written.form.name}, "
            f"sheet {written.sheet.name})\n"
            f"researcher only, do not send: {written.key}"
        )

    run_command(action)


def survey_collect(
    surveys: Annotated[
        Path, typer.Option("--surveys", help="A survey export folder, or a folder of them.")
    ],
    store: Annotated[
        Path, typer.Option("--store", help="The review.sqlite the served form saved into.")
    ],
    out: Annotated[Path, typer.Option("--out", help="Directory for the rating files.")] = Path(
        "ratings"
    ),
) -> None:
    """Write the ratings a served form stored as rating files (one per rater and survey)."""
    from privbench.review.rating_routes import write_lab_ratings
    from privbench.review_store import ReviewStore

    def action() -> None:
        if not store.is_file():
            raise UsageError(f"--store {store}: file not found")
        written = write_lab_ratings(surveys, ReviewStore(store), out)
        if not written:
            raise UsageError(f"{store}: no ratings of the surveys in {surveys}")
        typer.echo(f"{len(written)} rating file(s) in {out}")

    run_command(action)
