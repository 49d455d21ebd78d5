"""Every run in a folder as one table row: the papers' columns and what each figure rests on.

Why a leaderboard apart from the report: a results folder accumulates runs (models,
strategies, judges, datasets) and a reader wants them side by side in a file they can
paste or load (CSV, Markdown), each row saying which judge graded, whether that judge was
checked, which data it ran on and whether it finished; the scores alone would invite
comparing runs that are not comparable.

Rows are the scores ``privbench show`` prints for each log (the benchmark's own log reader
and aggregate). Runs are ranked only against runs they can be compared with
(:func:`privbench.analysis.groups.dataset_groups`): within one benchmark and one dataset
(content hash), over the same items. Each dataset is a section of its own; within it the
runs over the dataset's shared item set are ranked by the benchmark's ranking column
(:attr:`~privbench.runtime.cross_run.ScoreColumns.total`: Priv-IQ's total, SpatialTrust's
overall, …), best first (a dataset with only ``--limit`` runs ranks the largest set
of them over the same items), and a ``--limit`` run or one over another item set follows,
unranked; ``caveats`` says so, and names ``--limit`` and unreviewed draft annotations. Files that are not privbench runs are skipped and counted by reason; a
cancelled or failed log that a retry of the same inspect task supersedes is skipped too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd
from inspect_ai.log import EvalLog, read_eval_log

from privbench import registry
from privbench.analysis.groups import (
    ComparedRun,
    DatasetGroup,
    dataset_groups,
    main_partition,
)
from privbench.analysis.runs import SHORT_HASH, log_paths, superseded, unique_labels
from privbench.formatting import fmt
from privbench.runtime.cross_run import ScoreColumns
from privbench.runtime.errors import UsageError
from privbench.runtime.records.benchmark import Benchmark
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.records.judge_agreement import NOT_CHECKED_SHORT
from privbench.runtime.records.task import TaskRecord

BENCHMARKS: tuple[tuple[str, str, ScoreColumns], ...] = tuple(
    (suite.name, suite.title, table)
    for suite in registry.SUITES.values()
    if (table := suite.cross_run.score_columns) is not None
)
"""Every benchmark on the board, in the registry's order: name, title, score table."""
FORMATS = ("csv", "markdown")

NOT_A_LOG = "not an inspect log"
JUDGE_CHECK = "a judge-check run"
OTHER_TASK = "a log of another task"
SUPERSEDED = "superseded by its retry"


def _table(benchmark: str) -> ScoreColumns:
    return next(table for name, _, table in BENCHMARKS if name == benchmark)


def _strategies(benchmark: str) -> tuple[str, ...]:
    """The benchmark's strategies (empty: it has one way of running; no strategy column)."""
    return registry.get(benchmark).cross_run.strategies


@dataclass(frozen=True)
class LeaderboardRow:
    """One run: who, how, the paper columns, and what the figures rest on."""

    label: str
    model: str
    """The model under test as inspect names it; empty for a grade run (answers made
    elsewhere: the label names their file)."""
    benchmark: Benchmark
    strategy: str
    """SpatialTrust's strategy (``predictions`` for answers made elsewhere); empty for Priv-IQ."""
    scores: dict[str, float | None]
    """Paper column → percentage (None where nothing was scored)."""
    n: int
    """What was scored, in the benchmark's unit (items, images, prompts, samples)."""
    judge: str
    judge_card: str
    """The judge card's agreement line when the run started, or ``not checked``."""
    data_hash: str
    """The dataset's content hash, shortened (empty when the log records none)."""
    status: str
    """``complete`` or ``partial`` (items failed or missing, or the run did not finish)."""
    log: str
    dataset: str = ""
    """The dataset's title as the report heads its section (folder, hash, item count)."""
    rank: int | None = None
    """Place among the runs over the dataset's shared item set (None: not ranked)."""
    caveats: str = ""
    """What a reader must know before comparing: ``--limit``, another item set, drafts."""

    @property
    def total(self) -> float | None:
        """The benchmark's ranking column (Priv-IQ's total, SpatialTrust's overall, …): what the
        rows are sorted by."""
        return self.scores.get(_table(self.benchmark).total)


@dataclass
class Leaderboard:
    """The rows, and the files under the folder that are not rows, counted by reason."""

    rows: list[LeaderboardRow]
    skipped: dict[str, int] = field(default_factory=dict)

    def skipped_line(self) -> str | None:
        """One line for stderr: how many files were skipped and why (None: none were)."""
        if not self.skipped:
            return None
        reasons = ", ".join(f"{count} {reason}" for reason, count in self.skipped.items())
        return f"skipped {sum(self.skipped.values())} file(s): {reasons}"


@dataclass(frozen=True)
class _Found:
    path: Path
    header: EvalLog
    identity: RunIdentity


def _status(complete: bool, identity: RunIdentity) -> str:
    """As ``show --json`` says it: complete only if every item was scored and the run ended."""
    return "complete" if complete and identity.status == "success" else "partial"


