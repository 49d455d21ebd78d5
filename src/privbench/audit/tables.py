"""Terminal tables of an audit document (what ``privbench audit`` prints without --json).

Why separate: the figures are computed once, by each benchmark's audit, into the ``--json``
document; the benchmark's own table functions only lay that document out, so the terminal
and the JSON always agree. This module picks them by the document's ``benchmark``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import RenderableType

from privbench import registry
from privbench.runtime.cross_run import DatasetAudit


def _audit_of(document: Mapping[str, object]) -> DatasetAudit:
    audit = registry.get(str(document["benchmark"])).cross_run.audit
    if audit is None:
        raise ValueError(f"{document['benchmark']}: a benchmark without an audit")
    return audit


def audit_tables(document: Mapping[str, object]) -> list[RenderableType]:
    """The tables of one audit document, as its benchmark lays them out."""
    return _audit_of(document).tables(document)


def summary_lines(document: Mapping[str, object]) -> list[str]:
    """One-line figures that need no table, then the directory audited."""
    return [*_audit_of(document).summary(document), f"directory: {document['directory']}"]
