"""Uncertainty and model comparison, as pure functions on arrays.

* Percentile bootstrap intervals for a mean score: items are resampled with replacement
  (``bootstrap_mean``, scipy's ``bootstrap``); for SpatialTrust, images are resampled as
  clusters, carrying all five of their question scores together (``bootstrap_clusters``),
  so the interval of the overall score reflects that the five answers of one image are not
  independent. scipy has no cluster bootstrap, and a resample that misses every image
  answering a question has no mean for it: those draws are left out of that question's
  interval, which scipy's quantiles would turn into NaN, so the clusters are resampled here.
* Paired comparison of two models on the same items: the mean difference with its
  bootstrap interval, and a two-sided sign-flip permutation test (scipy's
  ``permutation_test``; exact enumeration when there are at most ``2**16`` sign patterns,
  Monte Carlo otherwise).
* Holm's step-down correction across the pairs compared (pingouin).
* :func:`compare_paired`: B − A of two runs over their common items, the one function
  behind every paired figure (``privbench diff`` and the report's comparisons).

Random draws come from a ``numpy.random.Generator`` the caller seeds, so a report is
reproducible.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pingouin
from numpy.typing import NDArray
from scipy import stats

from privbench.formatting import natural_key

LEVEL = 0.95
N_BOOTSTRAP = 1000
N_PERMUTATIONS = 10_000
EXACT_LIMIT = 16
TIE_DECIMALS = 10
"""Sign patterns whose mean differences agree to this many decimals are ties: means that
are equal in exact arithmetic differ in their last bits in floating point, and scipy's own
tolerance (relative to the observed mean) is too tight for a mean close to zero."""

Array = NDArray[np.float64]


@dataclass(frozen=True)
class Interval:
    """A point estimate with its percentile bootstrap interval."""

    estimate: float
    low: float
    high: float


NO_INTERVAL = Interval(float("nan"), float("nan"), float("nan"))


def _percentiles(draws: Array, level: float) -> tuple[float, float]:
    tail = 100 * (1 - level) / 2
    low, high = np.percentile(draws, [tail, 100 - tail])
    return float(low), float(high)


def bootstrap_mean(
    values: Sequence[float] | Array,
    rng: np.random.Generator,
    n_boot: int = N_BOOTSTRAP,
    level: float = LEVEL,
) -> Interval:
    """Mean of ``values`` (NaN dropped) with its bootstrap interval over resampled items."""
    data = np.asarray(values, dtype=float)
    data = data[~np.isnan(data)]
    if data.size == 0:
        return NO_INTERVAL
    estimate = float(data.mean())
    if data.size == 1:  # every resample of one item is that item (scipy wants two)
        return Interval(estimate, estimate, estimate)
    result = stats.bootstrap(
        (data,),
        np.mean,
        n_resamples=n_boot,
        confidence_level=level,
        method="percentile",
        vectorized=True,
        rng=rng,
    )
    interval = result.confidence_interval
    return Interval(estimate, float(interval.low), float(interval.high))


def bootstrap_clusters(
    matrix: Array,
    statistic: Callable[[Array], Array],
    rng: np.random.Generator,
    n_boot: int = N_BOOTSTRAP,
    level: float = LEVEL,
) -> list[Interval]:
    """Intervals of ``statistic`` (rows → one value per output) resampling whole rows.

    ``matrix`` has one row per cluster (an image) and one column per measurement (its
    questions); ``statistic`` maps a ``(n_rows, n_columns)`` array to a vector.
    """
    estimate = statistic(matrix)
    rows = matrix.shape[0]
    draws = np.stack([statistic(matrix[rng.integers(0, rows, size=rows)]) for _ in range(n_boot)])
    return [
        Interval(float(estimate[k]), *_percentiles(draws[:, k][~np.isnan(draws[:, k])], level))
        if not np.isnan(estimate[k])
        else NO_INTERVAL
        for k in range(estimate.size)
    ]


def column_means_and_overall(matrix: Array) -> Array:
    """Per-column means (NaN ignored) followed by the mean of those means."""
    with np.errstate(invalid="ignore"):
        counts = (~np.isnan(matrix)).sum(axis=0)
        sums = np.nansum(matrix, axis=0)
        means = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    overall = means.mean() if not np.isnan(means).any() else np.nan
    return np.append(means, overall)


def paired_difference(
    a: Sequence[float] | Array,
    b: Sequence[float] | Array,
    rng: np.random.Generator,
    n_boot: int = N_BOOTSTRAP,
    level: float = LEVEL,
) -> Interval:
    """Mean of ``a − b`` over items scored for both, with its bootstrap interval."""
    return bootstrap_mean(_differences(a, b), rng, n_boot, level)


def _differences(a: Sequence[float] | Array, b: Sequence[float] | Array) -> Array:
    left, right = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    keep = ~(np.isnan(left) | np.isnan(right))
    difference: Array = left[keep] - right[keep]
    return difference


def _absolute_mean(values: Array, axis: int) -> Array:
    return np.asarray(np.round(np.abs(values.mean(axis=axis)), TIE_DECIMALS), dtype=float)


def permutation_p_value(
    a: Sequence[float] | Array,
    b: Sequence[float] | Array,
    rng: np.random.Generator,
    n_permutations: int = N_PERMUTATIONS,
) -> float:
    """Two-sided paired sign-flip permutation p-value for ``mean(a − b) = 0``.

    The share of sign patterns whose ``|mean|`` is at least the observed one: all
    ``2**n`` patterns for up to :data:`EXACT_LIMIT` differences, else ``n_permutations``
    random ones, counting the observed pattern too (``(1 + hits) / (1 + n_permutations)``).
    """
    d = _differences(a, b)
    d = d[d != 0]  # a zero difference is the same under either sign
    if d.size <= 1:  # one difference: both of its signs are as extreme as observed
        return 1.0
    result = stats.permutation_test(
        (d,),
        _absolute_mean,
        permutation_type="samples",
        vectorized=True,
        n_resamples=2**d.size if d.size <= EXACT_LIMIT else n_permutations,
        alternative="greater",
        rng=rng,
    )
    return float(result.pvalue)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values (same order as given)."""
    if not p_values:
        return []
    _, adjusted = pingouin.multicomp(np.asarray(p_values, dtype=float), method="holm")
    return [float(p) for p in adjusted]


