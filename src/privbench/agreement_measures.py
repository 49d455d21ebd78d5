"""How closely two equally long lists of scores agree, item by item (pure).

Why here, below both users: the judge–human agreement table (``privbench agreement``,
the report) and the offline judge's measured agreement with graded answers report the
same measures the paper validated its judge with, so both compute them with these
functions. Both sides must already be on one scale.

* Spearman's ρ and its p-value (scipy); NaN where ρ is undefined: fewer than two items or
  one side constant (scipy's warning is silenced: callers say why in words);
* the mean absolute error;
* the share of items whose scores differ by at most a tolerance;
* Bland–Altman: the bias ``mean(a − b)`` and the 95 % limits ``bias ± 1.96·SD`` (SD with
  ``ddof = 1``; NaN limits for a single item).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy import stats

Scores = Sequence[float] | NDArray[np.float64]

SLACK = 1e-9
"""A difference this much above the tolerance still counts as within it: floating-point
subtraction leaves ``0.7 − 0.6`` at ``0.09999999999999998`` and ``0.8 − 0.7`` at
``0.10000000000000009``; both are a difference of 0.1."""
LIMITS_Z = 1.96
"""Bland–Altman limits of agreement: bias ± this many standard deviations (95 %)."""


@dataclass(frozen=True)
class Limits:
    """Bland–Altman bias of ``a − b`` and its 95 % limits of agreement."""

    bias: float
    low: float
    high: float


def _pair(a: Scores, b: Scores) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    left, right = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if left.shape != right.shape or left.ndim != 1:
        raise ValueError("agreement needs two equally long lists of scores")
    return left, right


def spearman(a: Scores, b: Scores) -> tuple[float, float]:
    """Spearman's ρ and its two-sided p-value; ``(nan, nan)`` where ρ is undefined."""
    left, right = _pair(a, b)
    if left.size < 2 or np.ptp(left) == 0 or np.ptp(right) == 0:
        return math.nan, math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rho, p = stats.spearmanr(left, right)
    return float(rho), float(p)


def mean_absolute_error(a: Scores, b: Scores) -> float:
    """``mean(|a − b|)``."""
    left, right = _pair(a, b)
    return float(np.abs(left - right).mean())


def share_within(a: Scores, b: Scores, tolerance: float) -> float:
    """Share (0–1) of items with ``|a − b| ≤ tolerance`` (up to :data:`SLACK`)."""
    left, right = _pair(a, b)
    return float((np.abs(left - right) <= tolerance + SLACK).mean())


def bland_altman_limits(a: Scores, b: Scores) -> Limits:
    """Bias of ``a − b`` and ``bias ± 1.96·SD``; NaN limits when there is one item."""
    left, right = _pair(a, b)
    difference = left - right
    bias = float(difference.mean())
    sd = float(difference.std(ddof=1)) if difference.size > 1 else math.nan
    return Limits(bias, bias - LIMITS_Z * sd, bias + LIMITS_Z * sd)
