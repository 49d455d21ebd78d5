"""Uncertainty and model comparison, as pure functions on arrays.

* Percentile bootstrap intervals for a mean score: items are resampled with replacement
  (``bootstrap_mean``); for SpatialTrust, images are resampled as clusters, carrying all
  five of their question scores together (``bootstrap_clusters``), so the interval of the
  overall score reflects that the five answers of one image are not independent.
* Paired comparison of two models on the same items: the mean difference with its
  bootstrap interval, and a two-sided sign-flip permutation test (exact enumeration
  when there are at most ``2**16`` sign patterns, Monte Carlo otherwise).
* Holm's step-down correction across the pairs compared.

Random draws come from a ``numpy.random.Generator`` the caller seeds, so a report is
reproducible.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

LEVEL = 0.95
N_BOOTSTRAP = 1000
N_PERMUTATIONS = 10_000
EXACT_LIMIT = 16

Array = NDArray[np.float64]


@dataclass(frozen=True)
class Interval:
    """A point estimate with its percentile bootstrap interval."""

    estimate: float
    low: float
    high: float


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
        return Interval(float("nan"), float("nan"), float("nan"))
    draws = data[rng.integers(0, data.size, size=(n_boot, data.size))].mean(axis=1)
    return Interval(float(data.mean()), *_percentiles(draws, level))


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
        else Interval(float("nan"), float("nan"), float("nan"))
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


def permutation_p_value(
    a: Sequence[float] | Array,
    b: Sequence[float] | Array,
    rng: np.random.Generator,
    n_permutations: int = N_PERMUTATIONS,
) -> float:
    """Two-sided paired sign-flip permutation p-value for ``mean(a − b) = 0``."""
    d = _differences(a, b)
    d = d[d != 0]  # a zero difference is the same under either sign
    if d.size == 0:
        return 1.0
    observed = abs(d.mean())
    tolerance = 1e-12 * max(1.0, observed)
    if d.size <= EXACT_LIMIT:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=d.size)))
        means = np.abs(signs @ d / d.size)
        return float((means >= observed - tolerance).mean())
    signs = rng.choice((1.0, -1.0), size=(n_permutations, d.size))
    means = np.abs(signs @ d / d.size)
    return float((1 + (means >= observed - tolerance).sum()) / (1 + n_permutations))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values (same order as given)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
