"""Every privacy benchmark privbench runs, by name: the one generic module that names them.

Why one place: the command line, the report, the analysis and the audit go through
:func:`get`, :func:`for_task` and :func:`for_log` and never import a benchmark, so adding
a benchmark is its folder under ``privbench/suites/`` plus one line in :data:`SUITES`.
Each suite is paired here with its dataset tooling (:mod:`privbench.tooling`, which sits
above the suites and so cannot be named by them).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from inspect_ai.log import EvalLog

from privbench.runtime.errors import UsageError
from privbench.runtime.record import RunIdentity
from privbench.runtime.suite import GenerateRequest, Suite, text_setting
from privbench.suites.priviq.suite import SUITE as PRIVIQ
from privbench.suites.spatialtrust.suite import SUITE as SPATIALTRUST
from privbench.suites.spatialtrust.suite import question_types  # build spatialtrust's option
from privbench.tooling.spatialtrust_builder.review_images import ANNOTATION_REVIEW


def _generate_priviq(request: GenerateRequest) -> Path:
    # the generators (drawing, fonts) load only when a suite is generated
    from privbench.tooling.priviq_generator.suite import generate_priviq

    return generate_priviq(request.n, request.seed, request.out, force=request.force)


def _generate_spatialtrust(request: GenerateRequest) -> Path:
    from privbench.tooling.spatialtrust_scenes.suite import generate_spatialtrust

    types = question_types(text_setting(request.settings, "question_types", "paper"))
    return generate_spatialtrust(
        request.n, request.seed, request.out, force=request.force, question_types=types
    )


SUITES: dict[str, Suite] = {
    suite.name: suite
    for suite in (
        replace(PRIVIQ, generate=_generate_priviq),
        replace(
            SPATIALTRUST,
            generate=_generate_spatialtrust,
            cross_run=replace(SPATIALTRUST.cross_run, annotation_review=ANNOTATION_REVIEW),
        ),
    )
}
"""The benchmarks by name, in the order commands list them."""


def get(name: str) -> Suite:
    """The benchmark called ``name``; a usage error naming the known ones otherwise."""
    try:
        return SUITES[name]
    except KeyError:
        known = ", ".join(SUITES)
        raise UsageError(f"{name}: not a privbench benchmark (known: {known})") from None


def for_task(task_name: str) -> Suite | None:
    """The benchmark whose inspect task is ``task_name`` (``privbench/`` prefix or not)."""
    return next((suite for suite in SUITES.values() if suite.writes(task_name)), None)


def for_log(log: EvalLog) -> Suite | None:
    """The benchmark that wrote ``log`` (by its recorded benchmark, else its task name)."""
    benchmark = RunIdentity.from_log(log).benchmark
    if benchmark is not None:
        return SUITES.get(benchmark)
    return for_task(log.eval.task)


def resolve_data(directory: Path) -> tuple[Path, str | None]:
    """What a data directory given on the command line means: a name a benchmark gives a
    meaning (``priviq``: its downloaded release), else the path; and a note for stderr."""
    for suite in SUITES.values():
        if suite.resolve_data is not None:
            resolved, note = suite.resolve_data(directory)
            if resolved != directory or note:
                return resolved, note
    return directory, None


def judge_protocols() -> tuple[str, ...]:
    """Every ``--judge-protocol`` some benchmark's judge knows, the paper's first."""
    return tuple(dict.fromkeys(p for suite in SUITES.values() for p in suite.judge_protocols))


__all__ = [
    "SUITES",
    "for_log",
    "for_task",
    "get",
    "judge_protocols",
    "question_types",
    "resolve_data",
]
