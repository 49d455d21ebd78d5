"""The papers' tables from :class:`~privbench.analysis.runs.Results`, with intervals.

* Each benchmark's own tables are computed in its folder
  (:attr:`~privbench.runtime.cross_run.CrossRun.paper_tables`: Priv-IQ's Table 3, Table 5
  and refusal rates, SpatialTrust's Table 2); here they are ordered and laid out.
* Pairwise comparisons of runs on the items both answered: mean paired difference with
  its bootstrap interval, sign-flip permutation p-value, Holm-adjusted within each family
  of comparisons (:func:`pair_family`): a strategy ablation of one model and a comparison
  of two models answer different questions, so neither's count of tests dilutes the other.

Every frame is long (one row per run × column) so the report and the tests read the same
numbers; :func:`wide` pivots one for display. Each row carries its column's ``order``, the
paper's order (competencies in canonical order, combinations most frequent first over the
items of all the runs, tasks q1–q5, Total / overall last), so a table's columns never
depend on which run comes first (a ``--limit`` run lacks some columns).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence

import pandas as pd

from privbench import registry
from privbench.runtime.cross_run import LAST
from privbench.uncertainty import N_BOOTSTRAP, compare_paired, holm

TOTAL = "Total"
OVERALL = "overall"
AVERAGE = "Average"


def column_order(long: pd.DataFrame) -> list[str]:
    """The columns of a long frame in their ``order``. A frame without one (made by hand)
    gets the papers' order where its columns are competencies or tasks, else the order
    first seen; Total / overall last either way."""
    if long.empty:
        return []
    if "order" in long.columns:
        ranks = long.groupby("column", sort=False)["order"].min()
        return [str(c) for c in ranks.sort_values(kind="stable").index]
    seen = list(dict.fromkeys(str(c) for c in long["column"]))
    tables = [t for s in registry.SUITES.values() if (t := s.cross_run.score_columns)]
    known = [c for table in tables for c in table.columns if c != table.total]
    totals = {table.total for table in tables}
    if all(c in known or c in totals for c in seen):
        return sorted(seen, key=lambda c: known.index(c) if c in known else LAST)
    return sorted(seen, key=lambda c: c in totals)


def item_scores(results_frame: pd.DataFrame, benchmark: str) -> pd.DataFrame:
    """One score per (run, unit) in 0–1, as ``privbench diff`` scores an item: the mean of
    the unit's rows as the benchmark declares (:class:`~privbench.runtime.cross_run.RunReading`:
    Priv-IQ's items over their scored judge runs; SpatialTrust's images over their five
    questions, unscored (NaN) when any of the five is)."""
    reading = registry.get(benchmark).cross_run.reading
    key, whole = (reading.item_key, reading.whole_items) if reading else ("item", False)
    grouped = results_frame.groupby(["run", key], sort=False)["score"]
    means = grouped.mean()
    if whole:
        means = means.where(grouped.count() == grouped.size())
    return means.unstack(0)


FAMILY_ABLATION = "strategies of one model"
"""Pairs of one model's runs under different strategies (the paper's Table 3 ablation)."""
FAMILY_MODELS = "models, same strategy"
"""Pairs of different models under the same strategy (Priv-IQ: every pair of models)."""
FAMILY_REPEATS = "same model and strategy"
"""Pairs of one model's runs under one strategy (e.g. other judges, other dates)."""
FAMILY_CROSS = "model and strategy both differ"
"""Pairs that differ in model and in strategy: neither effect alone, corrected on their own."""
FAMILY_COMMON = "different item sets, over the items both answered"
"""Pairs of runs over one dataset that answered different items (a ``--limit`` run and a
full one): compared only over their common items, and corrected on their own."""
FAMILIES = (FAMILY_ABLATION, FAMILY_MODELS, FAMILY_REPEATS, FAMILY_CROSS, FAMILY_COMMON)
"""The families in the order the report lists them."""


