"""Priv-IQ's hooks for the cross-run layers (audit, validate, report, show runs).

Why lazy wrappers: the registry imports every suite's declaration at start-up; the audit
(numpy, OCR) and its tables are imported only when a command asks for them.
"""

from __future__ import annotations

from pathlib import Path

from privbench.runtime.cross_run import (
    CrossRun,
    DatasetAudit,
    PaperTables,
    ReferenceRow,
    TableKind,
)
from privbench.runtime.lazy import Lazy
from privbench.suites.priviq.judge_check import JUDGE_CHECK
from privbench.suites.priviq.report_section import REPORT_SECTION
from privbench.suites.priviq.results import DIFF, READING, SCORE_COLUMNS
from privbench.suites.priviq.validation import validate_with_summary


def _audit(directory: Path, ocr: bool) -> dict[str, object]:
    from privbench.suites.priviq.audit import audit_priviq

    return audit_priviq(directory, ocr=ocr)


_tables = Lazy("privbench.suites.priviq.audit_tables", "audit_tables")


_summary = Lazy("privbench.suites.priviq.audit_tables", "summary_lines")


_empty_answer = Lazy("privbench.suites.priviq.audit", "empty_answer_scores")


_paper_tables = Lazy("privbench.suites.priviq.paper_tables", "priviq_tables")


TABLE3 = TableKind("table3", "priviq", "Priv-IQ Table 3", "Priv-IQ scores by competency", "items")
TABLE5 = TableKind(
    "table5", "priviq", "Priv-IQ Table 5", "Priv-IQ scores by competency combination", "items"
)

CROSS_RUN = CrossRun(
    reading=READING,
    diff=DIFF,
    score_columns=SCORE_COLUMNS,
    describe=validate_with_summary,
    audit=DatasetAudit(audit=_audit, tables=_tables, summary=_summary, ocr=True),
    reference_row=ReferenceRow(what="The empty-answer score", compute=_empty_answer),
    paper_tables=PaperTables(kinds=(TABLE3, TABLE5), compute=_paper_tables),
    demo_exports=True,
    judge_check=JUDGE_CHECK,
    report=REPORT_SECTION,
)
