"""The ``privbench`` command line: a thin layer over the Python API.

Every command that computes scores accepts ``--json`` and then prints one JSON document
and nothing else. Errors the user can fix print one line (``error: ...``) on stderr and
exit with 1 (bad input) or 2 (usage); no traceback unless ``PRIVBENCH_DEBUG=1``.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from typer.core import TyperGroup

from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.runtime.redaction import redact
from privbench.terminal_tables import whole

if TYPE_CHECKING:
    from privbench.runtime.cost.plan import CallPlan, Prices
    from privbench.runtime.running import BenchmarkRun, Generation, RunOptions
    from privbench.suites.spatialtrust.question_design import QuestionTypes

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
build_app = typer.Typer(
    help="Make a benchmark dataset from your own captures.", no_args_is_help=True
)
app.add_typer(generate_app, name="generate")
app.add_typer(build_app, name="build")
judge_app = typer.Typer(
    help="Check a judge against reference grades before trusting its scores.",
    no_args_is_help=True,
)
app.add_typer(judge_app, name="judge")
download_app = typer.Typer(
    help="Download a benchmark's public release (then use it with --data priviq).",
    no_args_is_help=True,
)
app.add_typer(download_app, name="download")


class _ServeByDefault(TyperGroup):
    """``privbench review DIR`` runs ``privbench review serve DIR``.

    Why a group with a default: ``review export`` and other subcommands live beside the
    server, and a group argument would swallow their names; so anything that is not a
    subcommand (or ``--help``) is taken as the arguments of ``serve``.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        # ctx: typer's vendored click Context, which typer does not export
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["serve", *args]
        return super().parse_args(ctx, args)


review_app = typer.Typer(
    cls=_ServeByDefault,
    help="Review a built dataset's annotations in the browser (privbench review DIR).",
    no_args_is_help=True,
)
app.add_typer(review_app, name="review")

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
JudgeRunsOption = Annotated[
    int,
    typer.Option(
        "--judge-runs",
        min=1,
        help="Times the judge grades each answer (the paper's num_run: 5); the model answers once.",
    ),
]
EpochsOption = Annotated[
    int | None, typer.Option("--epochs", hidden=True, help="Renamed: use --judge-runs.")
]
ResumeOption = Annotated[
    Path | None,
    typer.Option(
        "--resume",
        help="Continue an interrupted run from its inspect log: only items without a result "
        "are sent, and an answer the model already gave is not asked for again.",
    ),
]
TemperatureOption = Annotated[
    float | None,
    typer.Option("--temperature", help="Model under test's temperature (default 0)."),
]
JudgeTemperatureOption = Annotated[
    float,
    typer.Option(
        "--judge-temperature",
        min=0.0,
        help="The judge's temperature (default 0; re-asks add 0.5 each). Above 0 the judge "
        "samples, so --judge-runs N measures its noise (docs/judge.md).",
    ),
]
SamplingSeedOption = Annotated[
    int | None, typer.Option("--seed", help="Sampling seed for the model and the judge.")
]
MaxTokensOption = Annotated[
    int | None, typer.Option("--max-tokens", min=1, help="Model under test's output limit.")
]
MaxRetriesOption = Annotated[
    int, typer.Option("--max-retries", min=0, help="Retries per call, model and judge.")
]
TimeoutOption = Annotated[
    int, typer.Option("--timeout", min=1, help="Seconds per attempt of a call, model and judge.")
]
CacheOption = Annotated[
    bool,
    typer.Option("--cache", help="inspect's model cache: a rerun of the same calls is free."),
]
BatchOption = Annotated[
    bool,
    typer.Option(
        "--batch", help="Provider batch APIs where inspect supports them (cheaper, slower)."
    ),
]


def _generation(
    temperature: float | None,
    seed: int | None,
    max_tokens: int | None,
    max_retries: int,
    timeout: int,
    cache: bool,
    batch: bool,
    judge_temperature: float = 0.0,
) -> Generation:
    from privbench.runtime.running import Generation

    return Generation(
        temperature=0.0 if temperature is None else temperature,
        seed=seed,
        max_tokens=max_tokens,
        max_retries=max_retries,
        timeout=timeout,
        cache=cache,
        batch=batch,
        judge_temperature=judge_temperature,
    )


def _no_epochs(epochs: int | None) -> None:
    if epochs is not None:
        raise UsageError(
            "--epochs: renamed --judge-runs (the judge grades each answer N times; "
            "the model answers once)"
        )


ProtocolOption = Annotated[
    str,
    typer.Option(
        "--judge-protocol",
        help="paper (the paper's, docs/judge.md) or hardened (fenced, JSON verdict).",
    ),
]
ConnectionsOption = Annotated[
    int, typer.Option("--judge-connections", min=1, help="Concurrent requests to the judge.")
]
LogDirOption = Annotated[str, typer.Option("--log-dir", help="Where inspect writes its logs.")]
MaxConnectionsOption = Annotated[
    int | None, typer.Option("--max-connections", min=1, help="Concurrent requests to the model.")
]
ModelOption = Annotated[
    str | None,
    typer.Option(
        "--model", help="Model under test, as inspect names it (required unless --resume)."
    ),
]
GradedModelNameOption = Annotated[
    str | None,
    typer.Option(
        "--model-name",
        help="The model that made the answers (default: the one the file names, else its "
        "file or folder name); the run's label unless --label is given.",
    ),
]
RunLabelOption = Annotated[
    str | None,
    typer.Option(
        "--label",
        help="The run's display name in tables, --json, export file names and the report "
        "(recorded in the log; default: the model).",
    ),
]


def _check_label(label: str | None, resume: Path | None) -> None:
    """A blank label, or one for a resumed run (which keeps the label it started with)."""
    if label is not None and not label.strip():
        raise UsageError("--label: give a name (it is empty)")
    if label is not None and resume is not None:
        raise UsageError(
            f"--label: {resume} keeps the label it was started with; `privbench show LOG "
            "--model-name NAME` shows a run under another name"
        )


