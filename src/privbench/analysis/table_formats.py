"""The papers' tables as LaTeX, Markdown and CSV, ready for a manuscript.

Why a module of its own: the report shows Table 3, Table 5 (Priv-IQ) and Table 2
(SpatialTrust) as HTML; a paper needs the same numbers as a LaTeX fragment, a README a
Markdown table, and a plotting script plain numbers. The numbers are never recomputed
here: they are the long frames of :mod:`privbench.analysis.paper_tables` (score, 95 %
bootstrap interval, n per run × column) for the runs of one dataset (as
:mod:`privbench.analysis.groups` groups them), laid out three ways.

Rules a reader can rely on (docs/commands.md says them to users):

* rows are runs, in the order given, labelled as the report labels them; columns are the
  paper's (eight competencies + Total; the combinations + Total; five task scores +
  overall);
* each cell is the score with its interval, ``–`` where nothing was scored;
* the best score of a column is bold among the runs that are ranked — the runs over the
  dataset's shared item set, not ``--limit`` runs, as the report ranks them — and only
  when at least two such runs have a score there: a single run is best of nothing, and
  when every ranked run shows the same score nothing is singled out. Scores are compared
  as printed (one decimal), so two cells that read the same are both bold or neither;
* the ``n`` row holds the column's largest item (image) count; a cell over fewer items
  says its own ``n``;
* CSV is long and numeric (one row per run × column), so tables concatenate and a script
  never parses a pretty string.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import SupportsInt, cast

import numpy as np
import pandas as pd

from privbench import registry
from privbench.analysis.groups import ComparedRun, DatasetGroup, dataset_groups
from privbench.analysis.paper_tables import column_order
from privbench.analysis.runs import Results, load_results
from privbench.formatting import fmt
from privbench.judges import offline_notice
from privbench.runtime.cross_run import PaperTables, TableKind
from privbench.runtime.errors import UsageError
from privbench.uncertainty import LEVEL, N_BOOTSTRAP

FORMATS: tuple[str, ...] = ("latex", "markdown", "csv")
"""The formats of ``show --format`` and of ``report --tables`` (which writes all three)."""
SUFFIXES: Mapping[str, str] = {"latex": ".tex", "markdown": ".md", "csv": ".csv"}
CSV_COLUMNS: tuple[str, ...] = (
    "table",
    "dataset_hash",
    "run",
    "column",
    "score",
    "low",
    "high",
    "n",
    "std",
    "best",
)
"""The long CSV's header: one row per run × column; numbers in full precision."""
BENCHMARK_NAMES: Mapping[str, str] = {name: suite.title for name, suite in registry.SUITES.items()}
_FILE_NAME = re.compile(r"^table[235](-d\d+)?\.(tex|md|csv)$")


def _paper_tables(benchmark: str) -> PaperTables:
    tables = registry.get(benchmark).cross_run.paper_tables
    if tables is None:
        raise UsageError(f"{registry.get(benchmark).title} has no paper tables")
    return tables


@dataclass(frozen=True)
class Resampling:
    """How the intervals were drawn, for the caption (the same seed, the same bounds)."""

    seed: int = 0
    n_boot: int = N_BOOTSTRAP


@dataclass(frozen=True)
class TableCell:
    """One run × column: the frame's numbers and whether it is the column's best."""

    score: float | None
    low: float | None
    high: float | None
    n: int
    std: float | None
    best: bool


