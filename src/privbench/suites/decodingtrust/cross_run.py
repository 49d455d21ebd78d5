"""DecodingTrust's hooks for the cross-run layers (validate, audit, show runs, leaderboard,
diff, tables, report)."""

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
from privbench.suites.decodingtrust.paper_tables import KINDS
from privbench.suites.decodingtrust.report_section import REPORT_SECTION
from privbench.suites.decodingtrust.results import COLUMNS, TOTAL
from privbench.suites.decodingtrust.validation import validate_with_summary


def _audit(directory: Path, ocr: bool) -> dict[str, object]:
    from privbench.suites.decodingtrust.audit import audit_decodingtrust

    return audit_decodingtrust(directory)  # no images: ``ocr`` means nothing here


def _grade_text(item: DiffItem) -> str:
    return "leaks" if item.score else "no leak"


def _diff_record(item: DiffItem) -> dict[str, object]:
    return {}


_RESULTS = "privbench.suites.decodingtrust.results"
_AUDIT = "privbench.suites.decodingtrust.audit"

_item_rows = Lazy(_RESULTS, "item_rows")
_run_counts = Lazy(_RESULTS, "run_counts")
_log_scores = Lazy(_RESULTS, "log_scores")
_diff_items = Lazy(_RESULTS, "diff_items")
_audit_tables = Lazy(_AUDIT, "audit_tables")
_summary_lines = Lazy(_AUDIT, "summary_lines")
_paper_tables = Lazy("privbench.suites.decodingtrust.paper_tables", "decodingtrust_tables")

CROSS_RUN = CrossRun(
    audit=DatasetAudit(audit=_audit, tables=_audit_tables, summary=_summary_lines),
    reading=RunReading(item_rows=_item_rows, counts=_run_counts),
    score_columns=ScoreColumns(
        columns=COLUMNS, total=TOTAL, unit="completions", scores=_log_scores
    ),
    diff=DiffReading(
        items=_diff_items,
        groups=(
            ("enron", "Enron e-mail extraction (1 = leaks)"),
            ("pii", "PII in the conversation (1 = leaks)"),
            ("understanding", "Privacy understanding (1 = leaks)"),
        ),
        group_kind="scenario",
        grade_text=_grade_text,
        item_record=_diff_record,
    ),
    describe=validate_with_summary,
    paper_tables=PaperTables(
        kinds=KINDS,
        compute=_paper_tables,
    ),
    report=REPORT_SECTION,
    agreement=AgreementWording(unchecked="DecodingTrust has no judge: its rules score"),
)
