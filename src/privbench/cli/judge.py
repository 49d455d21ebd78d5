"""``privbench judge check``: how far a judge agrees with reference grades."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from privbench.cli import output, settings
from privbench.cli.options import (
    CacheOption,
    ConnectionsOption,
    DryRunOption,
    JsonOption,
    JudgeOnlyPriceOption,
    JudgeOption,
    JudgePriceOption,
    JudgeTemperatureOption,
    LogDirOption,
    MaxRetriesOption,
    ProtocolOption,
    SamplingSeedOption,
    TimeoutOption,
)
from privbench.cli.output import print_json, print_parts, run_command


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
            help="{verdict_title} {verdict_fields} reference verdicts (repeatable; default: the "
            "shipped sets).",
        ),
    ] = None,
    no_verdicts: Annotated[
        bool, typer.Option("--no-verdicts", help="Skip the {verdict_title} verdict check.")
    ] = False,
    no_probes: Annotated[bool, typer.Option("--no-probes", help="Skip the bias probes.")] = False,
    data: Annotated[
        Path | None,
        typer.Option(
            "--data", help="{graded_title} data the probes use (default: the shipped suite)."
        ),
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
        prices = settings.prices(price, judge_price, judge_only=True)
        generation = settings.generation(
            None, seed, None, max_retries, timeout, cache, False, judge_temperature
        )
        options = settings.run_options(
            judge, runs, judge_protocol, judge_connections, log_dir, as_json, generation
        )
        request = CheckRequest(
            against=against or (),
            verdicts=() if no_verdicts else (verdicts or None),
            probes=not no_probes,
            probe_data=settings.optional_data_dir(data),
            probe_items=probe_items,
            limit=limit,
            resume=resume,
            card_dir=card_dir,
        )
        if dry_run:
            settings.dry_run(check_plan(request, options), prices, as_json)
            return
        result = check_judge(request, options)
        for warning in result.warnings:
            typer.echo(f"warning: {warning}", err=True)
        if as_json:
            print_json(result.json())
            return
        # a pipe or a file gets the tables whole, not cut to 80 columns
        console = output.stdout if output.stdout.is_terminal else Console(width=120)
        print_parts(result.terminal(), console)

    run_command(action)
