"""The arithmetic of ``judge check``: agreement figures with intervals, the largest
disagreements and test–retest stability (pure: no I/O).

Why intervals: a calibration set holds a few hundred graded answers, and a ρ near 0.8
measured on 200 items is known to about ±0.05; a judge card that gives the point alone
invites reading a difference of 0.02 between two judges as real. Every figure comes
with a 95 % percentile bootstrap interval: items are drawn with replacement, and every
statistic is computed on the same draws, all at once (arrays of shape ``(draws, items)``),
so a thousand draws of 500 items cost a fraction of a second.

Direction: ``bias = mean(judged − reference)``; positive means the judge grades more
generously than the reference.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np
from numpy.typing import NDArray

from privbench.agreement_measures import (
    LIMITS_Z,
    SLACK,
    icc_absolute_agreement,
    is_within,
    kappa_quadratic,
    mean_absolute_error,
    share_within,
    spearman_rows,
)

WITHIN = 0.1
"""The tolerance of ``within_0_1``: one step of the 0.1 grade grid."""
DIFFERENCE_DIGITS = 9
"""Differences are compared at this many decimals when ordering disagreements, so that
``0.8 − 0.7`` and ``0.7 − 0.6`` (equal but for floating noise) tie and go by id."""


def _number(value: float) -> float | None:
    """A float for JSON: NaN (undefined) becomes None."""
    return None if math.isnan(value) else float(value)


@dataclass(frozen=True)
class Figure:
    """A point estimate and its percentile bootstrap interval (95 % unless asked otherwise).

    NaN where undefined: an estimate that is NaN has NaN bounds too.
    """

    estimate: float
    low: float
    high: float


@dataclass(frozen=True)
class AgreementFigures:
    """How closely a judge's grades agree with reference grades over ``n`` items."""

    n: int
    spearman: Figure
    icc: Figure
    """ICC(2,1) between the columns (reference, judged): absolute agreement."""
    mae: Figure
    within_0_1: Figure
    """Share of items with ``|judged − reference| ≤ 0.1`` (up to floating slack)."""
    kappa_quadratic: Figure
    """Cohen's κ, quadratic weights, on the 11 grade levels of both sides."""
    bias: Figure
    """``mean(judged − reference)``: positive, the judge grades more generously."""
    loa_low: Figure
    """Bland–Altman lower limit, ``bias − 1.96·SD`` of ``judged − reference``."""
    loa_high: Figure
    """Bland–Altman upper limit, ``bias + 1.96·SD``."""

    def _figures(self) -> dict[str, Figure]:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "n"}

    def as_json(self) -> dict[str, int | float | None]:
        """``n`` and every estimate by name, numbers only (NaN → None)."""
        estimates = {name: _number(f.estimate) for name, f in self._figures().items()}
        return {"n": self.n, **estimates}

    def ci(self) -> dict[str, list[float | None]]:
        """Every interval by name as ``[low, high]`` (NaN → None)."""
        return {name: [_number(f.low), _number(f.high)] for name, f in self._figures().items()}


_STATISTICS = (
    "spearman",
    "icc",
    "mae",
    "within_0_1",
    "kappa_quadratic",
    "bias",
    "loa_low",
    "loa_high",
)


