"""ConfAIde's hooks for the cross-run layers (validate, show runs, leaderboard, diff)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from rich.console import RenderableType

from privbench.runtime.cross_run import CrossRun, DatasetAudit
from privbench.suites.confaide.results import DIFF, READING, SCORE_COLUMNS
from privbench.suites.confaide.validation import validate_with_summary


def _audit(directory: Path, ocr: bool) -> dict[str, object]:
    from privbench.suites.confaide.audit import audit_confaide

    return audit_confaide(directory)  # no images: ``ocr`` means nothing here


def _tables(document: Mapping[str, object]) -> list[RenderableType]:
    from privbench.suites.confaide.audit import audit_tables

    return audit_tables(document)


def _summary(document: Mapping[str, object]) -> list[str]:
    from privbench.suites.confaide.audit import summary_lines

    return summary_lines(document)


CROSS_RUN = CrossRun(
    audit=DatasetAudit(audit=_audit, tables=_tables, summary=_summary),
    reading=READING,
    score_columns=SCORE_COLUMNS,
    diff=DIFF,
    describe=validate_with_summary,
)
