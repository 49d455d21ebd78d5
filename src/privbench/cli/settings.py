"""The run settings the command line assembles from its options, checked once.

Why here: the eval, grade, build and judge-check commands share the generation settings,
the judge options, the prices and the data directory's meaning; each is turned into the
API's settings by one function, which also says in one line what is wrong with it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from privbench.cli.output import echo_lines, print_json
from privbench.runtime.errors import UsageError

if TYPE_CHECKING:  # imported where used: ``privbench --help`` loads no benchmark
    from privbench.runtime.cost.plan import CallPlan, Prices
    from privbench.runtime.running import Generation, RunOptions
    from privbench.runtime.suite import Suite


def generation(
    temperature: float | None,
    seed: int | None,
    max_tokens: int | None,
    max_retries: int,
    timeout: int,
    cache: bool,
    batch: bool,
    judge_temperature: float = 0.0,
) -> Generation:
    """The model's and the judge's generation settings (temperature 0 unless given)."""
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


def no_epochs(epochs: int | None) -> None:
    """``--epochs`` (hidden): renamed, and says to what."""
    if epochs is not None:
        raise UsageError(
            "--epochs: renamed --judge-runs (the judge grades each answer N times; "
            "the model answers once)"
        )


def check_label(label: str | None, resume: Path | None) -> None:
    """A blank label, or one for a resumed run (which keeps the label it started with)."""
    if label is not None and not label.strip():
        raise UsageError("--label: give a name (it is empty)")
    if label is not None and resume is not None:
        raise UsageError(
            f"--label: {resume} keeps the label it was started with; `privbench show LOG "
            "--model-name NAME` shows a run under another name"
        )


def prices(price: str | None, judge_price: str | None, *, judge_only: bool = False) -> Prices:
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


def dry_run(plan: CallPlan, run_prices: Prices, as_json: bool) -> None:
    """Print what ``plan`` would send and cost (one JSON document with ``--json``)."""
    from privbench.runtime.cost.plan import dry_run_document, dry_run_lines

    document = dry_run_document(plan, run_prices)
    if as_json:
        print_json(document)
        return
    echo_lines(dry_run_lines(document))


def run_options(
    judge: str,
    judge_runs: int,
    protocol: str,
    judge_connections: int,
    log_dir: str,
    as_json: bool,
    settings: Generation | None = None,
    judge_card: Path | None = None,
    protocols: tuple[str, ...] | None = None,
) -> RunOptions:
    """Run settings from the shared options (``protocols``: the judge protocols of the
    benchmark that runs; default: every benchmark's)."""
    from privbench import registry
    from privbench.judges.choice import parse_judge
    from privbench.runtime.running import Generation, RunOptions

    protocols = protocols or registry.judge_protocols()
    if protocol not in protocols:
        raise UsageError(
            f"--judge-protocol: unknown judge protocol '{protocol}' "
            f"(choose from {', '.join(protocols)})"
        )
    choice = parse_judge(judge)  # the one reading of --judge
    if (
        settings is not None
        and settings.judge_temperature
        and choice.temperature(settings.judge_temperature) is None
    ):
        raise UsageError(
            "--judge-temperature: the offline judge has no temperature (its rules give the "
            "same grade every time)"
        )
    return RunOptions(
        judge=choice,
        judge_runs=judge_runs,
        protocol=protocol,
        judge_connections=judge_connections,
        log_dir=log_dir,
        display="none",
        generation=settings or Generation(),
        judge_card=str(judge_card) if judge_card else None,
    )


def data_dir(directory: Path) -> Path:
    """A data directory as given (a name a benchmark gives a meaning: the directory it
    stands for, with a note)."""
    from privbench import registry

    path, note = registry.resolve_data(directory)
    if note:
        typer.echo(note, err=True)
    return path


def optional_data_dir(data: Path | None) -> Path | None:
    """``--data`` as :func:`data_dir`; no ``--data``: the command's default."""
    return None if data is None else data_dir(data)


def suite_data_dir(suite: Suite, data: Path | None) -> Path | None:
    """``--data`` of a command of one benchmark: a name only that benchmark gives a
    meaning to (a downloaded release), else the path; None: its default."""
    if data is None or suite.resolve_data is None:
        return data
    path, note = suite.resolve_data(data)
    if note:
        typer.echo(note, err=True)
    return path
