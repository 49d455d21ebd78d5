"""The agreement measures both agreement tables use, on cases computed by hand."""

from __future__ import annotations

import math

import pytest

from privbench.agreement_measures import (
    bland_altman_limits,
    mean_absolute_error,
    share_within,
    spearman,
)


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
