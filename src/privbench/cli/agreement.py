"""``privbench agreement``: judge–human agreement from rating files (Table 6)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from privbench.cli.options import JsonOption
from privbench.cli.output import print_json, print_tables, run_command


def agreement(
    ratings: Annotated[
        list[Path],
        typer.Option(
            "--ratings",
            help="Rating files raters downloaded (or a folder of them), or a CSV "
            "item_id,rater,score[,survey]; repeatable.",
        ),
    ],
    key: Annotated[
        list[Path] | None,
        typer.Option(
            "--key", help="survey_key.json of a blind survey (default: found beside the ratings)."
        ),
    ] = None,
    scale: Annotated[
        float | None,
        typer.Option(
            "--scale",
            help="Human rating range: 1 or 10 (default: the rating files' own, else 1).",
        ),
    ] = None,
    tolerance: Annotated[
        float | None,
        typer.Option("--tolerance", help="Agreement if |human − judge| ≤ this (default scale/10)."),
    ] = None,
    judge_rater: Annotated[
        str, typer.Option("--judge-rater", help="The rater that is the judge.")
    ] = "judge",
    plots: Annotated[
        Path | None,
        typer.Option("--plots", help="Directory for the Bland–Altman and violin plots."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Judge–human agreement (ICC2, Spearman, MAE, agreement rate, Bland–Altman; Table 6)."""
    from privbench.analysis.agreement import (
        agreement_notes,
        agreement_table,
        as_records,
        read_ratings,
    )
    from privbench.report.agreement_view import agreement_plots, agreement_rich_table, summary_line

    def action() -> None:
        ratings_data = read_ratings(ratings, judge_rater, scale, key or ())
        used = ratings_data.scale
        columns = agreement_table(ratings_data, tolerance if tolerance is not None else used / 10)
        first = ratings[0]
        directory = plots or first.with_name(first.stem + "_plots")
        saved = agreement_plots(ratings_data, directory, used)
        for note in agreement_notes(columns):
            typer.echo(f"note: {note}", err=True)
        if as_json:
            print_json(
                {
                    "agreement": as_records(columns),
                    "scale": used,
                    "blank_ratings_skipped": ratings_data.blank,
                    "human_raters": ratings_data.raters,
                    "plots": [str(p) for p in saved],
                }
            )
            return
        print_tables([agreement_rich_table(columns)])
        typer.echo(summary_line(ratings_data, saved))

    run_command(action)
