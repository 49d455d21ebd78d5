"""``privbench report``: one self-contained HTML file from inspect logs.

Everything is inline — CSS, the little JavaScript of the sample browser, figures and
images as data URIs — and a Content-Security-Policy forbids every network fetch, so the
file can be mailed or archived and opened offline. Every dataset and model text is
HTML-escaped by the template engine (jinja2 autoescape); the only markup not escaped is
what this module builds from numbers (figure data URIs and box geometry).

Honest comparisons: runs are grouped by the dataset they ran on (content hash, see
:mod:`privbench.analysis.groups`); each dataset gets its own tables, comparisons and
figures; ``--limit`` runs are marked and left out of averages; runs over other items than
the dataset's main set are compared only over the items both answered, in a family of
their own, and the report says so; a reference row is over the items every run answered.

Figures are also written as 200 dpi PNG and SVG to ``<report>_figures/`` beside the report.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from numbers import Real
from pathlib import Path
from typing import NotRequired, TypedDict

import numpy as np
import pandas as pd
from jinja2 import Environment, PackageLoader, select_autoescape

from privbench import registry
from privbench.analysis.agreement import (
    Ratings,
    agreement_notes,
    agreement_table,
    as_records,
    check_scale,
    format_stat,
    read_ratings,
)
from privbench.analysis.groups import (
    ComparedRun,
    DatasetGroup,
    comparison_gaps,
    cross_dataset_note,
    dataset_groups,
    reference_note,
)
from privbench.analysis.paper_tables import (
    FAMILIES,
    OVERALL,
    TOTAL,
    column_order,
    comparisons,
    item_scores,
    wide,
)
from privbench.analysis.runs import SHORT_HASH, Results, load_results
from privbench.analysis.table_formats import (
    PaperTable,
    Resampling,
    clear_tables,
    paper_table,
    priviq_paper_tables,
    spatial_paper_table,
    write_tables,
)
from privbench.formatting import fmt, signed
from privbench.judges.choice import parse_judge
from privbench.published import PublishedTable, published_tables
from privbench.report import figures
from privbench.report.ablation import (
    Identity,
    ablations,
    one_run_per_model,
    run_identity,
    strategy_benchmarks,
    strategy_labels,
)
from privbench.report.baselines import reference_row
from privbench.report.samples import (
    PRIVIQ_WIDTH,
    SPATIAL_WIDTH,
    PrivIQCard,
    SpatialCard,
    Sprite,
    SpriteImage,
    priviq_cards,
    spatial_cards,
)
from privbench.runtime.cross_run import PublishedFigures, ReportSection, TableKind
from privbench.runtime.suite import Suite
from privbench.uncertainty import N_BOOTSTRAP

DEFAULT_BROWSE = 200
PAGE_SIZE = 20
"""Cards per page of a sample browser."""
TRANSPOSE_OVER = 10
"""A score table with more columns than this shows runs as columns instead (Table 5)."""
SCRIPTS = {
    "CJK (Chinese, Japanese, Korean)": r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]",
    "Arabic": r"[\u0600-\u06ff\u0750-\u077f]",
    "Cyrillic": r"[\u0400-\u04ff]",
}
OFFLINE_NOTE = (
    "Judged offline: privbench's rule-based judge approximates an LLM judge, and on held-out"
    " answers it was never tuned on it falls short of the paper's judge–human agreement (its"
    " agreement with the shipped reference grades is beside the judge in the runs table;"
    " docs/judge.md has the figures of every rules version). Its scores are not the papers'"
    " GPT-4o scores: use an LLM judge for published numbers."
)
"""The offline judge's caveat on every report page with offline-judged runs. It names no
figures: a report may read logs graded by older rules, whose version and hash the runs
table shows."""
UNREADABLE_JUDGE_NOTE = (
    "Unreadable judge replies: judge replies that gave no grade (Priv-IQ) or no valid"
    " q4/q5 verdict (SpatialTrust). Each one was asked again (a re-ask); a judge run whose"
    " replies never parsed is unscored. The offline judge sends none."
)
UNREADABLE_ANSWERS_NOTE = (
    "Unreadable model answers: SpatialTrust questions whose answer from the model could not"
    " be read (scored 0), per question below the count. Priv-IQ answers are free text and"
    " never unreadable (its table has no such column); an empty one is marked in the sample"
    " browser."
)
UNREADABLE_RATINGS_NOTE = (
    "Unreadable model answers: ConfAIde rating answers (tiers 1–2) no rating could be read"
    " from, the reference's own way; left out of the item means, never scored 0."
)
"""What the runs table's two failure columns count (their footnotes and tooltips)."""


@dataclass(frozen=True)
class ReportSettings:
    """Knobs of a report: labels for the logs, seed and size of the resampling."""

    labels: Sequence[str] = ()
    seed: int = 0
    n_boot: int = N_BOOTSTRAP
    browse: int = DEFAULT_BROWSE
    """At most this many items (Priv-IQ) / images (SpatialTrust) in the sample browser."""
    ratings: Path | Sequence[Path] | None = None
    """Filled rating sheets or rating files (as ``agreement --ratings``): add the
    judge–human agreement section (Table 6, Figs. 11–12)."""
    keys: Sequence[Path] = ()
    """The keys of blind surveys (``agreement --key``); default: found beside the ratings."""
    scale: float | None = None
    """Score range of the human ratings (1 or 10; None: what the rating files declare,
    else 1); judge scores are on 0–1."""
    compare_published: bool = False
    """Show SpatialTrust's published tables (the paper's own captures) beside its runs;
    Priv-IQ's are shown by themselves beside runs over the public release."""
    tables: Path | None = None
    """Also write the paper tables (Table 3, 5, 2) here as LaTeX, Markdown and CSV."""


class Cell(TypedDict):
    """One score of a table: the score, its interval, std and item count as shown."""

    score: str
    interval: str
    std: str
    n: str
    best: bool


class TableRow(TypedDict):
    """One row of a score table (a run, the average, a baseline; transposed: a column)."""

    name: str
    badge: str
    kind: str
    cells: list[Cell]


class Column(TypedDict):
    """One column heading of a score table (transposed: a run, with its row kind)."""

    name: str
    n: str
    badge: str
    kind: NotRequired[str]


class ScoreTable(TypedDict):
    """A score table as the template lays it out."""

    corner: str
    columns: list[Column]
    rows: list[TableRow]
    transposed: bool


class PublishedBlock(TypedDict):
    """A paper's published table, shown beside a dataset's runs, with its provenance."""

    units: NotRequired[str]
    """What the figures are, where not percent as the paper prints them."""
    label: str
    caption: str
    paper: str
    setting: str
    note: str
    table: ScoreTable


class NumberedFigure(TypedDict):
    """A figure with its number in page order (for its caption)."""

    number: int
    figure: figures.SavedFigure


class RefusalRow(TypedDict):
    """One run's refusal and partial-answer rates per column, as shown."""

    run: str
    cells: list[dict[str, str]]


class RefusalTable(TypedDict):
    """Refusal rates beside Table 3: runs × (competencies, Total)."""

    columns: list[str]
    rows: list[RefusalRow]