ExplainOption = Annotated[
    bool,
    typer.Option(
        "--explain",
        help="Offline judge: list per item the rules that made its grade (also in the "
        "grade file and --json).",
    ),
]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print one JSON document and nothing else.")
]
ComparePublishedOption = Annotated[
    bool,
    typer.Option(
        "--compare-published",
        help="Show the paper's tables beside the run: SpatialTrust's Tables 2 and 3 (over "
        "its own captures); Priv-IQ's over data of the release's shape that is not verified "
        "as the release (runs over the verified release show them by themselves).",
    ),
]
JudgeCardOption = Annotated[
    Path | None,
    typer.Option(
        "--judge-card",
        help="A judge card (privbench judge check) to show beside the scores; default: the "
        "card found for this judge, protocol and prompt in privbench's cache.",
    ),
]


DryRunOption = Annotated[
    bool,
    typer.Option(
        "--dry-run",
        help="Print the calls, tokens and estimated cost; send nothing, write no log "
        "(docs/cost.md).",
    ),
]
PriceOption = Annotated[
    str | None,
    typer.Option(
        "--price",
        help="USD per million input/output tokens of the model under test, IN/OUT (e.g. "
        "2.5/10); default: privbench's price table.",
    ),
]
JudgePriceOption = Annotated[
    str | None,
    typer.Option("--judge-price", help="USD per million input/output tokens of the judge, IN/OUT."),
]
JudgeOnlyPriceOption = Annotated[
    str | None,
    typer.Option(
        "--price",
        help="USD per million input/output tokens of the judge (the only model this command "
        "calls), IN/OUT; same as --judge-price.",
    ),
]


def _prices(price: str | None, judge_price: str | None, *, judge_only: bool = False) -> Prices:
    """The run's prices: ``--price`` (the model under test; on a command that calls only a
    judge, the judge), ``--judge-price``, and the shipped table for the rest."""
    from privbench.runtime.cost.plan import Prices
    from privbench.runtime.cost.prices import parse_price

    model = parse_price(price, "--price") if price is not None else None
    judge = parse_price(judge_price, "--judge-price") if judge_price is not None else None
    if judge_only:
        if model is not None and judge is not None:
            raise UsageError("--price, --judge-price: give one (this command calls only the judge)")
        return Prices(judge=model or judge)
    return Prices(model=model, judge=judge)


def _dry_run(plan: CallPlan, prices: Prices, as_json: bool) -> None:
    """Print what ``plan`` would send and cost (one JSON document with ``--json``)."""
    from privbench.runtime.cost.plan import dry_run_document, dry_run_lines

    document = dry_run_document(plan, prices)
    if as_json:
        print_json(document)
        return
    for line in dry_run_lines(document):
        typer.echo(line)


def run_command(action: Callable[[], T]) -> T:
    """Run ``action``; turn user-facing errors into one line on stderr and an exit code."""
    try:
        return action()
    except typer.Exit:
        raise
    except PrivbenchError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(error.exit_code) from None
    except KeyboardInterrupt:
        typer.echo("interrupted before a run log was written: nothing to resume", err=True)
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


def _priviq_dir(directory: Path) -> Path:
    """``priviq``: the downloaded release (an existing ./priviq wins, with a note)."""
    from privbench.suites.priviq.release import resolve_data

    path, note = resolve_data(directory)
    if note:
        typer.echo(note, err=True)
    return path


def _priviq_data(data: Path | None) -> Path | None:
    """``--data priviq`` as :func:`_priviq_dir`; no ``--data``: the command's default."""
    return None if data is None else _priviq_dir(data)


def print_json(document: Mapping[str, object]) -> None:
    """The one JSON document on stdout (NaN never appears: missing values are null)."""
    sys.stdout.write(json.dumps(document, ensure_ascii=False, allow_nan=False) + "\n")


@app.command()
def validate(directory: Annotated[Path, typer.Argument(help="Benchmark directory.")]) -> None:
    """Report every problem of a benchmark directory, one line each (exit 1 if any)."""
    from privbench.validation import validate_directory

    def action() -> int:
        report = validate_directory(_priviq_dir(directory))
        for problem in report.problems:
            typer.echo(str(problem))
        if report.problems:
            typer.echo(f"{len(report.problems)} problem(s) in {directory}", err=True)
            return 1
        typer.echo(report.summary)
        return 0

    raise typer.Exit(run_command(action))


@app.command()
def audit(
    directories: Annotated[
        list[Path] | None,
        typer.Argument(help="Benchmark directories (default: both shipped suites)."),
    ] = None,
    as_json: JsonOption = False,
    ocr: Annotated[
        bool,
        typer.Option("--ocr", help="Priv-IQ: how much of each answer is printed in the image."),
    ] = False,
) -> None:
    """Trivial baselines, answer leakage and distributions of a dataset (docs/audit.md)."""
    from privbench.audit import audit_directory
    from privbench.audit.tables import audit_tables, summary_lines
    from privbench.shipped import PRIVIQ_SUITE, SPATIALTRUST_SUITE

    def action() -> None:
        paths = [_priviq_dir(p) for p in directories or [PRIVIQ_SUITE, SPATIALTRUST_SUITE]]
        documents = [audit_directory(path, ocr=ocr) for path in paths]
        if as_json:
            print_json(documents[0] if len(documents) == 1 else {"audits": documents})
            return
        for document in documents:
            for table in audit_tables(document):
                stdout.print(whole(table))
            for line in summary_lines(document):
                typer.echo(line)

    run_command(action)


def _resume_hint(command: str, run: BenchmarkRun, out: Path | None, log_dir: str) -> str:
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


def _judge_agreement(run: BenchmarkRun) -> None:
    """The judge-agreement line under the tables: the run's judge card, or "not checked"."""
    from privbench.runtime.record import RunIdentity

    typer.echo(RunIdentity.from_log(run.log).judge_agreement_line)


def _warn_logged_card(run: BenchmarkRun) -> None:
    """One warning line on stderr when the card the run's log records failed its check."""
    from privbench.runtime.record import RunIdentity

    problem = RunIdentity.from_log(run.log).judge_card_problem
    if problem:
        typer.echo(f"warning: {problem}; the judge counts as not checked", err=True)


