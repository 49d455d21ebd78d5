"""Every privacy benchmark privbench runs, by name: the one generic module that names them.

Why one place: the command line, the report, the analysis and the audit go through
:func:`get`, :func:`for_task` and :func:`for_log` and never import a benchmark, so adding
a benchmark is its folder under ``privbench/suites/`` plus one line in :data:`_LOADERS`.
Each suite is paired here with its dataset tooling (:mod:`privbench.tooling`, which sits
above the suites and so cannot be named by them). A benchmark's modules load when it is
first asked for: ``privbench eval priviq`` does not load SpatialTrust.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path

from inspect_ai.log import EvalLog

from privbench.runtime.cross_run import ReviewedExport
from privbench.runtime.errors import UsageError
from privbench.runtime.records.benchmark import KnownBenchmark, use_catalogue
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.suite import GenerateRequest, Suite, text_setting
from privbench.suites.spatialtrust.question_design import QuestionTypes


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


def _priviq() -> Suite:
    from privbench.suites.priviq.suite import SUITE

    return replace(SUITE, generate=_generate_priviq)


def _export_spatialtrust_review(
    directory: Path, out: Path, annotator: str | None, merge: bool, seed: int
) -> ReviewedExport:
    from privbench.tooling.spatialtrust_builder.review_agreement_table import agreement_parts
    from privbench.tooling.spatialtrust_builder.review_export import export_reviewed

    outcome = export_reviewed(directory, out, annotator=annotator, merge=merge, seed=seed)
    closing = [outcome.validation, f"review record: {outcome.out / 'review.json'}"]
    parts = [*outcome.lines(), *agreement_parts(outcome.agreement), *closing]
    return ReviewedExport(outcome.json(), parts)


def _spatialtrust() -> Suite:
    from privbench.suites.spatialtrust.suite import SUITE
    from privbench.tooling.spatialtrust_builder.review_images import ANNOTATION_REVIEW

    review = replace(ANNOTATION_REVIEW, export=_export_spatialtrust_review)
    return replace(
        SUITE,
        generate=_generate_spatialtrust,
        cross_run=replace(SUITE.cross_run, annotation_review=review),
    )


def _confaide() -> Suite:
    from privbench.suites.confaide.suite import SUITE

    return SUITE


def _privacylens() -> Suite:
    from privbench.suites.privacylens.suite import SUITE

    return SUITE


def _geoprivacy() -> Suite:
    from privbench.suites.geoprivacy.suite import SUITE

    return SUITE


def _decodingtrust() -> Suite:
    from privbench.suites.decodingtrust.suite import SUITE

    return SUITE


_LOADERS: dict[str, Callable[[], Suite]] = {
    "priviq": _priviq,
    "spatialtrust": _spatialtrust,
    "confaide": _confaide,
    "privacylens": _privacylens,
    "geoprivacy": _geoprivacy,
    "decodingtrust": _decodingtrust,
}
"""Each benchmark's name and how to load it, in the order commands list them."""


@cache
def _load(name: str) -> Suite:
    return _LOADERS[name]()


class _Suites(Mapping[str, Suite]):
    """The benchmarks by name; each loads on first access."""

    def __getitem__(self, name: str) -> Suite:
        if name not in _LOADERS:
            raise KeyError(name)
        return _load(name)

    def __iter__(self) -> Iterator[str]:
        return iter(_LOADERS)

    def __len__(self) -> int:
        return len(_LOADERS)


SUITES: Mapping[str, Suite] = _Suites()
"""The benchmarks by name, in the order commands list them."""


class _Known(Mapping[str, KnownBenchmark]):
    """What the runtime's records read of each benchmark (its old logs, its agreement
    wording), from the benchmark's declaration; each loads on first access."""

    def __getitem__(self, name: str) -> KnownBenchmark:
        suite = SUITES[name]
        return KnownBenchmark(suite.old_logs, suite.cross_run.agreement)

    def __iter__(self) -> Iterator[str]:
        return iter(SUITES)

    def __len__(self) -> int:
        return len(SUITES)


use_catalogue(_Known())


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
    """The benchmark that wrote ``log`` (its recorded benchmark; for older logs, its task
    name); None for other logs, and for a judge check's (no benchmark run)."""
    benchmark = RunIdentity.from_log(log).benchmark
    return None if benchmark is None else SUITES.get(benchmark)


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


def question_types(text: str) -> QuestionTypes:
    """SpatialTrust's ``--question-types`` (generate, build) checked: one line otherwise."""
    from privbench.suites.spatialtrust.suite import question_types as checked

    return checked(text)


__all__ = [
    "SUITES",
    "for_log",
    "for_task",
    "get",
    "judge_protocols",
    "question_types",
    "resolve_data",
]
