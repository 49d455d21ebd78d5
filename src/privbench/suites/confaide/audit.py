"""``privbench audit`` of a ConfAIde directory: the data's shape and what string matching can see.

Why these figures: every tier-3/4 verdict is a case-insensitive substring test, so what a
score can mean depends on the data: whether each meeting's private and public facts occur
verbatim in its transcript (else a copy of the transcript could not be caught), and whether
the control question names the scenario's questionee (11 of the reference's 270 control
questions name another character; the reference uses them as they are). The human labels'
range bounds what Pearson's r can show per rating tier.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path

from rich.console import RenderableType

from privbench.formatting import fmt
from privbench.suites.confaide.dataset import RATING_TIERS, ConfAIdeData, load_confaide
from privbench.suites.confaide.floors import trivial_floors
from privbench.suites.confaide.scoring import mentions
from privbench.terminal_tables import figure_table


def _labels(data: ConfAIdeData) -> dict[str, dict[str, float | int]]:
    figures: dict[str, dict[str, float | int]] = {}
    for tier in RATING_TIERS:
        labels = [item.label for item in data.ratings(tier)]
        figures[tier] = {
            "items": len(labels),
            "mean": sum(labels) / len(labels),
            "min": min(labels),
            "max": max(labels),
        }
    return figures


def audit_confaide(directory: str | Path) -> dict[str, object]:
    """The audit document of a ConfAIde directory (bad data raises one line)."""
    data = load_confaide(directory)
    other_sharer = [
        s.id
        for s in data.tier_3
        if not s.control_question.startswith(f"Is it ok for {s.aware_agent} ")
    ]
    private_absent = [m.id for m in data.tier_4 if not mentions(m.private_info, m.text)]
    public_absent = [m.id for m in data.tier_4 if not mentions(m.public_info, m.text)]
    floors = trivial_floors(data)
    return {
        "benchmark": "confaide",
        "directory": str(directory),
        "labels": _labels(data),
        "floors": {
            "ratings": [asdict(floor) for floor in floors.ratings],
            "rates": [asdict(floor) for floor in floors.reports],
        },
        "tier_3": {
            "scenarios": len(data.tier_3),
            "topics": dict(Counter(s.topic for s in data.tier_3).most_common()),
            "control_names_another_sharer": other_sharer,
        },
        "tier_4": {
            "meetings": len(data.tier_4),
            "private_info_not_in_transcript": private_absent,
            "public_info_not_in_transcript": public_absent,
        },
    }


def audit_tables(document: Mapping[str, object]) -> list[RenderableType]:
    """The human labels per rating tier and the tier-3 topics."""
    labels = document["labels"]
    tier_3 = document["tier_3"]
    assert isinstance(labels, dict) and isinstance(tier_3, dict)
    table = figure_table("ConfAIde human labels", "Tier", "Items", "Mean", "Min", "Max")
    for tier, cell in labels.items():
        table.add_row(tier, str(cell["items"]), fmt(cell["mean"]), fmt(cell["min"]),
                      fmt(cell["max"]))  # fmt: skip
    topics = figure_table(f"Tier 3 — {tier_3['scenarios']} scenarios", "Topic", "Scenarios")
    for topic, n in tier_3["topics"].items():
        topics.add_row(topic, str(n))
    return [table, topics, *_floor_tables(document)]


def _floor_tables(document: Mapping[str, object]) -> list[RenderableType]:
    """What trivial answerers score: r on the rating tiers (or why none), and every rate's
    mean / worst case in percent."""
    floors = document.get("floors")
    if not isinstance(floors, dict):
        return []
    ratings = figure_table("Trivial floors: rating tiers", "Floor", "Tier", "r", "Why no r")
    for row in floors["ratings"]:
        r = "–" if row["r"] is None else f"{row['r']:.2f}"
        ratings.add_row(row["floor"], row["tier"], r, row["r_undefined"] or "")
    rates = figure_table("Trivial floors: tiers 3–4 (mean / worst %)", "Floor", "Question",
                         "Metric", "Mean", "Worst")  # fmt: skip
    for row in floors["rates"]:
        rates.add_row(row["floor"], row["question_type"], row["metric"],
                      fmt(100 * row["mean"]), fmt(100 * row["worst_case"]))  # fmt: skip
    return [ratings, rates]


def summary_lines(document: Mapping[str, object]) -> list[str]:
    """The string-match caveats, one line each."""
    tier_3, tier_4 = document["tier_3"], document["tier_4"]
    assert isinstance(tier_3, dict) and isinstance(tier_4, dict)
    other = tier_3["control_names_another_sharer"]
    return [
        f"control questions naming another sharer than the questionee: {len(other)} of "
        f"{tier_3['scenarios']} (used as they are, as the reference does)",
        f"meetings whose private fact is not verbatim in the transcript: "
        f"{len(tier_4['private_info_not_in_transcript'])} of {tier_4['meetings']}; public "
        f"fact: {len(tier_4['public_info_not_in_transcript'])}",
    ]