def _pair(
    reference: Sequence[float], judged: Sequence[float]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    left = np.asarray(reference, dtype=float)
    right = np.asarray(judged, dtype=float)
    if left.ndim != 1 or left.shape != right.shape:
        raise ValueError("agreement needs two equally long lists of grades")
    return left, right


def _statistics(
    reference: NDArray[np.float64], judged: NDArray[np.float64]
) -> dict[str, NDArray[np.float64]]:
    """Every statistic per row of ``(..., n)`` arrays (n ≥ 2), vectorised."""
    difference = judged - reference
    bias = difference.mean(axis=-1)
    spread = LIMITS_Z * difference.std(axis=-1, ddof=1)
    return {
        "spearman": spearman_rows(reference, judged),
        "icc": icc_absolute_agreement(np.stack([reference, judged], axis=-1)),
        "mae": np.abs(difference).mean(axis=-1),
        "within_0_1": is_within(judged, reference, WITHIN).mean(axis=-1),
        "kappa_quadratic": kappa_quadratic(reference, judged),
        "bias": bias,
        "loa_low": bias - spread,
        "loa_high": bias + spread,
    }


def _interval(draws: NDArray[np.float64], level: float) -> tuple[float, float]:
    """Percentile bounds of the draws that are defined; NaN if none is."""
    defined = draws[~np.isnan(draws)]
    if defined.size == 0:
        return math.nan, math.nan
    tail = (1 - level) / 2
    low, high = np.quantile(defined, [tail, 1 - tail])
    return float(low), float(high)


def _undefined(n: int) -> AgreementFigures:
    nothing = Figure(math.nan, math.nan, math.nan)
    return AgreementFigures(n=n, **dict.fromkeys(_STATISTICS, nothing))


def agreement_figures(
    reference: Sequence[float],
    judged: Sequence[float],
    *,
    seed: int = 0,
    n_bootstrap: int = 1000,
    level: float = 0.95,
) -> AgreementFigures:
    """The agreement of ``judged`` with ``reference`` grades, item by item, with intervals.

    Intervals: ``n_bootstrap`` resamples of the items with replacement
    (``numpy.random.default_rng(seed)``: the same seed, the same intervals), each statistic
    computed on the same draws, the ``level`` percentile interval of its values. A draw
    where a statistic is undefined (NaN: Spearman and the ICC of a resample whose grades
    are all equal on one side, say) is left out of that statistic's interval only. An
    estimate that is NaN gets NaN bounds. MAE and ``within_0_1`` are the ones
    :func:`~privbench.agreement_measures.mean_absolute_error` and
    :func:`~privbench.agreement_measures.share_within` give.

    Fewer than two items (no items too) give NaN figures, not an error: one grade pair
    measures no agreement and cannot be resampled into an interval, and a judge check
    whose replies never parsed still writes its card. Lists of unequal length are a
    ``ValueError``.
    """
    if n_bootstrap < 1:
        raise ValueError("bootstrap: at least one draw")
    if not 0 < level < 1:
        raise ValueError("interval level: between 0 and 1")
    left, right = _pair(reference, judged)
    n = left.size
    if n < 2:
        return _undefined(n)
    estimates = _statistics(left, right)
    estimates["mae"] = np.asarray(mean_absolute_error(left, right))
    estimates["within_0_1"] = np.asarray(share_within(right, left, WITHIN))
    draws = np.random.default_rng(seed).integers(0, n, size=(n_bootstrap, n))
    resampled = _statistics(left[draws], right[draws])
    figures: dict[str, Figure] = {}
    for name in _STATISTICS:
        estimate = float(estimates[name])
        low, high = (math.nan, math.nan)
        if not math.isnan(estimate):
            low, high = _interval(resampled[name], level)
        figures[name] = Figure(estimate, low, high)
    return AgreementFigures(n=n, **figures)


@dataclass(frozen=True)
class Disagreement:
    """One item whose judged grade is far from its reference grade."""

    id: str
    reference: float
    judged: float

    @property
    def difference(self) -> float:
        """``judged − reference``: positive, the judge was more generous."""
        return self.judged - self.reference

    def as_json(self) -> dict[str, str | float]:
        """The item's id, both grades and their difference."""
        return {
            "id": self.id,
            "reference": self.reference,
            "judged": self.judged,
            "difference": self.difference,
        }


def largest_disagreements(
    ids: Sequence[str], reference: Sequence[float], judged: Sequence[float], k: int = 10
) -> list[Disagreement]:
    """The ``k`` items with the largest ``|judged − reference|``, largest first.

    Why: a reader trusts a judge card more after reading the answers it got most wrong.
    Equal differences (to :data:`DIFFERENCE_DIGITS` decimals, so floating noise does not
    decide) go by id, so the list is the same on every run.
    """
    if not len(ids) == len(reference) == len(judged):
        raise ValueError("disagreements need as many ids as grades on each side")
    if k < 0:
        raise ValueError("disagreements: k must not be negative")
    items = [
        Disagreement(i, float(r), float(j)) for i, r, j in zip(ids, reference, judged, strict=True)
    ]
    items.sort(key=lambda d: (-round(abs(d.difference), DIFFERENCE_DIGITS), d.id))
    return items[:k]


@dataclass(frozen=True)
class Retest:
    """How stable a judge's grades are over repeated runs of the same items.

    ``items`` counts the items every run scored (the only ones used); ``left_out`` those
    some run did not (its reply never parsed).
    """

    items: int
    runs: int
    changed_share: float
    """Share of items whose grades are not all equal (up to floating slack)."""
    mean_abs_change: float
    """Mean over items of the mean ``|g_i − g_j|`` over all pairs of runs ``i < j``."""
    icc: float
    """ICC(2,1) with the runs as raters."""
    left_out: int

    def as_json(self) -> dict[str, int | float | None]:
        """Every field by name, numbers only (NaN → None)."""
        return {
            "items": self.items,
            "runs": self.runs,
            "changed_share": _number(self.changed_share),
            "mean_abs_change": _number(self.mean_abs_change),
            "icc": _number(self.icc),
            "left_out": self.left_out,
        }


def _run_count(runs: Sequence[Sequence[float | None]]) -> int:
    counts = {len(grades) for grades in runs}
    if len(counts) > 1:
        raise ValueError("retest: every item needs one grade (or None) per run")
    return counts.pop() if counts else 0


def retest(runs: Sequence[Sequence[float | None]]) -> Retest | None:
    """Test–retest stability; each inner sequence is one item's grades from N judge runs.

    Why: a judge that grades the same answer 0.6 once and 0.9 the next time adds noise
    to every score it gives, whatever its agreement with the reference. ``None`` is a run
    whose reply never parsed; an item with one is left out (counted in ``left_out``), so
    every figure compares the same runs. None when there are fewer than two runs (or no
    items): there is nothing to compare. With no complete item the figures are NaN.
    """
    count = _run_count(runs)
    if count < 2:
        return None
    complete = [grades for grades in runs if all(g is not None for g in grades)]
    table = np.array([[float(g) for g in grades if g is not None] for grades in complete])
    table = table.reshape(len(complete), count)
    left_out = len(runs) - len(complete)
    if not complete:
        return Retest(0, count, math.nan, math.nan, math.nan, left_out)
    changed = np.ptp(table, axis=1) > SLACK
    first, second = np.triu_indices(count, k=1)
    pair_change = np.abs(table[:, first] - table[:, second]).mean(axis=1)
    return Retest(
        items=len(complete),
        runs=count,
        changed_share=float(changed.mean()),
        mean_abs_change=float(pair_change.mean()),
        icc=float(icc_absolute_agreement(table)),
        left_out=left_out,
    )