def pair_family(a: tuple[str, str], b: tuple[str, str]) -> str:
    """The family of a comparison of runs ``a`` and ``b``, each ``(model, strategy)``."""
    same_model, same_strategy = a[0] == b[0], a[1] == b[1]
    if same_model:
        return FAMILY_REPEATS if same_strategy else FAMILY_ABLATION
    return FAMILY_MODELS if same_strategy else FAMILY_CROSS


def holm_by_family(p_values: Sequence[float], families: Sequence[str]) -> list[float]:
    """Holm-adjusted p-values, each family of tests corrected on its own (same order)."""
    adjusted = [float("nan")] * len(p_values)
    for family in dict.fromkeys(families):
        members = [i for i, f in enumerate(families) if f == family]
        for index, p in zip(members, holm([p_values[i] for i in members]), strict=True):
            adjusted[index] = p
    return adjusted


def comparisons(
    scores: pd.DataFrame,
    seed: int,
    order: Iterable[str] | None = None,
    n_boot: int = N_BOOTSTRAP,
    partitions: Sequence[Sequence[str]] | None = None,
    identities: Mapping[str, tuple[str, str]] | None = None,
    item_sets: Mapping[str, frozenset[str]] | None = None,
) -> pd.DataFrame:
    """Pairs of runs on their common items: B − A (points), interval, p, family, Holm p.

    Each pair (A before B in ``order``) is :func:`~privbench.uncertainty.compare_paired`
    of its two columns with ``seed``: the figures ``privbench diff A B --seed`` prints.
    ``partitions`` restricts pairing to runs within one partition (runs over the same data
    and the same items). ``identities`` gives each run's ``(model, strategy)``, which puts
    each pair in a family (:func:`pair_family`); Holm's correction runs within each family
    (without identities every pair is of :data:`FAMILY_MODELS`, one family). ``item_sets``
    gives each run's items: a pair whose sets differ is compared over the items both
    answered and put in :data:`FAMILY_COMMON`; a pair with no common item is left out.
    """
    runs = list(order) if order is not None else list(scores.columns)
    groups = [list(p) for p in partitions] if partitions is not None else [runs]
    position = {run: index for index, run in enumerate(runs)}
    pairs = [
        tuple(sorted(pair, key=lambda r: position.get(r, len(runs))))
        for group in groups
        for pair in itertools.combinations(group, 2)
    ]
    rows: list[dict[str, object]] = []
    for a, b in pairs:
        pair = compare_paired(
            {str(k): float(v) for k, v in scores[a].items()},
            {str(k): float(v) for k, v in scores[b].items()},
            seed,
            n_boot,
        )
        if pair.n == 0:
            continue
        differ = item_sets is not None and item_sets.get(a) != item_sets.get(b)
        family = FAMILY_MODELS if identities is None else pair_family(identities[a], identities[b])
        rows.append(
            {
                "a": a,
                "b": b,
                "n": pair.n,
                "difference": math.nan if pair.difference is None else pair.difference,
                "low": math.nan if pair.low is None else pair.low,
                "high": math.nan if pair.high is None else pair.high,
                "p": math.nan if pair.p is None else pair.p,
                "family": FAMILY_COMMON if differ else family,
            }
        )
    columns = ["a", "b", "n", "difference", "low", "high", "p", "family"]
    frame = pd.DataFrame(rows, columns=columns)
    frame["p_holm"] = holm_by_family(list(frame["p"]), list(frame["family"]))
    return frame


def wide(
    long: pd.DataFrame, value: str = "score", average_over: Sequence[str] | None = None
) -> pd.DataFrame:
    """Runs × columns (in :func:`column_order`), with an Average row over some runs.

    ``average_over`` names the runs averaged (default: all). The Average row is added only
    when at least two runs are averaged: a mean of one run is that run, not an average.
    """
    columns = column_order(long)
    table = long.pivot(index="run", columns="column", values=value)
    table = table.reindex(index=list(dict.fromkeys(long["run"])), columns=columns)
    averaged = list(table.index) if average_over is None else list(average_over)
    if len(averaged) >= 2:
        table.loc[AVERAGE] = table.loc[averaged].mean(axis=0, numeric_only=True)
    return table