def _show(run: BenchmarkRun, as_json: bool, resume: str | None = None) -> None:
    """A run's ``--json`` document or its tables and lines, then its notices and exit."""
    _warn_logged_card(run)
    if as_json:
        print_json(run.json())
    else:
        for part in run.terminal():
            if isinstance(part, str):
                typer.echo(part)
            else:
                stdout.print(whole(part))
        _judge_agreement(run)
    _offline_notice(run.judge_name)
    _warn_extra_ids(run)
    if resume is not None:
        _stop_if_interrupted(run, resume)
    run.require_success()


@grade_app.command("priviq")
def grade_priviq_command(
    predictions: Annotated[
        Path | None, typer.Option("--predictions", help="results.json: id → answer.")
    ] = None,
    data: DataOption = None,
    grades: Annotated[
        Path | None,
        typer.Option("--grades", help="Earlier grade file: runs of unchanged answers are reused."),
    ] = None,
    reuse_unverified_grades: Annotated[
        bool,
        typer.Option(
            "--reuse-unverified-grades",
            help="Also reuse --grades runs that record no answer (the reference evaluator's "
            "files) where the judge is the same, without checking the answer.",
        ),
    ] = False,
    judge: JudgeOption = "openai/gpt-4o",
    judge_runs: JudgeRunsOption = 1,
    judge_temperature: JudgeTemperatureOption = 0.0,
    out: Annotated[
        Path | None, typer.Option("--out", help="Export directory (default: beside --predictions).")
    ] = None,
    model_name: GradedModelNameOption = None,
    label: RunLabelOption = None,
    judge_protocol: ProtocolOption = "paper",
    judge_connections: ConnectionsOption = 32,
    log_dir: LogDirOption = "logs",
    resume: ResumeOption = None,
    seed: SamplingSeedOption = None,
    max_retries: MaxRetriesOption = 3,
    timeout: TimeoutOption = 120,
    cache: CacheOption = False,
    batch: BatchOption = False,
    explain: ExplainOption = False,
    judge_card: JudgeCardOption = None,
    as_json: JsonOption = False,
    epochs: EpochsOption = None,
    dry_run: DryRunOption = False,
    price: JudgeOnlyPriceOption = None,
    judge_price: JudgePriceOption = None,
) -> None:
    """Grade a results.json with the Priv-IQ judge; write the grade file and score CSVs."""
    from privbench.suites.priviq import plan as priviq_plan
    from privbench.suites.priviq.api import grade_priviq, resume_priviq
    from privbench.suites.priviq.task import default_data_dir

    def action() -> None:
        _no_epochs(epochs)
        _check_label(label, resume)
        prices = _prices(price, judge_price, judge_only=True)
        generation = _generation(
            None, seed, None, max_retries, timeout, cache, batch, judge_temperature
        )
        options = _run_options(
            judge,
            judge_runs,
            judge_protocol,
            judge_connections,
            log_dir,
            as_json,
            generation,
            judge_card,
        )
        if resume is not None:
            if dry_run:
                _dry_run(priviq_plan.resume_plan(resume, options), prices, as_json)
                return
            run = resume_priviq(resume, model_name=model_name, out_dir=out, options=options)
        elif predictions is None:
            raise UsageError("--predictions: required (or --resume LOG)")
        else:
            priviq_data = _priviq_data(data)
            if dry_run:
                graded = priviq_plan.grade_plan(priviq_data, predictions, options, grades=grades)
                _dry_run(graded, prices, as_json)
                return
            run = grade_priviq(
                priviq_data or default_data_dir(),
                predictions,
                grades=grades,
                model_name=model_name,
                out_dir=out,
                options=options,
                explain=explain,
                label=label,
                reuse_unverified=reuse_unverified_grades,
            )
        run.prices = prices
        _show(run, as_json, _resume_hint("grade priviq", run, out, log_dir))

    run_command(action)


@eval_app.command("priviq")
def eval_priviq_command(
    model: ModelOption = None,
    data: DataOption = None,
    judge: JudgeOption = "openai/gpt-4o",
    judge_runs: JudgeRunsOption = 1,
    judge_temperature: JudgeTemperatureOption = 0.0,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Only the first N items.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Also write results.json and the reference exports here."),
    ] = None,
    label: RunLabelOption = None,
    judge_protocol: ProtocolOption = "paper",
    judge_connections: ConnectionsOption = 32,
    max_connections: MaxConnectionsOption = None,
    log_dir: LogDirOption = "logs",
    resume: ResumeOption = None,
    temperature: TemperatureOption = None,
    seed: SamplingSeedOption = None,
    max_tokens: MaxTokensOption = None,
    max_retries: MaxRetriesOption = 3,
    timeout: TimeoutOption = 120,
    cache: CacheOption = False,
    batch: BatchOption = False,
    explain: ExplainOption = False,
    judge_card: JudgeCardOption = None,
    as_json: JsonOption = False,
    epochs: EpochsOption = None,
    dry_run: DryRunOption = False,
    price: PriceOption = None,
    judge_price: JudgePriceOption = None,
) -> None:
    """Answer every Priv-IQ item once with --model and grade the answers with the judge."""
    from privbench.suites.priviq import plan as priviq_plan
    from privbench.suites.priviq.api import eval_priviq, resume_priviq

    def action() -> None:
        _no_epochs(epochs)
        _check_label(label, resume)
        prices = _prices(price, judge_price)
        generation = _generation(
            temperature, seed, max_tokens, max_retries, timeout, cache, batch, judge_temperature
        )
        options = _run_options(
            judge,
            judge_runs,
            judge_protocol,
            judge_connections,
            log_dir,
            as_json,
            generation,
            judge_card,
        )
        if resume is not None:
            if dry_run:
                _dry_run(priviq_plan.resume_plan(resume, options), prices, as_json)
                return
            run = resume_priviq(resume, out_dir=out, options=options)
        elif model is None:
            raise UsageError("--model: required (or --resume LOG)")
        else:
            priviq_data = _priviq_data(data)
            if dry_run:
                planned = priviq_plan.eval_plan(priviq_data, model, options, limit=limit)
                _dry_run(planned, prices, as_json)
                return
            run = eval_priviq(
                priviq_data,
                model,
                limit=limit,
                out_dir=out,
                model_connections=max_connections,
                options=options,
                explain=explain,
                label=label,
            )
        run.prices = prices
        _show(run, as_json, _resume_hint("eval priviq", run, out, log_dir))

    run_command(action)