def refusal_table(long: pd.DataFrame, runs: Sequence[str]) -> RefusalTable:
    """Each run's refused and partial percents per competency, with the counts behind them
    (``long``: the benchmark's refusal rates, :attr:`ReportSection.refusals`)."""
    columns = column_order(long)
    rows: list[RefusalRow] = []
    for run in runs:
        mine = long[long["run"] == run].set_index("column").to_dict("index")
        cells = []
        for column in columns:
            if column not in mine:
                cells.append({"refused": "–", "partial": "", "n": ""})
                continue
            cell = mine[column]
            cells.append(
                {
                    "refused": fmt(cell["refusal_rate"]),
                    "partial": f"partial {fmt(cell['partial_rate'])}",
                    "n": f"{int(cell['refusals'])} + {int(cell['partial'])} of {int(cell['n'])}",
                }
            )
        rows.append({"run": run, "cells": cells})
    return {"columns": columns, "rows": rows}


class _RunsSection(TypedDict):
    """What a Priv-IQ and a SpatialTrust section both show: title, comparisons, figures."""

    title: str
    notes: list[str]
    ranked: bool
    comparisons: list[dict[str, str]]
    gaps: list[str]
    figures: list[figures.SavedFigure]
    published: NotRequired[list[PublishedBlock]]
    numbered: NotRequired[list[NumberedFigure]]
    papers: NotRequired[list[PaperTable]]
    """The paper's tables as ``report --tables`` writes them (the page's cells)."""


class PrivIQSection(_RunsSection):
    """Tables, comparisons and figures of one dataset's Priv-IQ runs (papers: Tables 3 and 5)."""

    table3: ScoreTable
    refusals: RefusalTable
    table5: ScoreTable
    judge_runs: int
    empty_answer: Mapping[str, object] | None
    """The offline judge's empty-answer scores (:mod:`privbench.report.baselines`)."""


class AblationTable(TypedDict):
    """One model's strategy variants side by side (the SpatialTrust paper's Table 3)."""

    model: str
    table: ScoreTable


class SpatialSection(_RunsSection):
    """Table 2, the ablations, comparisons and figures of one dataset's SpatialTrust runs."""

    table2: ScoreTable
    ablations: list[AblationTable]
    trivial: Mapping[str, object] | None
    """The trivial baseline (:mod:`privbench.report.baselines`)."""


class ShownTable(TypedDict):
    """One of a benchmark's paper tables on the page, under its heading."""

    heading: str
    caption: str
    table: ScoreTable


class TablesSection(_RunsSection):
    """One dataset's runs of a benchmark whose section is its paper tables (``tables``
    layout): each table with intervals, the paired comparisons, a figure of the first
    table's last column."""

    tables: list[ShownTable]
    n_runs: int


class TablesBenchmark(TypedDict):
    """A benchmark's section in the ``tables`` layout: its datasets in turn."""

    anchor: str
    title: str
    cross_note: str
    groups: list[TablesSection]


class AgreementColumn(TypedDict):
    name: str
    n: float | int | None


class AgreementRow(TypedDict):
    metric: str
    cells: list[str]


class AgreementSection(TypedDict):
    """Judge–human agreement: Table 6 and its figures."""

    columns: list[AgreementColumn]
    rows: list[AgreementRow]
    figures: list[figures.SavedFigure]
    blank: int
    raters: int
    scale: str
    notes: list[str]
    numbered: NotRequired[list[NumberedFigure]]


class RunRow(TypedDict):
    """One run in the report's runs table; most values are passed on from the runs frame."""

    label: object
    benchmark: str
    model: object
    strategy: object
    judge: object
    offline: bool
    protocol: object
    prompt_hash: str
    dataset: str
    dataset_hash: str
    n_items: object
    limit: str
    judge_runs: object
    samples: object
    unscored: object
    parse_failures: object
    unreadable_judge_replies: object
    unreadable_answers: object
    """SpatialTrust's model answers that did not parse (None for Priv-IQ: a free-text answer
    is never unreadable, only empty)."""
    judge_temperature: str
    """The judge's first-try temperature as shown (empty: no model judged)."""
    parse_failures_by_question: object
    reasks: object
    pipeline: object
    pipeline_warnings: list[object]
    draft_annotations: str
    unverified_grades: str
    """The run's "N grade(s) reused without an answer check", or empty."""
    judge_agreement: str
    """The judge's agreement with reference grades, the full sentence (hover, footnote)."""
    judge_agreement_short: str
    """The same in a few words, the cell's text."""
    agreement_note: int
    """The number of the footnote that holds :attr:`judge_agreement` (0: none)."""
    model_versions: str
    judge_versions: str
    """The run's "draft annotations: N of M images not reviewed by a person", or empty."""
    status: object
    log: str


class RunsTable(TypedDict):
    """The runs of one benchmark in the runs table, with the judge-agreement sentences its
    judge cells point to: a cell shows the figures in a few words, the sentence on hover
    and as a numbered footnote (one per distinct sentence), so rows stay a few lines tall."""

    benchmark: str
    rows: list[RunRow]
    agreements: list[str]
    """Footnote n is ``agreements[n - 1]``."""
    spatial: bool
    """SpatialTrust: the strategy and unreadable-answer columns are shown."""
    answers: bool
    """The unreadable-answer column is shown (its benchmark reads the model's answers)."""
    answers_note: str
    """What that column counts for this benchmark."""


class PrivIQBrowser(TypedDict):
    """The Priv-IQ part of the page: a section per dataset and the sample browser."""

    groups: list[PrivIQSection]
    cross_note: str | None
    browser: list[PrivIQCard]
    sprite: list[SpriteImage]
    browsed_of: int


class SpatialBrowser(TypedDict):
    """The SpatialTrust part of the page: a section per dataset and the sample browser."""

    groups: list[SpatialSection]
    cross_note: str | None
    published: list[PublishedBlock]
    """The paper's tables, once, with the full runs of every dataset (``--compare-published``)."""
    browser: list[SpatialCard]
    sprite: list[SpriteImage]
    runs: list[tuple[str, int]]
    browsed_of: int


class ReportContext(TypedDict):
    """Everything the page template is rendered with."""

    runs: list[RunRow]
    run_tables: list[RunsTable]
    notes: list[str]
    offline: bool
    offline_note: str
    unreadable_judge_note: str
    seed: int
    n_boot: int
    page_size: int
    priviq: PrivIQBrowser | None
    spatial: SpatialBrowser | None
    tables: list[TablesBenchmark]
    """Benchmarks shown by their paper tables alone (``tables`` layout), in registry order."""
    agreement: AgreementSection | None
    scripts: list[str]
    priviq_width: int
    spatial_width: int


def scripts_present(texts: Sequence[str]) -> list[str]:
    """Which non-Latin scripts that need a font of their own occur in ``texts``."""
    joined = "\n".join(texts)
    return [name for name, pattern in SCRIPTS.items() if re.search(pattern, joined)]


def _interval_kind(kind: TableKind) -> str:
    """What a table's intervals are, in a few words (``Wilson intervals``); bootstrap
    intervals unless the table says otherwise."""
    return kind.intervals.split(" over ")[0] if kind.intervals else "bootstrap interval"


