"""Terminal tables of a VLM-GeoPrivacy run (each fits 80 columns).

Per protocol or mode: the granularity answers (Q7) with 95 % Wilson intervals, over- and
under-disclosure, abstention violations, unreadable answers and the always-abstain floor;
for multiple choice, every question's accuracy and macro-F1 beside its majority floor; for
free form, where the answers place the photos; and the reference evaluator's own figures.
"""

from __future__ import annotations

import math

from rich.console import RenderableType
from rich.table import Table

from privbench.rates import Rate, interval_text
from privbench.rates import percent as pct
from privbench.suites.geoprivacy.log import GeoPrivacyLog
from privbench.terminal_tables import figure_table


def interval(share: Rate) -> str:
    return interval_text(share, 0)


def granularity_table(model: str, graded: GeoPrivacyLog) -> Table | None:
    if not graded.variants:
        return None
    table = figure_table(
        f"VLM-GeoPrivacy granularity (Q7) — {model} (%)",
        "Variant", "Read", "Acc.", "95% CI", "Over", "Under", "Viol.", "Unread", "All-A",
    )  # fmt: skip
    for v in graded.variants:
        g = v.granularity
        table.add_row(
            v.variant,
            f"{g.read}/{g.answers}",
            pct(g.accuracy.value),
            interval(g.accuracy),
            pct(g.over_disclosure.value),
            pct(g.under_disclosure.value),
            pct(g.abstention_violation.value),
            str(g.unreadable + g.none_of_above),
            pct(g.always_abstain.value),
        )
    return table


def questions_table(graded: GeoPrivacyLog) -> Table | None:
    chosen = next((v for v in graded.variants if v.questions), None)
    if chosen is None:
        return None
    table = figure_table(
        "Multiple choice per question (%; F1 over each question's options)",
        "Question", "Acc.", "95% CI", "Macro-F1", "Unread", "Majority",
    )  # fmt: skip
    for q in chosen.questions:
        f1 = "–" if q.macro_f1 is None else f"{100 * q.macro_f1:.1f}"
        table.add_row(
            q.question,
            pct(q.accuracy.value),
            interval(q.accuracy),
            f1,
            str(q.unreadable),
            pct(q.majority_floor.value),
        )
    return table


def location_table(graded: GeoPrivacyLog) -> Table | None:
    located = [v for v in graded.variants if v.location is not None]
    if not located:
        return None
    table = figure_table(
        "Where free-form answers place the photo (%; located offline)",
        "Mode", "Located", "<1 km", "<25 km", "<200 km", "Exposure", "Utility", "PPS",
    )  # fmt: skip
    for v in located:
        loc = v.location
        assert loc is not None
        table.add_row(
            v.variant,
            f"{loc.located}/{loc.answers}",
            *(pct(r.value) for r in loc.within.values()),
            pct(loc.exposure.value),
            "–" if loc.utility is None else f"{loc.utility:.3f}",
            "–" if loc.preservation is None else f"{loc.preservation:.3f}",
        )
    return table


def _ref(figures: dict[str, float], key: str, scale: float = 1.0, digits: int = 3) -> str:
    value = figures.get(key)
    return "–" if value is None or math.isnan(value) else f"{scale * value:.{digits}f}"


def reference_table(graded: GeoPrivacyLog) -> Table | None:
    if not graded.variants:
        return None
    table = figure_table(
        "As the reference's eval.py computes them (fractions; violation in %)",
        "Variant", "Q7 acc.", "Q7 F1", "Over", "Under", "Viol. %", "PPS",
    )  # fmt: skip
    for v in graded.variants:
        r = v.reference
        table.add_row(
            v.variant,
            _ref(r, "Q7 Accuracy"),
            _ref(r, "Q7 F1 (macro)"),
            _ref(r, "Over Disclosure rate"),
            _ref(r, "Under Disclosure rate"),
            _ref(r, "Abstention violation rate", digits=1),
            _ref(r, "Privacy preservation score"),
        )
    return table


def run_tables(model: str, graded: GeoPrivacyLog) -> list[RenderableType]:
    """Every table of the run, in reading order."""
    tables = (
        granularity_table(model, graded),
        questions_table(graded),
        location_table(graded),
        reference_table(graded),
    )
    return [t for t in tables if t is not None]
