"""The benchmarks a run's log can belong to, and how a log that does not say is recognised.

Why in the runtime: judge cards and run identities name their benchmark, and a log
written by an older privbench (or by ``inspect eval`` without privbench's metadata)
names it only through its scorer or its task; reading those back must not depend on
the benchmarks' own code.
"""

from __future__ import annotations

from typing import Literal

from inspect_ai.log import EvalLog

Benchmark = Literal["priviq", "spatialtrust", "confaide"]
PRIVIQ_SCORER = "priviq_judge"
"""The inspect scorer name of Priv-IQ (the key of its score in each sample)."""
SPATIAL_SCORER = "spatialtrust_scorer"
"""The inspect scorer name of SpatialTrust."""


def benchmark_by_name(log: EvalLog) -> Benchmark | None:
    """The benchmark of a log whose task wrote no metadata (``inspect eval`` of an older
    privbench): by its scorer, else by its task name."""
    scorers = {s.name for s in (log.results.scores if log.results else [])}
    task = log.eval.task
    if PRIVIQ_SCORER in scorers or task.endswith(("priviq", "priviq_grade")):
        return "priviq"
    if SPATIAL_SCORER in scorers or task.endswith(("spatialtrust", "spatialtrust_grade")):
        return "spatialtrust"
    return None