def _offline_note(rows: Sequence[RunRow]) -> str:
    """The caveats of the page's offline-judged runs: privbench's offline judge's, and a
    benchmark's own where its offline rules are its own."""
    sections = {
        suite.title: suite.cross_run.report
        for suite in registry.SUITES.values()
        if suite.cross_run.report is not None
    }
    notes: list[str] = []
    for row in rows:
        if not row["offline"]:
            continue
        section = sections.get(str(row["benchmark"]))
        note = (
            section.offline_note if section is not None and section.offline_note else OFFLINE_NOTE
        )
        if note not in notes:
            notes.append(note)
    return " ".join(notes)


def _interval(low: float, high: float, decimals: int = 1) -> str:
    return f"[{fmt(low, decimals)}, {fmt(high, decimals)}]"


def _missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _best(values: pd.Series[float]) -> float:
    """The top value, or NaN when every run shares it (a tie of all marks nothing)."""
    finite = values.dropna()
    if finite.empty or (finite == finite.max()).all():
        return math.nan
    return float(finite.max())


def display_table(
    paper: PaperTable,
    group: DatasetGroup,
    with_std: bool,
    baseline: dict[str, float | None] | None = None,
    baseline_label: str = "",
    average_over: Sequence[str] | None = None,
    average_name: str = "",
    heading: dict[str, str] | None = None,
) -> ScoreTable:
    """The page's layout of a paper table: the very object ``report --tables`` and ``show
    --format`` write, so columns, cells, counts and best marks cannot differ.

    Each cell: score, 95 % interval (kept on one line), std over judge runs when there is
    more than one, and its item count where it differs from the column's. The best score
    per column is marked as in the exports (among the ranked runs). An Average row over the
    group's averaged runs (``average_over`` narrows it; empty: none), named
    ``average_name`` (default "Average of N runs"), and a reference row (``baseline``,
    by column key) follow the runs. ``heading``: the page's name of a column key.
    """
    names = heading or {}
    decimals = paper.kind.decimals
    averaged = group.averaged if average_over is None else list(average_over)
    columns = list(paper.columns)
    runs = list(paper.runs)
    rows: list[TableRow] = []
    for run in runs:
        cells: list[Cell] = []
        for column in columns:
            found = paper.cells.get((run, column))
            cell: Cell = {"score": "–", "interval": "", "std": "", "n": "", "best": False}
            if found is not None and found.score is not None:
                cell["score"] = fmt(found.score, decimals)
                cell["best"] = found.best
                if found.low is not None and found.high is not None:
                    cell["interval"] = _interval(found.low, found.high, decimals)
                if with_std and found.std is not None:
                    cell["std"] = f"±{fmt(found.std, decimals)}"
                if found.n != paper.counts.get(column):
                    cell["n"] = f"n={found.n}"
            cells.append(cell)
        badge = f"limit {group.limits[run]}" if run in group.limits else ""
        rows.append({"name": run, "badge": badge, "cells": cells, "kind": "run"})
    averaged = [r for r in averaged if r in runs]
    if len(averaged) >= 2:
        means = []
        for column in columns:
            values = [
                score
                for r in averaged
                if (found := paper.cells.get((r, column))) is not None
                and (score := found.score) is not None
            ]
            means.append(fmt(float(np.mean(values)), decimals) if values else "–")
        rows.append(
            {
                "name": average_name or f"Average of {len(averaged)} runs",
                "badge": "",
                "kind": "average",
                "cells": [
                    {"score": mean, "interval": "", "std": "", "n": "", "best": False}
                    for mean in means
                ],
            }
        )
    if baseline is not None:
        rows.append(
            {
                "name": baseline_label,
                "badge": "reference",
                "kind": "baseline",
                "cells": [
                    {"score": "–" if _missing(baseline.get(c)) else fmt(baseline.get(c), decimals),
                     "interval": "", "std": "", "n": "", "best": False}
                    for c in columns
                ],
            }
        )  # fmt: skip
    table: ScoreTable = {
        "corner": "Run",
        "columns": [
            {"name": names.get(c, h), "n": f"n={paper.counts.get(c, 0)}", "badge": ""}
            for c, h in zip(columns, paper.headers, strict=True)
        ],
        "rows": rows,
        "transposed": False,
    }
    return transpose(table, paper.kind.column_kind) if len(columns) > TRANSPOSE_OVER else table


def transpose(table: ScoreTable, corner: str) -> ScoreTable:
    """Runs as columns, the former columns as rows (for many columns, e.g. Table 5)."""
    columns: list[Column] = [
        {"name": row["name"], "n": "", "badge": row["badge"], "kind": row["kind"]}
        for row in table["rows"]
    ]
    rows: list[TableRow] = [
        {
            "name": column["name"],
            "badge": column["n"],
            "kind": "total" if column["name"] == TOTAL else "run",
            "cells": [row["cells"][index] for row in table["rows"]],
        }
        for index, column in enumerate(table["columns"])
    ]
    return {"corner": corner, "columns": columns, "rows": rows, "transposed": True}


UserRows = Sequence[tuple[str, str, dict[str, float | None]]]
"""The user's runs shown in a published table: name, badge, score by column key."""


def user_rows(table: PaperTable, runs: Sequence[str], badge: str = "") -> UserRows:
    """Runs of a paper table as rows beside a published one (scores by column key)."""
    return [
        (run, badge, {c: cell.score for c in table.columns if (cell := table.cells.get((run, c)))})
        for run in runs
    ]


def published_blocks(
    tables: Sequence[PublishedTable | PublishedFigures],
    note: str,
    heading: dict[str, str] | None = None,
    wide_corner: str = "Column",
    mine: UserRows = (),
) -> list[PublishedBlock]:
    """The papers' tables for the page: the user's runs (``mine``) first, then a row per
    model, each labelled as published (a wide table transposed, its rows headed
    ``wide_corner``); ``heading``: the report's name of a column where it differs from
    the table's."""
    names = heading or {}
    blocks: list[PublishedBlock] = []
    for published in tables:
        columns = published.columns
        runs: list[TableRow] = [
                {
                    "name": name,
                    "badge": badge,
                    "kind": "run",
                    "cells": [
                        {"score": published.number(values.get(c)), "interval": "", "std": "",
                         "n": "", "best": False}
                        for c in columns
                    ],
                }
                for name, badge, values in mine
        ]  # fmt: skip
        table: ScoreTable = {
            "corner": published.row_heading,
            "columns": [{"name": names.get(c, c), "n": "", "badge": ""} for c in columns],
            "rows": runs + [
                {
                    "name": row.model,
                    "badge": published.label,
                    "kind": "published",
                    "cells": [
                        {"score": published.number(row.scores.get(c)), "interval": "", "std": "", "n": "",
                         "best": False}
                        for c in columns
                    ],
                }
                for row in published.rows
            ],
            "transposed": False,
        }  # fmt: skip
        if len(columns) > TRANSPOSE_OVER:
            table = transpose(table, wide_corner)
        blocks.append(
            {
                "label": published.label,
                "caption": published.caption,
                "paper": published.paper,
                "setting": published.setting,
                "note": note,
                "table": table,
            }
        )
    return blocks


def _published(suite: Suite, section: ReportSection) -> list[PublishedTable]:
    """The benchmark's published tables with its own column names (none: it has none)."""
    if section.published_column is None:
        return []
    return [table.renamed(section.published_column) for table in published_tables(suite.name)]


