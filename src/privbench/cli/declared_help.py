"""Option help that says which benchmark an option is for, filled in from the registry.

Why: ``--ocr`` is for the benchmark whose audit reads text in its images, ``--verdicts``
for the one whose judge gives verdicts. Writing their names here would make the command
line name a benchmark; instead the help holds a field (``{verdict_title}``) that
:class:`DeclaredHelp` fills from the benchmarks' declarations when the command's options
are first read (its ``--help``, its run, the command reference). ``privbench --help``
reads no option, so it still loads no benchmark.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from typer.core import TyperCommand

if TYPE_CHECKING:  # typer's vendored click, which typer does not export
    from typer._click.core import Parameter

    from privbench.runtime.suite import Suite


def _titles(has: Callable[[Suite], bool]) -> str:
    """The titles of the registered benchmarks that have ``has``, in the registry's order."""
    from privbench import registry

    return ", ".join(suite.title for suite in registry.SUITES.values() if has(suite))


def _graded(suite: Suite) -> bool:
    hooks = suite.cross_run.judge_check
    return hooks is not None and hooks.graded is not None


def _verdicts(suite: Suite) -> bool:
    hooks = suite.cross_run.judge_check
    return hooks is not None and hooks.verdicts is not None


def _verdict_fields() -> str:
    """What a verdict check covers in a table cell (``q4/q5``), of the benchmarks with one."""
    from privbench import registry

    found = (s.cross_run.agreement.verdicts_short for s in registry.SUITES.values() if _verdicts(s))
    return ", ".join(found)


def _reads_text_in_images(suite: Suite) -> bool:
    return suite.cross_run.audit is not None and suite.cross_run.audit.ocr


def _takes(suite: Suite, name: str) -> bool:
    """Whether the benchmark's eval or grade command takes the option called ``name``."""
    from privbench.runtime.suite import SharedOption, SuiteOption

    def key(option: object) -> object:
        if isinstance(option, SharedOption):
            return option.key
        return option.setting if isinstance(option, SuiteOption) else option

    commands = suite.commands
    return any(key(option) == name for option in (*commands.eval.options, *commands.grade.options))


def _published() -> str:
    """What ``--compare-published`` shows of each benchmark's paper tables: first those
    whose runs show them only on request (their eval or grade takes the option), then
    those whose runs show them by themselves where the data allow."""
    from privbench import registry

    noted = [suite for suite in registry.SUITES.values() if suite.commands.compare_published]
    ordered = sorted(noted, key=lambda suite: not _takes(suite, "compare_published"))
    return "; ".join(suite.commands.compare_published for suite in ordered)


FIELDS: dict[str, Callable[[], str]] = {
    "graded_title": lambda: _titles(_graded),
    "verdict_title": lambda: _titles(_verdicts),
    "verdict_fields": _verdict_fields,
    "ocr_title": lambda: _titles(_reads_text_in_images),
    "box_title": lambda: _titles(lambda suite: _takes(suite, "box_format")),
    "published": _published,
    "annotated_title": lambda: _titles(lambda suite: suite.cross_run.annotation_review is not None),
}
"""The fields an option's help may hold, each the benchmarks' declarations it is read from."""


def declared_option_help(setting: str) -> str:
    """The help a benchmark declares for its own option ``setting`` (on its eval, grade or
    generate command), for a tool command that takes the same option."""
    from privbench import registry
    from privbench.runtime.suite import SuiteOption

    for suite in registry.SUITES.values():
        commands = suite.commands
        for option in (*commands.eval.options, *commands.grade.options, *commands.generate.options):
            if isinstance(option, SuiteOption) and option.setting == setting:
                return option.help
    raise KeyError(f"{setting}: no benchmark declares this option")


class _Fields(dict[str, str]):
    """:data:`FIELDS`, and ``{SETTING_help}``: :func:`declared_option_help`."""

    def __missing__(self, key: str) -> str:
        if key.endswith("_help"):
            return declared_option_help(key.removesuffix("_help"))
        return FIELDS[key]()


def fill(text: str) -> str:
    """``text`` with its fields (:data:`FIELDS`) filled in from the registry."""
    return text.format_map(_Fields())


class DeclaredHelp(TyperCommand):
    """A command whose options' help holds fields, filled in when its options are first
    read (``app.command(cls=DeclaredHelp)``)."""

    _filled = False

    @property
    def params(self) -> list[Parameter]:
        if not self._filled:
            self._filled = True
            for param in self._params:
                text = getattr(param, "help", None)
                if isinstance(text, str) and "{" in text:
                    param.help = fill(text)  # type: ignore[attr-defined]
        return self._params

    @params.setter
    def params(self, value: list[Parameter]) -> None:
        self._params = value
        self._filled = False
