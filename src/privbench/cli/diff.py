"""``privbench diff``: two runs on the same data, item by item."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from privbench.cli.options import BootstrapSeedOption, JsonOption
from privbench.cli.output import print_json, print_parts, run_command


def diff(
    log_a: Annotated[Path, typer.Argument(help="Run A: a privbench inspect log.")],
    log_b: Annotated[Path, typer.Argument(help="Run B: a log of the same benchmark and data.")],
    top: Annotated[
        int, typer.Option("--top", min=0, help="Items listed whose score changed most.")
    ] = 10,
    seed: BootstrapSeedOption = 0,
    as_json: JsonOption = False,
) -> None:
    """Two runs on the same data, item by item: B − A with 95 % intervals, what changed most."""
    from privbench.analysis.run_diff import diff_logs, json_document, terminal

    def action() -> None:
        result = diff_logs(log_a, log_b, top=top, seed=seed)
        if as_json:
            print_json(json_document(result))
            return
        print_parts(terminal(result))

    run_command(action)
