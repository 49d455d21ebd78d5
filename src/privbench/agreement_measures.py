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
  ``ddof = 1``; NaN limits for a single item);
* ICC(2,1), Cohen's κ with quadratic weights and Spearman's ρ, vectorised over leading
  axes, so that a bootstrap computes them for a thousand resamples in one call.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import stats
from statsmodels.stats.inter_rater import cohens_kappa

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


def is_within(a: ArrayLike, b: ArrayLike, tolerance: float) -> NDArray[np.bool_]:
    """Element-wise ``|a − b| ≤ tolerance`` (up to :data:`SLACK`), any shape.

    Why element-wise: a bootstrap resamples these per-item hits instead of recomputing
    them, and the slack rule stays in this one place.
    """
    left, right = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return np.asarray(np.abs(left - right) <= tolerance + SLACK)


def share_within(a: Scores, b: Scores, tolerance: float) -> float:
    """Share (0–1) of items with ``|a − b| ≤ tolerance`` (up to :data:`SLACK`)."""
    left, right = _pair(a, b)
    return float(is_within(left, right, tolerance).mean())


def bland_altman_limits(a: Scores, b: Scores) -> Limits:
    """Bias of ``a − b`` and ``bias ± 1.96·SD``; NaN limits when there is one item."""
    left, right = _pair(a, b)
    difference = left - right
    bias = float(difference.mean())
    sd = float(difference.std(ddof=1)) if difference.size > 1 else math.nan
    return Limits(bias, bias - LIMITS_Z * sd, bias + LIMITS_Z * sd)


ICC_MIN_ITEMS = 3
"""Fewer items than this leave the ICC NaN: with two items its mean squares have one degree
of freedom each, and the value swings over the whole range on a single change."""


