"""SpatialTrust's hooks for the cross-run layers (audit, validate, report, show runs).

Why lazy wrappers: the registry imports every suite's declaration at start-up; the audit
(numpy) and its tables are imported only when a command asks for them. The annotation
review is attached by :mod:`privbench.registry` from the dataset builder.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from rich.console import RenderableType

from privbench.runtime.cross_run import AuditDocument, CrossRun, DatasetAudit, ReferenceRow
from privbench.suites.spatialtrust.results import DIFF, READING, SCORE_COLUMNS
from privbench.suites.spatialtrust.solvers import STRATEGIES
from privbench.suites.spatialtrust.validation import validate_with_summary


def _audit(directory: Path, ocr: bool) -> dict[str, object]:
    """The audit document (``ocr`` does not apply: the answers are not printed text)."""
    from privbench.suites.spatialtrust.audit import audit_spatialtrust

    return audit_spatialtrust(directory)


def _tables(document: AuditDocument) -> list[RenderableType]:
    from privbench.suites.spatialtrust.audit_tables import audit_tables

    return audit_tables(document)


def _trivial(directory: Path, ids: Collection[str]) -> dict[str, object] | None:
    from privbench.suites.spatialtrust.audit import trivial_baseline_row

    return trivial_baseline_row(directory, ids)


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
)
