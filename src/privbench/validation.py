"""``privbench validate``: recognise a benchmark directory's layout and check it.

Why a dispatcher: users point ``validate`` at a directory without saying which benchmark
it holds; the layout's index file (each suite's ``dataset_file``) tells.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from privbench import registry
from privbench.runtime.errors import Problem, UsageError
from privbench.runtime.suite import Suite


@dataclass(frozen=True)
class ValidationReport:
    """Every problem found, and a one-line summary for a valid directory."""

    problems: list[Problem]
    summary: str


def _described(suite: Suite, directory: Path) -> ValidationReport:
    if suite.cross_run.describe is not None:
        problems, summary = suite.cross_run.describe(directory)
        return ValidationReport(problems, summary)
    items, problems = suite.validate(directory)
    return ValidationReport(problems, f"{directory}: {suite.title}, {len(items)} items")


def validate_directory(directory: Path) -> ValidationReport:
    """Validate a directory of any registered benchmark, found by its dataset file."""
    if not directory.is_dir():
        raise UsageError(f"{directory}: not a directory")
    for suite in registry.SUITES.values():
        if any((directory / name).exists() for name in suite.dataset_files):
            return _described(suite, directory)
    files = " nor ".join(n for suite in registry.SUITES.values() for n in suite.dataset_files)
    raise UsageError(f"{directory}: neither {files} found; not a benchmark directory")