def icc_absolute_agreement(ratings: ArrayLike) -> NDArray[np.float64]:
    """ICC(2,1): two-way random effects, absolute agreement, single rater.

    Shrout & Fleiss' ICC(2,1), McGraw & Wong's ICC(A,1), pingouin's "ICC2":

        (MSR − MSE) / (MSR + (k − 1)·MSE + k·(MSC − MSE) / n)

    from the two-way ANOVA mean squares of items (rows, MSR), raters (columns, MSC) and
    the residual (MSE), for ``n`` items and ``k`` raters. Absolute agreement: a rater who
    grades every item 0.2 higher lowers it (through MSC), as it should for a judge whose
    grades are read as grades, not as ranks.

    ``ratings`` has shape ``(..., n_items, k_raters)``; the result has the leading shape
    (a 0-d array for a plain table: ``float(...)`` it). NaN where there are fewer than
    :data:`ICC_MIN_ITEMS` items or fewer than two raters, and where every rating of a
    table is the same (the denominator is 0).

    Why written out rather than pingouin's ``intraclass_corr``: that costs about 10 ms a
    table, and a bootstrap interval needs a thousand tables per figure; this computes
    them all at once, equal to pingouin's to rounding.
    """
    table = np.asarray(ratings, dtype=float)
    if table.ndim < 2:
        raise ValueError("ICC needs ratings of shape (..., items, raters)")
    n, k = table.shape[-2], table.shape[-1]
    leading = table.shape[:-2]
    if n < ICC_MIN_ITEMS or k < 2:
        return np.full(leading, np.nan)
    grand = table.mean(axis=(-2, -1), keepdims=True)
    centred = table - grand
    item_means = centred.mean(axis=-1)
    rater_means = centred.mean(axis=-2)
    ss_items = k * np.square(item_means).sum(axis=-1)
    ss_raters = n * np.square(rater_means).sum(axis=-1)
    ss_error = np.square(centred).sum(axis=(-2, -1)) - ss_items - ss_raters
    ms_items = ss_items / (n - 1)
    ms_raters = ss_raters / (k - 1)
    ms_error = ss_error / ((n - 1) * (k - 1))
    denominator = ms_items + (k - 1) * ms_error + k * (ms_raters - ms_error) / n
    constant = np.ptp(table, axis=(-2, -1)) == 0
    undefined = constant | (denominator == 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        icc = (ms_items - ms_error) / np.where(undefined, 1.0, denominator)
    return np.asarray(np.where(undefined, np.nan, icc), dtype=np.float64)


GRADE_LEVELS = 11
"""Priv-IQ grades: 0.0–1.0 in steps of 0.1."""


def grade_level(scores: ArrayLike, levels: int = GRADE_LEVELS) -> NDArray[np.int64]:
    """Each score in [0, 1] as the nearest of ``levels`` evenly spaced levels ``0..levels−1``.

    Halves round up: with 11 levels 0.05 → 1 and 0.25 → 3. Why halves matter: the mean of
    two judge runs or of two raters lands between grid points. A score up to :data:`SLACK`
    below a half counts as the half, so floating noise decides nothing: 0.15000000000000002
    and 0.1499999999 both go to level 2. A score outside [0, 1] (beyond the slack) or not a
    number is a ``ValueError``: it is on another scale, and a level of it would be a lie.
    """
    if levels < 2:
        raise ValueError("grade levels: at least 2")
    values = np.asarray(scores, dtype=float)
    if not np.all(np.isfinite(values)) or np.any(values < -SLACK) or np.any(values > 1 + SLACK):
        raise ValueError("grade levels need scores in [0, 1]")
    steps = np.floor((values + SLACK) * (levels - 1) + 0.5)
    return np.clip(steps, 0, levels - 1).astype(np.int64)


def kappa_quadratic(a: ArrayLike, b: ArrayLike, levels: int = GRADE_LEVELS) -> NDArray[np.float64]:
    """Cohen's κ with quadratic weights between scores on the 0–1 grid, per row.

    Both sides become levels ``x``, ``y`` in ``0..levels−1`` (:func:`grade_level`). With
    weights ``w = (i − j)²``, observed shares ``O`` and chance shares ``E`` (the product of
    the two sides' level shares), ``κ = 1 − Σw·O / Σw·E``; here ``Σw·O = Σ(x − y)² / n``
    and ``Σw·E = E[x²] + E[y²] − 2·E[x]·E[y]`` (the two sides independent), so

        κ = 1 − n·Σ(x − y)² / (n·Σx² + n·Σy² − 2·Σx·Σy),

    computed in integers: no contingency table per row, exact zero tests. Why quadratic:
    a grade off by 0.3 is a worse disagreement than one off by 0.1, and quadratic κ
    weighs it so (it is close to the ICC of the levels). ``a`` and ``b`` have shape
    ``(..., n)``; the result has the leading shape. NaN where the denominator is 0: both
    sides one and the same constant level (κ is 0 when they are two different constants).
    """
    x, y = grade_level(a, levels), grade_level(b, levels)
    if x.shape != y.shape or x.ndim < 1:
        raise ValueError("κ needs two equally shaped arrays of scores, items on the last axis")
    n = x.shape[-1]
    disagreement = n * np.square(x - y).sum(axis=-1)
    chance = n * np.square(x).sum(axis=-1) + n * np.square(y).sum(axis=-1)
    chance = chance - 2 * x.sum(axis=-1) * y.sum(axis=-1)
    undefined = chance == 0
    kappa = 1 - disagreement / np.where(undefined, 1, chance)
    return np.asarray(np.where(undefined, np.nan, kappa), dtype=np.float64)


def spearman_rows(a: ArrayLike, b: ArrayLike) -> NDArray[np.float64]:
    """Spearman's ρ along the last axis (ties take their mean rank), per row.

    The Pearson correlation of the ranks, as :func:`spearman` computes it for one pair
    of lists (equal to its ρ to rounding), for a bootstrap's resamples at once. NaN where
    a row of either side is constant or has fewer than two items.
    """
    left, right = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if left.shape != right.shape or left.ndim < 1:
        raise ValueError("Spearman needs two equally shaped arrays, items on the last axis")
    n = left.shape[-1]
    if n < 2:
        return np.full(left.shape[:-1], np.nan)
    middle = (n + 1) / 2  # the mean rank of every row, exactly
    rank_a = stats.rankdata(left, axis=-1) - middle
    rank_b = stats.rankdata(right, axis=-1) - middle
    covariance = (rank_a * rank_b).sum(axis=-1)
    spread = np.sqrt(np.square(rank_a).sum(axis=-1) * np.square(rank_b).sum(axis=-1))
    undefined = (np.ptp(left, axis=-1) == 0) | (np.ptp(right, axis=-1) == 0)
    rho = covariance / np.where(undefined, 1.0, spread)
    return np.asarray(np.where(undefined, np.nan, rho), dtype=np.float64)


@dataclass(frozen=True)
class Kappa:
    """Cohen's κ of a contingency table, or ``None`` with the reason it is undefined."""

    value: float | None
    units: int
    reason: str | None = None


def cohen_kappa(table: NDArray[np.int64]) -> Kappa:
    """Cohen's κ of a square contingency table (statsmodels), or ``None`` with the reason.

    κ = (p_o − p_e) / (1 − p_e): observed agreement beyond chance agreement ``p_e`` (the
    product of the two raters' label rates), as a share of what was possible beyond chance.
    """
    units = int(table.sum())
    if units == 0:
        return Kappa(None, 0, "nothing to compare")
    rows, columns = table.sum(axis=1) / units, table.sum(axis=0) / units
    if float(np.dot(rows, columns)) >= 1.0:
        return Kappa(None, units, "both raters gave every unit the same single label")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its variance terms divide by zero on tiny tables
        value = float(cohens_kappa(table, return_results=False))
    return Kappa(value, units)
