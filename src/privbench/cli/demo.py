"""``privbench demo``: every shipped suite, offline by default, and the report."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from privbench.cli import settings
from privbench.cli.options import DryRunOption, JudgePriceOption, PriceOption
from privbench.cli.output import run_command
from privbench.cli.runs import show_run


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
    """Evaluate a model on every shipped suite, offline by default, and build the report."""
    from privbench.demo import check_suites, run_demo

    def action() -> None:
        from privbench import registry

        prices = settings.prices(price, judge_price)
        if dry_run:
            from privbench.judges.choice import parse_judge
            from privbench.runtime.cost.plan import combined
            from privbench.runtime.running import RunOptions
            from privbench.runtime.suite import EvalRequest

            options = RunOptions(judge=parse_judge(judge))
            plans = [
                suite.eval_plan(
                    EvalRequest(None, model, options, limit=limit, settings=suite.demo_settings)
                )
                for suite in registry.SUITES.values()
                if suite.default_copy().path is not None
            ]
            settings.dry_run(combined("demo", plans), prices, as_json=False)
            return
        for summary in check_suites():
            typer.echo(f"validate: {summary}")
        # the runs as the demo made them, built with the prices asked for
        result = run_demo(out, model=model, judge=judge, limit=limit, prices=prices)
        for run in result.runs.values():
            show_run(run, as_json=False)
        for name, note in result.skipped.items():
            typer.echo(f"{name}: not run ({note})")
        for suite in registry.SUITES.values():
            if suite.demo_note and suite.name in result.runs:
                typer.echo(f"{suite.name}: {suite.demo_note}")
        typer.echo(f"report: {result.report}")

    run_command(action)
