"""Counts a benchmark's metrics add up over its samples' dict scores.

Why shared: a counter kept in each sample's score (answers whose rating could not be read,
judge runs no reply could score) is shown summed over the run, never folded into a score;
every benchmark sums it the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.scorer import SampleScore


def key_total(scores: Sequence[SampleScore], key: str) -> float:
    """The sum of ``key`` over the samples whose score is a dict (absent or empty: 0)."""
    total = 0.0
    for s in scores:
        value = s.score.value
        if isinstance(value, dict):
            total += float(value.get(key) or 0)
    return total
