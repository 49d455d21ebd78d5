"""Number formatting shared by every table privbench prints."""

from __future__ import annotations


def fmt(value: float | None) -> str:
    """One decimal, as in the papers' tables; an en dash for a cell with nothing scored."""
    return "–" if value is None else f"{value:.1f}"
