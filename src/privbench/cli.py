"""The ``privbench`` command line: a thin layer over the Python API.

Every command that computes scores accepts ``--json`` and then prints one JSON document
and nothing else. Errors the user can fix print one line (``error: ...``) on stderr and
exit with 1 (bad input) or 2 (usage); no traceback unless ``PRIVBENCH_DEBUG=1``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console

from privbench.errors import PrivbenchError, UsageError
from privbench.redaction import redact

if TYPE_CHECKING:
    from privbench.running import RunOptions

app = typer.Typer(
    name="privbench",
    help="Measure how well (multimodal) language models handle privacy.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
grade_app = typer.Typer(help="Grade answers a model produced elsewhere.", no_args_is_help=True)
survey_app = typer.Typer(
    help="Rating sheets for judge–human agreement studies.", no_args_is_help=True
)
eval_app = typer.Typer(
    help="Run a model on a benchmark and grade its answers.", no_args_is_help=True
)
generate_app = typer.Typer(
    help="Generate benchmark suites in the two formats.", no_args_is_help=True
)
app.add_typer(grade_app, name="grade")
app.add_typer(eval_app, name="eval")
app.add_typer(survey_app, name="survey")
app.add_typer(generate_app, name="generate")

stdout = Console()

T = TypeVar("T")

DataOption = Annotated[
    Path | None, typer.Option("--data", help="Benchmark directory (default: the shipped suite).")
]
JudgeOption = Annotated[
    str,
    typer.Option(
        "--judge",
        help="Judge: a model as inspect names it (openai/gpt-4o, openai-api/local/m) or offline.",
    ),
]
EpochsOption = Annotated[
    int, typer.Option("--epochs", min=1, help="Judge runs per item (the paper's num_run: 5).")
]
ProtocolOption = Annotated[
    str,
    typer.Option("--judge-protocol", help="paper (SPEC §2.3) or hardened (fenced, JSON verdict)."),
]
ConnectionsOption = Annotated[
    int, typer.Option("--judge-connections", min=1, help="Concurrent requests to the judge.")
]
LogDirOption = Annotated[str, typer.Option("--log-dir", help="Where inspect writes its logs.")]
MaxConnectionsOption = Annotated[
    int | None, typer.Option("--max-connections", min=1, help="Concurrent requests to the model.")
]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print one JSON document and nothing else.")
]


def run_command(action: Callable[[], T]) -> T:
    """Run ``action``; turn user-facing errors into one line on stderr and an exit code."""
    try:
        return action()
    except PrivbenchError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(error.exit_code) from None
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        raise typer.Exit(130) from None
    except Exception as error:
        if os.environ.get("PRIVBENCH_DEBUG"):
            raise
        message = redact(" ".join(str(error).split()))[:300]
        typer.echo(
            f"error: {type(error).__name__}: {message} (PRIVBENCH_DEBUG=1 shows the traceback)",
            err=True,
        )
        raise typer.Exit(1) from None


def print_json(document: dict[str, Any]) -> None:
    """The one JSON document on stdout (NaN never appears: missing values are null)."""
    sys.stdout.write(json.dumps(document, ensure_ascii=False, allow_nan=False) + "\n")


@app.command()
def validate(directory: Annotated[Path, typer.Argument(help="Benchmark directory.")]) -> None:
    """Report every problem of a benchmark directory, one line each (exit 1 if any)."""
    from privbench.validation import validate_directory

    def action() -> int:
        report = validate_directory(directory)
        for problem in report.problems:
            typer.echo(str(problem))
        if report.problems:
            typer.echo(f"{len(report.problems)} problem(s) in {directory}", err=True)
            return 1
        typer.echo(report.summary)
        return 0

    raise typer.Exit(run_command(action))


def _show_priviq(run: Any, as_json: bool) -> None:
    from privbench.priviq.tables import combination_table, competency_table, summary_line

    if as_json:
        print_json(run.json())
    else:
        stdout.print(competency_table(run.model, run.scores))
        stdout.print(combination_table(run.model, run.scores))
        judge = run.graded.judge
        typer.echo(summary_line(run.scores, judge.judge, judge.protocol, judge.prompt_hash))
        typer.echo(f"log: {run.log_location}")
        for kind, path in run.exports.items():
            typer.echo(f"{kind}: {path}")
    run.require_success()


@grade_app.command("priviq")
def grade_priviq_command(
    predictions: Annotated[Path, typer.Option("--predictions", help="results.json: id → answer.")],
    data: DataOption = None,
    grades: Annotated[
        Path | None, typer.Option("--grades", help="Earlier grade file: its runs are reused.")
    ] = None,
    judge: JudgeOption = "openai/gpt-4o",
    epochs: EpochsOption = 1,
    out: Annotated[
        Path | None, typer.Option("--out", help="Export directory (default: beside --predictions).")
    ] = None,
    model_name: Annotated[
        str | None,
        typer.Option("--model-name", help="Label of the graded model (default: file stem)."),
    ] = None,
    judge_protocol: ProtocolOption = "paper",
    judge_connections: ConnectionsOption = 32,
    log_dir: LogDirOption = "logs",
    as_json: JsonOption = False,
) -> None:
    """Grade a results.json with the Priv-IQ judge; write the grade file and score CSVs."""
    from privbench.priviq.api import grade_priviq
    from privbench.priviq.task import default_data_dir

    def action() -> None:
        options = _run_options(judge, epochs, judge_protocol, judge_connections, log_dir, as_json)
        run = grade_priviq(
            data or default_data_dir(),
            predictions,
            grades=grades,
            model_name=model_name,
            out_dir=out,
            options=options,
        )
        _show_priviq(run, as_json)

    run_command(action)


@eval_app.command("priviq")
def eval_priviq_command(
    model: Annotated[str, typer.Option("--model", help="Model under test, as inspect names it.")],
    data: DataOption = None,
    judge: JudgeOption = "openai/gpt-4o",
    epochs: EpochsOption = 1,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Only the first N items.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Also write the reference-format exports here.")
    ] = None,
    judge_protocol: ProtocolOption = "paper",
    judge_connections: ConnectionsOption = 32,
    max_connections: MaxConnectionsOption = None,
    log_dir: LogDirOption = "logs",
    as_json: JsonOption = False,
) -> None:
    """Answer every Priv-IQ item with --model and grade the answers with the judge."""
    from privbench.priviq.api import eval_priviq

    def action() -> None:
        options = _run_options(judge, epochs, judge_protocol, judge_connections, log_dir, as_json)
        run = eval_priviq(
            data,
            model,
            limit=limit,
            out_dir=out,
            model_connections=max_connections,
            options=options,
        )
        _show_priviq(run, as_json)

    run_command(action)


def _show_spatial(run: Any, as_json: bool) -> None:
    from privbench.spatialtrust.tables import summary_line, task_table

    if as_json:
        print_json(run.json())
    else:
        stdout.print(task_table(run.model, run.strategy, run.scores))
        typer.echo(summary_line(run.scores, run.logged))
        typer.echo(f"log: {run.log_location}")
    run.require_success()


StrategyOption = Annotated[
    str, typer.Option("--strategy", help="direct (one call), staged, or guard (SpatialTrustGuard).")
]
BoxFormatOption = Annotated[
    str,
    typer.Option(
        "--box-format", help="The model's box convention: xyxy, xyxy1000, yxyx1000, xyxy1."
    ),
]


@eval_app.command("spatialtrust")
def eval_spatialtrust_command(
    model: Annotated[str, typer.Option("--model", help="Model under test, as inspect names it.")],
    data: DataOption = None,
    judge: JudgeOption = "openai/gpt-4o",
    strategy: StrategyOption = "direct",
    box_format: BoxFormatOption = "xyxy",
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Only the first N images.")
    ] = None,
    judge_connections: ConnectionsOption = 32,
    max_connections: MaxConnectionsOption = None,
    log_dir: LogDirOption = "logs",
    as_json: JsonOption = False,
) -> None:
    """Answer every SpatialTrust capture with --model and score the five questions."""
    from privbench.spatialtrust.api import eval_spatialtrust
    from privbench.spatialtrust.boxes import get_convention
    from privbench.spatialtrust.guard import STRATEGIES

    def action() -> None:
        if strategy not in STRATEGIES:
            raise UsageError(f"--strategy: choose from {', '.join(STRATEGIES)}, not '{strategy}'")
        try:
            get_convention(box_format)
        except ValueError as error:
            raise UsageError(f"--box-format: {error}") from None
        options = _run_options(judge, 1, "paper", judge_connections, log_dir, as_json)
        run = eval_spatialtrust(
            data,
            model,
            strategy=strategy,
            box_format=box_format,
            limit=limit,
            model_connections=max_connections,
            options=options,
        )
        _show_spatial(run, as_json)

    run_command(action)


@grade_app.command("spatialtrust")
def grade_spatialtrust_command(
    predictions: Annotated[
        Path, typer.Option("--predictions", help="preds.jsonl: one prediction per image.")
    ],
    data: DataOption = None,
    judge: JudgeOption = "openai/gpt-4o",
    model_name: Annotated[
        str | None,
        typer.Option("--model-name", help="Label of the graded model (default: file stem)."),
    ] = None,
    judge_connections: ConnectionsOption = 32,
    log_dir: LogDirOption = "logs",
    as_json: JsonOption = False,
) -> None:
    """Score SpatialTrust predictions made elsewhere (boxes in absolute pixels)."""
    from privbench.spatialtrust.api import grade_spatialtrust

    def action() -> None:
        options = _run_options(judge, 1, "paper", judge_connections, log_dir, as_json)
        run = grade_spatialtrust(data, predictions, model_name=model_name, options=options)
        _show_spatial(run, as_json)

    run_command(action)


SizeOption = Annotated[int, typer.Option("--n", min=1, help="Number of items / images.")]
SeedOption = Annotated[int, typer.Option("--seed", help="Random seed; same arguments, same bytes.")]
OutOption = Annotated[Path, typer.Option("--out", help="Directory to write the suite into.")]
ForceOption = Annotated[bool, typer.Option("--force", help="Replace a suite already in --out.")]


def _generate(generator: Callable[..., Path], n: int, seed: int, out: Path, force: bool) -> None:
    from privbench.validation import validate_directory

    def action() -> None:
        generator(n, seed, out, force=force)
        typer.echo(validate_directory(out).summary)

    run_command(action)


@generate_app.command("priviq")
def generate_priviq_command(
    out: OutOption, n: SizeOption = 146, seed: SeedOption = 0, force: ForceOption = False
) -> None:
    """A Priv-IQ-format suite (Table 1's combination counts for --n 146)."""
    from privbench.priviq.generate.suite import generate_priviq

    _generate(generate_priviq, n, seed, out, force)


@generate_app.command("spatialtrust")
def generate_spatialtrust_command(
    out: OutOption, n: SizeOption = 100, seed: SeedOption = 0, force: ForceOption = False
) -> None:
    """A SpatialTrust-format suite of 1440×960 captures with the five questions."""
    from privbench.spatialtrust.generate.suite import generate_spatialtrust

    _generate(generate_spatialtrust, n, seed, out, force)


@app.command()
def report(
    logs: Annotated[list[Path], typer.Argument(help="inspect logs, or directories of logs.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="The HTML file to write.")] = Path(
        "report.html"
    ),
    label: Annotated[
        list[str] | None,
        typer.Option("--label", help="Run labels, one per log in order (default: model names)."),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the bootstrap and permutations.")
    ] = 0,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", min=100, help="Bootstrap resamples.")
    ] = 1000,
    browse: Annotated[
        int, typer.Option("--browse", min=0, help="Items / images shown in the sample browser.")
    ] = 200,
    ratings: Annotated[
        Path | None,
        typer.Option("--ratings", help="Filled rating sheet: adds judge–human agreement."),
    ] = None,
    scale: Annotated[
        float, typer.Option("--scale", help="Score range of --ratings (1 or 10).")
    ] = 1.0,
) -> None:
    """One self-contained HTML report: tables, intervals, comparisons, figures, samples."""
    from privbench.report.html import ReportSettings, build_report

    def action() -> None:
        settings = ReportSettings(
            labels=label or (),
            seed=seed,
            n_boot=bootstrap,
            browse=browse,
            ratings=ratings,
            scale=scale,
        )
        path = build_report(logs, output, settings)
        typer.echo(f"report: {path}")
        typer.echo(f"figures: {path.with_name(path.stem + '_figures')}")

    run_command(action)


@app.command()
def agreement(
    ratings: Annotated[Path, typer.Option("--ratings", help="CSV: item_id,rater,score[,survey].")],
    scale: Annotated[
        float, typer.Option("--scale", help="Top of the score range (1 or 10).")
    ] = 1.0,
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
    from privbench.analysis.agreement import agreement_table, as_records, read_ratings

    def action() -> None:
        if scale not in (1.0, 10.0):
            raise UsageError(f"--scale: 1 or 10, not {scale:g}")
        ratings_data = read_ratings(ratings, judge_rater, scale)
        columns = agreement_table(ratings_data, tolerance if tolerance is not None else scale / 10)
        saved = _agreement_plots(ratings_data, plots or ratings.with_name(ratings.stem + "_plots"))
        if as_json:
            print_json(
                {
                    "agreement": as_records(columns),
                    "blank_ratings_skipped": ratings_data.blank,
                    "human_raters": ratings_data.raters,
                    "plots": [str(p) for p in saved],
                }
            )
            return
        stdout.print(_agreement_table(columns))
        typer.echo(
            f"{ratings_data.raters} human rater(s); {ratings_data.blank} blank rating(s) skipped; "
            f"plots: {', '.join(str(p) for p in saved)}"
        )

    run_command(action)


def _agreement_plots(ratings: Any, directory: Path) -> list[Path]:
    from privbench.report import figures

    surveys = list(dict.fromkeys(ratings.pairs["survey"]))
    saved = [
        figures.save(figures.bland_altman(ratings, s), directory, f"bland-altman-{i}", s)
        for i, s in enumerate(surveys)
    ]
    saved.append(figures.save(figures.violins(ratings), directory, "violins", "Human vs judge"))
    return [f.png for f in saved]


def _agreement_table(columns: Any) -> Any:
    from rich.table import Table

    table = Table(title="Judge–human agreement (Table 6 layout)", title_justify="left")
    table.add_column("Metric")
    for name, stats in columns.items():
        table.add_column(f"{name}\n(n = {stats.n})", justify="right")
    metrics = [
        ("Intraclass correlation (ICC2)", "icc", "{:.3f}"),
        ("Spearman ρ", "spearman_rho", "{:.3f}"),
        ("Spearman p", "spearman_p", "{:.3g}"),
        ("Mean absolute error", "mae", "{:.3f}"),
        ("Agreement rate", "agreement_rate", "{:.1%}"),
        ("Bland–Altman bias (human − judge)", "bias", "{:+.3f}"),
        ("Limits of agreement, low", "loa_low", "{:+.3f}"),
        ("Limits of agreement, high", "loa_high", "{:+.3f}"),
    ]
    for title, key, pattern in metrics:
        cells = []
        for stats in columns.values():
            value = getattr(stats, key)
            cells.append("n/a" if value != value else pattern.format(value))
        table.add_row(title, *cells)
    return table


@survey_app.command("export")
def survey_export(
    log: Annotated[list[Path], typer.Option("--log", help="Graded Priv-IQ log(s) or directories.")],
    n: Annotated[int, typer.Option("--n", min=1, help="Samples to rate.")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the random draw.")] = 0,
    raters: Annotated[int, typer.Option("--raters", min=1, help="Blank rows per sample.")] = 3,
    survey: Annotated[str, typer.Option("--survey", help="Survey name.")] = "Survey 1",
    out: Annotated[
        Path, typer.Option("--out", help="Directory for survey.csv and survey.html.")
    ] = Path("survey"),
) -> None:
    """Write a rating sheet (CSV + printable HTML) of randomly drawn graded samples."""
    from privbench.analysis.survey import export_survey

    def action() -> None:
        csv_path, html_path = export_survey(log, out, n=n, seed=seed, raters=raters, survey=survey)
        typer.echo(f"rating sheet: {csv_path}\nprintable form: {html_path}")

    run_command(action)


@app.command()
def demo(
    out: Annotated[Path, typer.Option("--out", help="Where logs and the report go.")] = Path(
        "privbench-demo"
    ),
    model: Annotated[
        str, typer.Option("--model", help="Model under test (default: the local OCR+PII baseline).")
    ] = "privbench/ocr-pii",
    judge: Annotated[
        str,
        typer.Option(
            "--judge", envvar="PRIVBENCH_JUDGE", help="Judge (default: the offline judge)."
        ),
    ] = "offline",
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Only the first N items of each suite.")
    ] = None,
) -> None:
    """Evaluate a model on both shipped suites, offline by default, and build the report."""
    from privbench.demo import check_suites, run_demo

    def action() -> None:
        for summary in check_suites():
            typer.echo(f"validate: {summary}")
        result = run_demo(out, model=model, judge=judge, limit=limit)
        _show_priviq(result.priviq, as_json=False)
        _show_spatial(result.spatialtrust, as_json=False)
        typer.echo(f"report: {result.report}")

    run_command(action)


def _run_options(
    judge: str, epochs: int, protocol: str, judge_connections: int, log_dir: str, as_json: bool
) -> RunOptions:
    """Run settings from the shared options; a JSON run shows no progress display."""
    from privbench.priviq.judge import get_protocol
    from privbench.running import RunOptions

    try:
        get_protocol(protocol)
    except ValueError as error:
        raise UsageError(f"--judge-protocol: {error}") from None
    return RunOptions(
        judge=judge,
        epochs=epochs,
        protocol=protocol,
        judge_connections=judge_connections,
        log_dir=log_dir,
        display="none" if as_json else None,
    )


def main() -> None:
    """Console-script entry point."""
    app()
