"""``privbench generate BENCHMARK`` and ``privbench download BENCHMARK``: getting data.

Why built and not written: like ``eval`` and ``grade`` (:mod:`privbench.cli.eval_grade`),
each benchmark declares these commands (:class:`~privbench.runtime.suite.GenerateCommand`,
:class:`~privbench.runtime.suite.DownloadCommand`), and a benchmark has one when it has
the hook (``generate``, ``download``): a benchmark added to :mod:`privbench.registry`
with a generator or a downloader has its command without an edit here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

import typer
import typer.main
from typer.core import TyperGroup

from privbench.cli.eval_grade import _own
from privbench.cli.options import ForceOption, OutOption, SeedOption, SizeOption
from privbench.cli.output import echo_lines, run_command

if TYPE_CHECKING:  # typer's vendored click, which typer does not export
    from typer._click.core import Command, Context

    from privbench.runtime.suite import Settings, SettingValue, Suite

DataKind = Literal["generate", "download"]


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


def download_suite(name: str, directory: Path | None, url: str | None, force: bool) -> None:
    """Fetch benchmark ``name``'s public release and print what was done."""
    from privbench import registry
    from privbench.runtime.suite import DownloadRequest

    download = registry.get(name).download
    assert download is not None, f"{name}: no public release to download"

    def action() -> None:
        echo_lines(download(DownloadRequest(directory, url, force=force)))

    run_command(action)


DirOption = Annotated[
    Path | None, typer.Option("--dir", help="Folder to keep it in (default: privbench's cache).")
]
UrlOption = Annotated[
    str | None, typer.Option("--url", help="Another address of the same zip (a mirror).")
]
AgainOption = Annotated[
    bool, typer.Option("--force", help="Download again even if a copy is there.")
]


def _keyword(
    name: str, annotation: object, default: object = inspect.Parameter.empty
) -> inspect.Parameter:
    """One option of a built command (no default: a required one)."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    return inspect.Parameter(name, keyword, default=default, annotation=annotation)


def _command(
    name: str, help_text: str, parameters: list[inspect.Parameter], run: Callable[..., None]
) -> Callable[..., None]:
    """A function whose signature typer reads as ``parameters``, calling ``run``."""

    def command(**values: SettingValue) -> None:
        run(**values)

    signature = inspect.Signature(parameters)
    command.__signature__ = signature  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()}
    command.__doc__ = help_text
    command.__name__ = name
    return command


def generate_function(suite: Suite) -> Callable[..., None]:
    """``privbench generate NAME`` as the benchmark declares it."""
    spec = suite.commands.generate
    own = {option.setting for option in spec.options}
    parameters = [
        _keyword("out", OutOption),
        _keyword("n", SizeOption, spec.size),
        _keyword("seed", SeedOption, 0),
        _keyword("force", ForceOption, False),
        *(_keyword(option.setting, _own(option), option.default) for option in spec.options),
    ]

    def run(**values: SettingValue) -> None:
        settings = {key: value for key, value in values.items() if key in own}
        out, n, seed, force = values["out"], values["n"], values["seed"], values["force"]
        assert isinstance(out, Path) and isinstance(n, int) and isinstance(seed, int)
        generate_suite(suite.name, n, seed, out, bool(force), settings)

    return _command(f"generate_{suite.name}", spec.help, parameters, run)


def download_function(suite: Suite) -> Callable[..., None]:
    """``privbench download NAME`` as the benchmark declares it."""
    parameters = [
        _keyword("directory", DirOption, None),
        _keyword("url", UrlOption, None),
        _keyword("force", AgainOption, False),
    ]

    def run(**values: SettingValue) -> None:
        directory, url = values["directory"], values["url"]
        assert directory is None or isinstance(directory, Path)
        download_suite(
            suite.name, directory, None if url is None else str(url), bool(values["force"])
        )

    return _command(f"download_{suite.name}", suite.commands.download.help, parameters, run)


def data_command(kind: DataKind, suite: Suite) -> Command:
    """The click command of ``privbench KIND SUITE``, as typer builds it."""
    build = generate_function if kind == "generate" else download_function
    single = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    single.command(suite.name)(build(suite))
    return typer.main.get_command(single)


class DataCommandGroup(TyperGroup):
    """``privbench generate`` / ``privbench download``: a command per benchmark of the
    registry that has the hook."""

    kind: ClassVar[DataKind]

    def _offered(self, name: str) -> Suite | None:
        from privbench import registry

        suite = registry.SUITES.get(name)
        if suite is None or getattr(suite, self.kind) is None:
            return None
        return suite

    def list_commands(self, ctx: Context) -> list[str]:
        from privbench import registry

        offered = [name for name in registry.SUITES if self._offered(name) is not None]
        return [*super().list_commands(ctx), *offered]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        suite = self._offered(cmd_name)
        if suite is not None:
            return data_command(self.kind, suite)
        return super().get_command(ctx, cmd_name)


class GenerateCommands(DataCommandGroup):
    kind = "generate"


class DownloadCommands(DataCommandGroup):
    kind = "download"
