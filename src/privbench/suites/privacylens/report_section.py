"""PrivacyLens's section of the HTML report: its tables, and per run the counters they omit.

Why counters: the tables' rates leave out what has no verdict, so each run says beside them
how many actions held no ``Action:`` (not judged: no leak, helpfulness 0, as the reference
scores them), how many cases are unscored (a judge reply never stated an answer) and how
many probing answers named neither letter, and what an always-(B) answerer scores on the
run's probing questions (100 % on the reference's, about half on the shuffled variant). No published figure stands beside the tables:
the reference releases no model outputs to recompute them from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privbench.runtime.cross_run import ReportSection

if TYPE_CHECKING:
    import pandas as pd


def _always_b(probing: pd.DataFrame) -> str:
    """The always-(B) accuracy per level and variant (its gold is B where not swapped)."""
    from privbench.suites.privacylens.prompts import PROBING_LEVELS
    from privbench.suites.privacylens.scoring import VARIANTS

    cells = []
    for level, variant in ((lv, v) for lv in PROBING_LEVELS for v in VARIANTS):
        mine = probing[(probing["level"] == level) & (probing["variant"] == variant)]
        if mine.empty:
            continue
        share = 100 * float((~mine["swapped"].astype(bool)).mean())
        name = level if variant == "original" else f"{level} ({variant})"
        cells.append(f"{name} {share:.1f} %")
    return ", ".join(cells)


def counted(rows: pd.DataFrame) -> list[str]:
    """Per run, the counters the tables do not show (one line each)."""
    lines = []
    for run, mine in rows.groupby("run", sort=False):
        actions = mine[mine["part"] != "probing"]
        probing = mine[mine["part"] == "probing"]
        parts = []
        if len(actions):
            no_action = int((~actions["judged"].astype(bool)).sum())
            unscored = int((actions["judged"].astype(bool) & actions["leaked"].isna()).sum())
            parts.append(
                f"{no_action} of {len(actions)} actions without 'Action:' (not judged: no "
                f"leak, helpfulness 0); {unscored} cases unscored (no judge reply stated an "
                "answer)"
            )
        if len(probing):
            unread = int(probing["correct"].isna().sum())
            parts.append(f"{unread} of {len(probing)} probing answers named neither letter")
            parts.append(f"the always-(B) answerer on the same questions: {_always_b(probing)}")
        if parts:
            lines.append(f"{run}: " + "; ".join(parts) + ".")
    return lines


OFFLINE_NOTE = (
    "PrivacyLens judged offline: leakage by privbench's word-overlap rules for PrivacyLens"
    " (an approximation of the paper's LLM judge; their agreement with hand labels on held-out"
    " pairs is in docs/privacylens.md) and helpfulness by the action's form only. Use an LLM"
    " judge for published numbers."
)
"""The caveat on the page for PrivacyLens runs judged offline."""

REPORT_SECTION = ReportSection(layout="tables", counts=counted, offline_note=OFFLINE_NOTE)
