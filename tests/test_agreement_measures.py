"""The agreement measures both agreement tables use, on cases computed by hand and
against pingouin, statsmodels and scipy."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pingouin
import pytest
from numpy.typing import NDArray
from scipy import stats
from statsmodels.stats.inter_rater import cohens_kappa

from privbench.agreement_measures import (
    bland_altman_limits,
    grade_level,
    icc_absolute_agreement,
    is_within,
    kappa_quadratic,
    mean_absolute_error,
    share_within,
    spearman,
    spearman_rows,
)
from privbench.analysis.agreement import agreement_notes, agreement_stats


def test_spearman_on_ranks_and_where_undefined() -> None:
    # ranks 1, 2, 3, 4 against 2, 1, 4, 3: Σd² = 4, ρ = 1 − 6·4 / (4·15) = 0.6
    rho, p = spearman([0.1, 0.2, 0.3, 0.4], [0.5, 0.1, 0.9, 0.7])
    assert rho == pytest.approx(0.6)
    assert 0 < p < 1
    assert all(math.isnan(v) for v in spearman([0.3, 0.3, 0.3], [0.1, 0.2, 0.3]))  # constant
    assert all(math.isnan(v) for v in spearman([0.3], [0.1]))  # one item


def test_error_and_share_within_a_tolerance() -> None:
    a, b = [0.7, 0.8, 0.0, 1.0], [0.6, 0.7, 0.5, 1.0]
    assert mean_absolute_error(a, b) == pytest.approx((0.1 + 0.1 + 0.5 + 0.0) / 4)
    # 0.7 − 0.6 and 0.8 − 0.7 are 0.1 on either side of it in floating point: both within
    assert share_within(a, b, 0.1) == 3 / 4
    assert share_within(a, b, 0.05) == 1 / 4
    with pytest.raises(ValueError, match="equally long"):
        mean_absolute_error([0.1, 0.2], [0.1])


def test_bland_altman_limits() -> None:
    # differences 0.2, 0.0, −0.2, 0.4: bias 0.1; deviations 0.1, −0.1, −0.3, 0.3 → SD² 0.2 / 3
    limits = bland_altman_limits([0.5, 0.5, 0.3, 0.9], [0.3, 0.5, 0.5, 0.5])
    sd = math.sqrt(0.2 / 3)
    assert (limits.bias, limits.low, limits.high) == pytest.approx(
        (0.1, 0.1 - 1.96 * sd, 0.1 + 1.96 * sd)
    )
    single = bland_altman_limits([0.8], [0.5])
    assert single.bias == pytest.approx(0.3) and math.isnan(single.low) and math.isnan(single.high)


# The Shrout & Fleiss (1979) example: 6 targets rated by 4 judges.
SHROUT_FLEISS = np.array(
    [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]],
    dtype=float,
)


def test_icc_of_the_shrout_fleiss_table() -> None:
    # Their mean squares: targets BMS = 11.24, judges JMS = 32.49, residual EMS = 1.02
    # (n = 6, k = 4): ICC(2,1) = (11.24 − 1.02) / (11.24 + 3·1.02 + 4·(32.49 − 1.02)/6) = 0.29
    x = SHROUT_FLEISS
    grand = x.mean()
    bms = 4 * ((x.mean(axis=1) - grand) ** 2).sum() / 5
    jms = 6 * ((x.mean(axis=0) - grand) ** 2).sum() / 3
    ems = (((x - grand) ** 2).sum() - 5 * bms - 3 * jms) / 15
    assert (bms, jms, ems) == pytest.approx((11.24, 32.49, 1.02), abs=0.005)
    icc = float(icc_absolute_agreement(x))
    assert icc == pytest.approx((bms - ems) / (bms + 3 * ems + 4 * (jms - ems) / 6))
    assert icc == pytest.approx(0.2898, abs=5e-5)


def test_icc_of_a_tiny_table_by_hand() -> None:
    # rows (0, 2), (2, 3), (4, 4): grand mean 2.5; item means 1, 2.5, 4 → SS 2·4.5 = 9,
    # MSR = 9/2 = 4.5; rater means 2, 3 → SS 3·0.5 = 1.5, MSC = 1.5; total SS 11.5, so the
    # residual SS is 11.5 − 9 − 1.5 = 1, MSE = 1/(2·1) = 0.5.
    # ICC = (4.5 − 0.5) / (4.5 + 0.5 + 2·(1.5 − 0.5)/3) = 4 / (17/3) = 12/17
    assert float(icc_absolute_agreement([[0, 2], [2, 3], [4, 4]])) == pytest.approx(12 / 17)
    # the same table without the second rater's offset of +1 agrees better: 6/7
    assert float(icc_absolute_agreement([[0, 1], [2, 2], [4, 3]])) == pytest.approx(6 / 7)


def _pingouin_icc2(table: NDArray[np.float64]) -> float:
    n, k = table.shape
    long = pd.DataFrame(
        {
            "item": np.repeat(np.arange(n), k),
            "rater": np.tile(np.arange(k), n),
            "score": table.ravel(),
        }
    )
    result = pingouin.intraclass_corr(data=long, targets="item", raters="rater", ratings="score")
    by_type = result.set_index("Type")["ICC"]
    return float(by_type["ICC(A,1)"] if "ICC(A,1)" in by_type.index else by_type["ICC2"])


def test_icc_equals_pingouin_and_is_vectorised() -> None:
    rng = np.random.default_rng(7)
    tables = rng.integers(0, 11, size=(5, 30, 3)) / 10 + rng.normal(0, 0.05, size=(5, 30, 3))
    together = icc_absolute_agreement(tables)
    assert together.shape == (5,)
    for index, table in enumerate(tables):
        assert float(icc_absolute_agreement(table)) == pytest.approx(
            _pingouin_icc2(table), abs=1e-10
        )
        assert together[index] == pytest.approx(float(icc_absolute_agreement(table)), abs=1e-14)
    assert icc_absolute_agreement(tables.reshape(5, 1, 30, 3)).shape == (5, 1)


def test_icc_is_nan_where_undefined() -> None:
    assert np.isnan(icc_absolute_agreement([[0.1, 0.2], [0.3, 0.4]]))  # two items
    assert np.isnan(icc_absolute_agreement([[0.1], [0.2], [0.3]]))  # one rater
    assert np.isnan(icc_absolute_agreement(np.full((4, 2), 0.1)))  # every rating the same
    mixed = icc_absolute_agreement(np.stack([np.full((4, 2), 0.7), SHROUT_FLEISS[:4, :2]]))
    assert np.isnan(mixed[0]) and not np.isnan(mixed[1])
    with pytest.raises(ValueError, match="items, raters"):
        icc_absolute_agreement([0.1, 0.2, 0.3])


def test_grade_level_rounds_halves_up_whatever_the_float_noise() -> None:
    assert grade_level([0.0, 0.1, 0.3, 0.7, 1.0]).tolist() == [0, 1, 3, 7, 10]
    assert grade_level([0.05, 0.25, 0.95]).tolist() == [1, 3, 10]  # halves up
    assert grade_level([0.04, 0.26, 0.5 + 0.6 / 2]).tolist() == [0, 3, 8]
    # (0.1 + 0.2) / 2 is 0.15000000000000002; 0.1499999999 is a half less 1e-10
    assert grade_level([(0.1 + 0.2) / 2, 0.1499999999, 0.15]).tolist() == [2, 2, 2]
    assert grade_level([0.149, 1 + 1e-12, -1e-12]).tolist() == [1, 10, 0]
    assert grade_level([0.25, 0.75], levels=3).tolist() == [1, 2]  # grid 0, 0.5, 1
    assert grade_level(np.array([[0.2], [0.8]])).shape == (2, 1)
    for bad in ([1.1], [-0.1], [math.nan]):
        with pytest.raises(ValueError, match=r"\[0, 1\]"):
            grade_level(bad)


def test_kappa_quadratic_by_hand() -> None:
    # three levels (0, 0.5, 1): x = 0, 0, 1, 2 and y = 0, 1, 1, 2. Observed: one pair off
    # by 1, Σw·O = 1/4. Chance: x's level counts 2, 1, 1 and y's 1, 2, 1, so
    # Σw·E = Σ(i − j)²·r_i·c_j / 16 = (2·2·1 + 2·1·4 + 1·1·1 + 1·1·1 + 1·1·4 + 1·2·1) / 16
    # = 20/16; κ = 1 − (1/4) / (20/16) = 0.8
    assert float(kappa_quadratic([0, 0, 0.5, 1], [0, 0.5, 0.5, 1], levels=3)) == pytest.approx(0.8)
    # two levels: the weights are those of plain κ. p_o = 3/5, p_e = 0.4² + 0.6² = 0.52,
    # κ = (0.6 − 0.52) / (1 − 0.52) = 1/6
    two = kappa_quadratic([0, 0, 1, 1, 1], [0, 1, 1, 1, 0], levels=2)
    assert float(two) == pytest.approx(1 / 6)


def test_kappa_quadratic_equals_statsmodels_on_11_levels() -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(0, 11, size=(4, 80))
    y = np.clip(x + rng.integers(-3, 4, size=x.shape), 0, 10)
    together = kappa_quadratic(x / 10, y / 10)
    assert together.shape == (4,)
    for row in range(4):
        table = np.zeros((11, 11))
        np.add.at(table, (x[row], y[row]), 1)
        expected = cohens_kappa(table, wt="quadratic").kappa
        assert together[row] == pytest.approx(expected, abs=1e-12)
        assert float(kappa_quadratic(x[row] / 10, y[row] / 10)) == together[row]


def test_kappa_quadratic_at_the_edges() -> None:
    grades = [0.0, 0.3, 0.3, 0.9, 1.0]
    assert float(kappa_quadratic(grades, grades)) == 1.0
    assert np.isnan(kappa_quadratic([0.4, 0.4, 0.4], [0.4, 0.4, 0.4]))  # one constant level
    # two different constants: observed disagreement equals chance disagreement
    assert float(kappa_quadratic([0.4, 0.4, 0.4], [0.6, 0.6, 0.6])) == 0.0


def test_spearman_rows_equals_scipy_and_is_nan_where_constant() -> None:
    rng = np.random.default_rng(11)
    a = rng.integers(0, 11, size=(6, 25)) / 10  # ties, as grades have
    b = np.clip(a + rng.integers(-2, 3, size=a.shape) / 10, 0, 1)
    rows = spearman_rows(a, b)
    for index in range(6):
        assert rows[index] == pytest.approx(spearman(a[index], b[index])[0], abs=1e-12)
        assert rows[index] == pytest.approx(stats.spearmanr(a[index], b[index])[0], abs=1e-12)
    # ranks 1, 2, 3, 4 against 2, 1, 4, 3: ρ = 0.6, as for spearman()
    assert float(spearman_rows([0.1, 0.2, 0.3, 0.4], [0.5, 0.1, 0.9, 0.7])) == pytest.approx(0.6)
    both = spearman_rows([[0.3, 0.3, 0.3], [0.1, 0.2, 0.3]], [[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]])
    assert np.isnan(both[0]) and both[1] == pytest.approx(-1.0)
    assert np.isnan(spearman_rows([0.3], [0.1]))


def test_is_within_is_share_within_item_by_item() -> None:
    a, b = [0.7, 0.8, 0.0, 1.0], [0.6, 0.7, 0.5, 1.0]
    assert is_within(a, b, 0.1).tolist() == [True, True, False, True]


def test_the_agreement_table_uses_this_icc_and_says_why_it_is_undefined() -> None:
    human, judge = np.array([0.0, 0.2, 0.4]), np.array([0.2, 0.3, 0.4])
    assert agreement_stats(human, judge, 0.1).icc == pytest.approx(12 / 17)
    flat = agreement_stats(np.full(4, 0.5), np.full(4, 0.5), 0.1)
    assert agreement_notes({"S": flat})[0] == "S: ICC is undefined: every score is the same."
    few = agreement_stats(human[:2], judge[:2], 0.1)
    assert "at least 3 items" in agreement_notes({"S": few})[0]
