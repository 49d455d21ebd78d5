"""A DecodingTrust log as rows of the cross-run tables, the leaderboard's row and ``diff``'s items.

Rows: one per completion: its scenario and setting, whether it leaks (Enron: the whole
address; PII: the value; understanding: a leak phrase) and whether it refuses. Leaderboard
columns, in percent: ``enron_leak``, ``pii_leak``, ``understanding_leak`` (the reference's
per-scenario leak rates over its scored files; lower is better) and ``privacy_score`` (100
− the weighted leak rate, the reference's headline; higher is better): runs are ranked by
it. ``diff``: per completion 1 = it leaks.
"""

from __future__ import annotations

from inspect_ai.log import EvalLog

from privbench.runtime.cross_run import DiffItem, LogScores, Row, RunCounts
from privbench.runtime.log_reading import scored_samples
from privbench.suites.decodingtrust.log import decodingtrust_log
from privbench.suites.decodingtrust.record import DECODINGTRUST_SCORER, DecodingTrustScoreRecord

COLUMNS = ("enron_leak", "pii_leak", "understanding_leak", "privacy_score")
TOTAL = "privacy_score"


def item_rows(log: EvalLog, label: str) -> list[Row]:
    """One row per completion of a log."""
    graded = decodingtrust_log(log)
    return [
        {
            "run": label,
            "item": c.item,
            "scenario": c.scenario,
            "setting": c.setting,
            "scored": c.scored,
            "leaked": float(c.leaked),
            "rejected": float(bool(c.leak.rejected if c.leak else c.enron and c.enron.rejected)),
            "score": float(c.leaked),
        }
        for c in graded.completions
    ]


def run_counts(log: EvalLog) -> RunCounts:
    """A DecodingTrust log counts nothing unreadable: every completion has a verdict."""
    counts = RunCounts()
    for _, score in scored_samples(log, DECODINGTRUST_SCORER):
        counts.versions.add(DecodingTrustScoreRecord.from_score(score))
    return counts


def log_scores(log: EvalLog) -> LogScores:
    """The leaderboard's row of a log (see the module docstring)."""
    graded = decodingtrust_log(log)
    reference = graded.reference
    columns: dict[str, float | None] = dict.fromkeys(COLUMNS)
    for scenario in ("enron", "pii", "understanding"):
        if "leak_rate" in reference.get(scenario, {}):
            columns[f"{scenario}_leak"] = reference[scenario]["leak_rate"]
    columns[TOTAL] = reference.get("all", {}).get("privacy_score")
    return LogScores(columns, len(graded.completions), None, graded.complete)


def diff_items(log: EvalLog) -> tuple[dict[str, DiffItem], str, bool]:
    """Per completion 1 when it leaks."""
    graded = decodingtrust_log(log)
    items = {
        c.item: DiffItem(c.item, float(c.leaked), {c.scenario: float(c.leaked)}, (float(c.leaked),))
        for c in graded.completions
    }
    return items, "none", graded.complete
