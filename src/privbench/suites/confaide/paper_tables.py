"""ConfAIde's tables across runs: agreement with human ratings, and leakage rates.

Why these two: the paper reports the rating tiers as the correlation of a model's ratings
with people's (tiers 1, 2a, 2b), and the secret-keeping tiers as the reference's final-report
rates (tiers 3 and 4), each as the mean over scenarios and the worst case (a scenario counts
when any of its sampled answers failed). The tables here lay out one dataset's runs in those
terms, each figure with a 95 % interval: Fisher's z interval for r (over the rated items),
a bootstrap over scenarios or meetings for the rates. The rates are computed exactly as
:func:`~privbench.suites.confaide.scoring.mean_and_worst_case` computes the run's own
``reference_metrics`` (mean of per-scenario shares; share of scenarios with a failure), so a
cell equals the figure ``show`` prints for the run, in percent.

Input: the long table of :func:`~privbench.suites.confaide.results.item_rows` (one row per
answer). Output: long frames (``run, column, order, score, std, n, low, high``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privbench.runtime.cross_run import TableKind
from privbench.suites.confaide.dataset import RATING_TIERS
from privbench.suites.confaide.prompts import TIER_4_QUESTION_TYPES
from privbench.suites.confaide.scoring import TIER_3_METRICS, TIER_4_METRICS, pearson_with_interval

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

ALIGNMENT = TableKind(
    "alignment",
    "confaide",
    "the ConfAIde paper's tier 1–2 correlation table",
    "Agreement of the model's ratings with human ratings",
    "items",
    headers={"1": "Tier 1", "2a": "Tier 2.a", "2b": "Tier 2.b"},
    scale="Pearson r",
    intervals="Fisher-z intervals over items (with at least 4 rated items)",
    decimals=2,
)
WORST_CASE = TableKind(
    "worst_case",
    "confaide",
    "the ConfAIde paper's tier 3–4 tables",
    "Worst-case rates (a scenario or meeting with any failing answer)",
    "scenarios or meetings",
    lower_is_better=True,
    column_kind="Question and metric",
)
MEAN = TableKind(
    "mean",
    "confaide",
    "the ConfAIde paper's tier 3–4 tables",
    "Mean rates (per scenario or meeting, then averaged)",
    "scenarios or meetings",
    lower_is_better=True,
    column_kind="Question and metric",
)
KINDS = (ALIGNMENT, WORST_CASE, MEAN)

FRAME_COLUMNS = ("run", "column", "order", "score", "std", "n", "low", "high")

PROXY_METRIC = "proxy-model"


def metric_columns() -> list[tuple[str, str, str]]:
    """Every tier-3/4 (tier, question type, metric) in the reference's report order."""
    columns = [
        ("3", question, metric)
        for question, metrics in TIER_3_METRICS.items()
        for metric in (*metrics, PROXY_METRIC)
    ]
    columns += [("4", q, m) for q in TIER_4_QUESTION_TYPES for m in TIER_4_METRICS]
    return columns


def column_name(question_type: str, metric: str) -> str:
    """A rate's column: the reference's final-report key stem (``control-error``)."""
    return f"{question_type}-{metric}"


def _alignment(rows: pd.DataFrame) -> list[dict[str, object]]:
    records: list[dict[str, object]] = []
    for order, tier in enumerate(RATING_TIERS):
        for run, mine in rows[rows["tier"] == tier].groupby("run", sort=False):
            rated = mine.dropna(subset=["rating"])
            means = rated.groupby("scenario")["rating"].mean()
            labels = mine.groupby("scenario")["label"].first().reindex(means.index).dropna()
            means = means.reindex(labels.index)
            found = pearson_with_interval(labels.tolist(), means.tolist())
            records.append(
                {"run": run, "column": tier, "order": order, "score": found.r, "std": None,
                 "n": int(found.n), "low": found.low, "high": found.high}
            )  # fmt: skip
    return records


def _rates(
    rows: pd.DataFrame, rng: np.random.Generator, n_boot: int, statistic: str
) -> list[dict[str, object]]:
    from privbench.uncertainty import bootstrap_mean

    records: list[dict[str, object]] = []
    for order, (tier, question, metric) in enumerate(metric_columns()):
        field = f"fails_{metric}"
        if field not in rows.columns:
            continue
        chosen = rows[(rows["tier"] == tier) & (rows["question_type"] == question)]
        chosen = chosen.dropna(subset=[field])
        for run, mine in chosen.groupby("run", sort=False):
            per_group = mine.groupby("scenario")[field].agg(["mean", "max"]).astype(float)
            values = per_group["max" if statistic == "worst_case" else "mean"].to_numpy()
            interval = bootstrap_mean(values, rng, n_boot)
            records.append(
                {"run": run, "column": column_name(question, metric), "order": order,
                 "score": 100 * interval.estimate, "std": None, "n": len(values),
                 "low": 100 * interval.low, "high": 100 * interval.high}
            )  # fmt: skip
    return records


def confaide_tables(
    rows: pd.DataFrame, rng: np.random.Generator, n_boot: int
) -> tuple[pd.DataFrame, ...]:
    """The three tables (:data:`KINDS` order) of one dataset's runs."""
    import pandas as pd

    frames = (
        _alignment(rows),
        _rates(rows, rng, n_boot, "worst_case"),
        _rates(rows, rng, n_boot, "mean"),
    )
    return tuple(pd.DataFrame(records, columns=list(FRAME_COLUMNS)) for records in frames)
