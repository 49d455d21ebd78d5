"""Terminal tables of an audit document (what ``privbench audit`` prints without --json).

Why separate: the figures are computed once, by each benchmark's audit, into the ``--json``
document; the benchmark's own table functions only lay that document out, so the terminal
and the JSON always agree. This module picks them by the document's ``benchmark``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import RenderableType

from privbench.suites.priviq import audit_tables as priviq_audit_tables
from privbench.suites.spatialtrust import audit_tables as spatial_audit_tables


def audit_tables(document: Mapping[str, object]) -> list[RenderableType]:
    """The tables of one audit document, as its benchmark lays them out."""
    if document["benchmark"] == "priviq":
        return priviq_audit_tables.audit_tables(document)
    return spatial_audit_tables.audit_tables(document)


def summary_lines(document: Mapping[str, object]) -> list[str]:
    """One-line figures that need no table, then the directory audited."""
    lines = []
    if document["benchmark"] == "priviq":
        lines = priviq_audit_tables.summary_lines(document)
    return [*lines, f"directory: {document['directory']}"]
