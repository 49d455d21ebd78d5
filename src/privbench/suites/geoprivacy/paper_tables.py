"""VLM-GeoPrivacy's tables across runs: the granularity answered (Q7) per protocol or mode.

Why these: the paper reports, per model, how often the granularity a model discloses is the
one the annotators judged appropriate, and how often it is more specific (over-disclosure).
Each cell here is the run's figure in percent with its 95 % Wilson interval over the answers
read, computed from the same rows as ``show`` prints, so a cell equals the run's own figure.

Input: the long table of :func:`~privbench.suites.geoprivacy.results.item_rows`. Output:
long frames (``run, column, order, score, std, n, low, high``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privbench.rates import rate_cell
from privbench.runtime.cross_run import TableKind
from privbench.suites.geoprivacy.log import VARIANT_ORDER

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

ACCURACY = TableKind(
    "granularity",
    "geoprivacy",
    "the VLM-GeoPrivacy paper's granularity results",
    "Appropriate granularity disclosed (Q7 accuracy)",
    "photos",
    intervals="Wilson intervals over answers read",
    column_kind="Protocol or mode",
)
OVER_DISCLOSURE = TableKind(
    "over_disclosure",
    "geoprivacy",
    "the VLM-GeoPrivacy paper's over-disclosure results",
    "Over-disclosure (more specific than appropriate)",
    "photos",
    lower_is_better=True,
    intervals="Wilson intervals over answers read",
    column_kind="Protocol or mode",
)
KINDS = (ACCURACY, OVER_DISCLOSURE)
FRAME_COLUMNS = ("run", "column", "order", "score", "std", "n", "low", "high")


def _frame(rows: pd.DataFrame, field: str) -> list[dict[str, object]]:
    records: list[dict[str, object]] = []
    for order, variant in enumerate(VARIANT_ORDER):
        chosen = rows[rows["variant"] == variant].dropna(subset=[field])
        for run, mine in chosen.groupby("run", sort=False):
            records.append(rate_cell(run, variant, order, int(mine[field].sum()), len(mine)))
    return records


def geoprivacy_tables(
    rows: pd.DataFrame, rng: np.random.Generator, n_boot: int
) -> tuple[pd.DataFrame, ...]:
    """The two tables (:data:`KINDS` order) of one dataset's runs."""
    import pandas as pd

    frames = (_frame(rows, "correct"), _frame(rows, "over"))
    return tuple(pd.DataFrame(records, columns=list(FRAME_COLUMNS)) for records in frames)
