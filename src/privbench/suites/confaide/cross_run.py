"""ConfAIde's hooks for the cross-run layers (validate, audit, show runs, leaderboard, diff).

Why wrappers: the registry imports every suite's declaration at start-up; the readers
(pandas, scipy) and the audit load only when a command calls them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from privbench.runtime.cross_run import (
    CrossRun,
    DatasetAudit,
    DiffItem,
    DiffReading,
    PaperTables,
    RunReading,
    ScoreColumns,
)
from privbench.runtime.lazy import Lazy
from privbench.runtime.records.judge_agreement import AgreementWording
from privbench.suites.confaide.paper_tables import KINDS
from privbench.suites.confaide.report_section import REPORT_SECTION
from privbench.suites.confaide.validation import validate_with_summary

if TYPE_CHECKING:
    pass


def _audit(directory: Path, ocr: bool) -> dict[str, object]:
    from privbench.suites.confaide.audit import audit_confaide

    return audit_confaide(directory)  # no images: ``ocr`` means nothing here


_tables = Lazy("privbench.suites.confaide.audit", "audit_tables")
_summary = Lazy("privbench.suites.confaide.audit", "summary_lines")


_item_rows = Lazy("privbench.suites.confaide.results", "item_rows")


_counts = Lazy("privbench.suites.confaide.results", "run_counts")


_log_scores = Lazy("privbench.suites.confaide.results", "log_scores")


_diff_items = Lazy("privbench.suites.confaide.results", "diff_items")


def _grade_text(item: DiffItem) -> str:
    """The prompt's mean (0–1) and how many answers it rests on."""
    if item.score is None:
        return "unscored"
    return f"{item.score:.2f} ({len(item.grades)} answers)"


def _diff_record(item: DiffItem) -> dict[str, object]:
    return {"answers": list(item.grades)}


COLUMNS = ("t1_r", "t2a_r", "t2b_r", "t3_leak_worst", "t4_private_worst")
"""The leaderboard's columns (see :mod:`.results`); runs are ranked by ``t2b_r``."""
TOTAL = "t2b_r"
READING = RunReading(item_rows=_item_rows, counts=_counts)
SCORE_COLUMNS = ScoreColumns(columns=COLUMNS, total=TOTAL, unit="prompts", scores=_log_scores)
DIFF = DiffReading(
    items=_diff_items,
    groups=(
        ("1", "Tier 1"),
        ("2a", "Tier 2a"),
        ("2b", "Tier 2b"),
        ("3", "Tier 3"),
        ("4", "Tier 4"),
    ),
    group_kind="tier",
    grade_text=_grade_text,
    item_record=_diff_record,
)


_paper_tables = Lazy("privbench.suites.confaide.paper_tables", "confaide_tables")


CROSS_RUN = CrossRun(
    audit=DatasetAudit(audit=_audit, tables=_tables, summary=_summary),
    reading=READING,
    score_columns=SCORE_COLUMNS,
    diff=DIFF,
    describe=validate_with_summary,
    paper_tables=PaperTables(kinds=KINDS, compute=_paper_tables),
    report=REPORT_SECTION,
    agreement=AgreementWording(
        unchecked=(
            "proxy-model judge not checked: no reference verdicts exist for its question "
            "(who is related to the secret); its replies are in the log"
        )
    ),
)