@dataclass(frozen=True)
class PairedComparison:
    """B − A over the items both runs scored, in points: mean, 95 % interval, p-value."""

    n: int
    difference: float | None
    low: float | None
    high: float | None
    p: float | None


def _finite(value: float) -> float | None:
    return None if np.isnan(value) else float(value)


def compare_paired(
    a: Mapping[str, float | None],
    b: Mapping[str, float | None],
    seed: int,
    n_boot: int = N_BOOTSTRAP,
) -> PairedComparison:
    """The one paired comparison of two runs that ``diff`` and the report both print.

    ``a`` and ``b`` map item id → the run's 0–1 score (None or NaN: unscored). Over the
    items scored in both, taken in natural id order: the mean of B − A in points, its
    percentile bootstrap interval and the two-sided sign-flip permutation p-value, drawn
    from a generator seeded with ``seed`` for this comparison alone, so that the figures
    of a pair never depend on what else was compared before it.
    """

    def scored(value: float | None) -> bool:
        return value is not None and not np.isnan(value)

    ids = sorted((i for i in a if i in b and scored(a[i]) and scored(b[i])), key=natural_key)
    if not ids:
        return PairedComparison(0, None, None, None, None)
    left = np.asarray([a[i] for i in ids], dtype=float)
    right = np.asarray([b[i] for i in ids], dtype=float)
    rng = np.random.default_rng(seed)
    interval = paired_difference(right, left, rng, n_boot)
    p = permutation_p_value(right, left, rng)
    return PairedComparison(
        len(ids),
        _finite(100 * interval.estimate),
        _finite(100 * interval.low),
        _finite(100 * interval.high),
        p,
    )
