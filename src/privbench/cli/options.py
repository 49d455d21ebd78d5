"""Every option more than one command takes, defined once (as :data:`typing.Annotated`
aliases: the name, help and limits live here, each command gives the default).

Why one place: the same option spelled in two commands drifts (a help text, a limit);
here ``--judge`` or ``--max-retries`` means one thing wherever it appears.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from privbench.runtime.suite import SettingValue

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


JsonOption = Annotated[
    bool, typer.Option("--json", help="Print one JSON document and nothing else.")
]

ComparePublishedOption = Annotated[
    bool,
    typer.Option(
        "--compare-published",
        help="Show the paper's tables beside the run: {published}.",
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


def price_option(flag: str, whose: str, after: str = ".") -> typer.models.OptionInfo:
    """A ``--price``-like option: ``IN/OUT`` USD per million tokens of ``whose`` calls (one
    wording for the price format in every command)."""
    option: typer.models.OptionInfo = typer.Option(
        flag, help=f"USD per million input/output tokens of {whose}, IN/OUT{after}"
    )
    return option


PriceOption = Annotated[
    str | None,
    price_option(
        "--price", "the model under test", " (e.g. 2.5/10); default: privbench's price table."
    ),
]

JudgePriceOption = Annotated[str | None, price_option("--judge-price", "the judge")]

JudgeOnlyPriceOption = Annotated[
    str | None,
    price_option(
        "--price", "the judge (the only model this command calls)", "; same as --judge-price."
    ),
]

TableFormatOption = Annotated[
    str | None,
    typer.Option(
        "--format",
        help="Print the paper tables of the logs (one benchmark) as latex, markdown or csv "
        "instead; with --out, write them there as files.",
    ),
]


OverwriteOption = Annotated[
    bool, typer.Option("--overwrite", help="Replace this run's exports in --out if they exist.")
]


SizeOption = Annotated[int, typer.Option("--n", min=1, help="Number of items / images.")]

SeedOption = Annotated[int, typer.Option("--seed", help="Random seed; same arguments, same bytes.")]

OutOption = Annotated[Path, typer.Option("--out", help="Directory to write the suite into.")]

ForceOption = Annotated[bool, typer.Option("--force", help="Replace a suite already in --out.")]


BootstrapSeedOption = Annotated[
    int, typer.Option("--seed", help="Seed of the bootstrap and permutations.")
]
OptionOrderSeedOption = Annotated[int, typer.Option("--seed", help="Seed of the options' order.")]


# The options of every benchmark's eval and grade commands, by the key a benchmark's
# declaration names them with (privbench.runtime.suite.CommandSpec).

PredictionsOption = Annotated[
    Path | None, typer.Option("--predictions", help="The answers to grade.")
]

LimitOption = Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N items.")]

RunOutOption = Annotated[Path | None, typer.Option("--out", help="Write the run's exports here.")]


@dataclass(frozen=True)
class RunOption:
    """A shared option of the eval and grade commands: its declaration and default.

    ``setting``: its value goes to the benchmark's settings (``--box-format``), not to the
    dispatch's own arguments."""

    annotation: object
    default: SettingValue
    setting: bool = False


RUN_OPTIONS: dict[str, RunOption] = {
    "model": RunOption(ModelOption, None),
    "predictions": RunOption(PredictionsOption, None),
    "data": RunOption(DataOption, None),
    "judge": RunOption(JudgeOption, "openai/gpt-4o"),
    "judge_runs": RunOption(JudgeRunsOption, 1),
    "judge_temperature": RunOption(JudgeTemperatureOption, 0.0),
    "limit": RunOption(LimitOption, None),
    "out": RunOption(RunOutOption, None),
    "model_name": RunOption(GradedModelNameOption, None),
    "label": RunOption(RunLabelOption, None),
    "judge_protocol": RunOption(ProtocolOption, "paper"),
    "judge_connections": RunOption(ConnectionsOption, 32),
    "max_connections": RunOption(MaxConnectionsOption, None),
    "log_dir": RunOption(LogDirOption, "logs"),
    "resume": RunOption(ResumeOption, None),
    "temperature": RunOption(TemperatureOption, None),
    "seed": RunOption(SamplingSeedOption, None),
    "max_tokens": RunOption(MaxTokensOption, None),
    "max_retries": RunOption(MaxRetriesOption, 3),
    "timeout": RunOption(TimeoutOption, 120),
    "cache": RunOption(CacheOption, False),
    "batch": RunOption(BatchOption, False),
    "judge_card": RunOption(JudgeCardOption, None),
    "compare_published": RunOption(ComparePublishedOption, False),
    "as_json": RunOption(JsonOption, False),
    "epochs": RunOption(EpochsOption, None),
    "dry_run": RunOption(DryRunOption, False),
    "price": RunOption(PriceOption, None),
    "judge_price": RunOption(JudgePriceOption, None),
    "overwrite": RunOption(OverwriteOption, False, setting=True),
}
"""Every shared option of the eval commands by key (the dispatch's argument it fills)."""

GRADE_RUN_OPTIONS: dict[str, RunOption] = {"price": RunOption(JudgeOnlyPriceOption, None)}
"""Where a grade command's option differs: it calls only the judge."""