TableFormatOption = Annotated[
    str | None,
    typer.Option(
        "--format",
        help="Print the paper tables of the logs (one benchmark) as latex, markdown or csv "
        "instead; with --out, write them there as files.",
    ),
]


@app.command()
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
            help="SpatialTrust: read the answers' boxes in this convention instead of the "
            "run's (no model or judge call): xyxy, xyxy1000, yxyx1000, xyxy1, qwen25.",
        ),
    ] = None,
    overwrite: OverwriteOption = False,
    compare_published: ComparePublishedOption = False,
    as_json: JsonOption = False,
    table_format: TableFormatOption = None,
) -> None:
    """Tables and exports of finished privbench logs (also ones finished by inspect eval-retry)."""
    from privbench.runtime.log_reading import benchmark_of
    from privbench.suites.priviq.api import read_priviq_log
    from privbench.suites.spatialtrust.api import read_spatialtrust_log

    def one(log: Path) -> BenchmarkRun:
        benchmark = benchmark_of(log)
        if benchmark == "priviq":
            if box_format is not None:
                raise UsageError(f"--box-format: only for SpatialTrust logs ({log} is Priv-IQ)")
            priviq_run = read_priviq_log(log, model=model_name, out_dir=out)
            priviq_run.compare_published = compare_published
            if compare_published and not priviq_run.published:
                reason = priviq_run.published_reason
                typer.echo(f"--compare-published: no published Priv-IQ rows: {reason}", err=True)
            return priviq_run
        if box_format is not None:
            _check_spatial_options("direct", box_format)
        run = read_spatialtrust_log(
            log, model=model_name, out_dir=out, box_format=box_format, overwrite=overwrite
        )
        run.compare_published = compare_published
        return run

    def action() -> None:
        if table_format is not None:
            _show_tables(logs, table_format, out, model_name, box_format, overwrite, as_json)
            return
        if len(logs) == 1:
            _show(one(logs[0]), as_json)
            return
        _show_several(logs, one, out, model_name, as_json)

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
        runs = [one(log) for log in logs]
        for run in runs:
            _warn_logged_card(run)
        print_json({"logs": [run.json() for run in runs]})
        for run in runs:
            run.require_success()
        return
    for index, log in enumerate(logs):
        if index:
            typer.echo("")
        typer.echo(f"== {log}")
        _show(one(log), False)


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


def _warn_extra_ids(run: BenchmarkRun) -> None:
    """One warning line on stderr per input file with ids that match no item."""
    from privbench.runtime.errors import extra_ids_warning

    for file, ids in run.extra_ids.items():
        typer.echo(extra_ids_warning(file, ids), err=True)


StrategyOption = Annotated[
    str, typer.Option("--strategy", help="direct (one call), staged, or guard (SpatialTrustGuard).")
]
BoxFormatOption = Annotated[
    str,
    typer.Option(
        "--box-format",
        help="The boxes' convention: xyxy (pixels), xyxy1000 (0–1000: Qwen2-VL, Qwen3-VL, "
        "InternVL), yxyx1000 (Gemini), xyxy1 (0–1), qwen25 (Qwen2.5-VL: pixels of its resized "
        "input). See docs/spatialtrust.md.",
    ),
]
ReaskOption = Annotated[
    int,
    typer.Option(
        "--reask-unparsed",
        min=0,
        help="Ask again, with the format restated, up to N times when an answer cannot be "
        "read (default 0: the paper's one pass; the score without re-asks is shown beside).",
    ),
]
OverwriteOption = Annotated[
    bool, typer.Option("--overwrite", help="Replace this run's exports in --out if they exist.")
]
AllowDraftsOption = Annotated[
    bool,
    typer.Option(
        "--allow-drafts",
        help="Run even if some images' annotations are drafts no person reviewed "
        "(privbench build); every output then says how many.",
    ),
]


def _check_spatial_options(strategy: str, box_format: str) -> None:
    from privbench.suites.spatialtrust.boxes import get_convention
    from privbench.suites.spatialtrust.solvers import STRATEGIES

    if strategy not in STRATEGIES:
        raise UsageError(f"--strategy: choose from {', '.join(STRATEGIES)}, not '{strategy}'")
    try:
        get_convention(box_format)
    except ValueError as error:
        raise UsageError(f"--box-format: {error}") from None


@eval_app.command("spatialtrust")
def eval_spatialtrust_command(
    model: ModelOption = None,
    data: DataOption = None,
    judge: JudgeOption = "openai/gpt-4o",
    judge_temperature: JudgeTemperatureOption = 0.0,
    strategy: StrategyOption = "direct",
    box_format: BoxFormatOption = "xyxy",
    reask_unparsed: ReaskOption = 0,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Only the first N images.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the per-image scores CSV and the JSON summary here."),
    ] = None,
    label: RunLabelOption = None,
    overwrite: OverwriteOption = False,
    judge_connections: ConnectionsOption = 32,
    max_connections: MaxConnectionsOption = None,
    log_dir: LogDirOption = "logs",
    resume: ResumeOption = None,
    temperature: TemperatureOption = None,
    seed: SamplingSeedOption = None,
    max_tokens: MaxTokensOption = None,
    max_retries: MaxRetriesOption = 3,
    timeout: TimeoutOption = 120,
    cache: CacheOption = False,
    batch: BatchOption = False,
    allow_drafts: AllowDraftsOption = False,
    judge_card: JudgeCardOption = None,
    compare_published: ComparePublishedOption = False,
    as_json: JsonOption = False,
    dry_run: DryRunOption = False,
    price: PriceOption = None,
    judge_price: JudgePriceOption = None,
) -> None:
    """Answer every SpatialTrust capture with --model and score the five questions."""
    from privbench.suites.spatialtrust import plan as spatial_plan
    from privbench.suites.spatialtrust.api import eval_spatialtrust, resume_spatialtrust

    def action() -> None:
        _check_spatial_options(strategy, box_format)
        _check_label(label, resume)
        prices = _prices(price, judge_price)
        generation = _generation(
            temperature, seed, max_tokens, max_retries, timeout, cache, batch, judge_temperature
        )
        options = _run_options(
            judge, 1, "paper", judge_connections, log_dir, as_json, generation, judge_card
        )
        if resume is not None:
            if dry_run:
                _dry_run(spatial_plan.resume_plan(resume, options), prices, as_json)
                return
            run = resume_spatialtrust(resume, out_dir=out, options=options, overwrite=overwrite)
        elif model is None:
            raise UsageError("--model: required (or --resume LOG)")
        else:
            if dry_run:
                planned = spatial_plan.eval_plan(
                    data,
                    model,
                    options,
                    strategy=strategy,
                    box_format=box_format,
                    reask_unparsed=reask_unparsed,
                    limit=limit,
                )
                _dry_run(planned, prices, as_json)
                return
            run = eval_spatialtrust(
                data,
                model,
                strategy=strategy,
                box_format=box_format,
                limit=limit,
                model_connections=max_connections,
                out_dir=out,
                options=options,
                reask_unparsed=reask_unparsed,
                overwrite=overwrite,
                allow_drafts=allow_drafts,
                label=label,
            )
        run.compare_published = compare_published
        run.prices = prices
        _show(run, as_json, _resume_hint("eval spatialtrust", run, out, log_dir))

    run_command(action)


