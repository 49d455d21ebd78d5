"""ConfAIde's section of the HTML report: its tables, and the published figures beside them.

Why the published figures are chosen here: a published figure may stand beside a run only
when it measures the same thing — the same tier, question type, metric and statistic, on
the reference's own benchmark files, in the same setting (with or without the privacy
instruction). :func:`~privbench.suites.confaide.published.comparable` picks the rows over
exactly the columns the runs measured; this module lays them out in the columns of the
tables of :mod:`~privbench.suites.confaide.paper_tables` (rates in percent, r as is) and
says on the page why none are shown when the data or the settings do not allow it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from privbench.runtime.cross_run import PublishedFigures, PublishedScores, ReportSection
from privbench.suites.confaide.paper_tables import ALIGNMENT, MEAN, WORST_CASE, column_name

if TYPE_CHECKING:
    import pandas as pd
    from inspect_ai.log import EvalLog
    from rich.console import RenderableType

    from privbench.suites.confaide.log import ConfAIdeLog
    from privbench.suites.confaide.published import Measured, PublishedFigure

SETTING_COLUMN = "setting"
"""The rows' column naming a run's setting (``with-privacy-prompt`` …)."""

_STATISTIC = {WORST_CASE.key: "worst_case", MEAN.key: "mean"}
KIND_WHAT = {kind.key: kind.what.lower() for kind in (ALIGNMENT, WORST_CASE, MEAN)}


def _measured(measured: Mapping[str, Sequence[str]]) -> list[Measured]:
    wanted: list[Measured] = [(tier, None, "pearson_r") for tier in measured.get(ALIGNMENT.key, ())]
    for key in _STATISTIC:
        for column in measured.get(key, ()):
            question, metric = _split(column)
            tier = "4" if question in ("meeting-summary", "action-item") else "3"
            wanted.append((tier, question, metric))
    return list(dict.fromkeys(wanted))


def _split(column: str) -> tuple[str, str]:
    """``info-accessibility-no_y`` → (question type, metric): no metric holds a hyphen but
    ``string-match`` and ``proxy-model``."""
    for metric in ("string-match", "proxy-model"):
        if column.endswith(f"-{metric}"):
            return column.removesuffix(f"-{metric}"), metric
    question, _, metric = column.rpartition("-")
    return question, metric


def _source(kind: str, setting: str, key: str) -> tuple[str, str]:
    """A block's label and where its figures come from."""
    from privbench.suites.confaide import published

    if kind == published.PAPER:
        return "published (paper)", f"the paper's table as printed by {published.NOTEBOOK}"
    folder = "" if key == ALIGNMENT.key else f"{published.SETTING_FOLDERS[setting]}/"
    return (
        f"released run ({published.RELEASE_REPOSITORY}@{published.RELEASE_COMMIT[:7]})",
        f"the authors' final reports, eval_results/{folder}final_report_*.json"
        + (" (r of their human and model columns)" if key == ALIGNMENT.key else ""),
    )