def _release_published(
    frame: pd.DataFrame,
    group: DatasetGroup,
    papers: Sequence[PaperTable],
    asked: bool,
    suite: Suite,
    section: ReportSection,
) -> tuple[list[PublishedBlock], str]:
    """The paper's tables when the group's data is the benchmark's public release, or when
    ``asked`` and the data have its shape but are not verified (under that note); and the
    note for the dataset ("" for none): data of the release's shape that are not verified
    are named as such whether the rows are shown or not. Beside the published rows stand
    the group's runs over every item of the data (the paper's figures are over all of
    them: a ``--limit`` run is not put beside them)."""
    if section.release is None:
        return [], ""
    rows = frame[frame["run"].isin(group.runs)]
    match = section.release(rows, group.data, group.dataset_hash)
    if not match.verified and not (asked and match.comparable):
        if asked or match.comparable:
            return [], f"No published {suite.title} rows: {match.reason}."
        return [], ""
    runs = [run for run in group.runs if group.items.get(run) == match.items]
    data_note = "" if match.verified else f"Data: {match.note}."
    if match.whole_count and not runs:
        partial = (
            f"No published {suite.title} rows: no run answered all {match.whole_count} items"
            " of the data (--limit); the paper's figures are over all of them."
        )
        return [], f"{partial} {data_note}".strip()
    blocks: list[PublishedBlock] = []
    for published, paper in zip(_published(suite, section), papers, strict=True):
        blocks += published_blocks(
            [published], match.note, wide_corner="Combination", mine=user_rows(paper, runs)
        )
    return blocks, data_note


def _comparison_rows(pairs: pd.DataFrame) -> list[dict[str, str]]:
    """The pairs for the template, family by family (Holm's correction is per family), each
    row with its family's size."""
    sizes = pairs["family"].value_counts().to_dict() if len(pairs) else {}
    order = {family: index for index, family in enumerate(FAMILIES)}
    records = sorted(
        pairs.to_dict("records"), key=lambda r: order.get(str(r["family"]), len(order))
    )
    return [
        {
            "family": str(row["family"]),
            "family_size": str(sizes.get(row["family"], 0)),
            "a": str(row["a"]),
            "b": str(row["b"]),
            "n": str(row["n"]),
            "difference": signed(float(row["difference"])),
            "interval": f"[{signed(float(row['low']))}, {signed(float(row['high']))}]",
            "p": f"{row['p']:.3g}",
            "p_holm": f"{row['p_holm']:.3g}",
            "significant": "yes" if row["p_holm"] < 0.05 else "no",
        }
        for row in records
    ]


def _comparison_figures(
    pairs: pd.DataFrame, runs: list[str], directory: Path, prefix: str
) -> list[figures.SavedFigure]:
    if pairs.empty:
        return []
    paired = [r for r in runs if r in set(pairs["a"]) | set(pairs["b"])]
    return [
        figures.save(figures.ranked_intervals(pairs), directory, f"{prefix}-differences",
                     "Paired differences between runs, ranked, with 95 % intervals",
                     "no paper counterpart (privbench addition)"),
        figures.save(figures.difference_matrix(pairs, paired), directory, f"{prefix}-matrix",
                     "Difference matrix (row − column; * Holm p < 0.05 within the pair's"
                     " family; blank: not paired)",
                     "no paper counterpart (privbench addition)"),
    ]  # fmt: skip


def _pairable(group: DatasetGroup) -> list[list[str]]:
    """Runs that may be paired: every run of a known dataset with every other (over the
    items both answered); a run of unknown dataset identity with none."""
    return [list(group.runs)] if group.known else [[run] for run in group.runs]


def _groups(results: Results, benchmark: str, unit: str = "items") -> list[DatasetGroup]:
    rows = results.runs[results.runs["benchmark"] == benchmark].to_dict("records")
    return dataset_groups([ComparedRun.from_row(row) for row in rows], unit)


def _identities(results: Results, benchmark: str) -> dict[str, Identity]:
    """Each run's ``(model, strategy)`` by label (labels are unique within a benchmark)."""
    rows = results.runs[results.runs["benchmark"] == benchmark].to_dict("records")
    return {str(row["label"]): run_identity(row) for row in rows}


def _label_strategies(results: Results) -> None:
    """Name every SpatialTrust run with its strategy once several strategies are present,
    in the runs table, the score tables, the figures and the sample browser alike."""
    renamed = strategy_labels(results.runs.to_dict("records"))
    if not renamed:
        return
    for name in strategy_benchmarks():
        mine = results.runs["benchmark"] == name
        results.runs.loc[mine, "label"] = results.runs.loc[mine, "label"].map(
            lambda label: renamed.get(label, label)
        )
        frame = results.items[name]
        frame["run"] = frame["run"].map(lambda label: renamed.get(label, label))


def _score(value: object) -> float | None:
    """A reference row's score as a table cell takes it (None: not a number)."""
    return float(value) if isinstance(value, Real) and not isinstance(value, bool) else None


def _scores(values: object) -> dict[str, float | None]:
    """A reference row's scores by column (empty: none)."""
    if not isinstance(values, Mapping):
        return {}
    return {str(key): _score(value) for key, value in values.items()}


def _paper_frames(
    suite: Suite, frame: pd.DataFrame, rng: np.random.Generator, n_boot: int
) -> tuple[pd.DataFrame, ...]:
    """The benchmark's paper tables (long frames) of one dataset's rows."""
    tables = suite.cross_run.paper_tables
    if tables is None:
        raise ValueError(f"{suite.title} has a report section but no paper tables")
    return tables.compute(frame, rng, n_boot)


def _question_labels(section: ReportSection) -> dict[str, str]:
    """A question's score column → its heading with the question (``Detection (q1)``)."""
    return {
        name: f"{section.column_labels.get(name, name)} ({qid})" for qid, name in section.questions
    }


def _prefix(benchmark: str, index: int) -> str:
    return benchmark if index == 0 else f"{benchmark}-d{index + 1}"


def _colors(group: DatasetGroup) -> list[str]:
    return figures.palette(len(group.runs))


