"""A share ``k / n`` with its 95 % Wilson score interval: the one rate type of the suites'
figures (leakage, accuracy, over-disclosure …).

Why Wilson (statsmodels): the suites' rates are often near 0 or 1 and over a few hundred
items, where the normal approximation's interval leaves [0, 1] and undercovers.
"""

from __future__ import annotations

from dataclasses import dataclass

LEVEL = 0.95


@dataclass(frozen=True)
class Rate:
    """A share ``k / n`` with its 95 % Wilson interval (None when ``n`` is 0)."""

    k: int
    n: int
    value: float | None
    low: float | None
    high: float | None

    def record(self) -> dict[str, object]:
        return {"rate": self.value, "low": self.low, "high": self.high, "k": self.k, "n": self.n}


def rate(k: int, n: int) -> Rate:
    """``k`` of ``n`` with its Wilson score interval (statsmodels)."""
    if n == 0:
        return Rate(k, n, None, None, None)
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(k, n, alpha=1 - LEVEL, method="wilson")
    return Rate(k, n, k / n, float(low), float(high))