def _compared(found: _Found, label: str) -> ComparedRun:
    identity = found.identity
    ids = found.header.eval.dataset.sample_ids or []
    return ComparedRun(
        label=label,
        dataset_hash=identity.dataset_hash,
        items=frozenset(str(i) for i in ids),
        limit=identity.limit_count,
        data=identity.data,
        benchmark=identity.benchmark or "priviq",
    )


def _ranked(rows: list[LeaderboardRow], found: list[_Found]) -> list[LeaderboardRow]:
    """Each row placed in its dataset's section: ranked among the runs over the dataset's
    shared items, the others marked why not; drafts and ``--limit`` said in ``caveats``."""
    placed: list[LeaderboardRow] = []
    for benchmark, _title, table in BENCHMARKS:
        mine = [(r, f) for r, f in zip(rows, found, strict=True) if r.benchmark == benchmark]
        unit = table.unit
        groups = dataset_groups([_compared(f, r.label) for r, f in mine], unit)
        by_label = {r.label: (r, f) for r, f in mine}
        for group in sorted(groups, key=lambda g: (not g.known, g.dataset_hash, g.runs[0])):
            full = [[run for run in p if run not in group.limits] for p in group.partitions]
            full = [p for p in full if p]
            # the full runs over the shared items; only --limit runs: the largest set of them
            compared = main_partition(full or group.partitions, group.n_items)
            ordered = sort_rows([by_label[run][0] for run in compared])
            rest = sort_rows([by_label[run][0] for run in group.runs if run not in compared])
            for index, row in enumerate([*ordered, *rest]):
                ranked = row.label in compared
                caveat = _caveat(group, row.label, unit, ranked)
                rank = index + 1 if ranked else None
                placed.append(replace(row, dataset=group.title, rank=rank, caveats=caveat))
    drafts = {
        r.log: line
        for r, f in zip(rows, found, strict=True)
        if f.identity.draft_annotations is not None
        and (line := f.identity.draft_annotations.line())
    }
    return [
        replace(r, caveats="; ".join(c for c in (r.caveats, drafts.get(r.log, "")) if c))
        for r in placed
    ]


def _caveat(group: DatasetGroup, label: str, unit: str, ranked: bool) -> str:
    """Why a run's place needs a second look: ``--limit``, another item set, not ranked."""
    n = group.n_items[label]
    if label in group.limits:
        limit = f"limit {group.limits[label]}: over {n} {unit}"
        return limit if ranked else f"{limit}, not ranked with the full runs"
    return "" if ranked else f"over another set of {n} {unit}: not ranked"


def _row(found: _Found) -> LeaderboardRow:
    identity, header = found.identity, found.header
    ignored = identity.judge_card_problem  # the line says why the log's card was ignored
    card = (
        ""
        if not identity.judge
        else NOT_CHECKED_SHORT
        if identity.judge_card is None and not ignored
        else identity.judge_agreement_line
    )
    benchmark = identity.benchmark or "priviq"
    scores = _table(benchmark).scores(header)
    strategy = identity.strategy_name if _strategies(benchmark) else ""
    columns, n, judge, complete = scores.columns, scores.n, scores.judge, scores.complete
    return LeaderboardRow(
        label=identity.label(),
        model=identity.model if identity.is_eval else "",
        benchmark=identity.benchmark or "priviq",
        strategy=strategy,
        scores=columns,
        n=n,
        judge=judge or identity.judge,
        judge_card=card,
        data_hash=identity.dataset_hash[:SHORT_HASH],
        status=_status(complete, identity),
        log=str(found.path),
    )


def _labelled(rows: list[LeaderboardRow], found: list[_Found]) -> list[LeaderboardRow]:
    """Labels unique within a benchmark, made as the report makes them."""
    described = []
    for row, run in zip(rows, found, strict=True):
        base = row.label
        strategy = run.identity.strategy  # empty for a grade run, as in the report
        strategies = _strategies(row.benchmark)
        if strategies and strategy not in ("", strategies[0]):
            base = f"{base} [{strategy}]"
        described.append(
            {
                "label": base,
                "benchmark": row.benchmark,
                "limit": run.identity.limit_count,
                "data": run.identity.data,
                "dataset_hash": run.identity.dataset_hash,
                "judge": row.judge,
                "epochs": run.identity.judge_runs,
                "created": run.identity.created,
                "log": row.log,
            }
        )
    labels = unique_labels(described)
    return [replace(row, label=label) for row, label in zip(rows, labels, strict=True)]


def sort_rows(rows: Sequence[LeaderboardRow]) -> list[LeaderboardRow]:
    """Benchmarks in the registry's order; within one, the best ranking figure first;
    unscored runs last."""
    order = {benchmark: index for index, (benchmark, _, _) in enumerate(BENCHMARKS)}
    return sorted(
        rows,
        key=lambda r: (order[r.benchmark], r.total is None, -(r.total or 0.0), r.label, r.log),
    )


