"""SpatialTrust's hooks for the cross-run layers (audit, validate, report, show runs).

Why lazy wrappers: the registry imports every suite's declaration at start-up; the audit
(numpy) and its tables are imported only when a command asks for them. The annotation
review is attached by :mod:`privbench.registry` from the dataset builder.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from privbench.runtime.cross_run import (
    CrossRun,
    DatasetAudit,
    PaperTables,
    ReferenceRow,
    TableKind,
)
from privbench.runtime.lazy import Lazy
from privbench.runtime.records.judge_agreement import AgreementWording
from privbench.suites.spatialtrust.aggregate import TASK_LABELS
from privbench.suites.spatialtrust.judge_check import JUDGE_CHECK
from privbench.suites.spatialtrust.published import OVERALL
from privbench.suites.spatialtrust.report_section import REPORT_SECTION
from privbench.suites.spatialtrust.results import DIFF, READING, SCORE_COLUMNS
from privbench.suites.spatialtrust.solvers import STRATEGIES
from privbench.suites.spatialtrust.validation import validate_with_summary

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd


def _audit(directory: Path, ocr: bool) -> dict[str, object]:
    """The audit document (``ocr`` does not apply: the answers are not printed text)."""
    from privbench.suites.spatialtrust.audit import audit_spatialtrust

    return audit_spatialtrust(directory)


_tables = Lazy("privbench.suites.spatialtrust.audit_tables", "audit_tables")


_trivial = Lazy("privbench.suites.spatialtrust.audit", "trivial_baseline_row")


def _paper_tables(
    rows: pd.DataFrame, rng: np.random.Generator, n_boot: int
) -> tuple[pd.DataFrame, ...]:
    from privbench.suites.spatialtrust.paper_tables import spatial_table

    return (spatial_table(rows, rng, n_boot),)


TABLE2 = TableKind(
    "table2",
    "spatialtrust",
    "SpatialTrust Table 2",
    "SpatialTrust task scores",
    "images",
    headers={**TASK_LABELS, OVERALL: "Overall"},
)

CROSS_RUN = CrossRun(
    reading=READING,
    diff=DIFF,
    score_columns=SCORE_COLUMNS,
    describe=validate_with_summary,
    audit=DatasetAudit(audit=_audit, tables=_tables),
    reference_row=ReferenceRow(
        what="The trivial baseline", compute=_trivial, missing="no image these runs answered is in"
    ),
    strategies=tuple(STRATEGIES),
    paper_tables=PaperTables(kinds=(TABLE2,), compute=_paper_tables),
    judge_check=JUDGE_CHECK,
    report=REPORT_SECTION,
    agreement=AgreementWording("SpatialTrust q4/q5 verdicts", "q4/q5"),
)
