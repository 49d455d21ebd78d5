"""``privbench review``: the annotation review app, and the dataset people accepted."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from typer.core import TyperGroup

from privbench.cli.options import JsonOption, OptionOrderSeedOption
from privbench.cli.output import print_json, print_parts, run_command
from privbench.runtime.errors import UsageError

if TYPE_CHECKING:  # typer's vendored click, which typer does not export
    from typer._click.core import Context


class ServeByDefault(TyperGroup):
    """``privbench review DIR`` runs ``privbench review serve DIR``.

    Why a group with a default: ``review export`` and other subcommands live beside the
    server, and a group argument would swallow their names; so anything that is not a
    subcommand (or ``--help``) is taken as the arguments of ``serve``.
    """

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["serve", *args]
        return super().parse_args(ctx, args)


def review_serve_command(
    directory: Annotated[Path, typer.Argument(help="A {annotated_title} dataset directory.")],
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
    seed: OptionOrderSeedOption = 0,
    as_json: JsonOption = False,
) -> None:
    """A dataset of the annotations people accepted, with inter-annotator agreement."""
    from privbench.review.app import reviewed_suite

    def action() -> None:
        suite, review = reviewed_suite(directory)
        if review.export is None:
            raise UsageError(f"{directory}: {suite.title} annotations have no export")
        exported = review.export(directory, out, annotator, merge, seed)
        if as_json:
            print_json(exported.document)
            return
        print_parts(exported.parts)

    run_command(action)
