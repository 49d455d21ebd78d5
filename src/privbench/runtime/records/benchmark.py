"""A benchmark's name as records hold it, and what the records' readers know of it.

Why in the runtime, and why no list here: judge cards and run identities name their
benchmark, and a log written by an older privbench (or by ``inspect eval`` without
privbench's metadata) names it only through its scorer or its task. Each benchmark
declares how such a log is recognised (:class:`OldLogs`) and how its runs word their
judge's agreement (:class:`~privbench.runtime.records.judge_agreement.AgreementWording`);
:mod:`privbench.registry`, which sits above the runtime, hands those declarations over
(:func:`use_catalogue`) when it is imported, so a benchmark added there is read here
without an edit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated

from inspect_ai.log import EvalLog
from pydantic import StringConstraints

from privbench.runtime.records.judge_agreement import GRADES, AgreementWording

Benchmark = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]
"""A benchmark's name in a record (``priviq``): a plain lower-case name. Whether privbench
knows it is asked where the record is used (:func:`privbench.registry.get`, ``for_log``)."""


@dataclass(frozen=True)
class OldLogs:
    """How a log that records no benchmark is recognised as this benchmark's: its samples
    are scored by ``scorer``, else its task's name ends with one of ``tasks``."""

    scorer: str
    """The inspect scorer name (the key of its score in each sample)."""
    tasks: tuple[str, ...]


@dataclass(frozen=True)
class KnownBenchmark:
    """What the records' readers need of a benchmark they find named in a log."""

    old_logs: OldLogs | None = None
    agreement: AgreementWording = GRADES


_catalogue: list[Mapping[str, KnownBenchmark]] = []


def use_catalogue(known: Mapping[str, KnownBenchmark]) -> None:
    """Read benchmarks from ``known`` (by name, in the order a log is tried against them):
    called by :mod:`privbench.registry` with a view of its benchmarks."""
    _catalogue[:] = [known]


def _known() -> Mapping[str, KnownBenchmark]:
    return _catalogue[0] if _catalogue else {}


def benchmark_by_name(log: EvalLog) -> str | None:
    """The benchmark of a log whose task wrote no metadata (``inspect eval`` of an older
    privbench): the first whose scorer scored it or whose task name it ends with."""
    scorers = {s.name for s in (log.results.scores if log.results else [])}
    task = log.eval.task
    for name, known in _known().items():
        old = known.old_logs
        if old is not None and (old.scorer in scorers or task.endswith(old.tasks)):
            return name
    return None


def agreement_wording(benchmark: str | None) -> AgreementWording:
    """How runs of ``benchmark`` word their judge's agreement (reference grades when the
    benchmark is unknown or declares nothing else)."""
    known = _known().get(benchmark) if benchmark is not None else None
    return GRADES if known is None else known.agreement
