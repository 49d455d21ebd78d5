"""Priv-IQ's hooks for the cross-run layers (audit, validate, report, show runs).

Why lazy wrappers: the registry imports every suite's declaration at start-up; the audit
(numpy, OCR) and its tables are imported only when a command asks for them.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import RenderableType

from privbench.runtime.cross_run import (
    AuditDocument,
    CrossRun,
    DatasetAudit,
    PaperTables,
    ReferenceRow,
    TableKind,
)
from privbench.suites.priviq.judge_check import JUDGE_CHECK
from privbench.suites.priviq.report_section import REPORT_SECTION
from privbench.suites.priviq.results import DIFF, READING, SCORE_COLUMNS
from privbench.suites.priviq.validation import validate_with_summary

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd


def _audit(directory: Path, ocr: bool) -> dict[str, object]:
    from privbench.suites.priviq.audit import audit_priviq

    return audit_priviq(directory, ocr=ocr)


def _tables(document: AuditDocument) -> list[RenderableType]:
    from privbench.suites.priviq.audit_tables import audit_tables

    return audit_tables(document)


def _summary(document: AuditDocument) -> list[str]:
    from privbench.suites.priviq.audit_tables import summary_lines

    return summary_lines(document)


def _empty_answer(directory: Path, ids: Collection[str]) -> dict[str, object]:
    from privbench.suites.priviq.audit import empty_answer_scores

    return empty_answer_scores(directory, ids)


def _paper_tables(
    rows: pd.DataFrame, rng: np.random.Generator, n_boot: int
) -> tuple[pd.DataFrame, ...]:
    from privbench.suites.priviq.paper_tables import priviq_tables

    return priviq_tables(rows, rng, n_boot)


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
