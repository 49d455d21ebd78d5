"""What the cross-run layers need from a benchmark: the part of the Suite interface that the
audit, ``validate``, the report and the review app read.

Why a separate record: these layers (:mod:`privbench.audit`, :mod:`privbench.validation`,
:mod:`privbench.report`, :mod:`privbench.review`) sit above the suites and must work for
every registered benchmark without importing one. Each benchmark fills a :class:`CrossRun`
in its ``suite.py`` (plain values and callables, nothing above :mod:`privbench.runtime`),
and the generic code reads it through :mod:`privbench.registry`. A hook a benchmark does
not have is None, and the generic code then leaves that part out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from inspect_ai import Task
from inspect_ai.log import EvalLog
from rich.console import RenderableType

from privbench.runtime.cost.plan import CallPlan
from privbench.runtime.errors import Problem
from privbench.runtime.judge_choice import JudgeChoice
from privbench.runtime.records.judge_agreement import GRADES, AgreementWording
from privbench.runtime.records.versions import ReportedVersions
from privbench.runtime.running import RunOptions

if TYPE_CHECKING:  # pandas and numpy load only when a table is made
    import numpy as np
    import pandas as pd

Row = Mapping[str, object]
"""One row of a long table, as pandas takes it (a column per key)."""
LAST = 10_000
"""The ``order`` of a paper table's total column (Total, overall): after every other."""
AuditDocument = Mapping[str, object]
"""An audit document as ``privbench audit --json`` prints it; ``benchmark`` names its suite."""


def _no_lines(document: AuditDocument) -> list[str]:
    """A benchmark whose audit has no one-line figures."""
    return []


@dataclass(frozen=True)
class DatasetAudit:
    """``privbench audit`` of one benchmark's data directory (``docs/audit.md``)."""

    audit: Callable[[Path, bool], dict[str, object]]
    """The audit document of a directory; the flag asks for the OCR figures (a benchmark
    without images of text ignores it). Bad data raises one line."""
    tables: Callable[[AuditDocument], list[RenderableType]]
    """The terminal tables of a document :attr:`audit` wrote."""
    summary: Callable[[AuditDocument], list[str]] = _no_lines
    """Figures that need no table, one line each (the directory line is added by the caller)."""
    ocr: bool = False
    """Whether :attr:`audit` reads text in the images when asked (``--ocr`` names it)."""


@dataclass(frozen=True)
class ReferenceRow:
    """A report row of what a model gets for knowing nothing (the trivial baseline of a
    multiple-choice benchmark, the judge's grade of an empty answer).

    Shown beside the runs only when their data directory still holds the content they
    were scored on (the report checks the content hash first).
    """

    what: str
    """How the report's note names it (``The trivial baseline``)."""
    compute: Callable[[Path, Collection[str]], dict[str, object] | None]
    """The row over exactly these item ids of the directory; None when none of them is
    there. Bad data raises (the report turns it into a note)."""
    missing: str = "no item these runs answered is in"
    """The note's words when :attr:`compute` found none of the ids (the directory follows)."""


@dataclass(frozen=True)
class ReviewImage:
    """One capture of a dataset as the annotation review app shows it."""

    id: str
    path: Path
    """The capture, resolved when the app started (inside the dataset's folder)."""
    source: Path
    """The capture as the record names it, resolved again at every request."""
    width: int
    height: int
    status: str | None
    """The record's own annotation status (None: the record has none)."""
    annotators: tuple[str, ...]
    factors: tuple[dict[str, object], ...]
    """The record's annotation elements: the draft a reviewer starts from."""


@dataclass(frozen=True)
class AnnotationReview:
    """What the review web app needs of a benchmark whose images people annotate."""

    categories: tuple[str, ...]
    """The category an annotated element may have."""
    statuses: tuple[str, ...]
    """A record's review statuses, ``draft`` (nobody reviewed it) first."""
    images: Callable[[Path], Sequence[ReviewImage]]
    """The dataset's captures with their drafted annotations (raises one line on bad data)."""
    made_with: str
    """The command that makes such a dataset (for the error on a directory that is none)."""
    export: Callable[[Path, Path, str | None, bool, int], ReviewedExport] | None = None
    """``privbench review export DIR --out OUT [--annotator A] [--merge] [--seed N]``: the
    dataset of the annotations people accepted (None: the benchmark has no export)."""


