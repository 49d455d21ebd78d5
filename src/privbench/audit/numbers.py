"""Small descriptive statistics shared by both audits (pure).

Why one helper: every distribution the audits report (box sizes, answer lengths) is
summarised the same way, so a reader compares like with like across figures.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence


def describe(values: Sequence[float]) -> dict[str, float | int | None]:
    """Count, min, quartiles, mean and max of ``values`` (None for an empty list)."""
    if not values:
        return {"n": 0, "min": None, "p25": None, "median": None, "mean": None,
                "p75": None, "max": None}  # fmt: skip
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "min": ordered[0],
        "p25": _quantile(ordered, 0.25),
        "median": statistics.median(ordered),
        "mean": math.fsum(ordered) / len(ordered),
        "p75": _quantile(ordered, 0.75),
        "max": ordered[-1],
    }


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile (numpy's default) of sorted values."""
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def percent(part: float, whole: float) -> float | None:
    """``100 · part / whole``; None when there is nothing to divide by."""
    return 100 * part / whole if whole else None
