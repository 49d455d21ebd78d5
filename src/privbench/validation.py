"""``privbench validate``: recognise a benchmark directory's layout and check it.

Why a dispatcher: users point ``validate`` at a directory without saying which benchmark
it holds; the layout's index file tells.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from privbench.errors import Problem, UsageError
from privbench.priviq.dataset import (
    DATASET_FILE,
    combination_counts,
    competency_counts,
    validate_priviq,
)


@dataclass(frozen=True)
class ValidationReport:
    """Every problem found, and a one-line summary for a valid directory."""

    problems: list[Problem]
    summary: str


def validate_directory(directory: Path) -> ValidationReport:
    """Validate a Priv-IQ directory (``priv-IQ.json`` + ``images/``)."""
    if not directory.is_dir():
        raise UsageError(f"{directory}: not a directory")
    if (directory / DATASET_FILE).exists():
        items, problems = validate_priviq(directory)
        counts = ", ".join(f"{code} {n}" for code, n in competency_counts(items).items())
        summary = (
            f"{directory}: Priv-IQ, {len(items)} items, "
            f"{len(combination_counts(items))} combinations; {counts}"
        )
        return ValidationReport(problems, summary)
    raise UsageError(f"{directory}: no {DATASET_FILE} found; not a benchmark directory")
