"""``privbench validate`` of a SpatialTrust directory: every problem and a one-line summary.

Why here: the summary counts what only SpatialTrust has (factors, boxes, the review state
of a built dataset); the generic command finds the benchmark by its dataset file and
prints what this returns.
"""

from __future__ import annotations

from pathlib import Path

from privbench.runtime.errors import Problem
from privbench.suites.spatialtrust.dataset import validate_spatialtrust
from privbench.suites.spatialtrust.drafts import review_summary


def validate_with_summary(directory: Path) -> tuple[list[Problem], str]:
    """Every problem of ``directory``, and what it holds in one line."""
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
    return problems, summary