@dataclass(frozen=True)
class ReviewedExport:
    """What ``privbench review export`` prints of an export it made."""

    document: Mapping[str, object]
    """``--json``'s document."""
    parts: Sequence[RenderableType]
    """Otherwise, in order: lines as they are, tables whole."""


def number_or_nan(value: object) -> float:
    """A logged score as a float; NaN for anything that is not a number (unscored)."""
    return (
        float(value) if isinstance(value, int | float) and not isinstance(value, bool) else math.nan
    )


@dataclass
class RunCounts:
    """What one run's log counts, for the runs table (``privbench show runs``, the report).

    Each benchmark fills it from its own score records (:attr:`CrossRun.run_counts`)."""

    unscored: int = 0
    """Judgments (or questions) left without a score."""
    parse_failures: int = 0
    """Unreadable judge replies or model answers, whichever the benchmark parses."""
    unreadable_judge: int = 0
    unreadable_answers: int | None = None
    """Model answers that did not parse (None: the benchmark does not parse answers)."""
    judge_runs: int = 0
    """The most judge runs of one item (``--judge-runs``)."""
    reasks: int = 0
    unverified: int = 0
    failed_questions: dict[str, int] = field(default_factory=dict)
    """Parse failures by question id."""
    judges: set[str] = field(default_factory=set)
    versions: ReportedVersions = field(default_factory=ReportedVersions)
    prompt_hash: str = ""
    pipeline: dict[str, object] | None = None
    """The multi-stage strategy's counters (None: no staged run)."""
    pipeline_warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RunReading:
    """How the cross-run tables read one of the benchmark's logs."""

    item_rows: Callable[[EvalLog, str], list[Row]]
    """The long table's rows of a log under its run label (one per graded unit)."""
    counts: Callable[[EvalLog], RunCounts]
    """The log's counts for the runs table."""
    item_key: str = "item"
    """The column of :attr:`item_rows` that names the unit runs are paired on (an item, an
    image): a run's score of a unit is the mean of its rows' ``score``."""
    whole_items: bool = False
    """A unit with any unscored row is unscored (an image is scored only when all five of
    its questions are); otherwise the mean is over its scored rows."""


@dataclass(frozen=True)
class LogScores:
    """One finished log's row of the benchmark's score table (what ``privbench show`` prints)."""

    columns: dict[str, float | None]
    """Column of :attr:`ScoreColumns.columns` → percentage (None where nothing was scored)."""
    n: int
    """Items (or images) scored."""
    judge: str | None
    complete: bool
    """Every item was scored."""


@dataclass(frozen=True)
class ScoreColumns:
    """The benchmark's paper score table as the leaderboard lays it out."""

    columns: tuple[str, ...]
    """Its columns, the total last (Priv-IQ's Table 3: the competencies, ``Total``)."""
    total: str
    """The column runs are ranked by."""
    unit: str
    """What :attr:`LogScores.n` counts (``items``, ``images``)."""
    scores: Callable[[EvalLog], LogScores]
    """A log's row (its header with samples suffices)."""


@dataclass(frozen=True)
class DiffItem:
    """One item of one run as ``privbench diff`` pairs it: its score, its parts, and the
    grades shown beside its answer."""

    id: str
    score: float | None
    """0–1; None when unscored."""
    parts: dict[str, float | None]
    """Group key (:attr:`DiffReading.groups`) → the item's score on it, for each group the
    item belongs to (Priv-IQ: its competencies; SpatialTrust: the five questions)."""
    grades: tuple[float | None, ...] = ()
    """The grade of each judge run (0–1), where the benchmark has several."""
    no_answer: bool = False


