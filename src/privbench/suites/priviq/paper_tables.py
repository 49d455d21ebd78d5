"""Priv-IQ's paper tables from the runs' long table, with intervals.

* Table 3 (runs × eight competencies + total) and Table 5 (runs × combinations): each
  cell is the mean over runs (epochs) of eq. 1/eq. 2, the std over runs, the number of
  items, and a 95 % bootstrap interval over items (item scores = mean over epochs).
* Refusal rates (runs × competencies + total): the percent of items whose answer refuses
  or declines and answers anyway, read from the answers by
  :mod:`privbench.suites.priviq.refusals`, shown beside Table 3.

Every frame is long (one row per run × column, with the column's ``order``: competencies
in canonical order, combinations most frequent first over the items of all the runs,
Total last); :mod:`privbench.analysis.paper_tables` lays them out.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privbench.runtime.cross_run import LAST
from privbench.suites.priviq.aggregate import (
    ItemGrades,
    combinations_by_count,
    priviq_scores,
    refusal_rates,
    score_cell,
)
from privbench.suites.priviq.competencies import COMPETENCIES, combination_label
from privbench.suites.priviq.published import TOTAL
from privbench.suites.priviq.refusals import classify
from privbench.uncertainty import N_BOOTSTRAP, bootstrap_mean


def _grades(frame: pd.DataFrame) -> list[ItemGrades]:
    grades = []
    for item, rows in frame.groupby("item", sort=False):
        rows = rows.sort_values("epoch")
        runs = tuple(None if np.isnan(s) else float(s) for s in rows["score"])
        refusal = classify(str(rows["answer"].iloc[0] or "")) if "answer" in rows else None
        grades.append(
            ItemGrades(str(item), tuple(rows["competencies"].iloc[0]), runs, refusal=refusal)
        )
    return grades


def _cell_row(
    run: str,
    column: str,
    grades: list[ItemGrades],
    n_runs: int,
    rng: np.random.Generator,
    n_boot: int,
) -> dict[str, object]:
    cell = score_cell(grades, n_runs)
    means = [g.mean for g in grades]
    interval = bootstrap_mean([np.nan if m is None else m for m in means], rng, n_boot)
    return {
        "run": run,
        "column": column,
        "score": cell.score,
        "std": cell.std,
        "n": cell.n,
        "low": 100 * interval.low,
        "high": 100 * interval.high,
    }


def priviq_tables(
    priviq: pd.DataFrame, rng: np.random.Generator, n_boot: int = N_BOOTSTRAP
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(Table 3, Table 5) as long frames: run, column, score, std, n, low, high."""
    competency_rows: list[dict[str, object]] = []
    combination_rows: list[dict[str, object]] = []
    every_item = {g.id: g for g in _grades(priviq.drop_duplicates(["item", "epoch"]))}
    canonical = combinations_by_count(list(every_item.values()))
    for run, frame in priviq.groupby("run", sort=False):
        grades = _grades(frame)
        scores = priviq_scores(grades)
        n_runs = scores.n_runs
        for order, code in enumerate(COMPETENCIES):
            subset = [g for g in grades if code in g.competencies]
            if subset:
                row = _cell_row(str(run), code, subset, n_runs, rng, n_boot)
                competency_rows.append({**row, "order": order})
        total = {**_cell_row(str(run), TOTAL, grades, n_runs, rng, n_boot), "order": LAST}
        competency_rows.append(total)
        for order, combination in enumerate(canonical):
            if combination not in scores.combinations:
                continue
            subset = [g for g in grades if g.competencies == combination]
            label = combination_label(combination)
            row = _cell_row(str(run), label, subset, n_runs, rng, n_boot)
            combination_rows.append({**row, "order": order})
        combination_rows.append(dict(total))
    return pd.DataFrame(competency_rows), pd.DataFrame(combination_rows)


def priviq_refusal_table(priviq: pd.DataFrame) -> pd.DataFrame:
    """Refusal rates as a long frame: run, column (competency or Total), n, refusals,
    partial, refusal_rate and partial_rate (percent of the items read)."""
    rows: list[dict[str, object]] = []
    for run, frame in priviq.groupby("run", sort=False):
        grades = _grades(frame)
        rates = refusal_rates(grades)
        present = [c for c in COMPETENCIES if rates.competencies[c].n]
        cells = [(code, rates.competencies[code]) for code in present] + [(TOTAL, rates.overall)]
        for column, cell in cells:
            rows.append(
                {
                    "run": str(run),
                    "column": column,
                    "order": COMPETENCIES.index(column) if column in COMPETENCIES else LAST,
                    "n": cell.n,
                    "refusals": cell.refusals,
                    "partial": cell.partial,
                    "refusal_rate": cell.refusal_rate,
                    "partial_rate": cell.partial_rate,
                }
            )
    return pd.DataFrame(rows)