@dataclass(frozen=True)
class PaperTable:
    """A table ready to format: run rows, column headers and cells, and where it came from."""

    kind: TableKind
    name: str
    """File stem: ``table3``, or ``table3-d2`` for the second dataset's runs."""
    dataset: str
    dataset_hash: str
    resampling: Resampling
    runs: tuple[str, ...]
    columns: tuple[str, ...]
    """Column keys as in the frame (competency code, combination, task name, Total)."""
    headers: tuple[str, ...]
    cells: Mapping[tuple[str, str], TableCell]
    counts: Mapping[str, int] = field(default_factory=dict)
    """The ``n`` row: the largest count of each column over the runs."""

    @property
    def label(self) -> str:
        """The LaTeX ``\\label``."""
        return f"tab:{self.kind.benchmark}-{self.name}"

    @property
    def _intervals(self) -> str:
        level = f"{round(100 * LEVEL)} %"
        if self.kind.intervals:
            return f"{level} {self.kind.intervals}"
        return (
            f"{level} bootstrap intervals over {self.kind.unit} ({self.resampling.n_boot}"
            f" resamples, seed {self.resampling.seed})"
        )

    @property
    def caption(self) -> str:
        """One plain sentence, formatted (escaped) by each writer."""
        return (
            f"{self.kind.what} ({self.kind.scale}) on {self.dataset}, with {self._intervals};"
            f" n: {self.kind.unit} scored per column; bold: the best ranked run per column"
            f" (mirrors {self.kind.paper})."
        )


# --- building tables from the frames --------------------------------------------------


def _value(value: object) -> float | None:
    """A frame's number, None where it is missing (None or NaN)."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.floating | np.integer):
        return None
    number = float(value)
    return None if math.isnan(number) else number


def best_runs(
    scores: Mapping[str, float | None],
    ranked: Sequence[str],
    lowest: bool = False,
    decimals: int = 1,
) -> set[str]:
    """The ranked runs with a column's top score (``lowest``: its least), compared as
    printed (``decimals``).

    Empty when fewer than two ranked runs have a score, or when all of them show the same
    one (nothing stands out).
    """
    shown = {r: round(s, decimals) for r in ranked if (s := scores.get(r)) is not None}
    if len(shown) < 2 or len(set(shown.values())) == 1:
        return set()
    top = min(shown.values()) if lowest else max(shown.values())
    return {run for run, value in shown.items() if value == top}


def _header(kind: TableKind, column: str) -> str:
    return kind.headers.get(column, column)


def paper_table(
    kind: TableKind,
    long: pd.DataFrame,
    group: DatasetGroup,
    index: int = 0,
    resampling: Resampling | None = None,
) -> PaperTable:
    """Lay out one long frame (``run, column, score, low, high, n[, std]``) of one dataset.

    ``index``: the dataset's place among the benchmark's (0 for the first), which names
    the file of a later one ``table3-d2``; ``group`` gives the run order and which runs
    are ranked.
    """
    columns = column_order(long)
    runs = [r for r in group.runs if r in set(long["run"])]
    values: dict[tuple[str, str], dict[str, object]] = {
        (str(row["run"]), str(row["column"])): {str(k): v for k, v in row.items()}
        for row in long.to_dict("records")
    }
    ranked = group.averaged if len(group.averaged) >= 2 else []
    cells: dict[tuple[str, str], TableCell] = {}
    counts: dict[str, int] = {}
    for column in columns:
        scores = {
            run: _value(values[(run, column)]["score"]) for run in runs if (run, column) in values
        }
        best = best_runs(scores, ranked, kind.lower_is_better, kind.decimals)
        for run in runs:
            row = values.get((run, column))
            if row is None:
                continue
            cells[(run, column)] = TableCell(
                score=scores[run],
                low=_value(row["low"]),
                high=_value(row["high"]),
                n=int(cast(SupportsInt, row["n"])),  # a pandas count: int or numpy integer
                std=_value(row.get("std")),
                best=run in best,
            )
        counts[column] = max(
            (cells[(r, column)].n for r in runs if (r, column) in cells), default=0
        )
    return PaperTable(
        kind=kind,
        name=kind.key if index == 0 else f"{kind.key}-d{index + 1}",
        dataset=group.title,
        dataset_hash=group.dataset_hash,
        resampling=resampling or Resampling(),
        runs=tuple(runs),
        columns=tuple(columns),
        headers=tuple(_header(kind, c) for c in columns),
        cells=cells,
        counts=counts,
    )


def priviq_paper_tables(
    table3: pd.DataFrame,
    table5: pd.DataFrame,
    group: DatasetGroup,
    index: int = 0,
    resampling: Resampling | None = None,
) -> list[PaperTable]:
    """Table 3 and Table 5 of one dataset's Priv-IQ runs (frames of ``priviq_tables``)."""
    table3_kind, table5_kind = _paper_tables("priviq").kinds
    return [
        paper_table(table3_kind, table3, group, index, resampling),
        paper_table(table5_kind, table5, group, index, resampling),
    ]


