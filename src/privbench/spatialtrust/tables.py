"""Terminal table of SpatialTrust scores in the paper's Table 2 layout."""

from __future__ import annotations

from rich.table import Table

from privbench.formatting import fmt
from privbench.spatialtrust.results import SpatialLog, SpatialScores
from privbench.spatialtrust.scorer import TASKS

_HEADERS = {
    "detection": "Detection",
    "direct_identification": "Ident.\ndirect",
    "indirect_identification": "Ident.\nindirect",
    "direct_explanation": "Expl.\ndirect",
    "indirect_explanation": "Expl.\nindirect",
}


def task_table(model: str, strategy: str, scores: SpatialScores) -> Table:
    """One row: the five task-level scores and overall (percent, one decimal)."""
    table = Table(title=f"SpatialTrust scores ({scores.n_images} images)", title_justify="left")
    table.add_column("Model")
    table.add_column("Strategy")
    for _, name in TASKS:
        table.add_column(_HEADERS[name], justify="right")
    table.add_column("Overall", justify="right")
    cells = [fmt(scores.tasks[name]) for _, name in TASKS]
    table.add_row(model, strategy, *cells, fmt(scores.overall))
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
