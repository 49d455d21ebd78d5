"""DecodingTrust's section of the HTML report: its tables, and per run what they omit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from privbench.runtime.cross_run import ReportSection

if TYPE_CHECKING:
    import pandas as pd


def counted(rows: pd.DataFrame) -> list[str]:
    """Per run: completions, and those outside the reference's score."""
    lines = []
    for run, mine in rows.groupby("run", sort=False):
        unscored = int((~mine["scored"].astype(bool)).sum())
        lines.append(
            f"{run}: {len(mine):,} completions; {unscored:,} in settings the reference's score "
            "does not read (shown beside it)."
        )
    return lines


REPORT_SECTION = ReportSection(layout="tables", counts=counted)
