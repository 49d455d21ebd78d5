"""Terminal tables that never cut a number, whatever the terminal's width.

Why: rich fits a wide table into a narrow terminal by shortening cells with an ellipsis,
so a score reads ``32…`` or ``41.…`` at 80 columns or in a pipe. Here a table is laid
out before rich sees it: every word holding a digit keeps its full width (it may move to
the next line of its cell, never be split or shortened); text columns wrap, or fold
where a word is longer than its column. A table that cannot fit that way is printed long
instead: one line per cell (row, column, value).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

TEXT_MIN = 8
"""The narrowest a text column is made (longer words fold) before the table goes long."""
DIGIT = re.compile(r"\d")


def _text(cell: RenderableType) -> str:
    """A cell's plain text (cells are strings or :class:`~rich.text.Text` here)."""
    if isinstance(cell, Text):
        return cell.plain
    return Text.from_markup(cell).plain if isinstance(cell, str) else str(cell)


def _words(texts: Iterable[str]) -> list[str]:
    return [word for text in texts for word in text.split()]


def _widths(table: Table) -> tuple[list[int], list[int]]:
    """Per column: its natural width (its longest line) and the least it may be given
    (its longest word with a digit, and at least :data:`TEXT_MIN` or its longest word)."""
    natural, least = [], []
    for column in table.columns:
        texts = [_text(column.header), *(_text(cell) for cell in column.cells)]
        words = _words(texts)
        lines = [len(line) for text in texts for line in text.splitlines()] or [1]
        numbers = [len(word) for word in words if DIGIT.search(word)]
        longest = max((len(word) for word in words), default=1)
        natural.append(max(lines))
        least.append(max([*numbers, min(longest, TEXT_MIN), 1]))
    return natural, least


def _frame(table: Table) -> int:
    """Characters a table spends outside its cells: padding and vertical rules."""
    n = len(table.columns)
    padding = n * (table.padding[1] + table.padding[3]) if table.padding else 0
    rules = (n - 1 if table.show_edge is False else n + 1) if table.box else 0
    return padding + rules


def _shrink(natural: list[int], least: list[int], room: int) -> list[int]:
    """Widths that sum to at most ``room``: the widest shrinkable column loses one
    character at a time, none below its ``least``."""
    widths = list(natural)
    while sum(widths) > room:
        spare = [i for i, w in enumerate(widths) if w > least[i]]
        widest = max(spare, key=lambda i: widths[i])
        widths[widest] -= 1
    return widths


def long_table(table: Table) -> Table:
    """The table as one row per cell: the row's first cell, the column, the value."""
    first, *rest = table.columns
    shown = Table(title=table.title, caption=table.caption, title_justify="left",
                  caption_justify="left")  # fmt: skip
    shown.add_column(_text(first.header) or "Row", overflow="fold")
    shown.add_column("Column", overflow="fold")
    shown.add_column("Value", justify="right", overflow="fold")
    for index, label in enumerate(first.cells):
        for column in rest:
            cells = list(column.cells)
            value = cells[index] if index < len(cells) else ""
            shown.add_row(label, _text(column.header).replace("\n", " "), value)
    return shown


def fit(table: Table, width: int) -> Table:
    """``table`` laid out for ``width`` columns without cutting a number (a copy; the
    given table is not changed): as it is if it fits, else with narrower text columns,
    else :func:`long_table`."""
    natural, least = _widths(table)
    room = width - _frame(table)
    if sum(natural) <= room:
        return table
    if sum(least) > room:
        return fit(long_table(table), width) if len(table.columns) > 3 else table
    fitted = copy.deepcopy(table)
    for column, size in zip(fitted.columns, _shrink(natural, least, room), strict=True):
        column.width = size
        column.overflow = "fold"
        column.no_wrap = False
    return fitted


class Whole:
    """A renderable that lays a table out for the width it is printed at (:func:`fit`)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield fit(self.table, options.max_width)


def whole(renderable: RenderableType) -> RenderableType:
    """Tables wrapped in :class:`Whole`; anything else as it is."""
    return Whole(renderable) if isinstance(renderable, Table) else renderable


def figure_table(title: str, *columns: str, text: int = 1) -> Table:
    """A table whose first ``text`` columns are left-aligned text, the rest numbers (the
    audits' tables: one look for every benchmark's figures)."""
    table = Table(title=title, title_justify="left")
    for index, column in enumerate(columns):
        table.add_column(column, justify="left" if index < text else "right")
    return table
