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


def percent(value: float | None, decimals: int = 1) -> str:
    """A share as a percentage for a table cell; an en dash for none."""
    return "–" if value is None else f"{100 * value:.{decimals}f}"


def interval_text(share: Rate, decimals: int = 1) -> str:
    """A rate's interval as ``low–high`` in percent; an en dash for none."""
    if share.low is None or share.high is None:
        return "–"
    return f"{100 * share.low:.{decimals}f}–{100 * share.high:.{decimals}f}"


def rate_cell(run: object, column: str, order: int, k: int, n: int) -> dict[str, object]:
    """A paper table's cell (the cross-run frames' columns): ``k`` of ``n`` in percent
    with its Wilson interval."""
    share = rate(k, n)
    pct = [None if v is None else 100 * v for v in (share.value, share.low, share.high)]
    return {"run": run, "column": column, "order": order, "score": pct[0], "std": None,
            "n": n, "low": pct[1], "high": pct[2]}  # fmt: skip
