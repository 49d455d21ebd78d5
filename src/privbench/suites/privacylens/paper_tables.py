"""PrivacyLens's tables across runs: leakage, helpfulness and probing accuracy.

Why these: the paper reports, per model and agent prompt, the leakage rate of final actions,
their helpfulness and the leakage among helpful ones, and the probing accuracy per level.
Each cell here is the run's figure in percent with its 95 % Wilson interval over cases
(questions), computed from the same rows as ``show`` prints, so a cell equals the run's own
figure. Probing shows the reference's questions (original); the shuffled variant's cells
are beside them when a run asked it.

Input: the long table of :func:`~privbench.suites.privacylens.results.item_rows`. Output:
long frames (``run, column, order, score, std, n, low, high``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privbench.rates import rate_cell
from privbench.runtime.cross_run import TableKind
from privbench.suites.privacylens.prompts import PROBING_LEVELS
from privbench.suites.privacylens.scoring import HELPFUL, VARIANTS
from privbench.suites.privacylens.toolkits import PROMPT_TYPES

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

LEAKAGE = TableKind(
    "leakage",
    "privacylens",
    "the PrivacyLens paper's leakage table",
    "Leakage rate of final actions (any sensitive item leaked)",
    "cases",
    lower_is_better=True,
    intervals="Wilson intervals over cases with a verdict",
    column_kind="Agent prompt",
)
HELPFULNESS = TableKind(
    "helpfulness",
    "privacylens",
    "the PrivacyLens paper's helpfulness figures",
    "Helpful final actions (helpfulness 2 or more)",
    "cases",
    intervals="Wilson intervals over cases with a helpfulness score",
    column_kind="Agent prompt",
)
PROBING_ACCURACY = TableKind(
    "probing",
    "privacylens",
    "the PrivacyLens paper's probing table",
    "Probing accuracy (the answer chosen is No)",
    "questions",
    intervals="Wilson intervals over answers with a letter read",
    column_kind="Level and variant",
)
KINDS = (LEAKAGE, HELPFULNESS, PROBING_ACCURACY)
FRAME_COLUMNS = ("run", "column", "order", "score", "std", "n", "low", "high")


def _actions(rows: pd.DataFrame, field: str) -> list[dict[str, object]]:
    records: list[dict[str, object]] = []
    actions = rows[rows["part"] != "probing"]
    for order, kind in enumerate(PROMPT_TYPES):
        chosen = actions[actions["prompt_type"] == kind].dropna(subset=[field])
        for run, mine in chosen.groupby("run", sort=False):
            values = mine[field]
            hits = int((values >= HELPFUL).sum()) if field == "helpfulness" else int(values.sum())
            records.append(rate_cell(run, kind, order, hits, len(values)))
    return records


def _probing(rows: pd.DataFrame) -> list[dict[str, object]]:
    records: list[dict[str, object]] = []
    probing = rows[rows["part"] == "probing"].dropna(subset=["correct"])
    columns = [(level, variant) for level in PROBING_LEVELS for variant in VARIANTS]
    for order, (level, variant) in enumerate(columns):
        chosen = probing[(probing["level"] == level) & (probing["variant"] == variant)]
        for run, mine in chosen.groupby("run", sort=False):
            name = level if variant == "original" else f"{level} ({variant})"
            records.append(rate_cell(run, name, order, int(mine["correct"].sum()), len(mine)))
    return records


def privacylens_tables(
    rows: pd.DataFrame, rng: np.random.Generator, n_boot: int
) -> tuple[pd.DataFrame, ...]:
    """The three tables (:data:`KINDS` order) of one dataset's runs."""
    import pandas as pd

    frames = (_actions(rows, "leaked"), _actions(rows, "helpfulness"), _probing(rows))
    return tuple(pd.DataFrame(records, columns=list(FRAME_COLUMNS)) for records in frames)
