"""Splitting a whole number of items in given proportions (largest-remainder rounding).

Why largest remainder: both generators scale a published table (the Priv-IQ paper's
combination counts, the SpatialTrust paper's capture shares) to a suite of any size; the
counts must sum to the size exactly and reproduce the table exactly at its own size,
which taking each exact share's whole part and handing the rest out by largest
fractional part does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

K = TypeVar("K")


def quotas(total: int, shares: Mapping[K, float]) -> dict[K, float]:
    """Each key's exact (fractional) share of ``total``."""
    weight = sum(shares.values())
    return {key: share * total / weight for key, share in shares.items()}


def largest_remainder(total: int, shares: Mapping[K, float]) -> dict[K, int]:
    """``total`` split in proportion to ``shares``: integers summing to ``total``.

    Each key gets the whole part of its quota; the items left over go one each to the
    largest fractional parts, equal ones in the order of ``shares``.
    """
    exact = quotas(total, shares)
    counts = {key: int(quota) for key, quota in exact.items()}
    leftover = total - sum(counts.values())
    for key in sorted(exact, key=lambda k: -(exact[k] - counts[k]))[:leftover]:
        counts[key] += 1
    return counts
