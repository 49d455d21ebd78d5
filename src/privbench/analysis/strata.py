"""Draws spread over judge-score strata, groups and competencies (pure).

Why: agreement between two graders (ICC, ρ, κ) is only measurable over grades that vary.
A weak model's answers are mostly 0.0, and a calibration set is not spread evenly over
the scale either; a plain random draw of a few items then holds mostly one grade, and the
figures computed over it say little. ``survey export`` (items for human raters) and
``judge check --limit`` (reference answers for a judge) therefore draw from each band of
:data:`STRATA` in turn, as evenly as the items allow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Stratum:
    """A band of grades on 0–1 (``[low, high]`` when ``closed_high``, else ``[low, high)``)."""

    name: str
    low: float
    high: float
    closed_high: bool

    def holds(self, grade: float) -> bool:
        """Whether ``grade`` lies in the band."""
        if self.closed_high:
            return self.low <= grade <= self.high
        return self.low <= grade < self.high

    @property
    def bounds(self) -> str:
        """The band in interval notation, e.g. ``[0.5, 1)``."""
        return f"[{self.low:g}, {self.high:g}" + ("]" if self.closed_high else ")")


STRATA: tuple[Stratum, ...] = (
    Stratum("0.0", 0.0, 0.0, True),
    Stratum("0.1–0.4", 0.0, 0.5, False),
    Stratum("0.5–0.9", 0.5, 1.0, False),
    Stratum("1.0", 1.0, 1.0, True),
)
"""The grade strata, first match wins: 0.0 alone, then above 0 and below 0.5, then 0.5 up
to below 1, then 1.0 alone (a mean over judge runs may fall between the 11 levels)."""
_ORDER = {stratum.name: k for k, stratum in enumerate(STRATA)}


def stratum_of(grade: float) -> str:
    """The name of the stratum ``grade`` falls in."""
    for stratum in STRATA:
        if stratum.holds(grade):
            return stratum.name
    raise ValueError(f"grade {grade!r} is outside 0–1")


def spread_draw(
    strata: Sequence[str],
    competencies: Sequence[Sequence[str]],
    n: int,
    seed: int,
    groups: Sequence[str] | None = None,
) -> list[int]:
    """Indices of ``n`` items (all if fewer), spread over strata, groups and competencies.

    Item ``i`` is in stratum ``strata[i]``, requires ``competencies[i]`` and belongs to
    group ``groups[i]`` (a run; default: one group). Every group is represented first
    (one item each, from the stratum least drawn so far); each next item then comes from
    the stratum drawn least so far that has items left (ties in :data:`STRATA` order), from
    its group with the fewest items drawn, and is the item whose competencies are least
    drawn so far; remaining ties are broken by an order shuffled with ``seed``.
    """
    count = len(strata)
    owner = list(groups) if groups is not None else [""] * count
    left = [int(i) for i in np.random.default_rng(seed).permutation(count)]
    rank = {i: k for k, i in enumerate(left)}
    per_group = dict.fromkeys(owner, 0)
    per_stratum = {stratum.name: 0 for stratum in STRATA}
    per_competency: dict[str, int] = {}
    chosen: list[int] = []

    def need(i: int) -> int:
        return min((per_competency.get(code, 0) for code in competencies[i]), default=0)

    def take(candidates: list[int]) -> None:
        best = min(candidates, key=lambda i: (need(i), rank[i]))
        left.remove(best)
        chosen.append(best)
        per_group[owner[best]] += 1
        per_stratum[strata[best]] += 1
        for code in competencies[best]:
            per_competency[code] = per_competency.get(code, 0) + 1

    for group in dict.fromkeys(owner):
        if len(chosen) >= n:
            break
        own = [i for i in left if owner[i] == group]
        least = min(per_stratum[strata[i]] for i in own)
        take([i for i in own if per_stratum[strata[i]] == least])
    while len(chosen) < n and left:
        open_strata = {strata[i] for i in left}
        stratum = min(open_strata, key=lambda name: (per_stratum[name], _ORDER[name]))
        pool = [i for i in left if strata[i] == stratum]
        fewest = min(per_group[owner[i]] for i in pool)
        take([i for i in pool if per_group[owner[i]] == fewest])
    return chosen


def strata_counts(available: Sequence[str], drawn: Sequence[str]) -> list[dict[str, object]]:
    """Each stratum's band, items available and items drawn (what a draw states)."""
    return [
        {
            "stratum": stratum.name,
            "grades": stratum.bounds,
            "available": sum(1 for s in available if s == stratum.name),
            "drawn": sum(1 for s in drawn if s == stratum.name),
        }
        for stratum in STRATA
    ]