@dataclass(frozen=True)
class DiffReading:
    """How ``privbench diff`` reads and shows one of the benchmark's runs."""

    items: Callable[[EvalLog], tuple[dict[str, DiffItem], str, bool]]
    """A log's items by id, its judge and whether every item was scored."""
    groups: tuple[tuple[str, str], ...]
    """(key in :attr:`DiffItem.parts`, display name) of the per-group differences."""
    group_kind: str
    """What a group is (``competency``, ``question``): the table's title and JSON key."""
    grade_text: Callable[[DiffItem], str]
    """An item's grades beside its answer in the terminal."""
    item_record: Callable[[DiffItem], dict[str, object]]
    """The benchmark's own keys of an item in ``--json`` (after ``answer`` and ``score``)."""
    parts_key: str | None = None
    """When set, a changed item lists its groups under this ``--json`` key (and in the
    terminal after its id): the groups it belongs to are a property of the item."""


def _no_labels() -> dict[str, str]:
    return {}


@dataclass(frozen=True)
class TableKind:
    """One of a benchmark's paper tables: its file name, caption and LaTeX label."""

    key: str
    """File stem (``table3``)."""
    benchmark: str
    paper: str
    """The table it mirrors (``Priv-IQ Table 3``)."""
    what: str
    """The caption's subject (``Priv-IQ scores by competency``)."""
    unit: str
    """What its intervals resample and ``n`` counts (``items``, ``images``)."""
    headers: Mapping[str, str] = field(default_factory=_no_labels)
    """A column's header where it is not the column's key (``Overall`` for ``overall``)."""
    lower_is_better: bool = False
    """The best run of a column is the one with the lowest figure (a leakage rate)."""
    scale: str = "%"
    """What the figures are, for the caption (``%``; ``Pearson r``)."""
    intervals: str = ""
    """How its intervals are drawn where not by the bootstrap over :attr:`unit` (the
    caption's words: ``Fisher-z intervals``)."""
    column_kind: str = "Combination"
    """What a column is called when a wide table is shown with its columns as rows."""
    decimals: int = 1
    """Decimals printed (and compared for the best mark): the papers' one for percentages."""


@dataclass(frozen=True)
class PaperTables:
    """The benchmark's paper tables of one dataset's runs (``privbench tables``, the report)."""

    kinds: tuple[TableKind, ...]
    compute: Callable[[pd.DataFrame, np.random.Generator, int], tuple[pd.DataFrame, ...]]
    """The long frames (``run, column, order, score, std, n, low, high``), one per kind in
    :attr:`kinds` order, from the benchmark's long table (rows of those runs), a generator
    and the number of bootstrap resamples."""


@dataclass(frozen=True)
class CheckCase:
    """One answer for a judge to grade in ``privbench judge check``: a reference-graded
    answer or a probe variant (``competencies``: the item's groups, where it has any)."""

    id: str
    question: str
    reference: str
    prediction: str
    competencies: tuple[str, ...] = ()


# --- privbench judge check -----------------------------------------------------------------


class AnswerGrades(Protocol):
    """A judge's grades of one answer of a check, as the benchmark's log reader gives them."""

    @property
    def id(self) -> str: ...
    @property
    def runs(self) -> tuple[float | None, ...]:
        """One grade (0–1) per judge run; None where the reply never gave one."""
        ...

    @property
    def mean(self) -> float | None: ...


@dataclass(frozen=True)
class CompetencyVocabulary:
    """The groups a graded answer may belong to (Priv-IQ's competencies): how reference
    files name them and the order the per-group figures follow."""

    codes: tuple[str, ...]
    normalize: Callable[[str], str | None]
    """A code or long name as a code; None when it names none."""
    combine: Callable[[Iterable[str]], tuple[str, ...]]
    """Codes in canonical order, each once."""


@dataclass(frozen=True)
class ReferenceAnswer:
    """An item of the benchmark's data with its reference answer: what bias probes are
    built from."""

    id: str
    question: str
    answer: str
    competencies: tuple[str, ...] = ()


class GradingTask(Protocol):
    """The inspect task that has a judge grade given answers exactly as a run grades."""

    def __call__(
        self,
        cases: Sequence[CheckCase],
        *,
        name: str,
        judge: str | None,
        protocol: str,
        judge_runs: int,
        cache: bool,
    ) -> Task: ...


