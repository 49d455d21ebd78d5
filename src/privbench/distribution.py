"""Small descriptive statistics shared by the audits of every benchmark (pure).

Why one helper: every distribution the audits report (box sizes, answer lengths) is
summarised the same way, so a reader compares like with like across figures.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

import numpy as np


def describe(values: Sequence[float]) -> dict[str, float | int | None]:
    """Count, min, quartiles (numpy's linear interpolation), mean and max of ``values``
    (None for an empty list)."""
    if not values:
        return {"n": 0, "min": None, "p25": None, "median": None, "mean": None,
                "p75": None, "max": None}  # fmt: skip
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "min": ordered[0],
        "p25": float(np.quantile(ordered, 0.25)),
        "median": statistics.median(ordered),
        "mean": math.fsum(ordered) / len(ordered),
        "p75": float(np.quantile(ordered, 0.75)),
        "max": ordered[-1],
    }


def percent(part: float, whole: float) -> float | None:
    """``100 · part / whole``; None when there is nothing to divide by."""
    return 100 * part / whole if whole else None
