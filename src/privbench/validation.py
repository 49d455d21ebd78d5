"""``privbench validate``: recognise a benchmark directory's layout and check it.

Why a dispatcher: users point ``validate`` at a directory without saying which benchmark
it holds; the layout's index file tells.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from privbench.runtime.errors import Problem, UsageError
from privbench.suites.priviq.dataset import (
    DATASET_FILE,
    combination_counts,
    competency_counts,
    validate_priviq,
)
from privbench.suites.spatialtrust.dataset import DATASET_FILE as SPATIAL_FILE
from privbench.suites.spatialtrust.dataset import validate_spatialtrust
from privbench.suites.spatialtrust.drafts import review_summary


@dataclass(frozen=True)
class ValidationReport:
    """Every problem found, and a one-line summary for a valid directory."""

    problems: list[Problem]
    summary: str


def validate_directory(directory: Path) -> ValidationReport:
    """Validate a Priv-IQ (``priv-IQ.json``) or SpatialTrust (``spatialtrust.jsonl``) directory."""
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
    if (directory / SPATIAL_FILE).exists():
        images, problems = validate_spatialtrust(directory)
        direct = sum(1 for i in images if i.q4.factors)
        indirect = sum(1 for i in images if i.q5.factors)
        boxes = sum(len(i.q4.factors) + len(i.q5.factors) for i in images)
        summary = (
            f"{directory}: SpatialTrust, {len(images)} images, {5 * len(images)} questions; "
            f"{direct} with direct factors, {indirect} with indirect factors, "
            f"{boxes} factor boxes"
        )
        review = review_summary(images)
        if review is not None:  # a dataset made by ``build``: say what a person has seen
            summary += f"; {review}"
        return ValidationReport(problems, summary)
    raise UsageError(
        f"{directory}: neither {DATASET_FILE} nor {SPATIAL_FILE} found; not a benchmark directory"
    )
