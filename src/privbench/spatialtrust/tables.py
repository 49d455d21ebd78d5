"""Terminal table of SpatialTrust scores in the paper's Table 2 layout."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rich.table import Table

from privbench.audit.spatialtrust import BASELINE_LABEL
from privbench.formatting import fmt
from privbench.spatialtrust.results import TASK_LABELS, SpatialLog, SpatialScores
from privbench.spatialtrust.scorer import TASKS


def task_table(
    model: str, strategy: str, scores: SpatialScores, baseline: Mapping[str, Any] | None = None
) -> Table:
    """Table 2's columns for one run, transposed for a terminal: a row per task score.

    ``baseline`` (:func:`privbench.audit.spatialtrust.run_baseline`) adds the dataset's
    trivial baseline beside the scores, so the floor is read next to the model.
    """
    table = Table(title=f"SpatialTrust scores — {model} ({strategy})", title_justify="left")
    table.add_column("Task")
    table.add_column("Images", justify="right")
    table.add_column("Score", justify="right")
    if baseline:
        table.add_column(BASELINE_LABEL, justify="right")
    for qid, name in TASKS:
        floor = (fmt(baseline[name]),) if baseline else ()
        table.add_row(TASK_LABELS[name], str(scores.scored[qid]), fmt(scores.tasks[name]), *floor)
    floor = (fmt(baseline["overall"]),) if baseline else ()
    table.add_row("Overall", str(scores.n_images), fmt(scores.overall), *floor)
    return table


def summary_line(scores: SpatialScores, logged: SpatialLog) -> str:
    """Parse failures, unscored, box and strategy counts, and the judge."""
    failures = ", ".join(f"{qid} {n}" for qid, n in logged.parse_failures.items() if n) or "none"
    unscored = sum(len(ids) for ids in scores.unscored.values())
    return (
        f"parse failures: {failures}; unscored q4/q5: {unscored}; invalid boxes: "
        f"{len(logged.invalid_boxes)}; lock mismatches: {logged.lock_mismatches}; audit deletions: "
        f"{logged.audit_deletions}; judge: {logged.judge or '–'}"
    )


def invalid_box_lines(logged: SpatialLog, limit: int = 10) -> list[str]:
    """The first ``limit`` invalid boxes, one line each (all of them are in ``--json``)."""
    lines = [
        f"invalid box: {b.get('id')} {b.get('question', '?')} {b.get('option', '?')} "
        f"{json.dumps(b.get('box'), ensure_ascii=False)}: {b.get('reason', '')}"
        for b in logged.invalid_boxes[:limit]
    ]
    if len(logged.invalid_boxes) > limit:
        lines.append(f"... and {len(logged.invalid_boxes) - limit} more (see --json or --out)")
    return lines
