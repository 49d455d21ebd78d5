"""How commands print and fail: one JSON document, tables whole, errors as one line.

Every command that computes scores accepts ``--json`` and then prints one JSON document
and nothing else. Errors the user can fix print one line (``error: ...``) on stderr and
exit with 1 (bad input) or 2 (usage); no traceback unless ``PRIVBENCH_DEBUG=1``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

import typer
from rich.console import Console, RenderableType

from privbench.runtime.errors import PrivbenchError
from privbench.runtime.redaction import redact
from privbench.terminal_tables import whole

stdout = Console()

T = TypeVar("T")


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


def print_json(document: Mapping[str, object]) -> None:
    """The one JSON document on stdout (NaN never appears: missing values are null)."""
    sys.stdout.write(json.dumps(document, ensure_ascii=False, allow_nan=False) + "\n")


def print_parts(parts: Iterable[RenderableType], console: Console | None = None) -> None:
    """Lines and tables in order: a line as it is, a table whole (never cut to the width)."""
    for part in parts:
        if isinstance(part, str):
            typer.echo(part)
        else:
            (console or stdout).print(whole(part))


def echo_lines(lines: Iterable[str], *, err: bool = False) -> None:
    for line in lines:
        typer.echo(line, err=err)


def print_tables(tables: Iterable[RenderableType]) -> None:
    """Renderables through the console, tables whole."""
    for table in tables:
        stdout.print(whole(table))