def spatial_paper_table(
    table2: pd.DataFrame,
    group: DatasetGroup,
    index: int = 0,
    resampling: Resampling | None = None,
) -> PaperTable:
    """Table 2 of one dataset's SpatialTrust runs (the frame of ``spatial_table``)."""
    (table2_kind,) = _paper_tables("spatialtrust").kinds
    return paper_table(table2_kind, table2, group, index, resampling)


def benchmark_groups(results: Results, benchmark: str) -> list[DatasetGroup]:
    """The benchmark's runs grouped by dataset, as the report groups them."""
    rows = results.runs[results.runs["benchmark"] == benchmark].to_dict("records")
    columns = registry.get(benchmark).cross_run.score_columns
    unit = "items" if columns is None else columns.unit
    return dataset_groups([ComparedRun.from_row(row) for row in rows], unit)


def _benchmark(results: Results) -> str:
    """The one benchmark of the logs; a one-line error naming the logs when they mix."""
    by_benchmark: dict[str, list[str]] = {}
    for row in results.runs.to_dict("records"):
        by_benchmark.setdefault(str(row["benchmark"]), []).append(Path(str(row["log"])).name)
    if len(by_benchmark) > 1:
        parts = [
            f"{BENCHMARK_NAMES.get(b, b)} ({', '.join(logs)})" for b, logs in by_benchmark.items()
        ]
        raise UsageError(
            "the logs mix benchmarks: "
            + " and ".join(parts)
            + "; a table holds one benchmark's runs"
        )
    return next(iter(by_benchmark))


def results_tables(results: Results, resampling: Resampling | None = None) -> list[PaperTable]:
    """Every paper table of the logs of one benchmark, one set per dataset.

    Draws the intervals as the report does: one generator seeded with ``resampling.seed``,
    the datasets in turn. For runs of one dataset a report of the same logs (same seed and
    resamples) shows the same bounds; with more datasets, or both benchmarks, the
    report's generator has also drawn its comparisons in between, and its own tables
    (``report --tables``) are the ones that match its pages.
    """
    resampling = resampling or Resampling()
    benchmark = _benchmark(results)
    rng = np.random.default_rng(resampling.seed)
    frame = results.items[benchmark]
    paper = _paper_tables(benchmark)
    tables: list[PaperTable] = []
    if frame.empty:
        logs = ", ".join(Path(str(p)).name for p in results.runs["log"])
        raise UsageError(f"no graded samples in {logs}: nothing to tabulate")
    for index, group in enumerate(benchmark_groups(results, benchmark)):
        rows = frame[frame["run"].isin(group.runs)]
        if rows.empty:
            continue
        frames = paper.compute(rows, rng, resampling.n_boot)
        for kind, long in zip(paper.kinds, frames, strict=True):
            if not long.empty:  # a table none of these runs measured is left out
                tables.append(paper_table(kind, long, group, index, resampling))
    return tables


def log_tables(
    paths: Sequence[str | Path], labels: Sequence[str] = (), resampling: Resampling | None = None
) -> tuple[list[PaperTable], list[str]]:
    """The paper tables of logs (files or folders) of one benchmark, and the notes for the
    reader: the loader's (skipped files, superseded logs) and the offline judge's caveat
    where it graded a run (the tables themselves do not name judges)."""
    results = load_results(paths, labels)
    tables = results_tables(results, resampling)
    judges = {j.strip() for text in results.runs["judge"] for j in str(text).split(",")}
    caveats = [notice for j in sorted(judges) if (notice := offline_notice(j))]
    section = registry.get(_benchmark(results)).cross_run.report
    if caveats and section is not None and section.offline_note:
        caveats = [section.offline_note]  # the benchmark's own offline rules graded
    return tables, [*results.notes, *caveats]


# --- formatting ------------------------------------------------------------------------

