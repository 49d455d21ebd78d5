"""``privbench build spatialtrust``: a dataset from your own videos and images."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from privbench.cli import settings
from privbench.cli.declared_help import DeclaredHelp
from privbench.cli.options import (
    CacheOption,
    DryRunOption,
    JsonOption,
    LogDirOption,
    MaxConnectionsOption,
    MaxRetriesOption,
    OptionOrderSeedOption,
    ResumeOption,
    TimeoutOption,
    price_option,
)
from privbench.cli.output import echo_lines, print_json, run_command
from privbench.runtime.errors import UsageError


def _size(text: str) -> tuple[int, int]:
    """``--size 1440x960`` (or ``1440×960``) as a width and a height."""
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise UsageError(f"--size: write WIDTHxHEIGHT (e.g. 1440x960), not '{text}'")
    return int(parts[0]), int(parts[1])


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
    box_format: Annotated[str, typer.Option("--box-format", help="{box_format_help}")] = "xyxy",
    seed: OptionOrderSeedOption = 0,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Replace an earlier build in --out.")
    ] = False,
    max_connections: MaxConnectionsOption = None,
    max_tokens: Annotated[
        int | None, typer.Option("--max-tokens", min=1, help="The drafter's output limit.")
    ] = None,
    question_types: Annotated[
        str, typer.Option("--question-types", help="{question_types_help}")
    ] = "paper",
    log_dir: LogDirOption = "logs",
    resume: ResumeOption = None,
    max_retries: MaxRetriesOption = 3,
    timeout: TimeoutOption = 120,
    cache: CacheOption = False,
    as_json: JsonOption = False,
    dry_run: DryRunOption = False,
    price: Annotated[str | None, price_option("--price", "the drafter")] = None,
) -> None:
    """A SpatialTrust dataset from videos and images: frames, normalized captures, drafted
    annotations, questions (every image a draft until a person reviews it)."""
    from privbench import registry
    from privbench.tooling.spatialtrust_builder.api import (
        BuildRequest,
        build_spatialtrust,
        draft_plan,
        resume_build,
    )

    def action() -> None:
        prices = settings.prices(price, None)
        generation = settings.generation(None, None, max_tokens, max_retries, timeout, cache, False)
        options = settings.run_options("offline", 1, "paper", 32, log_dir, as_json, generation)
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
                question_types=registry.question_types(question_types),
            )
            if dry_run:
                settings.dry_run(draft_plan(request), prices, as_json)
                return
            outcome = build_spatialtrust(request, options)
        if as_json:
            print_json(outcome.json())
        else:
            echo_lines(outcome.terminal())
        if not outcome.complete:
            hint = f"privbench build spatialtrust --resume {shlex.quote(str(outcome.log_location))}"
            if log_dir != "logs":
                hint += f" --log-dir {shlex.quote(log_dir)}"
            typer.echo(f"resume (completed drafts are not asked again): {hint}", err=True)
            raise typer.Exit(130 if outcome.interrupted else 1)

    run_command(action)


def add_commands(group: typer.Typer) -> None:
    """The builders ``privbench build`` offers: SpatialTrust's, which reads its option help
    from the benchmark's declaration."""
    group.command("spatialtrust", cls=DeclaredHelp)(build_spatialtrust_command)
