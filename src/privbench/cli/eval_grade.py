"""``privbench eval BENCHMARK`` and ``privbench grade BENCHMARK``, for every benchmark.

Why built and not written: the commands differ only in the benchmark and its options, so
each benchmark declares them (:class:`~privbench.runtime.suite.SuiteCommands`: the help,
the order of the options, its own options) and this module turns the declaration into a
typer command whose values go to the one dispatch,
:func:`privbench.cli.runs.run_benchmark`. A benchmark added to :mod:`privbench.registry`
has its commands without an edit here. The groups build a benchmark's command when it is
asked for: ``privbench --help`` loads no benchmark, ``privbench eval NAME`` only NAME.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from copy import copy
from typing import TYPE_CHECKING, Annotated, ClassVar, cast, get_args

import typer
import typer.main
from typer.core import TyperGroup

from privbench.cli.declared_help import DeclaredHelp
from privbench.cli.options import GRADE_RUN_OPTIONS, RUN_OPTIONS, RunOption
from privbench.cli.runs import RunArguments, run_benchmark

if TYPE_CHECKING:  # typer's vendored click, which typer does not export
    from typer._click.core import Command, Context

    from privbench.runtime.suite import (
        CommandOption,
        CommandSpec,
        RunKind,
        SettingValue,
        Suite,
        SuiteOption,
    )

SOURCES = frozenset({"model", "predictions"})
"""The shared options that say what is run: the dispatch's ``source``."""


def _shared(kind: RunKind, key: str) -> RunOption:
    """The shared option called ``key`` on a command of ``kind``."""
    option = (GRADE_RUN_OPTIONS if kind == "grade" else {}).get(key) or RUN_OPTIONS.get(key)
    if option is None:
        raise KeyError(f"{key}: not an option of the eval and grade commands")
    return option


def _with_help(annotation: object, text: str | None) -> object:
    """``annotation`` (``Annotated[T, typer.Option(...)]``) with another help text."""
    if text is None:
        return annotation
    base, info = get_args(annotation)
    info = copy(info)
    info.help = text
    return Annotated[base, info]


def _own(option: SuiteOption) -> object:
    """The typer declaration of one of a benchmark's own options."""
    value: object = option.kind if option.default is not None else option.kind | None
    if option.repeatable:
        value = list[option.kind] | None  # type: ignore[name-defined]
    info = typer.Option(*option.names, help=option.help, min=option.minimum, hidden=option.hidden)
    return Annotated[value, info]


def _parameter(kind: RunKind, option: CommandOption) -> tuple[inspect.Parameter, bool]:
    """The function parameter typer reads ``option`` from, and whether its value is one
    of the benchmark's settings."""
    from privbench.runtime.suite import SharedOption, SuiteOption

    if isinstance(option, SuiteOption):
        name, annotation, default = option.setting, _own(option), option.default
        setting = True
    else:
        shared = option if isinstance(option, SharedOption) else SharedOption(option)
        declared = _shared(kind, shared.key)
        name, default, setting = shared.key, declared.default, declared.setting
        annotation = _with_help(declared.annotation, shared.help)
    keyword = inspect.Parameter.KEYWORD_ONLY
    return inspect.Parameter(name, keyword, default=default, annotation=annotation), setting


def _arguments(
    kind: RunKind, suite: str, values: dict[str, SettingValue], settings: frozenset[str]
) -> RunArguments:
    """The dispatch's arguments: the shared options the command lacks at their defaults."""
    fields: dict[str, SettingValue] = {
        key: option.default
        for key, option in RUN_OPTIONS.items()
        if not option.setting and key not in SOURCES
    }
    fields.update((key, value) for key, value in values.items() if key not in settings | SOURCES)
    source = next((values[key] for key in SOURCES if key in values), None)
    own = {key: value for key, value in values.items() if key in settings}
    build = cast("Callable[..., RunArguments]", RunArguments)
    return build(kind, suite, source, settings=own, **fields)


def command_function(kind: RunKind, suite: str, spec: CommandSpec) -> Callable[..., None]:
    """A function whose signature typer reads as ``spec``'s options, which runs the
    benchmark called ``suite`` with them."""
    parameters = [_parameter(kind, option) for option in spec.options]
    settings = frozenset(parameter.name for parameter, setting in parameters if setting)

    def command(**values: SettingValue | list[str]) -> None:
        joined = {k: ",".join(v) if isinstance(v, list) else v for k, v in values.items()}
        run_benchmark(_arguments(kind, suite, joined, settings))

    signature = inspect.Signature([parameter for parameter, _ in parameters])
    command.__signature__ = signature  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()}
    command.__doc__ = spec.help
    command.__name__ = f"{kind}_{suite}"
    return command


def suite_command(kind: RunKind, suite: Suite) -> Command:
    """The click command of ``privbench KIND SUITE``, as typer builds it."""
    single = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    function = command_function(kind, suite.name, suite.commands.spec(kind))
    single.command(suite.name, cls=DeclaredHelp)(function)
    return typer.main.get_command(single)


class SuiteCommandGroup(TyperGroup):
    """``privbench eval`` / ``privbench grade``: a command per benchmark of the registry."""

    kind: ClassVar[RunKind]

    def list_commands(self, ctx: Context) -> list[str]:
        from privbench import registry

        return [*super().list_commands(ctx), *registry.SUITES]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        from privbench import registry

        if cmd_name in registry.SUITES:
            return suite_command(self.kind, registry.SUITES[cmd_name])
        return super().get_command(ctx, cmd_name)


class EvalCommands(SuiteCommandGroup):
    kind = "eval"


class GradeCommands(SuiteCommandGroup):
    kind = "grade"
