"""SpatialTrust's Table 2 from the runs' long table, with intervals.

Runs × five task scores + overall; intervals from resampling images as clusters of their
five questions. The frame is long (one row per run × column, with the column's ``order``:
tasks q1–q5, overall last); :mod:`privbench.analysis.paper_tables` lays it out.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privbench.runtime.cross_run import LAST
from privbench.suites.spatialtrust.aggregate import TASKS
from privbench.suites.spatialtrust.published import OVERALL
from privbench.uncertainty import N_BOOTSTRAP, bootstrap_clusters, column_means_and_overall


def spatial_table(
    spatial: pd.DataFrame, rng: np.random.Generator, n_boot: int = N_BOOTSTRAP
) -> pd.DataFrame:
    """Table 2 as a long frame: run, column (task name or overall), score, n, low, high."""
    rows: list[dict[str, object]] = []
    qids = [qid for qid, _ in TASKS]
    for run, frame in spatial.groupby("run", sort=False):
        matrix = frame.pivot(index="image_id", columns="qid", values="score")[qids].to_numpy(float)
        intervals = bootstrap_clusters(matrix, column_means_and_overall, rng, n_boot)
        names = [name for _, name in TASKS] + [OVERALL]
        counts = [int((~np.isnan(matrix[:, k])).sum()) for k in range(len(qids))]
        for index, (name, interval) in enumerate(zip(names, intervals, strict=True)):
            rows.append(
                {
                    "run": str(run),
                    "column": name,
                    "order": index if index < len(qids) else LAST,
                    "score": 100 * interval.estimate,
                    "std": None,
                    "n": counts[index] if index < len(qids) else matrix.shape[0],
                    "low": 100 * interval.low,
                    "high": 100 * interval.high,
                }
            )
    return pd.DataFrame(rows)