def _priviq_group(
    job: SectionJob,
    group: DatasetGroup,
    index: int,
    baseline: Mapping[str, object] | None,
    offline: bool,
    identities: dict[str, Identity],
) -> PrivIQSection:
    """Tables, comparisons and figures of one dataset's Priv-IQ runs.

    ``offline``: some run was graded by the offline judge, so its empty-answer score is
    the floor to show in Table 3 (for LLM-judged runs it is only mentioned).
    """
    frame = job.frame[job.frame["run"].isin(group.runs)]
    table3, table5 = _paper_frames(job.suite, frame, job.rng, job.settings.n_boot)
    resampling = Resampling(job.settings.seed, job.settings.n_boot)
    paper3, paper5 = priviq_paper_tables(table3, table5, group, index, resampling)
    if job.settings.tables is not None:
        write_tables([paper3, paper5], job.settings.tables)
    runs = [r for r in group.runs if r in set(table3["run"])]
    prefix = _prefix(job.section.layout, index)
    colors = _colors(group)
    competencies = [c for c in paper3.columns if c != TOTAL]
    scores = wide(table3, average_over=[]).loc[runs, competencies]
    total_rows = table3[table3["column"] == TOTAL].set_index("run").loc[runs].reset_index()
    saved = [
        figures.save(figures.run_bars(total_rows, "total score (%), 95 % bootstrap interval", colors),
                     job.directory, f"{prefix}-totals", "Total score per run", "mirrors Priv-IQ Fig. 4"),
        figures.save(figures.grouped_bars(table3[table3["column"] != TOTAL], competencies, runs,
                                          "score (%)", "competency", colors),
                     job.directory, f"{prefix}-competencies", "Scores by competency with 95 % intervals",
                     "mirrors Priv-IQ Fig. 5", wide=len(competencies) * len(runs) > 24),
        figures.save(figures.radar(scores, runs, colors), job.directory, f"{prefix}-radar-overlay",
                     "Competency profile, all runs", "mirrors Priv-IQ Fig. 6"),
    ]  # fmt: skip
    if len(runs) > 1:
        saved.append(
            figures.save(figures.radar_grid(scores, runs, colors), job.directory, f"{prefix}-radar-runs",
                         "Competency profile per run", "mirrors Priv-IQ Fig. 6 (per-model panels)",
                         wide=len(runs) > 2)
        )  # fmt: skip
    # distributions, clusters and correlations across runs are aggregates, like the
    # Average: only full runs over the same items enter them
    full = [r for r in runs if r in group.averaged]
    across = scores.loc[full]
    if len(full) > 1:
        saved.append(
            figures.save(figures.box_by_column(across), job.directory, f"{prefix}-box",
                         "Competency scores across runs", "mirrors Priv-IQ Fig. 7")
        )  # fmt: skip
        if across.dropna(axis=1).shape[1] >= 2:
            saved.append(
                figures.save(figures.clustered_heatmap(across), job.directory, f"{prefix}-clustermap",
                             "Runs × competencies, hierarchically clustered", "mirrors Priv-IQ Fig. 9")
            )  # fmt: skip
    if len(full) > 2 and figures.correlatable(across).shape[1] >= 2:
        saved.append(
            figures.save(figures.correlation_heatmap(across), job.directory, f"{prefix}-correlation",
                         "Correlation of competency scores across runs", "mirrors Priv-IQ Fig. 8")
        )  # fmt: skip
    sums = frame.groupby(["run", "item"], sort=False).agg(
        score=("score", "mean"), combination=("combination", "first")
    )
    shares = sums.groupby(["run", "combination"])["score"].sum().unstack().fillna(0.0)
    totals = shares.sum(axis=1).replace(0.0, np.nan)
    shares = (100 * shares.div(totals, axis=0)).reindex(runs)
    if shares.notna().any().any():
        saved.append(
            figures.save(figures.contributions(shares), job.directory, f"{prefix}-contributions",
                         "Contribution of competency combinations to each run's total",
                         "mirrors Priv-IQ Fig. 10")
        )  # fmt: skip
    per_item = item_scores(frame, job.suite.name)
    pairs = comparisons(per_item, job.settings.seed, runs, job.settings.n_boot, _pairable(group),
                        identities, group.items)  # fmt: skip
    saved += _comparison_figures(pairs, runs, job.directory, prefix)
    judge_runs = int(frame["epoch"].max()) if len(frame) else 1
    empty = None
    notes = list(group.notes)
    if baseline is not None and offline:
        empty = {**_scores(baseline.get("competencies")), TOTAL: _score(baseline.get("overall"))}
    elif baseline is not None:
        notes.append(
            f"An empty answer scores {fmt(_score(baseline.get('overall')))} % overall under the offline"
            " judge; these runs were graded by an LLM judge, so that floor does not apply to"
            " them and is not shown in the table."
        )
    return {
        "title": group.title,
        "notes": notes,
        "ranked": len(group.averaged) >= 2,
        "table3": display_table(paper3, group, judge_runs > 1, empty,
                                "Empty answer (offline-judge score)"),
        "refusals": refusal_table(job.section.refusals(frame), runs) if job.section.refusals
                    else {"columns": [], "rows": []},
        "table5": display_table(paper5, group, judge_runs > 1),
        "comparisons": _comparison_rows(pairs),
        "gaps": comparison_gaps(group),
        "figures": saved,
        "judge_runs": judge_runs,
        "empty_answer": baseline,
        "papers": [paper3, paper5],
    }  # fmt: skip


def _spatial_group(
    job: SectionJob,
    group: DatasetGroup,
    index: int,
    baseline: Mapping[str, object] | None,
    identities: dict[str, Identity],
) -> SpatialSection:
    """Table 2 (its Average over models: one run per model), each model's strategy
    variants side by side (Table 3), comparisons by family and figures."""
    frame = job.frame[job.frame["run"].isin(group.runs)]
    (table2,) = _paper_frames(job.suite, frame, job.rng, job.settings.n_boot)
    paper2 = spatial_paper_table(
        table2, group, index, Resampling(job.settings.seed, job.settings.n_boot)
    )
    if job.settings.tables is not None:
        write_tables([paper2], job.settings.tables)
    labels = _question_labels(job.section)
    labels[OVERALL] = "Overall"
    raw2 = table2
    table2 = table2.assign(column=table2["column"].map(lambda c: labels.get(c, c)))
    runs = [r for r in group.runs if r in set(table2["run"])]
    prefix = _prefix(job.section.layout, index)
    colors = _colors(group)
    tasks = [labels[name] for _, name in job.section.questions]
    overall_rows = table2[table2["column"] == "Overall"].set_index("run").loc[runs].reset_index()
    saved = [
        figures.save(figures.grouped_bars(table2[table2["column"] != "Overall"], tasks, runs,
                                          "score (%)", "task (question)", colors, label_width=14),
                     job.directory, f"{prefix}-tasks", "Task scores with 95 % intervals",
                     "mirrors SpatialTrust Table 2 (as bars; the paper has no figure)", wide=len(tasks) * len(runs) > 24),
        figures.save(figures.run_bars(overall_rows, "overall score (%), 95 % bootstrap interval", colors),
                     job.directory, f"{prefix}-overall", "Overall score per run",
                     "mirrors SpatialTrust Table 2, overall column"),
    ]  # fmt: skip
    pairs = comparisons(
        item_scores(frame, job.suite.name), job.settings.seed, runs, job.settings.n_boot,
        _pairable(group), identities, group.items,
    )  # fmt: skip
    saved += _comparison_figures(pairs, runs, job.directory, prefix)
    trivial = None
    if baseline is not None:
        trivial = {name: _score(baseline.get(qid)) for qid, name in job.section.questions}
        trivial[OVERALL] = _score(baseline.get("overall"))
    per_model = one_run_per_model(group.averaged, identities)
    average_name = ""
    if len(per_model) < len(group.averaged):
        average_name = (f"Average of {len(per_model)} models (one run each, the direct one"
                        " where there is one; strategy variants left out)")  # fmt: skip
    return {
        "title": group.title,
        "notes": group.notes,
        "ranked": len(group.averaged) >= 2,
        "table2": display_table(paper2, group, False, trivial,
                                "Trivial baseline: best constant answer per question"
                                f" ({baseline['images']} {group.unit})" if baseline else "",
                                per_model, average_name, labels),
        "ablations": _ablation_tables(raw2, group, identities, labels),
        "comparisons": _comparison_rows(pairs),
        "gaps": comparison_gaps(group),
        "figures": saved,
        "trivial": baseline,
        "papers": [paper2],
    }  # fmt: skip