@dataclass(frozen=True)
class GradedAnswersCheck:
    """A benchmark whose judge grades answers against a reference on 0–1: the check grades
    reference-graded answers, the sanity probe and the bias probes with it."""

    competencies: CompetencyVocabulary
    identity: Callable[[str, JudgeChoice], tuple[str, str]]
    """(protocol, judge) → the protocol name and prompt hash a run records."""
    task: GradingTask
    read_grades: Callable[[EvalLog], tuple[Sequence[AnswerGrades], list[str]]]
    """A check log's grades (one per graded answer) and the models the judge reported."""
    probe_items: Callable[[Path | None], Sequence[ReferenceAnswer]]
    """The items of a data directory (None: the shipped one); raises one line on bad data."""
    add_calls: Callable[[CallPlan, str, CheckCase, int], None]
    """Add the judge calls of grading a case (protocol, case, runs) to a dry-run plan."""


class VerdictOutcome(Protocol):
    """What a verdict check measured: its figures and what identifies it."""

    @property
    def reference_set(self) -> str: ...
    @property
    def set_hash(self) -> str: ...
    @property
    def reported_models(self) -> Sequence[str]: ...
    def as_json(self) -> Mapping[str, object]: ...
    def card_figures(self) -> Mapping[str, object]:
        """What the judge card keeps (its ``verdicts`` figures)."""
        ...

    def table(self) -> RenderableType: ...


StepRunner = Callable[[Task, bool], EvalLog]
"""Runs one step of a check (task, whether it needs the judge): labelled, resumable."""


@dataclass(frozen=True)
class VerdictSetCheck:
    """A benchmark whose judge gives structured verdicts: the check compares them with
    reference verdict sets."""

    shipped_sets: Callable[[], list[Path]]
    add_calls: Callable[[CallPlan, Sequence[Path]], None]
    """Add the judge calls of the sets to a dry-run plan (bad sets raise one line)."""
    check: Callable[[Sequence[Path], RunOptions, StepRunner], tuple[VerdictOutcome, EvalLog]]
    identity: Callable[[JudgeChoice], tuple[str, str]]
    """judge → the protocol name and prompt hash of its verdicts."""


@dataclass(frozen=True)
class JudgeCheck:
    """What ``privbench judge check`` checks of a benchmark's judge."""

    graded: GradedAnswersCheck | None = None
    verdicts: VerdictSetCheck | None = None


# --- end of privbench judge check ----------------------------------------------------------
# --- the HTML report's section of a benchmark -------------------------------------------


Corners = tuple[float, float, float, float]
"""A box as a sample card draws it: x1, y1, x2, y2 (x1 < x2, y1 < y2)."""


@dataclass(frozen=True)
class ReleaseMatch:
    """Whether one dataset's runs are over the data a paper published its rows for."""

    verified: bool
    """The data are the public release (its content hash or the release's own evidence)."""
    comparable: bool
    """The data have the release's shape, unverified: shown on request under :attr:`note`."""
    reason: str
    """Why the published rows are not shown (the note names it)."""
    note: str
    """What is known of the data, for the published rows' caption."""
    items: frozenset[str]
    """The items the paper's figures are over (a run must have answered all of them)."""
    whole_count: int
    """How many items the whole data directory holds (0: unknown)."""


@dataclass(frozen=True)
class PublishedScores:
    """One published row: the model as its source names it, a figure per column."""

    model: str
    scores: Mapping[str, float]


@dataclass(frozen=True)
class PublishedFigures:
    """Figures a paper (or its authors' released runs) printed, laid out in the columns of
    one of the benchmark's tables, to stand beside the runs in the report."""

    beside: str
    """The key of the :class:`TableKind` whose columns these are."""
    label: str
    """What every row is labelled (``published (paper …)``, ``released run …``)."""
    caption: str
    paper: str
    setting: str
    """The setting the figures were made in (the runs beside them share it)."""
    decimals: int
    columns: tuple[str, ...]
    rows: tuple[PublishedScores, ...]
    row_heading: str = "Model"

    def number(self, value: float | None) -> str:
        """A figure as the source prints it; an en dash for none."""
        return "–" if value is None else f"{value:.{self.decimals}f}"


