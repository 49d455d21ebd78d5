"""ConfAIde's hooks for the cross-run layers (validate, show runs, leaderboard, diff)."""

from __future__ import annotations

from privbench.runtime.cross_run import CrossRun
from privbench.suites.confaide.results import DIFF, READING, SCORE_COLUMNS
from privbench.suites.confaide.validation import validate_with_summary

CROSS_RUN = CrossRun(
    reading=READING,
    score_columns=SCORE_COLUMNS,
    diff=DIFF,
    describe=validate_with_summary,
)