def _ablation_tables(
    table2: pd.DataFrame,
    group: DatasetGroup,
    identities: dict[str, Identity],
    heading: dict[str, str],
) -> list[AblationTable]:
    """Per model with runs under several strategies: its variants as rows (direct,
    + staged, + guard), the five tasks and overall as columns, with intervals; no Average
    (a mean of one model's variants measures no strategy), the best per column marked
    among the model's full runs."""
    tables: list[AblationTable] = []
    for ablation in ablations(group.runs, identities):
        names = dict((run, name) for name, run in ablation.runs)
        rows = table2[table2["run"].isin(list(names))]
        rows = rows.assign(run=rows["run"].map(names))
        variants = replace(
            group,
            runs=[name for name, _ in ablation.runs],
            averaged=[names[r] for r in group.averaged if r in names],
            limits={names[r]: n for r, n in group.limits.items() if r in names},
        )
        paper = spatial_paper_table(rows, variants)
        table = display_table(paper, variants, False, average_over=[], heading=heading)
        table["corner"] = "Variant"
        tables.append({"model": ablation.model, "table": table})
    return tables


def _temperature(value: object) -> str:
    """The judge's temperature as the runs table shows it (empty: no model judged)."""
    if isinstance(value, int | float) and not _missing(value):
        return f"{float(value):g}"
    return ""


def _titles() -> dict[str, str]:
    """Each registered benchmark's title by name, in the registry's order."""
    return {name: suite.title for name, suite in registry.SUITES.items()}


def _layouts() -> dict[str, str]:
    """Each benchmark's page section (:attr:`ReportSection.layout`) by its title."""
    return {
        suite.title: suite.cross_run.report.layout
        for suite in registry.SUITES.values()
        if suite.cross_run.report is not None
    }


def _run_rows(results: Results) -> list[RunRow]:
    rows: list[RunRow] = []
    footnotes: dict[str, dict[str, int]] = {}  # benchmark → sentence → footnote number
    titles = _titles()
    for run in results.runs.to_dict("records"):
        judges = [j.strip() for j in str(run["judge"]).split(",") if j.strip()]
        benchmark = titles.get(str(run["benchmark"]), str(run["benchmark"]))
        sentence = str(run.get("judge_agreement") or "")
        numbered = footnotes.setdefault(benchmark, {})
        note = numbered.setdefault(sentence, len(numbered) + 1) if sentence else 0
        rows.append(
            {
                "label": run["label"],
                "benchmark": benchmark,
                "model": run["model"],
                "strategy": run["strategy"],
                "judge": run["judge"],
                "offline": any(not parse_judge(j).calls_a_model for j in judges),
                "protocol": run["protocol"],
                "prompt_hash": str(run["prompt_hash"])[:SHORT_HASH],
                "dataset": Path(str(run["data"])).name or "data",
                "dataset_hash": f"sha256 {str(run['dataset_hash'])[:SHORT_HASH]}"
                if run["dataset_hash"]
                else "identity unknown (no hash in log)",
                "n_items": run["n_items"],
                "limit": "" if _missing(run["limit"]) else str(int(run["limit"])),
                "judge_runs": run["epochs"],
                "samples": run["samples"],
                "unscored": run["unscored"],
                "parse_failures": run["parse_failures"],
                "unreadable_judge_replies": run["unreadable_judge_replies"],
                "unreadable_answers": None
                if _missing(run["unreadable_answers"])
                else int(run["unreadable_answers"]),
                "judge_temperature": _temperature(run["judge_temperature"]),
                "parse_failures_by_question": run["parse_failures_by_question"],
                "reasks": run["reasks"],
                "pipeline": run["pipeline"] if isinstance(run["pipeline"], dict) else None,
                "pipeline_warnings": list(run["pipeline_warnings"] or []),
                "draft_annotations": str(run["draft_annotations"] or ""),
                "unverified_grades": str(run.get("unverified_grades") or ""),
                "judge_agreement": sentence,
                "judge_agreement_short": str(run.get("judge_agreement_short") or ""),
                "agreement_note": note,
                "model_versions": str(run.get("model_versions") or ""),
                "judge_versions": str(run.get("judge_versions") or ""),
                "status": run["status"],
                "log": Path(str(run["log"])).name,
            }
        )
    return rows


def runs_tables(rows: Sequence[RunRow]) -> list[RunsTable]:
    """The runs table split by benchmark (Priv-IQ first), each with its footnotes."""
    tables: list[RunsTable] = []
    layouts = _layouts()
    for benchmark in _titles().values():
        mine = [row for row in rows if row["benchmark"] == benchmark]
        if not mine:
            continue
        notes = {row["agreement_note"]: row["judge_agreement"] for row in mine}
        tables.append(
            {
                "benchmark": benchmark,
                "rows": mine,
                "agreements": [notes[n] for n in sorted(notes) if n],
                "spatial": layouts.get(benchmark) == "spatial",
                "answers": layouts.get(benchmark) == "spatial"
                or any(row["unreadable_answers"] is not None for row in mine),
                "answers_note": UNREADABLE_ANSWERS_NOTE
                if layouts.get(benchmark) in ("spatial", "priviq")
                else UNREADABLE_RATINGS_NOTE,
            }
        )
    return tables


def _draft_notes(run_rows: Sequence[RunRow], group: DatasetGroup, title: str) -> list[str]:
    """A note per run of ``group`` scored against annotations no person reviewed, beside
    its scores (they measure agreement with a draft, not the benchmark)."""
    return [
        f"{row['label']}: {row['draft_annotations']}"
        for row in run_rows
        if row["benchmark"] == title and row["label"] in group.runs and row["draft_annotations"]
    ]


def _read_ratings(settings: ReportSettings) -> Ratings | None:
    """The ratings of ``--ratings``, read and checked (files, keys, columns, scale).

    Why first: a report takes a while to compute, and a ratings file that cannot be used
    must stop it before any of that is done (and before any figure is written)."""
    if settings.ratings is None:
        return None
    return read_ratings(settings.ratings, scale=settings.scale, keys=settings.keys)


