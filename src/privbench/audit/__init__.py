"""``privbench audit``: what a benchmark directory gives away before any model runs.

Why: a score is only meaningful next to what could be scored without doing the task
(blind constant answers, answers leaked by the option texts or printed in the image) and
next to the shape of the data behind it. Each benchmark computes its figures (pure, from
the annotations; :attr:`~privbench.runtime.cross_run.CrossRun.audit`); this module
recognises which benchmark a directory holds. ``docs/audit.md`` explains every figure.
"""

from __future__ import annotations

from pathlib import Path

from privbench import registry
from privbench.runtime.errors import UsageError
from privbench.runtime.suite import Suite


def _audited() -> list[Suite]:
    return [suite for suite in registry.SUITES.values() if suite.cross_run.audit is not None]


def benchmark_of(directory: Path) -> str:
    """The name of the benchmark whose index file ``directory`` holds; a one-line error else."""
    if not directory.is_dir():
        raise UsageError(f"{directory}: not a directory")
    for suite in _audited():
        if any((directory / name).exists() for name in suite.dataset_files):
            return suite.name
    files = " nor ".join(n for suite in _audited() for n in suite.dataset_files)
    raise UsageError(f"{directory}: neither {files} found; not a benchmark directory")


def audit_directory(directory: str | Path, *, ocr: bool = False) -> dict[str, object]:
    """The audit document of a benchmark directory (``ocr``: the OCR figures, for a benchmark
    whose answers may be printed in its images).

    A plain JSON object, as the command line prints it; its ``benchmark`` names the suite.
    """
    path = Path(directory)
    audit = registry.get(benchmark_of(path)).cross_run.audit
    assert audit is not None  # benchmark_of only names audited benchmarks
    return audit.audit(path, ocr)
