"""``privbench validate`` of a Priv-IQ directory: every problem and a one-line summary.

Why here: the summary counts what only Priv-IQ has (competencies, combinations); the
generic command finds the benchmark by its dataset file and prints what this returns.
"""

from __future__ import annotations

from pathlib import Path

from privbench.runtime.errors import Problem
from privbench.suites.priviq.dataset import combination_counts, competency_counts, validate_priviq


def validate_with_summary(directory: Path) -> tuple[list[Problem], str]:
    """Every problem of ``directory``, and what it holds in one line."""
    items, problems = validate_priviq(directory)
    counts = ", ".join(f"{code} {n}" for code, n in competency_counts(items).items())
    summary = (
        f"{directory}: Priv-IQ, {len(items)} items, "
        f"{len(combination_counts(items))} combinations; {counts}"
    )
    return problems, summary