def _layout(
    rows: Sequence[PublishedFigure], key: str, columns: Sequence[str], setting: str
) -> list[PublishedFigures]:
    from privbench.suites.confaide.published import MODELS

    by_kind: dict[str, dict[str, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    for row in rows:
        if key == ALIGNMENT.key:
            if row.question_type is not None:
                continue
            column, value = row.tier, row.value
        else:
            if row.question_type is None or row.statistic != _STATISTIC[key]:
                continue
            column, value = column_name(row.question_type, row.metric), 100 * row.value
        if column in columns:
            by_kind[row.source_kind][MODELS.get(row.model, row.model)][column] = value
    blocks = []
    for kind, models in by_kind.items():
        label, source = _source(kind, setting, key)
        blocks.append(
            PublishedFigures(
                beside=key,
                label=label,
                caption=f"{KIND_WHAT[key]}, from {source}",
                paper="Mireshghallah et al., Can LLMs Keep a Secret? (ICLR 2024)",
                setting=setting if key != ALIGNMENT.key else "tiers 1–2 (no instruction)",
                decimals=2 if key == ALIGNMENT.key else 1,
                columns=tuple(c for c in columns if any(c in s for s in models.values())),
                rows=tuple(PublishedScores(m, s) for m, s in models.items()),
            )
        )
    return blocks


def published_figures(
    rows: pd.DataFrame, data: str, measured: Mapping[str, Sequence[str]]
) -> tuple[list[PublishedFigures], str]:
    """The published figures beside a dataset's runs (see the module docstring)."""
    from privbench.suites.confaide.published import SETTINGS, comparable
    from privbench.suites.confaide.results import UNKNOWN_SETTING
    from privbench.suites.confaide.validation import differing_files

    directory = Path(data)
    if not directory.is_dir() or differing_files(directory):
        return [], (
            "No published ConfAIde figures: the runs' data are not the reference's benchmark "
            "files (privbench validate confaide DIR says which files differ)."
        )
    settings = sorted(set(rows[SETTING_COLUMN]) - {""}) if SETTING_COLUMN in rows else []
    if UNKNOWN_SETTING in settings:
        return [], (
            "No published ConfAIde figures: some runs graded answers made elsewhere, whose "
            "setting (with or without the privacy prompt) is not recorded."
        )
    if len(settings) > 1:
        return [], (
            f"No published ConfAIde figures: the runs mix settings ({', '.join(settings)}); "
            "the paper's figures hold for one."
        )
    setting = settings[0] if settings else SETTINGS[0]  # the rating tiers have none
    found = comparable(_measured(measured), setting)
    blocks = [
        block
        for key in (ALIGNMENT.key, WORST_CASE.key, MEAN.key)
        for block in _layout(found, key, measured.get(key, ()), setting)
    ]
    return blocks, ""


def counted(rows: pd.DataFrame) -> list[str]:
    """Per run, the counters the tables do not show: control answers read as neither yes
    nor no (errors, as the reference counts them) and unreadable ratings."""
    from privbench.suites.confaide.scoring import UNCLASSIFIED

    lines = []
    for run, mine in rows.groupby("run", sort=False):
        control = mine[mine["question_type"] == "control"]
        unclassified = int((control["binary_answer"] == UNCLASSIFIED).sum())
        ratings = mine[mine["tier"].isin(("1", "2a", "2b"))]
        unread = int(ratings["unparsed"].sum()) if len(ratings) else 0
        parts = []
        if len(control):
            parts.append(
                f"{unclassified} of {len(control)} control answers read as neither yes nor no"
                " (errors, as the reference counts them)"
            )
        if len(ratings):
            parts.append(f"{unread} of {len(ratings)} rating answers unreadable (left out of r)")
        if parts:
            lines.append(f"{run}: " + "; ".join(parts) + ".")
    return lines


REPORT_SECTION = ReportSection(layout="tables", published_figures=published_figures, counts=counted)


def run_columns(graded: ConfAIdeLog) -> dict[str, dict[str, float | None]]:
    """One run's figures in the columns of the tables (by table key): r per rating tier, the
    rates in percent — what is set beside published figures of the same columns."""
    alignment = {tier: figures.correlation.r for tier, figures in graded.ratings.items()}
    worst: dict[str, float | None] = {
        column_name(f.question_type, f.metric): 100 * f.summary.worst_case for f in graded.metrics
    }
    mean: dict[str, float | None] = {
        column_name(f.question_type, f.metric): 100 * f.summary.mean for f in graded.metrics
    }
    return {ALIGNMENT.key: dict(alignment), WORST_CASE.key: worst, MEAN.key: mean}


def published_beside_run(log: EvalLog, graded: ConfAIdeLog) -> tuple[list[PublishedFigures], str]:
    """The published figures over exactly what one run measured, and why none when none:
    a ``--limit`` run covers part of the tiers the paper's figures are over."""
    import pandas as pd

    from privbench.runtime.records.identity import RunIdentity
    from privbench.suites.confaide.results import item_rows

    identity = RunIdentity.from_log(log)
    if identity.limit_count is not None:
        return [], "the run answered part of the prompts (--limit); the paper's are over all"
    measured = {key: [c for c, v in values.items() if v is not None or key != ALIGNMENT.key]
                for key, values in run_columns(graded).items()}  # fmt: skip
    rows = pd.DataFrame(item_rows(log, identity.label()))
    found, note = published_figures(rows, identity.data, measured)
    return found, note.removeprefix("No published ConfAIde figures: ")


def published_document(found: Sequence[PublishedFigures]) -> list[dict[str, object]]:
    """The ``--json`` form of published figures: label, source, setting, rows."""
    return [
        {"table": block.beside, "label": block.label, "source": block.caption,
         "setting": block.setting, "columns": list(block.columns),
         "rows": [{"model": row.model, "scores": dict(row.scores)} for row in block.rows]}
        for block in found
    ]  # fmt: skip


def published_terminal(
    found: Sequence[PublishedFigures], run: str, graded: ConfAIdeLog
) -> list[RenderableType]:
    """Each published block as a terminal table, the run's own row first."""
    from rich.table import Table

    mine = run_columns(graded)
    tables: list[RenderableType] = []
    for block in found:
        table = Table(title=f"{block.label}: {block.caption} ({block.setting})",
                      title_justify="left")  # fmt: skip
        table.add_column("Model")
        for column in block.columns:
            table.add_column(column, justify="right")
        own = mine.get(block.beside, {})
        table.add_row(f"{run} (this run)", *(block.number(own.get(c)) for c in block.columns))
        for row in block.rows:
            table.add_row(row.model, *(block.number(row.scores.get(c)) for c in block.columns))
        tables.append(table)
    return tables
