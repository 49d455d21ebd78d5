"""VLM-GeoPrivacy's section of the HTML report: its tables, the released runs beside them,
and per run the counters the tables omit.

Why the released runs are recomputed per report: the authors released every model's answer
per photo; a report's runs cover the photos their users could download. Beside a table the
released models stand over exactly the photos its runs answered — shown only when every
run of the table answered the same photos (a comparison over other photos would not be
like with like), and only for models whose released file answers all of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from privbench.runtime.cross_run import PublishedFigures, PublishedScores, ReportSection
from privbench.suites.geoprivacy.paper_tables import ACCURACY, OVER_DISCLOSURE

if TYPE_CHECKING:
    import pandas as pd

_CELL = {ACCURACY.key: "accuracy", OVER_DISCLOSURE.key: "over"}


def _photos(rows: pd.DataFrame, variant: str) -> tuple[set[str] | None, str]:
    """The photos every run answered under ``variant``; None with a reason when runs differ."""
    chosen = rows[rows["variant"] == variant]
    sets = {run: frozenset(mine["photo"]) for run, mine in chosen.groupby("run", sort=False)}
    if not sets:
        return None, ""
    first = next(iter(sets.values()))
    if any(s != first for s in sets.values()):
        return None, (
            f"{variant}: the runs answered different photos; released runs stand beside "
            "runs over the same photos only"
        )
    return set(first), ""


def published_figures(
    rows: pd.DataFrame, data: str, measured: Mapping[str, Sequence[str]]
) -> tuple[list[PublishedFigures], str]:
    """The released runs beside each table, over the runs' photos (module docstring)."""
    from privbench.suites.geoprivacy.published import LABEL, has_released, released_rows

    root = Path(data)
    if not root.is_dir() or not has_released(root):
        return [], (
            "No released VLM-GeoPrivacy runs beside these: the data folder holds no released "
            "responses (privbench download geoprivacy fetches them)."
        )
    notes: list[str] = []
    blocks: list[PublishedFigures] = []
    for kind in (ACCURACY, OVER_DISCLOSURE):
        by_model: dict[str, dict[str, float]] = {}
        for variant in measured.get(kind.key, ()):
            photos, why = _photos(rows, variant)
            if photos is None:
                notes.append(why) if why and why not in notes else None
                continue
            found, left_out = released_rows(root, variant, photos)
            for row in found:
                value = getattr(row.figures, "accuracy" if kind is ACCURACY else "over_disclosure")
                if value.value is not None:
                    by_model.setdefault(row.model, {})[variant] = 100 * value.value
            if left_out and kind is ACCURACY:
                notes.append(f"{variant}: released files not covering these photos left out "
                             f"({', '.join(left_out)})")  # fmt: skip
        if by_model:
            columns = tuple(c for c in measured.get(kind.key, ()) if any(c in s for s in
                            by_model.values()))  # fmt: skip
            blocks.append(
                PublishedFigures(
                    beside=kind.key,
                    label=LABEL,
                    caption=f"{kind.what[:1].lower()}{kind.what[1:]}, recomputed from the authors' released "
                    "responses over the photos the runs answered (free form: their "
                    "GPT-4.1-mini labels; multiple choice: with heuristics)",
                    paper="Yang et al., VLM-GeoPrivacyBench (ICLR 2026)",
                    setting="the released runs' (temperature 0.7 where the API takes one)",
                    decimals=1,
                    columns=columns,
                    rows=tuple(PublishedScores(m, s) for m, s in by_model.items()),
                )
            )
    return blocks, " ".join(notes)


def counted(rows: pd.DataFrame) -> list[str]:
    """Per run, what the tables do not show: photos answered, answers without a letter."""
    lines = []
    for run, mine in rows.groupby("run", sort=False):
        unread = int(mine["correct"].isna().sum())
        photos = mine["photo"].nunique()
        lines.append(
            f"{run}: {photos:,} of the benchmark's 1,200 photos; {unread} of {len(mine)} "
            "answers without a granularity letter (unreadable, or judged 'none of the "
            "above'; left out of the rates)."
        )
    return lines


OFFLINE_NOTE = (
    "VLM-GeoPrivacy judged offline: the granularity of free-form answers by privbench's "
    "rules (an approximation of the paper's GPT-4.1-mini judge; their agreement with its "
    "released labels on a held-out half is in docs/geoprivacy.md). Use an LLM judge for "
    "published numbers."
)

REPORT_SECTION = ReportSection(
    layout="tables",
    published_figures=published_figures,
    counts=counted,
    offline_note=OFFLINE_NOTE,
)