@grade_app.command("spatialtrust")
def grade_spatialtrust_command(
    predictions: Annotated[
        Path | None, typer.Option("--predictions", help="preds.jsonl: one prediction per image.")
    ] = None,
    data: DataOption = None,
    judge: JudgeOption = "openai/gpt-4o",
    judge_temperature: JudgeTemperatureOption = 0.0,
    model_name: GradedModelNameOption = None,
    label: RunLabelOption = None,
    box_format: BoxFormatOption = "xyxy",
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the per-image scores CSV and the JSON summary here."),
    ] = None,
    overwrite: OverwriteOption = False,
    judge_connections: ConnectionsOption = 32,
    log_dir: LogDirOption = "logs",
    resume: ResumeOption = None,
    seed: SamplingSeedOption = None,
    max_retries: MaxRetriesOption = 3,
    timeout: TimeoutOption = 120,
    cache: CacheOption = False,
    batch: BatchOption = False,
    allow_drafts: AllowDraftsOption = False,
    judge_card: JudgeCardOption = None,
    compare_published: ComparePublishedOption = False,
    as_json: JsonOption = False,
    dry_run: DryRunOption = False,
    price: JudgeOnlyPriceOption = None,
    judge_price: JudgePriceOption = None,
) -> None:
    """Score SpatialTrust predictions made elsewhere (format: docs/spatialtrust.md)."""
    from privbench.suites.spatialtrust import plan as spatial_plan
    from privbench.suites.spatialtrust.api import grade_spatialtrust, resume_spatialtrust

    def action() -> None:
        _check_spatial_options("direct", box_format)
        _check_label(label, resume)
        prices = _prices(price, judge_price, judge_only=True)
        generation = _generation(
            None, seed, None, max_retries, timeout, cache, batch, judge_temperature
        )
        options = _run_options(
            judge, 1, "paper", judge_connections, log_dir, as_json, generation, judge_card
        )
        if resume is not None:
            if dry_run:
                _dry_run(spatial_plan.resume_plan(resume, options), prices, as_json)
                return
            run = resume_spatialtrust(
                resume, model_name=model_name, out_dir=out, options=options, overwrite=overwrite
            )
        elif predictions is None:
            raise UsageError("--predictions: required (or --resume LOG)")
        else:
            if dry_run:
                graded = spatial_plan.grade_plan(data, predictions, options, box_format=box_format)
                _dry_run(graded, prices, as_json)
                return
            run = grade_spatialtrust(
                data,
                predictions,
                model_name=model_name,
                box_format=box_format,
                out_dir=out,
                options=options,
                overwrite=overwrite,
                allow_drafts=allow_drafts,
                label=label,
            )
        run.compare_published = compare_published
        run.prices = prices
        _show(run, as_json, _resume_hint("grade spatialtrust", run, out, log_dir))

    run_command(action)


SizeOption = Annotated[int, typer.Option("--n", min=1, help="Number of items / images.")]
SeedOption = Annotated[int, typer.Option("--seed", help="Random seed; same arguments, same bytes.")]
OutOption = Annotated[Path, typer.Option("--out", help="Directory to write the suite into.")]
ForceOption = Annotated[bool, typer.Option("--force", help="Replace a suite already in --out.")]


def _generate(generator: Callable[..., Path], n: int, seed: int, out: Path, force: bool) -> None:
    from privbench.validation import validate_directory

    def action() -> None:
        from privbench.runtime.output_dirs import ensure_writable_dir

        ensure_writable_dir(out, "--out")
        generator(n, seed, out, force=force)
        typer.echo(validate_directory(out).summary)

    run_command(action)


@generate_app.command("priviq")
def generate_priviq_command(
    out: OutOption, n: SizeOption = 146, seed: SeedOption = 0, force: ForceOption = False
) -> None:
    """A Priv-IQ-format suite (Table 1's combination counts for --n 146)."""
    from privbench.tooling.priviq_generator.suite import generate_priviq

    _generate(generate_priviq, n, seed, out, force)


QuestionTypesOption = Annotated[
    str,
    typer.Option(
        "--question-types",
        help="q2/q3 types: paper (multiple exactly when 2+ options are right, as the paper) "
        "or neutral (always multiple: the type does not tell how many to pick).",
    ),
]


def _question_types(text: str) -> QuestionTypes:
    """``--question-types`` checked (one line naming the choices)."""
    from privbench.suites.spatialtrust.question_design import QUESTION_TYPES

    for types in QUESTION_TYPES:
        if text == types:
            return types
    raise UsageError(f"--question-types: {' or '.join(QUESTION_TYPES)}, not '{text}'")