_LATEX = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "_": r"\_",
    "%": r"\%",
    "&": r"\&",
    "#": r"\#",
    "$": r"\$",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "·": r"\textperiodcentered{}",
    "–": "--",
    "—": "---",
    "×": r"$\times$",
    "\n": " ",
    "\r": " ",
    "\t": " ",
}
"""Characters that are markup in LaTeX (or missing from its default fonts), as text."""


def latex_escape(text: str) -> str:
    """``text`` as literal LaTeX text: every special character escaped."""
    return "".join(_LATEX.get(ch, ch) for ch in text)


_MARKDOWN_SPECIAL = set("\\`*_[]<>|~$&")


def markdown_escape(text: str) -> str:
    """``text`` as literal Markdown table-cell text: the punctuation GitHub Markdown reads
    inside a line (emphasis, code, links, HTML, entities, math, strike-through, the
    cell pipe) is backslash-escaped, line breaks become spaces. Characters that are
    markup only at the start of a line (``#``, ``-``, ``+``) are left: no cell starts one."""
    flat = " ".join(text.splitlines())
    return "".join(f"\\{ch}" if ch in _MARKDOWN_SPECIAL else ch for ch in flat)


def _interval(cell: TableCell, decimals: int) -> str:
    if cell.low is None or cell.high is None:
        return ""
    return f"[{fmt(cell.low, decimals)}, {fmt(cell.high, decimals)}]"


def _own_n(table: PaperTable, column: str, cell: TableCell) -> str:
    return f"n={cell.n}" if cell.n != table.counts.get(column) else ""


@dataclass(frozen=True)
class _CellMarkup:
    """How a format marks up a score cell: the text for no score, and what goes before and
    after the best score and the small text (interval, own ``n``) that follows a score.
    Why: LaTeX and Markdown cells say the same things, only marked up differently."""

    none: str
    bold: tuple[str, str]
    small: tuple[str, str]


_LATEX_CELL = _CellMarkup("--", ("\\textbf{", "}"), ("\\,{\\scriptsize", "}"))
_MARKDOWN_CELL = _CellMarkup("–", ("**", "**"), (" ", ""))


def _marked_cell(table: PaperTable, run: str, column: str, markup: _CellMarkup) -> str:
    cell = table.cells.get((run, column))
    if cell is None or cell.score is None:
        return markup.none
    decimals = table.kind.decimals
    text = fmt(cell.score, decimals)
    if cell.best:
        text = markup.bold[0] + text + markup.bold[1]
    small = " ".join(
        part for part in (_interval(cell, decimals), _own_n(table, column, cell)) if part
    )
    before, after = markup.small
    return f"{text}{before}{small}{after}" if small else text


def latex_cell(table: PaperTable, run: str, column: str) -> str:
    """``77.7\\,{\\scriptsize[74.1, 81.0]}``, the score bold when best, ``--`` when none."""
    return _marked_cell(table, run, column, _LATEX_CELL)


FIT = "privbenchfit"
"""The macro the ``tabular`` is passed through: the identity unless the document defines
it first, e.g. as ``\\resizebox{\\linewidth}{!}{#1}``. Why: a cell with its interval is
about twice as wide as the paper's, and Table 5 has some twenty columns; a regenerated
file must not need editing to fit the page."""


def to_latex(table: PaperTable) -> str:
    """A ``table`` float with a booktabs ``tabular`` (needs ``\\usepackage{booktabs}``)."""
    spec = "l" + "c" * len(table.columns)
    lines = [
        f"% {table.kind.paper} from privbench; needs \\usepackage{{booktabs}}",
        r"\begin{table}[t]",
        r"\centering",
        rf"\caption{{{latex_escape(table.caption)}}}",
        rf"\label{{{table.label}}}",
        rf"\providecommand{{\{FIT}}}[1]{{#1}}",
        rf"\{FIT}{{%",
        rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        " & ".join(["Run", *(latex_escape(h) for h in table.headers)]) + r" \\",
        r"\midrule",
    ]
    for run in table.runs:
        cells = [latex_cell(table, run, column) for column in table.columns]
        lines.append(" & ".join([latex_escape(run), *cells]) + r" \\")
    lines += [
        r"\midrule",
        " & ".join(["$n$", *(str(table.counts[c]) for c in table.columns)]) + r" \\",
        r"\bottomrule",
        r"\end{tabular}}",
        r"\end{table}",
    ]
    return "\n".join(lines) + "\n"