PublishedProvider = Callable[
    ["pd.DataFrame", str, Mapping[str, Sequence[str]]], tuple[list[PublishedFigures], str]
]
"""A dataset's rows, its data directory and each table's measured columns (by table key)
→ the published figures over exactly those columns, in the runs' setting, and a note for
the page ("" for none; it says why nothing is shown when the runs are not over the
benchmark's published data or mix settings)."""


@dataclass(frozen=True)
class ReportSection:
    """What ``privbench report`` shows of a benchmark beyond its paper tables.

    Why a record: the report renders every benchmark present in the runs from this (its
    published rows, the refusal table, the names of its columns, the overlap of boxes in
    its sample cards) without importing the benchmark."""

    layout: str
    """The page's section this benchmark fills (``priviq``: items with competencies;
    ``spatial``: images with boxes): the template block, anchor and figure prefix."""
    published_column: Callable[[str], str] | None = None
    """privbench's column name of a published table's heading (None: nothing published)."""
    published_note: str = ""
    """The caption of every published row where the data are never the paper's own."""
    release: Callable[[pd.DataFrame, str, str], ReleaseMatch] | None = None
    """Whether a dataset's runs (its long-table rows, data directory, content hash) are
    over the published data (None: published rows are shown whenever asked)."""
    refusals: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    """Refusal rates beside the main table, as a long frame (run, column, n, refusals,
    partial, refusal_rate, partial_rate); None: the benchmark counts none."""
    questions: tuple[tuple[str, str], ...] = ()
    """(question id, score column) of a benchmark whose columns are its questions."""
    column_labels: Mapping[str, str] = field(default_factory=_no_labels)
    """A score column's heading on the page (``Detection`` for ``detection``)."""
    box_overlap: Callable[[Corners, Corners], float] | None = None
    """The overlap (IoU) of a ground-truth and a predicted box in a sample card."""
    published_figures: PublishedProvider | None = None
    """The ``tables`` layout's published rows beside each of its tables (None: none)."""
    counts: Callable[[pd.DataFrame], list[str]] | None = None
    """The ``tables`` layout's counters of a dataset's rows that no table shows, one line
    each (ConfAIde: control answers read as neither yes nor no)."""
    offline_note: str = ""
    """The caveat on the page for this benchmark's runs judged offline, where its offline
    rules are its own (PrivacyLens); empty: privbench's offline judge's caveat."""


@dataclass(frozen=True)
class CrossRun:
    """A benchmark's hooks for the layers that work across runs and datasets."""

    reading: RunReading | None = None
    """How its logs become rows of the cross-run tables (None: its runs are not read)."""
    score_columns: ScoreColumns | None = None
    """The leaderboard's columns and a log's row (None: its runs are not on the board)."""
    paper_tables: PaperTables | None = None
    """Its paper tables (None: ``privbench tables`` has none to make)."""
    diff: DiffReading | None = None
    """``privbench diff`` of two of its runs (None: its runs are not compared item by item)."""
    describe: Callable[[Path], tuple[list[Problem], str]] | None = None
    """``privbench validate``: every problem of a data directory and what it holds, in one
    line (None: the directory's items are only counted)."""
    audit: DatasetAudit | None = None
    reference_row: ReferenceRow | None = None
    strategies: tuple[str, ...] = ()
    """The ways a model may be run on the benchmark (the report's ablation rows), the
    baseline first; empty when there is one way."""
    demo_exports: bool = False
    """``privbench demo`` writes the run's exports (``DIR/<name>/``) beside the logs."""
    annotation_review: AnnotationReview | None = None
    """Attached by :mod:`privbench.registry` from the benchmark's dataset tooling."""
    judge_check: JudgeCheck | None = None
    """What ``privbench judge check`` checks of its judge (None: nothing)."""
    report: ReportSection | None = None
    """The HTML report's section (None: the report leaves the benchmark out)."""
    agreement: AgreementWording = GRADES
    """How its runs word their judge's agreement (the line under the tables, the report's
    cell): with reference grades, or with the reference verdicts its judge is checked on."""


def unverified_line(runs: int) -> str:
    """What every reader says of judge runs reused without an answer check (empty if none):
    their grades stand for answers nobody compared with the ones graded now."""
    if not runs:
        return ""
    return f"{runs} grade(s) reused without an answer check (--reuse-unverified-grades)"