@generate_app.command("spatialtrust")
def generate_spatialtrust_command(
    out: OutOption,
    n: SizeOption = 100,
    seed: SeedOption = 0,
    force: ForceOption = False,
    question_types: QuestionTypesOption = "paper",
) -> None:
    """A SpatialTrust-format suite of 1440×960 captures with the five questions."""
    from privbench.tooling.spatialtrust_scenes.suite import generate_spatialtrust

    def generator(n: int, seed: int, out: Path, *, force: bool) -> Path:
        types = _question_types(question_types)
        return generate_spatialtrust(n, seed, out, force=force, question_types=types)

    _generate(generator, n, seed, out, force)


@download_app.command("priviq")
def download_priviq_command(
    directory: Annotated[
        Path | None,
        typer.Option("--dir", help="Folder to keep it in (default: privbench's cache)."),
    ] = None,
    url: Annotated[
        str | None,
        typer.Option("--url", help="Another address of the same zip (a mirror)."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Download again even if a copy is there.")
    ] = False,
) -> None:
    """The public Priv-IQ release: fetch (resumable), check, unpack; then --data priviq."""
    from privbench.suites.priviq.release import DEFAULT_URL, download_priviq

    def action() -> None:
        release = download_priviq(directory, url or DEFAULT_URL, force=force)
        for line in release.lines():
            typer.echo(line)

    run_command(action)


def _size(text: str) -> tuple[int, int]:
    """``--size 1440x960`` (or ``1440×960``) as a width and a height."""
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise UsageError(f"--size: write WIDTHxHEIGHT (e.g. 1440x960), not '{text}'")
    return int(parts[0]), int(parts[1])


@build_app.command("spatialtrust")
def build_spatialtrust_command(
    sources: Annotated[
        list[Path] | None,
        typer.Argument(help="Videos (mp4, mov, webm, avi), images, or folders of images."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Folder to write the dataset into (required; new or empty)."),
    ] = None,
    every: Annotated[
        float, typer.Option("--every", help="Seconds between frames sampled from a video.")
    ] = 2.0,
    max_captures: Annotated[
        int | None, typer.Option("--max", min=1, help="Keep at most N captures.")
    ] = None,
    size: Annotated[
        str, typer.Option("--size", help="Capture size WIDTHxHEIGHT (centre-cropped).")
    ] = "1440x960",
    faces: Annotated[
        str, typer.Option("--faces", help="keep, or blur every face but the primary subject's.")
    ] = "keep",
    drafter: Annotated[
        str,
        typer.Option(
            "--drafter", help="Model that drafts the annotations (as inspect names it), or none."
        ),
    ] = "none",
    box_format: BoxFormatOption = "xyxy",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the options' order.")] = 0,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Replace an earlier build in --out.")
    ] = False,
    max_connections: MaxConnectionsOption = None,
    max_tokens: Annotated[
        int | None, typer.Option("--max-tokens", min=1, help="The drafter's output limit.")
    ] = None,
    question_types: QuestionTypesOption = "paper",
    log_dir: LogDirOption = "logs",
    resume: ResumeOption = None,
    max_retries: MaxRetriesOption = 3,
    timeout: TimeoutOption = 120,
    cache: CacheOption = False,
    as_json: JsonOption = False,
    dry_run: DryRunOption = False,
    price: Annotated[
        str | None,
        typer.Option("--price", help="USD per million input/output tokens of the drafter, IN/OUT."),
    ] = None,
) -> None:
    """A SpatialTrust dataset from videos and images: frames, normalized captures, drafted
    annotations, questions (every image a draft until a person reviews it)."""
    from privbench.tooling.spatialtrust_builder.api import (
        BuildRequest,
        build_spatialtrust,
        draft_plan,
        resume_build,
    )

    def action() -> None:
        prices = _prices(price, None)
        generation = _generation(None, None, max_tokens, max_retries, timeout, cache, False)
        options = _run_options("offline", 1, "paper", 32, log_dir, as_json, generation)
        if resume is not None:
            if dry_run:
                raise UsageError("--dry-run: plans a new build, not a --resume of one")
            if max_tokens is not None:
                raise UsageError("--max-tokens: a resumed build keeps the limit it started with")
            outcome = resume_build(resume, options)
        else:
            if out is None:
                raise UsageError("--out: required (or --resume LOG)")
            if faces not in ("keep", "blur"):
                raise UsageError(f"--faces: keep or blur, not '{faces}'")
            request = BuildRequest(
                sources=tuple(sources or ()),
                out=out,
                every=every,
                max_captures=max_captures,
                size=_size(size),
                faces="blur" if faces == "blur" else "keep",
                drafter=drafter,
                box_format=box_format,
                seed=seed,
                overwrite=overwrite,
                max_connections=max_connections,
                max_tokens=max_tokens,
                question_types=_question_types(question_types),
            )
            if dry_run:
                _dry_run(draft_plan(request), prices, as_json)
                return
            outcome = build_spatialtrust(request, options)
        if as_json:
            print_json(outcome.json())
        else:
            for line in outcome.terminal():
                typer.echo(line)
        if not outcome.complete:
            hint = f"privbench build spatialtrust --resume {shlex.quote(str(outcome.log_location))}"
            if log_dir != "logs":
                hint += f" --log-dir {shlex.quote(log_dir)}"
            typer.echo(f"resume (completed drafts are not asked again): {hint}", err=True)
            raise typer.Exit(130 if outcome.interrupted else 1)

    run_command(action)


@review_app.command("serve")
def review_serve_command(
    directory: Annotated[Path, typer.Argument(help="A SpatialTrust dataset directory.")],
    annotator: Annotated[
        str | None,
        typer.Option(help="Who saves (default: your login name, else 'annotator')."),
    ] = None,
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1 (0: a free one).")] = 0,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Print the URL; do not open a browser.")
    ] = False,
    surveys: Annotated[
        Path | None,
        typer.Option("--surveys", help="A survey export folder: also serve its rating forms."),
    ] = None,
) -> None:
    """Serve the annotation review app on 127.0.0.1 until Ctrl-C (also: privbench review DIR)."""
    from privbench.review.server import default_annotator, serve

    def action() -> None:
        if not 0 <= port <= 65535:
            raise UsageError(f"--port {port}: must be 0–65535")
        serve(
            directory,
            annotator if annotator is not None else default_annotator(),
            port,
            open_browser=not no_browser,
            echo=lambda line: typer.echo(line),
            surveys=surveys,
        )

    run_command(action)


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