def markdown_cell(table: PaperTable, run: str, column: str) -> str:
    """``77.7 [74.1, 81.0]``, the score in ``**…**`` when best, ``–`` when none."""
    return _marked_cell(table, run, column, _MARKDOWN_CELL)


def to_markdown(table: PaperTable) -> str:
    """A GitHub pipe table after a one-line caption."""
    header = ["Run", *(markdown_escape(h) for h in table.headers)]
    lines = [
        f"**{markdown_escape(table.kind.paper)}.** {markdown_escape(table.caption)}",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join([":---", *("---:" for _ in table.columns)]) + "|",
    ]
    for run in table.runs:
        cells = [markdown_cell(table, run, column) for column in table.columns]
        lines.append("| " + " | ".join([markdown_escape(run), *cells]) + " |")
    lines.append("| " + " | ".join(["n", *(str(table.counts[c]) for c in table.columns)]) + " |")
    return "\n".join(lines) + "\n"


def _number(value: float | None) -> str:
    return "" if value is None else repr(float(value))


def csv_rows(table: PaperTable) -> list[dict[str, str]]:
    """The long rows of a table: one per run × column that has a cell."""
    rows = []
    for run in table.runs:
        for column in table.columns:
            cell = table.cells.get((run, column))
            if cell is None:
                continue
            rows.append(
                {
                    "table": table.name,
                    "dataset_hash": table.dataset_hash,
                    "run": run,
                    "column": column,
                    "score": _number(cell.score),
                    "low": _number(cell.low),
                    "high": _number(cell.high),
                    "n": str(cell.n),
                    "std": _number(cell.std),
                    "best": "1" if cell.best else "0",
                }
            )
    return rows


def to_csv(tables: Iterable[PaperTable]) -> str:
    """One long CSV (header once) of one or more tables; the ``table`` column tells them apart."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(CSV_COLUMNS), lineterminator="\n")
    writer.writeheader()
    for table in tables:
        writer.writerows(csv_rows(table))
    return buffer.getvalue()


def check_format(format: str) -> None:
    """A one-line error for a format that is not one of :data:`FORMATS`."""
    if format not in FORMATS:
        raise UsageError(f"--format {format}: use one of {', '.join(FORMATS)}")


def render(tables: Sequence[PaperTable], format: str) -> str:
    """All ``tables`` in one format, as ``show --format`` prints them."""
    check_format(format)
    if format == "csv":
        return to_csv(tables)
    write = to_latex if format == "latex" else to_markdown
    return "\n".join(write(table) for table in tables)


def file_text(table: PaperTable, format: str) -> str:
    """One table's file content in ``format``."""
    return to_csv([table]) if format == "csv" else render([table], format)


def _directory(directory: Path) -> None:
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"{directory}: cannot write tables here ({error.strerror})") from None


def clear_tables(directory: Path) -> None:
    """Remove table files an earlier report wrote to ``directory``, so none outlives its
    data (a dataset that is gone would leave its ``table3-d2`` behind)."""
    if not directory.is_dir():
        return
    for path in directory.iterdir():
        if path.is_file() and _FILE_NAME.match(path.name):
            path.unlink()


def write_tables(
    tables: Iterable[PaperTable],
    directory: Path,
    formats: Sequence[str] = FORMATS,
    overwrite: bool = True,
) -> list[Path]:
    """Write each table in each format as ``DIR/<name><suffix>``; the paths written.

    ``overwrite=False`` refuses (before writing anything) to replace an existing file.
    """
    _directory(directory)
    planned = [
        (directory / f"{table.name}{SUFFIXES[format]}", table, format)
        for table in tables
        for format in formats
    ]
    if not overwrite:
        for path, _table, _format in planned:
            if path.exists():
                raise UsageError(f"{path}: exists (--overwrite replaces it)")
    written = []
    for path, table, format in planned:
        try:
            path.write_text(file_text(table, format), encoding="utf-8")
        except OSError as error:
            raise UsageError(f"{path}: cannot write ({error.strerror})") from None
        written.append(path)
    return written