def _agreement_section(ratings: Ratings, directory: Path) -> AgreementSection:
    scale = ratings.scale
    tolerance = scale / 10
    columns = agreement_table(ratings, tolerance)
    surveys = list(dict.fromkeys(ratings.pairs["survey"]))
    saved = [
        figures.save(figures.bland_altman(ratings, s, scale), directory,
                     f"agreement-bland-altman-{i}", f"Bland–Altman: {s}", "mirrors Priv-IQ Fig. 11")
        for i, s in enumerate(surveys)
    ]  # fmt: skip
    saved.append(
        figures.save(figures.violins(ratings, scale), directory, "agreement-violins",
                     "Human and judge score distributions", "mirrors Priv-IQ Fig. 12")
    )  # fmt: skip
    records = as_records(columns)
    metrics = [
        ("ICC (two-way random, absolute agreement, single rater)", "icc"),
        ("Spearman ρ", "spearman_rho"),
        ("Spearman p", "spearman_p"),
        (f"Mean absolute error (0–{scale:g})", "mae"),
        (f"Agreement rate (|human − judge| ≤ {tolerance:g})", "agreement_rate"),
        ("Bland–Altman bias (human − judge)", "bias"),
        ("Limits of agreement, low", "loa_low"),
        ("Limits of agreement, high", "loa_high"),
    ]
    table: list[AgreementRow] = [
        {"metric": title, "cells": [format_stat(key, c[key]) for c in records.values()]}
        for title, key in metrics
    ]
    return {
        "columns": [{"name": name, "n": c["n"]} for name, c in records.items()],
        "rows": table,
        "figures": saved,
        "blank": ratings.blank,
        "raters": ratings.raters,
        "scale": f"{scale:g}",
        "notes": agreement_notes(columns),
    }


def _figure_prefixes() -> tuple[str, ...]:
    """How the names of the figures a report writes begin: each benchmark's page section
    (:attr:`ReportSection.layout`; a ``tables`` section by the benchmark's name), and the
    agreement section."""
    prefixes = [
        f"{suite.name if section.layout == 'tables' else section.layout}-"
        for suite in registry.SUITES.values()
        if (section := suite.cross_run.report) is not None
    ]
    return (*dict.fromkeys(prefixes), "agreement-")


def _clear_figures(directory: Path) -> None:
    """Remove figures an earlier build of this report wrote, so none outlives its data."""
    if not directory.is_dir():
        return
    prefixes = _figure_prefixes()
    for path in directory.iterdir():
        if path.suffix in (".png", ".svg") and path.name.startswith(prefixes):
            path.unlink()


def _number_figures(context: ReportContext) -> None:
    """Number figures in page order (Figure 1, 2, …) for their captions."""
    count = 0
    priviq, spatial = context["priviq"], context["spatial"]
    sections: list[PrivIQSection | SpatialSection | TablesSection | AgreementSection] = [
        *(priviq["groups"] if priviq else []),
        *(spatial["groups"] if spatial else []),
        *(group for shown in context["tables"] for group in shown["groups"]),
    ]
    if context["agreement"]:
        sections.append(context["agreement"])
    for section in sections:
        numbered: list[NumberedFigure] = []
        for saved in section["figures"]:
            count += 1
            numbered.append({"number": count, "figure": saved})
        section["numbered"] = numbered


def _reference_what(suite: Suite) -> str:
    """How a note names the benchmark's reference row (the empty answer, the trivial
    baseline)."""
    row = suite.cross_run.reference_row
    return row.what if row is not None else "The reference row"


def _group_reference(suite: Suite, group: DatasetGroup) -> dict[str, object] | None:
    """The benchmark's reference row over ``group``'s common items, or None; why it is left
    out, or what it covers, goes into the group's notes."""
    baseline, reason = (
        reference_row(suite.name, group.data, group.dataset_hash, group.common_items)
        if group.known
        else (None, None)
    )
    group.notes += [reason] if reason else []
    if baseline is not None:
        reason = reference_note(_reference_what(suite), group, group.common_items)
        group.notes += [reason] if reason else []
    return baseline


@dataclass(frozen=True)
class SectionJob:
    """What a benchmark's section of the page is made from (one argument for every layout)."""

    frame: pd.DataFrame
    results: Results
    suite: Suite
    section: ReportSection
    settings: ReportSettings
    rng: np.random.Generator
    directory: Path
    run_rows: list[RunRow]


def _items_context(context: ReportContext, job: SectionJob) -> list[str]:
    """The section of a benchmark of items (``priviq`` layout) into ``context``: each
    dataset's tables, published rows, figures and the sample cards; the texts shown."""
    groups = _groups(job.results, job.suite.name)
    sections = []
    for index, group in enumerate(groups):
        baseline = _group_reference(job.suite, group)
        offline = any(
            r["offline"]
            for r in job.run_rows
            if r["benchmark"] == job.suite.title and r["label"] in group.runs
        )
        priviq_section = _priviq_group(
            job, group, index, baseline, offline, _identities(job.results, job.suite.name)
        )
        priviq_section["published"], note = _release_published(
            job.frame,
            group,
            priviq_section.get("papers", []),
            job.settings.compare_published,
            job.suite,
            job.section,
        )
        if note:
            priviq_section["notes"].append(note)
        sections.append(priviq_section)
    sprite = Sprite("pq", PRIVIQ_WIDTH)
    cards = priviq_cards(
        job.frame, [(g.title, g.runs) for g in groups], job.settings.browse, sprite
    )
    context["priviq"] = {
        "groups": sections,
        "cross_note": cross_dataset_note(groups, job.suite.title),
        "browser": cards,
        "sprite": sprite.entries(),
        "browsed_of": sum(job.frame[job.frame["run"].isin(g.runs)]["item"].nunique() for g in groups),
    }  # fmt: skip
    texts = [c["question"] for c in cards] + [c["reference"] for c in cards]
    texts += [a["answer"] for c in cards for a in c["answers"]]
    return texts


def _images_context(context: ReportContext, job: SectionJob) -> list[str]:
    """The section of a benchmark of images with boxes (``spatial`` layout) into
    ``context``: each dataset's tables, published rows, figures and the sample cards;
    the texts shown."""
    groups = _groups(job.results, job.suite.name, "images")
    spatial_sections: list[SpatialSection] = []
    mine: UserRows = []
    for index, group in enumerate(groups):
        baseline = _group_reference(job.suite, group)
        group.notes += _draft_notes(job.run_rows, group, job.suite.title)
        spatial_section = _spatial_group(
            job, group, index, baseline, _identities(job.results, job.suite.name)
        )
        spatial_sections.append(spatial_section)
        for paper in spatial_section.get("papers", []):
            full = [run for run in group.runs if run not in group.limits]
            badge = f"data {group.dataset_hash[:SHORT_HASH] or 'unknown'}"
            mine = [*mine, *user_rows(paper, full, badge)]
    published: list[PublishedBlock] = []
    if job.settings.compare_published:
        labels = _question_labels(job.section)
        published = published_blocks(
            _published(job.suite, job.section), job.section.published_note, {**labels, OVERALL: "Overall"},
            mine=mine,
        )  # fmt: skip
    run_index = {run: i for i, run in enumerate(job.results.labels(job.suite.name))}
    sprite = Sprite("st", SPATIAL_WIDTH)
    image_cards = spatial_cards(
        job.frame,
        [(g.title, g.runs) for g in groups],
        run_index,
        job.settings.browse,
        sprite,
        job.section.box_overlap,
    )
    context["spatial"] = {
        "groups": spatial_sections,
        "cross_note": cross_dataset_note(groups, job.suite.title),
        "published": published,
        "browser": image_cards,
        "sprite": sprite.entries(),
        "runs": list(run_index.items()),
        "browsed_of": sum(job.frame[job.frame["run"].isin(g.runs)]["image_id"].nunique() for g in groups),
    }  # fmt: skip
    return [q["text"] for c in image_cards for q in c["questions"]]


