"""The papers' published score tables, read from the package data in ``data/published/``.

Why package data: the numbers are kept as the papers print them (their column headings
included) beside the caption and the judge / IoU setting each table states, so a reader
can check every cell against the paper; each benchmark maps the paper's headings onto its
own column names (``priviq/published.py``, ``spatialtrust/published.py``). Each row shown
beside a run is labelled by :attr:`PublishedTable.label`, so a published figure is never
mistaken for one privbench measured.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Mapping

from pydantic import BaseModel, ConfigDict, ValidationError
from rich.table import Table

from privbench.runtime.errors import PrivbenchError
from privbench.shipped import PUBLISHED

MANIFEST = "tables.json"
"""Per table: its file, paper, number, caption and setting."""
WIDE = 10
"""A table with more score columns than this is shown transposed (Table 5's 18)."""


class PublishedRow(BaseModel):
    """One row of a published table: the model (or variant) and its score per column."""

    model_config = ConfigDict(frozen=True)

    model: str
    scores: dict[str, float]


class PublishedTable(BaseModel):
    """One of a paper's score tables, with what the paper says about it."""

    model_config = ConfigDict(frozen=True)

    file: str
    benchmark: str
    """The registry name of the benchmark whose paper printed the table."""
    paper: str
    table: int
    caption: str
    setting: str
    """The judge / IoU setting the paper states for the table."""
    decimals: int
    """Decimals the paper prints (its figures are shown as printed)."""
    row_heading: str = "Model"
    """The heading of the paper's first column (``Model``, ``Variant``)."""
    columns: tuple[str, ...] = ()
    """The score columns, in the paper's order (headings as printed until renamed)."""
    rows: tuple[PublishedRow, ...] = ()

    def number(self, value: float | None) -> str:
        """A score as this table prints it; an en dash for none."""
        return "–" if value is None else f"{value:.{self.decimals}f}"

    @property
    def label(self) -> str:
        """What every row of this table is labelled where it is shown beside a run."""
        return f"published (paper Table {self.table})"

    def renamed(self, name: Callable[[str], str]) -> PublishedTable:
        """The table with each column heading replaced by ``name(heading)``."""
        return self.model_copy(
            update={
                "columns": tuple(name(c) for c in self.columns),
                "rows": tuple(
                    PublishedRow(model=r.model, scores={name(c): v for c, v in r.scores.items()})
                    for r in self.rows
                ),
            }
        )

    def documents(self, note: str) -> list[dict[str, object]]:
        """The rows as ``--json`` writes them under ``published``: one object per row.

        ``note`` says how the paper's data relate to the run's (same release, other data).
        """
        return [
            {
                "model": row.model,
                "table": self.table,
                "label": self.label,
                "paper": self.paper,
                "caption": self.caption,
                "setting": self.setting,
                "note": note,
                "scores": dict(row.scores),
            }
            for row in self.rows
        ]


def _number(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise PrivbenchError(f"{where}: '{text}' is not a number") from None
    if not math.isfinite(value):
        raise PrivbenchError(f"{where}: '{text}' is not a finite number")
    return value


def _rows(file: str) -> tuple[str, tuple[str, ...], tuple[PublishedRow, ...]]:
    """The row heading, columns and rows of one CSV file: a name column, then a score
    per column."""
    path = PUBLISHED / file
    reader = csv.reader(io.StringIO(path.read_text(encoding="utf-8")))
    header, *lines = list(reader)
    columns = tuple(header[1:])
    rows = []
    for number, line in enumerate(lines, start=2):
        where = f"{path}: line {number}"
        if len(line) != len(header):
            raise PrivbenchError(f"{where}: {len(line)} cells, the header has {len(header)}")
        scores = {c: _number(v, f"{where}, {c}") for c, v in zip(columns, line[1:], strict=True)}
        rows.append(PublishedRow(model=line[0], scores=scores))
    return header[0], columns, tuple(rows)


def published_tables(benchmark: str) -> list[PublishedTable]:
    """The published tables of one benchmark's paper (by its registry name; none for a
    benchmark without any), in table order, headings as printed."""
    path = PUBLISHED / MANIFEST
    entries = json.loads(path.read_text(encoding="utf-8"))["tables"]
    tables = []
    for entry in entries:
        try:
            table = PublishedTable.model_validate(entry)
        except ValidationError as error:
            raise PrivbenchError(f"{path}: {entry.get('file', '?')}: {error}") from None
        if table.benchmark == benchmark:
            heading, columns, rows = _rows(table.file)
            update = {"row_heading": heading, "columns": columns, "rows": rows}
            tables.append(table.model_copy(update=update))
    return sorted(tables, key=lambda t: t.table)


def terminal_table(
    table: PublishedTable,
    run: str,
    values: Mapping[str, float | None],
    note: str,
    heading: Callable[[str], str] = str,
    wide_corner: str = "Column",
) -> Table:
    """A published table for a terminal with the run's own scores (``values``, by column)
    first, in the paper's layout and precision; a wide table is transposed (a column per model, a row
    per former column, headed ``wide_corner``). ``heading``: how a column is titled."""
    shown = Table(
        title=f"{table.label}: {table.caption}",
        caption=f"{note}; paper: {table.setting}",
        title_justify="left",
        caption_justify="left",
    )
    if len(table.columns) > WIDE:
        shown.add_column(wide_corner, no_wrap=True)
        shown.add_column(run, justify="right")
        for row in table.rows:
            shown.add_column(row.model, justify="right")
        for column in table.columns:
            published = [table.number(row.scores.get(column)) for row in table.rows]
            shown.add_row(heading(column), table.number(values.get(column)), *published)
        return shown
    shown.add_column(table.row_heading, no_wrap=True)
    for column in table.columns:
        shown.add_column(heading(column), justify="right")
    shown.add_row(run, *(table.number(values.get(column)) for column in table.columns))
    for row in table.rows:
        shown.add_row(row.model, *(table.number(row.scores.get(c)) for c in table.columns))
    return shown
