"""``privbench generate BENCHMARK`` and ``privbench download priviq``: getting data."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from privbench.cli.options import (
    ForceOption,
    OutOption,
    QuestionTypesOption,
    SeedOption,
    SizeOption,
)
from privbench.cli.output import echo_lines, run_command

if TYPE_CHECKING:
    from privbench.runtime.suite import Settings


def generate_suite(
    name: str, n: int, seed: int, out: Path, force: bool, settings: Settings | None = None
) -> None:
    """Write a generated suite of benchmark ``name`` and print its validation summary."""
    from privbench import registry
    from privbench.runtime.output_dirs import ensure_writable_dir
    from privbench.runtime.suite import GenerateRequest
    from privbench.validation import validate_directory

    generate = registry.get(name).generate
    assert generate is not None, f"{name}: no generator"

    def action() -> None:
        ensure_writable_dir(out, "--out")
        generate(GenerateRequest(n, seed, out, force, settings or {}))
        typer.echo(validate_directory(out).summary)

    run_command(action)


def generate_priviq_command(
    out: OutOption, n: SizeOption = 146, seed: SeedOption = 0, force: ForceOption = False
) -> None:
    """A Priv-IQ-format suite (Table 1's combination counts for --n 146)."""
    generate_suite("priviq", n, seed, out, force)


def generate_spatialtrust_command(
    out: OutOption,
    n: SizeOption = 100,
    seed: SeedOption = 0,
    force: ForceOption = False,
    question_types: QuestionTypesOption = "paper",
) -> None:
    """A SpatialTrust-format suite of 1440×960 captures with the five questions."""
    generate_suite("spatialtrust", n, seed, out, force, {"question_types": question_types})


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
    from privbench import registry
    from privbench.runtime.suite import DownloadRequest

    download = registry.get("priviq").download
    assert download is not None, "priviq: no public release to download"

    def action() -> None:
        echo_lines(download(DownloadRequest(directory, url, force=force)))

    run_command(action)
