"""Bootstrap intervals, permutation tests and Holm's correction on cases with known answers."""

from __future__ import annotations

import numpy as np
import pytest

from privbench.uncertainty import (
    bootstrap_clusters,
    bootstrap_mean,
    column_means_and_overall,
    holm,
    paired_difference,
    permutation_p_value,
)


def test_bootstrap_interval_covers_the_truth_at_about_the_nominal_rate() -> None:
    rng = np.random.default_rng(7)
    truth, n, trials = 0.6, 80, 300
    covered = 0
    for _ in range(trials):
        sample = rng.binomial(1, truth, size=n).astype(float)
        interval = bootstrap_mean(sample, rng, n_boot=500)
        covered += interval.low <= truth <= interval.high
    # nominal 95 %; percentile intervals run slightly narrow at this n
    assert 0.90 <= covered / trials <= 0.99


def test_cluster_bootstrap_covers_the_truth_and_keeps_rows_together() -> None:
    rng = np.random.default_rng(3)
    trials, covered = 200, 0
    for _ in range(trials):
        image_effect = rng.normal(0, 0.2, size=(60, 1))
        matrix = np.clip(0.5 + image_effect + rng.normal(0, 0.1, size=(60, 5)), 0, 1)
        overall = bootstrap_clusters(matrix, column_means_and_overall, rng, n_boot=300)[-1]
        covered += overall.low <= 0.5 <= overall.high
    assert 0.88 <= covered / trials <= 0.99


def test_column_means_ignore_missing_and_average_the_columns() -> None:
    matrix = np.array([[1.0, 0.0, np.nan], [0.0, 0.0, 1.0]])
    assert column_means_and_overall(matrix) == pytest.approx([0.5, 0.0, 1.0, 0.5])


def test_bootstrap_of_a_constant_is_that_constant() -> None:
    interval = bootstrap_mean([0.7] * 10, np.random.default_rng(0))
    assert (interval.estimate, interval.low, interval.high) == pytest.approx((0.7, 0.7, 0.7))
    one = bootstrap_mean([0.3, np.nan], np.random.default_rng(0))  # every resample is 0.3
    assert (one.estimate, one.low, one.high) == (0.3, 0.3, 0.3)
    assert np.isnan(bootstrap_mean([np.nan], np.random.default_rng(0)).estimate)


def test_exact_permutation_p_values() -> None:
    rng = np.random.default_rng(0)
    # five positive differences of one: only the all-plus and all-minus patterns are as extreme
    assert permutation_p_value([1.0] * 5, [0.0] * 5, rng) == 2 / 32
    assert permutation_p_value([1.0] * 10, [0.0] * 10, rng) == 2 / 1024
    # differences (1, -1): every sign pattern has |mean| ≤ 1 and half reach 1
    assert permutation_p_value([1.0, 0.0], [0.0, 1.0], rng) == 1.0
    assert permutation_p_value([0.5, 0.5], [0.5, 0.5], rng) == 1.0  # no difference at all
    assert permutation_p_value([0.9, 0.5], [0.2, 0.5], rng) == 1.0  # one difference: ±0.7
    # differences (0.1, 0.2, 0.3, -0.1): observed |sum| 0.5. With the 0.3 positive, the
    # other three give ±0.1 ±0.2 ±0.1 ∈ {0.4, 0.2, 0.2, 0, 0, -0.2, -0.2, -0.4}, so sums
    # 0.7, 0.5, 0.5, 0.3, 0.3, 0.1, 0.1, -0.1: three reach 0.5; the mirror patterns three
    # more: 6 of 16. In floating point two of the four |sum| = 0.5 patterns come out a hair
    # below the observed mean (0.125 against 0.12500000000000003): ties all the same.
    assert permutation_p_value([0.1, 0.2, 0.3, 0.0], [0.0, 0.0, 0.0, 0.1], rng) == 6 / 16


def test_monte_carlo_permutation_p_value() -> None:
    rng = np.random.default_rng(1)
    # 20 differences of +1: the exact p is 2 / 2**20; the Monte Carlo estimate is its floor
    p = permutation_p_value([1.0] * 20, [0.0] * 20, rng, n_permutations=4000)
    assert p == pytest.approx(1 / 4001, abs=1e-4)
    null = rng.normal(0, 1, size=40)
    assert permutation_p_value(null, np.zeros(40), rng, n_permutations=2000) > 0.01


def test_paired_difference_uses_items_scored_for_both() -> None:
    rng = np.random.default_rng(0)
    interval = paired_difference([1.0, 0.5, np.nan, 0.0], [0.5, 0.5, 1.0, np.nan], rng)
    assert interval.estimate == pytest.approx(0.25)
    assert interval.low <= 0.25 <= interval.high


def test_holm() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.001]) == pytest.approx([0.5, 0.002])
    assert holm([0.9, 0.8]) == pytest.approx([1.0, 1.0])  # 2 × 0.8 capped at 1
    assert holm([]) == []
