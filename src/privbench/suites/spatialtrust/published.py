"""SpatialTrust's published Tables 2 and 3, with privbench's task names as columns.

Why only on request: SpatialTrust has no public release, so no run of privbench is over
the paper's captures; its figures are shown beside a run only when the user asks
(``--compare-published``), every row captioned :data:`NOTE`.
"""

from __future__ import annotations

from privbench.published import PublishedTable, published_tables
from privbench.suites.spatialtrust.aggregate import TASKS

OVERALL = "overall"
"""The overall score's name, as the run's ``--json`` names it."""
NOTE = "different data: the paper's own captures"
"""Every published SpatialTrust row's caption: the paper's data are not the run's."""
PAPER_COLUMNS: dict[str, str] = {
    "Sensitive Factor Detection": "q1",
    "Factor Identification / Direct": "q2",
    "Factor Identification / Indirect": "q3",
    "Factor Explanation / Direct": "q4",
    "Factor Explanation / Indirect": "q5",
}
"""The papers' Table 2 / 3 headings → the question each task score is over."""
_NAMES = dict(TASKS)


def column_name(heading: str) -> str:
    """privbench's name of a Table 2 / 3 heading (``detection`` … ``overall``)."""
    if heading == "Overall":
        return OVERALL
    if heading not in PAPER_COLUMNS:
        raise ValueError(f"SpatialTrust table heading {heading!r} names no task")
    return _NAMES[PAPER_COLUMNS[heading]]


def spatial_published() -> list[PublishedTable]:
    """Tables 2 (models) and 3 (the SpatialTrustGuard ablation), task names as columns."""
    return [table.renamed(column_name) for table in published_tables("spatialtrust")]
