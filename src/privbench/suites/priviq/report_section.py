"""Priv-IQ's section of the HTML report: its published Tables 3 and 5 (shown only beside
runs over the public release), the refusal table and the column names.

Why lazy wrappers: the registry imports every suite's declaration at start-up; the
release check (hashing a data directory) and pandas load only when a report is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privbench.runtime.cross_run import ReleaseMatch, ReportSection

if TYPE_CHECKING:
    import pandas as pd


def _column(heading: str) -> str:
    from privbench.suites.priviq.published import column_name

    return column_name(heading)


def _release(rows: pd.DataFrame, data: str, dataset_hash: str) -> ReleaseMatch:
    """Whether runs (their long-table rows) are over the public release; for runs over
    part of their data, the whole directory decides (see ``whole_data_evidence``)."""
    from privbench.suites.priviq.published import (
        comparable_on_request,
        is_public_priviq_release,
        release_evidence,
        release_reason,
        whole_data_evidence,
    )

    combinations = dict(zip(rows["item"], rows["competencies"], strict=True))
    evidence, whole_count = whole_data_evidence(
        release_evidence(combinations, data, dataset_hash), data
    )
    return ReleaseMatch(
        verified=is_public_priviq_release(evidence),
        comparable=comparable_on_request(evidence),
        reason=release_reason(evidence),
        note=evidence.note,
        items=frozenset(evidence.combinations),
        whole_count=whole_count,
    )


def _refusals(rows: pd.DataFrame) -> pd.DataFrame:
    from privbench.suites.priviq.paper_tables import priviq_refusal_table

    return priviq_refusal_table(rows)


REPORT_SECTION = ReportSection(
    layout="priviq",
    published_column=_column,
    release=_release,
    refusals=_refusals,
)
