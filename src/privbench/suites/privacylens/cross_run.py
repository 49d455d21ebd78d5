"""PrivacyLens's hooks for the cross-run layers (validate, audit, show runs, leaderboard,
diff, tables, report).

Why wrappers: the registry imports every suite's declaration at start-up; the readers
(pandas, statsmodels) and the audit load only when a command calls them.
"""

from __future__ import annotations

from pathlib import Path

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
from privbench.suites.privacylens.paper_tables import KINDS
from privbench.suites.privacylens.report_section import REPORT_SECTION
from privbench.suites.privacylens.validation import validate_with_summary

COLUMNS = (
    "leak_naive",
    "leak_privacy_enhanced",
    "helpful_naive",
    "probe_seed",
    "probe_vignette",
    "probe_trajectory",
    "safe_helpful",
)
"""The leaderboard's columns (see :mod:`.results`); runs are ranked by ``safe_helpful``."""
TOTAL = "safe_helpful"


def _audit(directory: Path, ocr: bool) -> dict[str, object]:
    from privbench.suites.privacylens.audit import audit_privacylens

    return audit_privacylens(directory)  # no images: ``ocr`` means nothing here


_tables = Lazy("privbench.suites.privacylens.audit", "audit_tables")
_summary = Lazy("privbench.suites.privacylens.audit", "summary_lines")


def _grade_text(item: DiffItem) -> str:
    if item.score is None:
        return "unscored"
    return f"{item.score:.0f}"


def _diff_record(item: DiffItem) -> dict[str, object]:
    return {}


_RESULTS = "privbench.suites.privacylens.results"
_item_rows = Lazy(_RESULTS, "item_rows")
_run_counts = Lazy(_RESULTS, "run_counts")
_log_scores = Lazy(_RESULTS, "log_scores")
_diff_items = Lazy(_RESULTS, "diff_items")
_paper_tables = Lazy("privbench.suites.privacylens.paper_tables", "privacylens_tables")

CROSS_RUN = CrossRun(
    audit=DatasetAudit(audit=_audit, tables=_tables, summary=_summary),
    reading=RunReading(item_rows=_item_rows, counts=_run_counts),
    score_columns=ScoreColumns(columns=COLUMNS, total=TOTAL, unit="samples", scores=_log_scores),
    diff=DiffReading(
        items=_diff_items,
        groups=(
            ("naive", "Naive prompt (1 = leaks)"),
            ("privacy_enhanced", "Privacy-enhanced prompt (1 = leaks)"),
            ("seed", "Probing: seed (1 = correct)"),
            ("vignette", "Probing: vignette (1 = correct)"),
            ("trajectory", "Probing: trajectory (1 = correct)"),
            ("trajectory_enhancing", "Probing: trajectory, enhanced (1 = correct)"),
        ),
        group_kind="prompt or level",
        grade_text=_grade_text,
        item_record=_diff_record,
    ),
    describe=validate_with_summary,
    paper_tables=PaperTables(kinds=KINDS, compute=_paper_tables),
    report=REPORT_SECTION,
    agreement=AgreementWording(
        unchecked=(
            "PrivacyLens judge not checked: the reference releases no judge verdicts; every "
            "reply is in the log"
        )
    ),
)
