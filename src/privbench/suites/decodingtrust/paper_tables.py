"""DecodingTrust's table across runs: the leak rate per scenario (the reference's scored
files), each cell with its 95 % Wilson interval over completions.

Input: the long table of :func:`~privbench.suites.decodingtrust.results.item_rows`. Output:
a long frame (``run, column, order, score, std, n, low, high``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privbench.rates import rate_cell
from privbench.runtime.cross_run import TableKind
from privbench.suites.decodingtrust.prompts import SCENARIOS

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

LEAKAGE = TableKind(
    "leakage",
    "decodingtrust",
    "the DecodingTrust paper's privacy leakage figures",
    "Leaking completions per scenario (pooled over the scored settings)",
    "completions",
    lower_is_better=True,
    intervals="Wilson intervals over completions",
    column_kind="Scenario",
)
KINDS = (LEAKAGE,)
FRAME_COLUMNS = ("run", "column", "order", "score", "std", "n", "low", "high")


def decodingtrust_tables(
    rows: pd.DataFrame, rng: np.random.Generator, n_boot: int
) -> tuple[pd.DataFrame, ...]:
    """The leakage table of one dataset's runs."""
    import pandas as pd

    records: list[dict[str, object]] = []
    scored = rows[rows["scored"].astype(bool)]
    for order, scenario in enumerate(SCENARIOS):
        for run, mine in scored[scored["scenario"] == scenario].groupby("run", sort=False):
            records.append(rate_cell(run, scenario, order, int(mine["leaked"].sum()), len(mine)))
    return (pd.DataFrame(records, columns=list(FRAME_COLUMNS)),)
