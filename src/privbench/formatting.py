"""Number formatting shared by every table privbench prints."""

from __future__ import annotations

import re
import unicodedata


def fmt(value: float | None, decimals: int = 1) -> str:
    """One decimal, as in the papers' tables (a correlation: two); an en dash for a cell
    with nothing scored."""
    return "–" if value is None else f"{value:.{decimals}f}"


def grade(value: float | None) -> str:
    """A 0–1 grade to two decimals; an en dash for none (as :func:`fmt`)."""
    return "–" if value is None else f"{value:.2f}"


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun`` in agreement: "1 image", "2 images" (``many``: an irregular
    plural)."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def signed(value: float | None) -> str:
    """A difference in points with its sign, one decimal; a rounded zero is "0.0",
    unsigned; an en dash for none (as :func:`fmt`)."""
    if value is None:
        return "–"
    text = f"{value:+.1f}"
    return "0.0" if float(text) == 0 else text


def tokens_line(totals: dict[str, dict[str, int]]) -> str:
    """Token totals per role (what a run cost), from inspect's usage records."""
    parts = [
        f"{role} {counts['input']:,} in / {counts['output']:,} out"
        for role, counts in totals.items()
        if counts["total"]
    ]
    return "tokens: " + ("; ".join(parts) if parts else "none recorded (local or no model)")


def usage_lines(
    totals: dict[str, dict[str, int]], cost: str, versions: str, calls: str | None = None
) -> list[str]:
    """The end of a run's terminal summary: the retried calls (when any), the tokens, the
    cost, then the model versions the providers reported (when any)."""
    lines = [calls] if calls else []
    lines += [tokens_line(totals), cost]
    if versions:
        lines.append(versions)
    return lines


def printable_id(text: str) -> str:
    """An id or name from a file, safe to print: control and format characters (an ESC
    drives the terminal, a right-to-left override reorders the line) and lone surrogates
    are shown as escapes (``\\x1b``); everything else as is."""
    return "".join(
        char.encode("unicode_escape").decode("ascii")
        if unicodedata.category(char) in _UNPRINTABLE and char not in _JOINERS
        else char
        for char in text
    )


_UNPRINTABLE = ("Cc", "Cf", "Cs")
_JOINERS = "\u200c\u200d"
"""Zero-width (non-)joiners: format characters that emoji and some scripts need."""


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that orders ``v1_2`` before ``v1_10`` (digit runs compared as numbers)."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part.lower())
        for part in re.split(r"(\d+)", text)
        if part
    )
