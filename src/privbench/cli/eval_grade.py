"""``privbench eval BENCHMARK`` and ``privbench grade BENCHMARK``: the options each takes.

Each command only declares its options (their names, help and defaults are what
``--help`` shows) and hands them to the one dispatch, :func:`privbench.cli.runs.run_benchmark`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from privbench.cli.options import (
    AllowDraftsOption,
    BatchOption,
    BoxFormatOption,
    CacheOption,
    ComparePublishedOption,
    ConnectionsOption,
    DataOption,
    DryRunOption,
    EpochsOption,
    ExplainOption,
    GradedModelNameOption,
    JsonOption,
    JudgeCardOption,
    JudgeOnlyPriceOption,
    JudgeOption,
    JudgePriceOption,
    JudgeRunsOption,
    JudgeTemperatureOption,
    LogDirOption,
    MaxConnectionsOption,
    MaxRetriesOption,
    MaxTokensOption,
    ModelOption,
    OverwriteOption,
    PriceOption,
    ProtocolOption,
    ReaskOption,
    ResumeOption,
    RunLabelOption,
    SamplingSeedOption,
    SpatialOutOption,
    StrategyOption,
    TemperatureOption,
    TimeoutOption,
)
from privbench.cli.runs import RunArguments, run_benchmark


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
    run_benchmark(
        RunArguments(
            "grade",
            "priviq",
            predictions,
            data,
            judge,
            judge_temperature,
            out,
            label,
            judge_connections,
            log_dir,
            resume,
            seed,
            max_retries,
            timeout,
            cache,
            batch,
            judge_card,
            as_json,
            dry_run,
            price,
            judge_price,
            judge_runs=judge_runs,
            judge_protocol=judge_protocol,
            model_name=model_name,
            epochs=epochs,
            settings={
                "grades": grades,
                "reuse_unverified_grades": reuse_unverified_grades,
                "explain": explain,
            },
        )
    )


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
    run_benchmark(
        RunArguments(
            "eval",
            "priviq",
            model,
            data,
            judge,
            judge_temperature,
            out,
            label,
            judge_connections,
            log_dir,
            resume,
            seed,
            max_retries,
            timeout,
            cache,
            batch,
            judge_card,
            as_json,
            dry_run,
            price,
            judge_price,
            judge_runs=judge_runs,
            judge_protocol=judge_protocol,
            temperature=temperature,
            max_tokens=max_tokens,
            limit=limit,
            max_connections=max_connections,
            epochs=epochs,
            settings={"explain": explain},
        )
    )


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
    out: SpatialOutOption = None,
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
    run_benchmark(
        RunArguments(
            "eval",
            "spatialtrust",
            model,
            data,
            judge,
            judge_temperature,
            out,
            label,
            judge_connections,
            log_dir,
            resume,
            seed,
            max_retries,
            timeout,
            cache,
            batch,
            judge_card,
            as_json,
            dry_run,
            price,
            judge_price,
            temperature=temperature,
            max_tokens=max_tokens,
            limit=limit,
            max_connections=max_connections,
            compare_published=compare_published,
            settings={
                "strategy": strategy,
                "box_format": box_format,
                "reask_unparsed": reask_unparsed,
                "overwrite": overwrite,
                "allow_drafts": allow_drafts,
            },
        )
    )


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
    out: SpatialOutOption = None,
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
    run_benchmark(
        RunArguments(
            "grade",
            "spatialtrust",
            predictions,
            data,
            judge,
            judge_temperature,
            out,
            label,
            judge_connections,
            log_dir,
            resume,
            seed,
            max_retries,
            timeout,
            cache,
            batch,
            judge_card,
            as_json,
            dry_run,
            price,
            judge_price,
            model_name=model_name,
            compare_published=compare_published,
            settings={
                "box_format": box_format,
                "overwrite": overwrite,
                "allow_drafts": allow_drafts,
            },
        )
    )