@app.command()
def diff(
    log_a: Annotated[Path, typer.Argument(help="Run A: a privbench inspect log.")],
    log_b: Annotated[Path, typer.Argument(help="Run B: a log of the same benchmark and data.")],
    top: Annotated[
        int, typer.Option("--top", min=0, help="Items listed whose score changed most.")
    ] = 10,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the bootstrap and permutations.")
    ] = 0,
    as_json: JsonOption = False,
) -> None:
    """Two runs on the same data, item by item: B − A with 95 % intervals, what changed most."""
    from privbench.analysis.run_diff import diff_logs, json_document, terminal

    def action() -> None:
        result = diff_logs(log_a, log_b, top=top, seed=seed)
        if as_json:
            print_json(json_document(result))
            return
        for part in terminal(result):
            if isinstance(part, str):
                typer.echo(part)
            else:
                stdout.print(whole(part))

    run_command(action)


@app.command()
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


@app.command()
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

    def action() -> None:
        ratings_data = read_ratings(ratings, judge_rater, scale, key or ())
        used = ratings_data.scale
        columns = agreement_table(ratings_data, tolerance if tolerance is not None else used / 10)
        first = ratings[0]
        directory = plots or first.with_name(first.stem + "_plots")
        saved = _agreement_plots(ratings_data, directory, used)
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
        stdout.print(whole(_agreement_table(columns)))
        typer.echo(
            f"{ratings_data.raters} human rater(s) on 0–{used:g}; {ratings_data.blank} blank "
            f"rating(s) skipped; plots: {', '.join(str(p) for p in saved)}"
        )

    run_command(action)


def _agreement_plots(ratings: Any, directory: Path, scale: float) -> list[Path]:
    from privbench.report import figures

    surveys = list(dict.fromkeys(ratings.pairs["survey"]))
    saved = [
        figures.save(figures.bland_altman(ratings, s, scale), directory, f"bland-altman-{i}", s)
        for i, s in enumerate(surveys)
    ]
    violins = figures.violins(ratings, scale)
    saved.append(figures.save(violins, directory, "violins", "Human vs judge"))
    return [f.png for f in saved]


def _agreement_table(columns: Any) -> Any:
    from rich.table import Table

    from privbench.analysis.agreement import format_stat

    table = Table(title="Judge–human agreement (Table 6 layout)", title_justify="left")
    table.add_column("Metric")
    for name, stats in columns.items():
        table.add_column(f"{name}\n(n = {stats.n})", justify="right")
    metrics = [
        ("Intraclass correlation (ICC2)", "icc"),
        ("Spearman ρ", "spearman_rho"),
        ("Spearman p", "spearman_p"),
        ("Mean absolute error", "mae"),
        ("Agreement rate", "agreement_rate"),
        ("Bland–Altman bias (human − judge)", "bias"),
        ("Limits of agreement, low", "loa_low"),
        ("Limits of agreement, high", "loa_high"),
    ]
    for title, key in metrics:
        table.add_row(title, *(format_stat(key, getattr(s, key)) for s in columns.values()))
    return table


@survey_app.command("export")
def survey_export(
    log: Annotated[list[Path], typer.Option("--log", help="Graded Priv-IQ log(s) or directories.")],
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


@survey_app.command("collect")
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
    dry_run: DryRunOption = False,
    price: PriceOption = None,
    judge_price: JudgePriceOption = None,
) -> None:
    """Evaluate a model on both shipped suites, offline by default, and build the report."""
    from privbench.demo import check_suites, run_demo

    def action() -> None:
        prices = _prices(price, judge_price)
        if dry_run:
            from privbench.runtime.cost.plan import combined
            from privbench.runtime.running import RunOptions
            from privbench.suites.priviq.plan import eval_plan as priviq_plan
            from privbench.suites.spatialtrust.plan import eval_plan as spatial_plan

            options = RunOptions(judge=judge)
            plans = [priviq_plan(None, model, options, limit=limit),
                     spatial_plan(None, model, options, limit=limit)]  # fmt: skip
            _dry_run(combined("demo", plans), prices, as_json=False)
            return
        for summary in check_suites():
            typer.echo(f"validate: {summary}")
        result = run_demo(out, model=model, judge=judge, limit=limit, prices=prices)
        for run in result.runs.values():
            _show(run, as_json=False)
        typer.echo(f"report: {result.report}")

    run_command(action)


