"""The arithmetic of ``judge check``: agreement figures, disagreements and retest, on
cases computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from privbench.agreement_measures import icc_absolute_agreement
from privbench.judgecheck.statistics import (
    AgreementFigures,
    Disagreement,
    Figure,
    agreement_figures,
    largest_disagreements,
    retest,
)

NAMES = ["spearman", "icc", "mae", "within_0_1", "kappa_quadratic", "bias", "loa_low", "loa_high"]

# Five items; differences judged − reference: +0.2, 0, +0.1, 0, −0.1
REFERENCE = [0.2, 0.4, 0.6, 0.8, 1.0]
JUDGED = [0.4, 0.4, 0.7, 0.8, 0.9]


def _estimates(figures: AgreementFigures) -> dict[str, float]:
    return {name: getattr(figures, name).estimate for name in NAMES}


def test_estimates_of_a_small_table_by_hand() -> None:
    figures = agreement_figures(REFERENCE, JUDGED, n_bootstrap=200)
    assert figures.n == 5
    # bias = (0.2 + 0 + 0.1 + 0 − 0.1) / 5 = 0.04; deviations 0.16, −0.04, 0.06, −0.04,
    # −0.14 → squares sum to 0.052, SD² = 0.052/4 = 0.013
    sd = math.sqrt(0.013)
    # ranks 1..5 against 1.5, 1.5, 3, 4, 5: centred −2, −1, 0, 1, 2 and −1.5, −1.5, 0, 1, 2;
    # Σ products 9.5, Σ squares 10 and 9.5 → ρ = 9.5 / √95 = √0.95
    # κ on levels x = 2, 4, 6, 8, 10 and y = 4, 4, 7, 8, 9: Σ(x − y)² = 6, Σx² = 220,
    # Σy² = 226, Σx = 30, Σy = 32 → κ = 1 − 6 / (220 + 226 − 2·30·32/5) = 1 − 6/62 = 28/31
    # ICC in tenths: grand mean 6.2; item means 3, 4, 6.5, 8, 9.5 → SS 2·29.3, MSR 14.65;
    # rater means 6, 6.4 → MSC 0.4; total SS 61.6 → residual 2.6, MSE 0.65;
    # ICC = 14 / (14.65 + 0.65 + 2·(0.4 − 0.65)/5) = 14/15.2 = 35/38
    assert _estimates(figures) == pytest.approx(
        {
            "spearman": math.sqrt(0.95),
            "icc": 35 / 38,
            "mae": 0.4 / 5,
            "within_0_1": 4 / 5,  # 0.7 − 0.6 counts as 0.1 despite the floats
            "kappa_quadratic": 28 / 31,
            "bias": 0.04,
            "loa_low": 0.04 - 1.96 * sd,
            "loa_high": 0.04 + 1.96 * sd,
        }
    )


def test_intervals_hold_their_estimates_and_follow_the_seed() -> None:
    rng = np.random.default_rng(5)
    reference = rng.integers(0, 11, size=60) / 10
    judged = np.clip(reference + rng.integers(-2, 3, size=60) / 10, 0, 1)
    figures = agreement_figures(list(reference), list(judged), seed=1)
    for name in NAMES:
        figure = getattr(figures, name)
        assert figure.low <= figure.estimate <= figure.high, name
        assert figure.low < figure.high, name
    assert agreement_figures(list(reference), list(judged), seed=1) == figures
    other = agreement_figures(list(reference), list(judged), seed=2)
    assert other.spearman.estimate == figures.spearman.estimate
    assert (other.spearman.low, other.spearman.high) != (
        figures.spearman.low,
        figures.spearman.high,
    )
    narrow = agreement_figures(list(reference), list(judged), seed=1, level=0.5)
    assert figures.mae.low <= narrow.mae.low <= narrow.mae.high <= figures.mae.high


def test_a_generous_judge_shows_its_offset_and_a_fair_one_does_not() -> None:
    # Reference grades 0–0.7; the noise −0.1, 0, +0.1 repeats, so it averages exactly 0.
    reference = np.tile(np.arange(8) / 10, 6)  # 48 items
    noise = np.tile([-0.1, 0.0, 0.1], 16)
    generous = agreement_figures(list(reference), list(reference + 0.2 + noise))
    assert generous.bias.estimate == pytest.approx(0.2)
    assert generous.bias.low > 0  # the interval excludes 0: the judge is generous
    assert generous.within_0_1.estimate == pytest.approx(1 / 3)  # only the −0.1 draws
    fair = agreement_figures(list(reference), list(np.clip(reference + noise, 0, 1)))
    assert fair.bias.low < 0 < fair.bias.high


def test_draws_where_a_statistic_is_undefined_are_left_out_of_its_interval() -> None:
    # Two of three items alike: a resample is constant when it draws only from the first
    # two items or only the third ((8 + 1)/27, a third); Spearman is NaN there, and its
    # interval is taken over the other draws, where ρ is 1.
    figures = agreement_figures([0.1, 0.1, 0.9], [0.2, 0.2, 0.8], n_bootstrap=300)
    assert figures.spearman.estimate == pytest.approx(1.0)
    assert (figures.spearman.low, figures.spearman.high) == pytest.approx((1.0, 1.0))
    # an estimate that is NaN (the reference is constant) has NaN bounds; the others stand
    constant = agreement_figures([0.5, 0.5, 0.5, 0.5], [0.2, 0.4, 0.6, 0.8])
    rho = constant.spearman
    assert all(math.isnan(v) for v in (rho.estimate, rho.low, rho.high))
    assert constant.mae.estimate == pytest.approx(0.2)
    assert constant.icc.low <= constant.icc.estimate <= constant.icc.high


@pytest.mark.parametrize("count", [0, 1])
def test_too_few_items_give_nan_figures(count: int) -> None:
    figures = agreement_figures([0.5] * count, [0.7] * count)
    assert figures.n == count
    for name in NAMES:
        figure = getattr(figures, name)
        assert all(math.isnan(v) for v in (figure.estimate, figure.low, figure.high))
    assert figures.as_json() == {"n": count, **dict.fromkeys(NAMES)}


def test_bad_arguments_are_errors() -> None:
    with pytest.raises(ValueError, match="equally long"):
        agreement_figures([0.1, 0.2], [0.1])
    with pytest.raises(ValueError, match="draw"):
        agreement_figures(REFERENCE, JUDGED, n_bootstrap=0)
    with pytest.raises(ValueError, match="level"):
        agreement_figures(REFERENCE, JUDGED, level=95)


def test_figures_as_json() -> None:
    figures = AgreementFigures(
        n=3,
        **dict.fromkeys(NAMES[:-1], Figure(0.5, 0.25, 0.75)),
        loa_high=Figure(math.nan, math.nan, math.nan),
    )
    assert figures.as_json() == {"n": 3, **dict.fromkeys(NAMES[:-1], 0.5), "loa_high": None}
    assert figures.ci() == {**{name: [0.25, 0.75] for name in NAMES[:-1]}, "loa_high": [None, None]}
    real = agreement_figures(REFERENCE, JUDGED, n_bootstrap=50)
    assert list(real.as_json()) == ["n", *NAMES] and list(real.ci()) == NAMES


def test_largest_disagreements_come_first_and_ties_go_by_id() -> None:
    ids = ["e", "d", "c", "b", "a"]
    reference = [0.5, 0.7, 0.6, 0.1, 0.9]
    judged = [0.5, 0.8, 0.7, 0.4, 0.6]  # differences 0, +0.1, +0.1, +0.3, −0.3
    found = largest_disagreements(ids, reference, judged, k=4)
    # a and b tie at 0.3; c and d at 0.1 (0.8 − 0.7 and 0.7 − 0.6 only differ in the floats)
    assert [d.id for d in found] == ["a", "b", "c", "d"]
    assert found[0].difference == pytest.approx(-0.3)  # the judge was stricter
    assert found[1].as_json() == {
        "id": "b",
        "reference": 0.1,
        "judged": 0.4,
        "difference": pytest.approx(0.3),
    }
    assert len(largest_disagreements(ids, reference, judged)) == 5
    assert largest_disagreements(ids, reference, judged, k=0) == []
    with pytest.raises(ValueError, match="as many ids"):
        largest_disagreements(ids[:2], reference, judged)
    assert Disagreement("x", 0.2, 0.5).difference == pytest.approx(0.3)


def test_retest_by_hand() -> None:
    # three items, two runs; the second item moves by 0.2
    result = retest([[0.5, 0.5], [0.3, 0.5], [0.8, 0.8]])
    assert result is not None
    assert (result.items, result.runs, result.left_out) == (3, 2, 0)
    assert result.changed_share == pytest.approx(1 / 3)
    assert result.mean_abs_change == pytest.approx(0.2 / 3)
    assert result.icc == pytest.approx(float(icc_absolute_agreement([[5, 5], [3, 5], [8, 8]])))
    # three runs: pairs (1,2), (1,3), (2,3) of 0.2, 0.4, 0.2 give 0.8/3 for the one item
    three = retest([[0.2, 0.4, 0.6], [0.7, 0.7, 0.7]])
    assert three is not None
    assert three.mean_abs_change == pytest.approx((0.8 / 3 + 0) / 2)
    assert three.changed_share == pytest.approx(1 / 2)


def test_retest_leaves_out_unscored_items_and_floating_noise() -> None:
    result = retest([[0.3, 0.1 + 0.2], [0.4, None], [None, None], [0.9, 0.9], [0.0, 0.1]])
    assert result is not None
    assert (result.items, result.left_out) == (3, 2)
    assert result.changed_share == pytest.approx(1 / 3)  # 0.3 and 0.1 + 0.2 are one grade
    empty = retest([[0.4, None]])
    assert empty is not None and empty.items == 0 and math.isnan(empty.changed_share)
    assert empty.as_json() == {
        "items": 0,
        "runs": 2,
        "changed_share": None,
        "mean_abs_change": None,
        "icc": None,
        "left_out": 1,
    }


def test_retest_needs_two_runs() -> None:
    assert retest([[0.5], [0.7]]) is None
    assert retest([]) is None
    with pytest.raises(ValueError, match="one grade"):
        retest([[0.5, 0.5], [0.7]])
