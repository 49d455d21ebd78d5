"""VLM-GeoPrivacy's hooks for the cross-run layers (validate, audit, show runs, leaderboard,
diff, tables, report).

Why wrappers: the registry imports every suite's declaration at start-up; the readers
(pandas, scikit-learn) and the audit load only when a command calls them.
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
from privbench.suites.geoprivacy.paper_tables import KINDS
from privbench.suites.geoprivacy.report_section import REPORT_SECTION
from privbench.suites.geoprivacy.results import COLUMNS, TOTAL
from privbench.suites.geoprivacy.validation import validate_with_summary


def _audit(directory: Path, ocr: bool) -> dict[str, object]:
    from privbench.suites.geoprivacy.audit import audit_geoprivacy

    return audit_geoprivacy(directory)  # the photos' text is not read: ``ocr`` means nothing


def _grade_text(item: DiffItem) -> str:
    return "unread" if item.score is None else f"{item.score:.0f}"


def _diff_record(item: DiffItem) -> dict[str, object]:
    return {}


_RESULTS = "privbench.suites.geoprivacy.results"
_AUDIT = "privbench.suites.geoprivacy.audit"

_item_rows = Lazy(_RESULTS, "item_rows")
_run_counts = Lazy(_RESULTS, "run_counts")
_log_scores = Lazy(_RESULTS, "log_scores")
_diff_items = Lazy(_RESULTS, "diff_items")
_audit_tables = Lazy(_AUDIT, "audit_tables")
_summary_lines = Lazy(_AUDIT, "summary_lines")
_paper_tables = Lazy("privbench.suites.geoprivacy.paper_tables", "geoprivacy_tables")

CROSS_RUN = CrossRun(
    audit=DatasetAudit(audit=_audit, tables=_audit_tables, summary=_summary_lines),
    reading=RunReading(item_rows=_item_rows, counts=_run_counts),
    score_columns=ScoreColumns(columns=COLUMNS, total=TOTAL, unit="samples", scores=_log_scores),
    diff=DiffReading(
        items=_diff_items,
        groups=(
            ("mcq", "Multiple choice, Q7 (1 = appropriate granularity)"),
            ("q7", "Q7 alone (1 = appropriate granularity)"),
            ("zs", "Free form, zero-shot (1 = appropriate granularity)"),
            ("iter-cot", "Free form, iterative (1 = appropriate granularity)"),
            ("malicious", "Free form, malicious request (1 = appropriate granularity)"),
        ),
        group_kind="protocol or mode",
        grade_text=_grade_text,
        item_record=_diff_record,
    ),
    describe=validate_with_summary,
    paper_tables=PaperTables(kinds=KINDS, compute=_paper_tables),
    report=REPORT_SECTION,
    agreement=AgreementWording(
        unchecked=(
            "VLM-GeoPrivacy judge not checked against the released GPT-4.1-mini labels in "
            "this run; privbench grade geoprivacy on a released file measures it"
        )
    ),
)