def leaderboard(directory: Path) -> Leaderboard:
    """Every privbench run under ``directory`` (recursively), one row each."""
    if not directory.is_dir():
        raise UsageError(f"{directory}: not a directory")
    skipped: Counter[str] = Counter()
    found: list[_Found] = []
    for path in log_paths([directory]):
        try:
            header = read_eval_log(str(path), header_only=True)
        except Exception:  # inspect raises several types for what is not a log
            skipped[NOT_A_LOG] += 1
            continue
        identity = RunIdentity.from_log(header)
        if identity.benchmark is None:
            skipped[JUDGE_CHECK if TaskRecord.from_log(header).judge_check else OTHER_TASK] += 1
            continue
        found.append(_Found(path, header, identity))
    replaced = superseded(
        [(f.identity.task_id, f.identity.created, f.identity.status, f.path.name) for f in found]
    )
    skipped[SUPERSEDED] += len(replaced)
    kept = [f for index, f in enumerate(found) if index not in replaced]
    if not kept:
        titles = " or ".join(title for _, title, _ in BENCHMARKS)
        raise UsageError(f"{directory}: no {titles} run logs")
    rows = _labelled([_row(f) for f in kept], kept)
    return Leaderboard(_ranked(rows, kept), {k: v for k, v in skipped.items() if v})


def frame(rows: Sequence[LeaderboardRow]) -> pd.DataFrame:
    """One row per run, every benchmark's columns (empty where a run has no such column)."""
    columns = ["label", "model", "benchmark", "strategy"]
    columns += [column for _, _, table in BENCHMARKS for column in table.columns]
    columns += ["n", "judge", "judge_card", "data_hash", "status", "log"]
    columns += ["dataset", "rank", "caveats"]
    records = [
        {
            "label": r.label,
            "model": r.model,
            "benchmark": r.benchmark,
            "strategy": r.strategy,
            **r.scores,
            "n": r.n,
            "judge": r.judge,
            "judge_card": r.judge_card,
            "data_hash": r.data_hash,
            "status": r.status,
            "log": r.log,
            "dataset": r.dataset,
            "rank": r.rank,
            "caveats": r.caveats,
        }
        for r in rows
    ]
    frame = pd.DataFrame.from_records(records, columns=columns)
    frame["rank"] = frame["rank"].astype("Int64")
    return frame


def to_csv(rows: Sequence[LeaderboardRow]) -> str:
    """The table as CSV (full precision; an empty cell where nothing was scored)."""
    text: str = frame(rows).to_csv(index=False, lineterminator="\n")
    return text


def _cell(text: str) -> str:
    """A Markdown table cell: pipes escaped, one line (labels and models are user text)."""
    return " ".join(text.split()).replace("\\", "\\\\").replace("|", "\\|")


def to_markdown(rows: Sequence[LeaderboardRow]) -> str:
    """One pipe table per benchmark and dataset (its own columns), scores to one decimal."""
    sections = []
    for benchmark, title, table in BENCHMARKS:
        datasets = dict.fromkeys(r.dataset for r in rows if r.benchmark == benchmark)
        for dataset in datasets:
            mine = [r for r in rows if r.benchmark == benchmark and r.dataset == dataset]
            sections.append(_markdown_section(title, dataset, table.columns, mine))
    return "\n\n".join(sections) + "\n"


def _markdown_section(
    title: str, dataset: str, score_columns: Sequence[str], mine: Sequence[LeaderboardRow]
) -> str:
    """One dataset's runs: ranked ones first, numbered, then the others with why not."""
    strategy = ["strategy"] if _strategies(mine[0].benchmark) else []
    header = ["rank", "label", "model", *strategy, *score_columns]
    header += ["n", "judge", "judge card", "data", "status", "caveats", "log"]
    heading = f"## {title} · {dataset}" if dataset else f"## {title}"
    lines = [
        _cell(heading),
        "",
        "| " + " | ".join(header) + " |",
        "|"
        + "|".join("---:" if c in score_columns or c in ("n", "rank") else "---" for c in header)
        + "|",
    ]
    for r in mine:
        cells = ["–" if r.rank is None else str(r.rank), r.label, r.model]
        cells += [r.strategy] if strategy else []
        cells += [fmt(r.scores.get(column)) for column in score_columns]
        cells += [str(r.n), r.judge, r.judge_card, r.data_hash or "–", r.status]
        cells += [r.caveats or "–", r.log]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines)


def check_format(output_format: str) -> None:
    """Refuse an unknown ``--format`` before any log is read."""
    if output_format not in FORMATS:
        raise UsageError(f"--format: {output_format!r} is not one of {', '.join(FORMATS)}")


def render(board: Leaderboard, output_format: str) -> str:
    """The leaderboard in ``csv`` or ``markdown``."""
    check_format(output_format)
    return to_csv(board.rows) if output_format == "csv" else to_markdown(board.rows)
