"""A judge card's figures, each with its range: the checks a card passes wherever it is read.

Why here, below every reader: a card is read from the cache, from ``--judge-card`` and
from a run's log (which records the card whole); all three must refuse the same forged
figure (a ρ of 7.5, a negative MAE, a reversed interval) by the same rules, so the rules
live in these types and nowhere else (:func:`privbench.runtime.records.judge_card.check_card`).
"""

from __future__ import annotations

import math
from typing import Annotated

from annotated_types import Interval
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeInt,
    StrictFloat,
    StrictInt,
    model_validator,
)


class StrictCard(BaseModel):
    """A part of a judge card: strict, because a card is a file anyone can write (``true``
    is no count and ``"0.5"`` no figure), and closed to keys it does not define."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


_UNBOUNDED = 1e9
_ROUNDING = 1e-9
"""Slack at each bound: a figure computed in floating point may pass it by a rounding."""


def _within(low: float, high: float) -> Interval:
    return Interval(ge=low - _ROUNDING, le=high + _ROUNDING)


Count = Annotated[NonNegativeInt, Field(strict=True)]
Number = StrictFloat | StrictInt
Correlation = Annotated[Number, _within(-1.0, 1.0)]
"""ρ, ICC, κ: a correlation-like figure lies in [−1, 1]."""
Share = Annotated[Number, _within(0.0, 1.0)]
"""A share or an accuracy: in [0, 1]."""
GradeGap = Annotated[Number, _within(0.0, 1.0)]
"""A mean absolute gap between two grades on 0–1: in [0, 1]."""
SignedGap = Annotated[Number, _within(-1.0, 1.0)]
"""A mean signed gap between two grades on 0–1 (bias): in [−1, 1]."""
Limit = Annotated[Number, _within(-3.0, 3.0)]
"""A limit of agreement (bias ± 1.96 SD of gaps in [−1, 1], SD ≤ 1): in [−3, 3]."""
Icc = Annotated[Number, _within(-_UNBOUNDED, 1.0)]
"""ICC(2,1): at most 1; a sample ICC can fall below −1 on degenerate data."""

_GRADE_RANGES: dict[str, tuple[float, float]] = {
    "spearman": (-1.0, 1.0),
    "icc": (-_UNBOUNDED, 1.0),
    "kappa_quadratic": (-1.0, 1.0),
    "mae": (0.0, 1.0),
    "within_0_1": (0.0, 1.0),
    "bias": (-1.0, 1.0),
    "loa_low": (-3.0, 3.0),
    "loa_high": (-3.0, 3.0),
}
"""Each Priv-IQ agreement figure's range: its interval in ``ci`` must lie in it too."""


class GradeFigures(StrictCard):
    """Priv-IQ: agreement of the judge's grades with the reference grades (all items)."""

    n: Count
    spearman: Correlation | None
    icc: Icc | None
    mae: GradeGap | None
    within_0_1: Share | None
    kappa_quadratic: Correlation | None
    bias: SignedGap | None
    loa_low: Limit | None
    loa_high: Limit | None
    ci: dict[str, list[Number | None]]
    """95 % bootstrap interval ``[low, high]`` of each figure."""
    unscored: Count
    """Items the judge's replies never gave a grade (left out of the figures)."""

    @model_validator(mode="after")
    def _intervals_in_range(self) -> GradeFigures:
        """Each interval is ``[low, high]`` of a known figure, ordered, within its range."""
        for key, bounds in self.ci.items():
            if key not in _GRADE_RANGES:
                raise ValueError(f"ci.{key}: not a figure of the card")
            if len(bounds) != 2:
                raise ValueError(f"ci.{key}: an interval is [low, high]")
            low, high = bounds
            least, most = _GRADE_RANGES[key]
            for value in (low, high):
                inside = (
                    least - _ROUNDING <= value <= most + _ROUNDING if value is not None else True
                )
                if value is not None and not (math.isfinite(value) and inside):
                    raise ValueError(f"ci.{key}: {value!r} is outside [{least:g}, {most:g}]")
            if low is not None and high is not None and low > high:
                raise ValueError(f"ci.{key}: low {low!r} above high {high!r}")
        return self


class VerdictFigures(StrictCard):
    """SpatialTrust q4/q5: agreement of the judge's verdicts with the reference verdicts."""

    n_factors: Count
    n_answers: Count
    accuracy: dict[str, Share | None]
    kappa: dict[str, Correlation | None]
    unscored: Count


class SanityFigures(StrictCard):
    """The sanity probe: reference answers graded against themselves (1.0 is right)."""

    protocol: str
    n: Count
    mean: Share | None
    lowest: Share | None
    unscored: Count
    passed: bool
    min_mean: Share


class ProbeFigures(StrictCard):
    """One bias probe variant under one protocol: mean grades and the paired change."""

    probe: str
    description: str
    variant: str
    protocol: str
    n: Count
    mean_base: Share | None
    mean_variant: Share | None
    mean_change: SignedGap | None
    change_low: SignedGap | None
    change_high: SignedGap | None
    unscored: Count