def _tables_group(job: SectionJob, group: DatasetGroup, index: int) -> TablesSection:
    """One dataset's runs as the benchmark's paper tables, its comparisons and figures."""
    frame = job.frame[job.frame["run"].isin(group.runs)]
    frames = _paper_frames(job.suite, frame, job.rng, job.settings.n_boot)
    resampling = Resampling(job.settings.seed, job.settings.n_boot)
    every = job.suite.cross_run.paper_tables.kinds if job.suite.cross_run.paper_tables else ()
    # a table none of these runs measured (PrivacyLens probing beside final actions) is left out
    measured = [(kind, long) for kind, long in zip(every, frames, strict=True) if not long.empty]
    kinds = tuple(kind for kind, _ in measured)
    papers = [paper_table(kind, long, group, index, resampling) for kind, long in measured]
    if job.settings.tables is not None:
        write_tables(papers, job.settings.tables)
    runs = [r for r in group.runs if any(r in paper.runs for paper in papers)]
    prefix = _prefix(job.suite.name, index)
    pairs = comparisons(item_scores(frame, job.suite.name), job.settings.seed, runs,
                        job.settings.n_boot, _pairable(group), _identities(job.results,
                        job.suite.name), group.items)  # fmt: skip
    saved = []
    if papers and papers[0].columns:
        first, last = frames[0], papers[0].columns[-1]
        at_last = first[first["column"] == last].set_index("run")  # runs may lack the column
        total = at_last.loc[[r for r in runs if r in at_last.index]].reset_index()
        if not total.empty:
            saved.append(figures.save(
                figures.run_bars(total, f"{papers[0].headers[-1]} ({kinds[0].scale}), 95 % "
                                 f"{_interval_kind(kinds[0])}", _colors(group)),
                job.directory, f"{prefix}-totals", f"{papers[0].headers[-1]} per run",
                f"mirrors {kinds[0].paper}"))  # fmt: skip
    saved += _comparison_figures(pairs, runs, job.directory, prefix)
    published, note = _published_figures(job, group, frame, papers)
    counted = job.section.counts(frame) if job.section.counts is not None else []
    return {
        "title": group.title,
        "notes": [*group.notes, *counted, *([note] if note else [])],
        "published": published,
        "ranked": len(group.averaged) >= 2,
        "tables": [
            {
                "heading": f"{kind.what} ({kind.paper} layout)",
                "caption": paper.caption,
                "table": display_table(paper, group, False),
            }
            for kind, paper in zip(kinds, papers, strict=True)
        ],
        "comparisons": _comparison_rows(pairs),
        "gaps": comparison_gaps(group),
        "figures": saved,
        "n_runs": len(runs),
        "papers": papers,
    }


def _published_figures(
    job: SectionJob, group: DatasetGroup, frame: pd.DataFrame, papers: Sequence[PaperTable]
) -> tuple[list[PublishedBlock], str]:
    """The benchmark's published figures beside each of its tables, over exactly the
    columns measured; beside them only the runs over every item (no ``--limit`` run)."""
    provider = job.section.published_figures
    if provider is None:
        return [], ""
    by_key = {paper.kind.key: paper for paper in papers}
    found, note = provider(frame, group.data, {k: p.columns for k, p in by_key.items()})
    full = [run for run in group.runs if run not in group.limits]
    blocks: list[PublishedBlock] = []
    for figures_ in found:
        paper = by_key[figures_.beside]
        for block in published_blocks(
            [figures_], "", dict(zip(paper.columns, paper.headers, strict=True)),
            paper.kind.column_kind, user_rows(paper, full),
        ):  # fmt: skip
            block["units"] = f"Figures in {paper.kind.scale}"
            blocks.append(block)
    return blocks, note


def _tables_context(context: ReportContext, job: SectionJob) -> list[str]:
    """The section of a benchmark shown by its paper tables (``tables`` layout): every
    dataset's tables with intervals, comparisons and figures. Shows no model text."""
    unit = job.suite.cross_run.score_columns.unit if job.suite.cross_run.score_columns else "items"
    groups = _groups(job.results, job.suite.name, unit)
    context["tables"].append(
        {
            "anchor": job.suite.name,
            "title": job.suite.title,
            "cross_note": cross_dataset_note(groups, job.suite.title) or "",
            "groups": [_tables_group(job, group, index) for index, group in enumerate(groups)],
        }
    )
    return []


SectionBuilder = Callable[[ReportContext, SectionJob], list[str]]
"""Fills a benchmark's section of the page into the context; returns the texts shown."""
LAYOUTS: dict[str, SectionBuilder] = {
    "priviq": _items_context,
    "spatial": _images_context,
    "tables": _tables_context,
}
"""The page's sections a benchmark may fill (:attr:`ReportSection.layout`), in the
template's order, each with what builds it."""


def build_report(
    paths: Sequence[str | Path], output: str | Path, settings: ReportSettings | None = None
) -> Path:
    """Read the logs, compute tables, intervals, comparisons and figures, write the HTML."""
    return write_report(paths, output, settings)[0]


def write_report(
    paths: Sequence[str | Path], output: str | Path, settings: ReportSettings | None = None
) -> tuple[Path, list[str]]:
    """:func:`build_report`, also returning the report's notes for a terminal."""
    settings = settings or ReportSettings()
    if settings.scale is not None:
        check_scale(settings.scale)
    ratings = _read_ratings(settings)
    results = load_results(paths, settings.labels)
    _label_strategies(results)
    out = Path(output)
    directory = out.with_name(out.stem + "_figures")
    _clear_figures(directory)
    if settings.tables is not None:
        clear_tables(settings.tables)
    rng = np.random.default_rng(settings.seed)
    run_rows = _run_rows(results)
    context: ReportContext = {
        "runs": run_rows,
        "run_tables": runs_tables(run_rows),
        "notes": list(results.notes),
        "offline": any(r["offline"] for r in run_rows),
        "offline_note": _offline_note(run_rows),
        "unreadable_judge_note": UNREADABLE_JUDGE_NOTE,
        "seed": settings.seed,
        "n_boot": settings.n_boot,
        "page_size": PAGE_SIZE,
        "priviq": None,
        "spatial": None,
        "tables": [],
        "agreement": None,
        "scripts": [],
        "priviq_width": PRIVIQ_WIDTH,
        "spatial_width": SPATIAL_WIDTH,
    }
    texts: list[str] = []
    for suite in registry.SUITES.values():
        section = suite.cross_run.report
        frame = results.items.get(suite.name)
        if section is None or frame is None or frame.empty:
            continue
        build = LAYOUTS[section.layout]
        job = SectionJob(frame, results, suite, section, settings, rng, directory, run_rows)
        texts += build(context, job)
    if ratings is not None:
        context["agreement"] = _agreement_section(ratings, directory)
    context["scripts"] = scripts_present(texts)
    _number_figures(context)
    environment = Environment(
        loader=PackageLoader("privbench.report", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    html = environment.get_template("report.html.j2").render(**context)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")
    notes = list(context["notes"])
    for shown in (context["priviq"], context["spatial"], *context["tables"]):
        if shown:
            notes += [shown["cross_note"]] if shown["cross_note"] else []
            notes += [note for group in shown["groups"] for note in group["notes"]]
    return out, notes
