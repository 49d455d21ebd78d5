"""Terminal table of SpatialTrust scores in the paper's Table 2 layout."""

from __future__ import annotations

import json
from collections.abc import Mapping

from rich.table import Table

from privbench.formatting import fmt
from privbench.published import PublishedTable, terminal_table
from privbench.suites.spatialtrust.aggregate import TASK_LABELS, TASKS, SpatialScores
from privbench.suites.spatialtrust.baseline import BASELINE_LABEL
from privbench.suites.spatialtrust.log import PipelineCounts, SpatialTrustLog
from privbench.suites.spatialtrust.published import NOTE, OVERALL


def task_table(
    model: str, strategy: str, scores: SpatialScores, baseline: Mapping[str, object] | None = None
) -> Table:
    """Table 2's columns for one run, transposed for a terminal: a row per task score.

    ``baseline`` (:func:`privbench.suites.spatialtrust.audit.run_baseline`) adds the dataset's
    trivial baseline beside the scores, so the floor is read next to the model.
    """
    table = Table(title=f"SpatialTrust scores — {model} ({strategy})", title_justify="left")
    table.add_column("Task")
    table.add_column("Images", justify="right")
    table.add_column("Score", justify="right")
    if baseline:
        table.add_column(BASELINE_LABEL, justify="right")
    for qid, name in TASKS:
        floor = (fmt(_number(baseline[name])),) if baseline else ()
        table.add_row(TASK_LABELS[name], str(scores.scored[qid]), fmt(scores.tasks[name]), *floor)
    floor = (fmt(_number(baseline["overall"])),) if baseline else ()
    table.add_row("Overall", str(scores.n_images), fmt(scores.overall), *floor)
    return table


def _number(value: object) -> float | None:
    """A score read from a ``--json`` document (None: not a number)."""
    return value if isinstance(value, int | float) else None


def published_beside(
    model: str, scores: SpatialScores, tables: list[PublishedTable]
) -> list[Table]:
    """The paper's Tables 2 and 3 (its own captures), the run's scores first."""
    values = {**scores.tasks, OVERALL: scores.overall}
    labels = {**TASK_LABELS, OVERALL: "Overall"}
    return [
        terminal_table(table, f"{model} (this run)", values, NOTE, lambda c: labels.get(c, c))
        for table in tables
    ]


def summary_line(scores: SpatialScores, logged: SpatialTrustLog) -> str:
    """Parse failures, unscored, box counts, re-asks and the judge."""
    failures = ", ".join(f"{qid} {n}" for qid, n in logged.parse_failures.items() if n) or "none"
    unscored = sum(len(ids) for ids in scores.unscored.values())
    line = (
        f"parse failures: {failures}; unscored q4/q5: {unscored}; invalid boxes: "
        f"{len(logged.invalid_boxes)}"
    )
    if logged.reask.reasks:
        line += f"; re-asks: {logged.reask.reasks} ({logged.reask.images} images)"
    return f"{line}; judge: {logged.judge or '–'}"


def pipeline_line(pipeline: PipelineCounts) -> str:
    """The staged/guard stage counters in one line."""
    selection = ", ".join(f"{q} {n}" for q, n in sorted(pipeline.selection_failures.items()))
    return (
        f"pipeline: selection parse failures: {selection or 'none'} "
        f"({pipeline.images_without_lock} of {pipeline.images} images without a lock); "
        f"verifier replies unreadable: {pipeline.verifier_unreadable} of "
        f"{pipeline.verifier_calls} (option kept); audit deletions: {pipeline.audit_deletions}; "
        f"lock disagreements: {pipeline.lock_disagreements}; locked answers unparsed: "
        f"{pipeline.final_unparsed}"
    )


def reask_line(document: Mapping[str, object]) -> str | None:
    """The overall score without re-asks, beside the one with them (None: no re-ask)."""
    reask = document.get("reask")
    without = reask.get("without_reask") if isinstance(reask, Mapping) else None
    if not without or not isinstance(reask, Mapping) or not isinstance(without, Mapping):
        return None
    return (
        f"without re-asks (one pass): overall {fmt(_number(without.get('overall')))}; "
        f"{reask.get('images', 0)} images re-asked {reask.get('reasks', 0)} times"
    )


def run_notes(
    scores: SpatialScores, logged: SpatialTrustLog, document: Mapping[str, object]
) -> list[str]:
    """Every line printed under the table: unreviewed annotations first (the scores are
    measured against drafts), the summary, pipeline counters, re-asks, warnings and the
    box-convention check."""
    lines = [] if logged.drafts is None else [logged.drafts.line()]
    lines.append(summary_line(scores, logged))
    if logged.pipeline is not None:
        lines.append(pipeline_line(logged.pipeline))
        lines += logged.pipeline.warnings()
    reask = reask_line(document)
    if reask:
        lines.append(reask)
    calls = logged.calls.line()
    if calls:
        lines.append(calls)
    check = document.get("box_convention_check")
    if isinstance(check, Mapping) and check.get("warning"):
        lines.append(str(check["warning"]))
    return lines


def invalid_box_lines(logged: SpatialTrustLog, limit: int = 10) -> list[str]:
    """The first ``limit`` invalid boxes, one line each (all of them are in ``--json``)."""
    lines = [
        f"invalid box: {b.get('id')} {b.get('question', '?')} {b.get('option', '?')} "
        f"{json.dumps(b.get('box'), ensure_ascii=False)}: {b.get('reason', '')}"
        for b in logged.invalid_boxes[:limit]
    ]
    if len(logged.invalid_boxes) > limit:
        lines.append(f"... and {len(logged.invalid_boxes) - limit} more (see --json or --out)")
    return lines
