"""The review page's keyboard shortcuts: the one list the page and ``docs/review.md`` show.

Why a list in Python: the page's shortcut panel is rendered from it, and a test checks the
table in ``docs/review.md`` and the keys the page's script binds against it, so the three
cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shortcut:
    """One line of the list: its keys (shown joined by " / ") and what they do."""

    keys: tuple[str, ...]
    action: str

    @property
    def label(self) -> str:
        return " / ".join(self.keys)


SHORTCUTS = (
    Shortcut(("a",), "accept and save (every box needs a category)"),
    Shortcut(("n",), "needs work and save"),
    Shortcut(("d",), "discard and save"),
    Shortcut(("j", "k"), "next / previous image"),
    Shortcut(("u",), "next image still to do (a draft or needs work)"),
    Shortcut(("Delete", "Backspace"), "remove the selected box"),
    Shortcut(("Esc",), "leave a text field; then deselect the box"),
    Shortcut(("f",), "fit the window / full resolution"),
    Shortcut(("Ctrl+Z", "Ctrl+Y"), "undo / redo a box change"),
)
"""Every key the page answers, in the order it shows them."""

PAGE_KEYS = frozenset(
    key for s in SHORTCUTS for key in s.keys if key not in {"Esc", "Ctrl+Z", "Ctrl+Y"}
)
"""The keys the page's own script binds (Esc is handled apart, undo and redo by Annotorious)."""


def markdown_rows() -> list[str]:
    """The shortcut table's rows as ``docs/review.md`` writes them."""
    return ["| " + " / ".join(f"`{key}`" for key in s.keys) + f" | {s.action} |" for s in SHORTCUTS]
