"""SpatialTrust scores of a run from per-image question scores (pure).

Task-level scores are means over images per question, as percentages; overall is the
mean of the five (paper §5.1). An unscored q4/q5 (judge verdict never valid) is left out
of that question's mean and counted.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

TASKS: tuple[tuple[str, str], ...] = (
    ("q1", "detection"),
    ("q2", "direct_identification"),
    ("q3", "indirect_identification"),
    ("q4", "direct_explanation"),
    ("q5", "indirect_explanation"),
)
"""Question id → the paper's task-level score name (Table 2 columns)."""
TASK_LABELS = {
    "detection": "Detection",
    "direct_identification": "Direct identification",
    "indirect_identification": "Indirect identification",
    "direct_explanation": "Direct explanation",
    "indirect_explanation": "Indirect explanation",
}

ImageScores = dict[str, float | None]
"""One image's score per question (q1–q5), None where unscored."""


@dataclass(frozen=True)
class SpatialScores:
    """Everything the Table 2 row and the ``--json`` document report."""

    tasks: dict[str, float | None]
    overall: float | None
    n_images: int
    scored: dict[str, int]
    items: dict[str, ImageScores]
    unscored: dict[str, list[str]] = field(default_factory=dict)


def spatial_scores(items: dict[str, ImageScores]) -> SpatialScores:
    """Per-question means (percent) over images, and overall = mean of the five."""
    tasks: dict[str, float | None] = {}
    scored: dict[str, int] = {}
    unscored: dict[str, list[str]] = {}
    for qid, name in TASKS:
        values = [v for v in (scores.get(qid) for scores in items.values()) if v is not None]
        tasks[name] = 100 * math.fsum(values) / len(values) if values else None
        scored[qid] = len(values)
        unscored[qid] = [i for i, scores in items.items() if scores.get(qid) is None]
    present = [v for v in tasks.values() if v is not None]
    overall = statistics.fmean(present) if len(present) == len(TASKS) else None
    return SpatialScores(tasks, overall, len(items), scored, items, unscored)