@review_app.command("export")
def review_export_command(
    directory: Annotated[
        Path, typer.Argument(help="A built dataset whose review.sqlite holds the reviews.")
    ],
    out: Annotated[Path, typer.Option("--out", help="Folder for the reviewed dataset (new).")],
    annotator: Annotated[
        str | None, typer.Option("--annotator", help="Export this annotator's annotations.")
    ] = None,
    merge: Annotated[
        bool,
        typer.Option(
            "--merge", help="Merge the annotations of images two or more annotators accepted."
        ),
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the options' order.")] = 0,
    as_json: JsonOption = False,
) -> None:
    """A dataset of the annotations people accepted, with inter-annotator agreement."""
    from privbench.tooling.spatialtrust_builder.review_export import export_reviewed

    def action() -> None:
        outcome = export_reviewed(directory, out, annotator=annotator, merge=merge, seed=seed)
        if as_json:
            print_json(outcome.json())
            return
        for line in outcome.lines():
            typer.echo(line)
        figures = outcome.agreement
        if figures.pooled is None:
            typer.echo("agreement: no image was accepted by two annotators")
        else:
            rows = [*figures.pairs, figures.pooled] if len(figures.pairs) > 1 else figures.pairs
            stdout.print(whole(_review_agreement_table(figures.images, rows)))
            for row in rows:
                kappas = (("presence", row.presence_kappa), ("category", row.category_kappa))
                for what, kappa in kappas:
                    if kappa.value is None:
                        typer.echo(f"{row.annotators}: {what} κ undefined: {kappa.reason}")
            if figures.most_disagreeing:
                typer.echo(
                    "most disagreeing (score = 2 × presence differs + unmatched boxes + "
                    "category changes, over annotator pairs):"
                )
            for d in figures.most_disagreeing:
                typer.echo(
                    f"  {d.image}: {d.score} (presence differs {d.presence_differs}, "
                    f"unmatched boxes {d.unmatched_boxes}, category changes {d.category_changes})"
                )
        typer.echo(outcome.validation)
        typer.echo(f"review record: {outcome.out / 'review.json'}")

    run_command(action)


def _review_agreement_table(images: int, rows: Sequence[Any]) -> Any:
    from rich.table import Table

    def number(value: float | None) -> str:
        return "–" if value is None else f"{value:.3f}"

    table = Table(
        title=f"Agreement ({images} images accepted by 2+ annotators)",
        title_justify="left",
    )
    table.add_column("Figure")
    for row in rows:
        table.add_column(row.annotators, justify="right")
    figures: list[tuple[str, Callable[[Any], str]]] = [
        ("Images accepted by both", lambda r: str(r.images)),
        ("Presence (q1) agreement", lambda r: number(r.presence_agreement)),
        ("Presence Cohen's κ", lambda r: number(r.presence_kappa.value)),
        ("Boxes (both annotators)", lambda r: str(r.boxes)),
        ("Boxes matched (IoU ≥ 0.5)", lambda r: number(r.matched_share)),
        ("Mean IoU of matched pairs", lambda r: number(r.mean_iou)),
        ("Category agreement, matched", lambda r: number(r.category_agreement)),
        ("Category Cohen's κ, matched", lambda r: number(r.category_kappa.value)),
    ]
    for title, value in figures:
        table.add_row(title, *(value(r) for r in rows))
    return table


@judge_app.command("check")
def judge_check_command(
    judge: JudgeOption = "openai/gpt-4o",
    against: Annotated[
        list[Path] | None,
        typer.Option(
            "--against",
            help="Reference grades: JSONL (question, reference, prediction, score or scores), "
            "or the rating files / survey CSV of a blind study (repeatable). Default: the "
            "shipped calibration set.",
        ),
    ] = None,
    runs: Annotated[
        int,
        typer.Option(
            "--runs", min=1, help="Judge runs per item (as --judge-runs): 2+ adds test–retest."
        ),
    ] = 1,
    judge_protocol: ProtocolOption = "paper",
    judge_temperature: JudgeTemperatureOption = 0.0,
    verdicts: Annotated[
        list[Path] | None,
        typer.Option(
            "--verdicts",
            help="SpatialTrust q4/q5 reference verdicts (repeatable; default: the shipped sets).",
        ),
    ] = None,
    no_verdicts: Annotated[
        bool, typer.Option("--no-verdicts", help="Skip the SpatialTrust verdict check.")
    ] = False,
    no_probes: Annotated[bool, typer.Option("--no-probes", help="Skip the bias probes.")] = False,
    data: Annotated[
        Path | None,
        typer.Option("--data", help="Priv-IQ data the probes use (default: the shipped suite)."),
    ] = None,
    probe_items: Annotated[
        int, typer.Option("--probe-items", min=1, help="Items each probe is built on.")
    ] = 20,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit",
            min=1,
            help="Grade a sample of N reference answers, spread over grade strata and "
            "competencies (--dry-run shows the calls and cost).",
        ),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Reuse each step's complete log in --log-dir and continue an interrupted "
            "one (same options): nothing graded is paid twice.",
        ),
    ] = False,
    card_dir: Annotated[
        Path | None,
        typer.Option("--card-dir", help="Also write the judge cards into this folder."),
    ] = None,
    judge_connections: ConnectionsOption = 32,
    log_dir: LogDirOption = "logs",
    seed: SamplingSeedOption = None,
    max_retries: MaxRetriesOption = 3,
    timeout: TimeoutOption = 120,
    cache: CacheOption = False,
    as_json: JsonOption = False,
    dry_run: DryRunOption = False,
    price: JudgeOnlyPriceOption = None,
    judge_price: JudgePriceOption = None,
) -> None:
    """Grade reference-graded answers with a judge, as a run would; report how far it agrees."""
    from privbench.judgecheck.api import CheckRequest, check_judge, check_plan

    def action() -> None:
        prices = _prices(price, judge_price, judge_only=True)
        generation = _generation(
            None, seed, None, max_retries, timeout, cache, False, judge_temperature
        )
        options = _run_options(
            judge, runs, judge_protocol, judge_connections, log_dir, as_json, generation
        )
        request = CheckRequest(
            against=against or (),
            verdicts=() if no_verdicts else (verdicts or None),
            probes=not no_probes,
            probe_data=_priviq_data(data),
            probe_items=probe_items,
            limit=limit,
            resume=resume,
            card_dir=card_dir,
        )
        if dry_run:
            _dry_run(check_plan(request, options), prices, as_json)
            return
        result = check_judge(request, options)
        for warning in result.warnings:
            typer.echo(f"warning: {warning}", err=True)
        if as_json:
            print_json(result.json())
            return
        # a pipe or a file gets the tables whole, not cut to 80 columns
        console = stdout if stdout.is_terminal else Console(width=120)
        for part in result.terminal():
            if isinstance(part, str):
                typer.echo(part)
            else:
                console.print(whole(part))

    run_command(action)


def _run_options(
    judge: str,
    judge_runs: int,
    protocol: str,
    judge_connections: int,
    log_dir: str,
    as_json: bool,
    generation: Generation | None = None,
    judge_card: Path | None = None,
) -> RunOptions:
    """Run settings from the shared options."""
    from privbench.runtime.judging import is_offline
    from privbench.runtime.running import Generation, RunOptions
    from privbench.suites.priviq.judge import get_protocol

    try:
        get_protocol(protocol)
    except ValueError as error:
        raise UsageError(f"--judge-protocol: {error}") from None
    if generation is not None and generation.judge_temperature and is_offline(judge):
        raise UsageError(
            "--judge-temperature: the offline judge has no temperature (its rules give the "
            "same grade every time)"
        )
    return RunOptions(
        judge=judge,
        judge_runs=judge_runs,
        protocol=protocol,
        judge_connections=judge_connections,
        log_dir=log_dir,
        display="none",
        generation=generation or Generation(),
        judge_card=str(judge_card) if judge_card else None,
    )


def main() -> None:
    """Console-script entry point."""
    app()
