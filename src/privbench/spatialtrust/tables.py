"""Terminal table of SpatialTrust scores in the paper's Table 2 layout."""

from __future__ import annotations

from rich.table import Table

from privbench.formatting import fmt
from privbench.spatialtrust.results import TASK_LABELS, SpatialLog, SpatialScores
from privbench.spatialtrust.scorer import TASKS


def task_table(model: str, strategy: str, scores: SpatialScores) -> Table:
    """Table 2's columns for one run, transposed for a terminal: a row per task score."""
    table = Table(title=f"SpatialTrust scores — {model} ({strategy})", title_justify="left")
    table.add_column("Task")
    table.add_column("Images", justify="right")
    table.add_column("Score", justify="right")
    for qid, name in TASKS:
        table.add_row(TASK_LABELS[name], str(scores.scored[qid]), fmt(scores.tasks[name]))
    table.add_row("Overall", str(scores.n_images), fmt(scores.overall))
    return table


def summary_line(scores: SpatialScores, logged: SpatialLog) -> str:
    """Parse failures, unscored, box and strategy counts, and the judge."""
    failures = ", ".join(f"{qid} {n}" for qid, n in logged.parse_failures.items() if n) or "none"
    unscored = sum(len(ids) for ids in scores.unscored.values())
    return (
        f"parse failures: {failures}; unscored q4/q5: {unscored}; invalid boxes: "
        f"{logged.invalid_boxes}; lock mismatches: {logged.lock_mismatches}; audit deletions: "
        f"{logged.audit_deletions}; judge: {logged.judge or '–'}"
    )
