"""``privbench audit`` of a PrivacyLens folder: the data's shape and the floors of its scores.

Why these figures: a leakage rate means little without its floors. An agent that never
acts (no ``Action:``) leaks nothing and helps nobody: the reference scores it 0 % leakage
and helpfulness 0, the best leakage any model can reach. An agent that forwards the whole
past trajectory in its final action is the careless ceiling; the offline word-overlap
rules (an approximation) say how many cases such an action leaks. On probing, the
reference's gold answer is always (B), so an agent that always answers (B) scores 100 %.
The spread of cases over applications and sources says how much each breakdown rests on.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from rich.console import RenderableType

from privbench.suites.privacylens.dataset import PrivacyLensCase, load_privacylens
from privbench.suites.privacylens.offline import leaks
from privbench.suites.privacylens.scoring import (
    ORIGINAL,
    CaseVerdict,
    ProbeAnswer,
    action_figures,
    probe_correct,
    probing_figures,
)
from privbench.terminal_tables import figure_table


def forwarding_action(case: PrivacyLensCase) -> str:
    """The careless agent's action (the text after ``Action:``): the required tool, with
    the whole past trajectory as its message."""
    body = json.dumps({"message": case.trajectory.executable_trajectory})
    return f"{case.trajectory.final_action}\nAction Input: {body}"


def audit_privacylens(directory: str | Path) -> dict[str, object]:
    """The audit document of a PrivacyLens folder (bad data raises one line)."""
    cases = load_privacylens(directory)
    items = [len(c.trajectory.sensitive_info_items) for c in cases]
    forwarded = [
        [leaks(secret, forwarding_action(c)) for secret in c.trajectory.sensitive_info_items]
        for c in cases
    ]
    never = action_figures(
        "naive",
        [
            CaseVerdict(c.name, "naive", c.application, c.source, False, False, False, None, 0)
            for c in cases
        ],
    )
    always_b = probing_figures(
        "seed",
        ORIGINAL,
        [
            ProbeAnswer(c.name, "seed", ORIGINAL, False, "B", probe_correct("B", False), True)
            for c in cases
        ],
    )
    leaking_cases = sum(any(flags) for flags in forwarded)
    leaking_items = sum(sum(flags) for flags in forwarded)
    return {
        "benchmark": "privacylens",
        "directory": str(directory),
        "cases": len(cases),
        "sensitive_items": sum(items),
        "items_per_case": {"min": min(items), "max": max(items), "mean": sum(items) / len(items)},
        "applications": dict(Counter(c.application for c in cases).most_common()),
        "sources": dict(Counter(c.source for c in cases).most_common()),
        "floors": {
            "never_act": {
                "leakage_rate": never.reference.leakage_rate,
                "helpfulness": never.reference.helpfulness,
            },
            "forward_trajectory_offline": {
                "leakage_rate": leaking_cases / len(cases),
                "items_leaked": leaking_items / sum(items),
            },
            "always_b_probing_accuracy": always_b.accuracy.value,
        },
    }


def audit_tables(document: Mapping[str, object]) -> list[RenderableType]:
    """The audit's tables: the spread of cases, and the floors."""
    spread = figure_table("PrivacyLens cases", "Group", "Name", "Cases", text=2)
    for group in ("applications", "sources"):
        counts = document[group]
        assert isinstance(counts, dict)
        for name, n in counts.items():
            spread.add_row(group, str(name), str(n))
    floors = document["floors"]
    assert isinstance(floors, dict)
    forward = floors["forward_trajectory_offline"]
    never = floors["never_act"]
    table = figure_table("Floors and ceilings (%)", "Agent", "Figure", "Value", text=2)
    table.add_row("never acts", "leakage rate (reference)", f"{100 * never['leakage_rate']:.1f}")
    table.add_row("never acts", "helpfulness (0–3)", f"{never['helpfulness']:.2f}")
    table.add_row(
        "forwards the trajectory",
        "leaking cases (offline rules)",
        f"{100 * forward['leakage_rate']:.1f}",
    )
    table.add_row(
        "forwards the trajectory",
        "items leaked (offline rules)",
        f"{100 * forward['items_leaked']:.1f}",
    )
    accuracy = floors["always_b_probing_accuracy"]
    table.add_row("always answers (B)", "probing accuracy", f"{100 * accuracy:.1f}")
    return [spread, table]


def summary_lines(document: Mapping[str, object]) -> list[str]:
    """One line per fact the tables do not show."""
    per_case = document["items_per_case"]
    assert isinstance(per_case, dict)
    return [
        f"{document['cases']} cases, {document['sensitive_items']} sensitive items "
        f"({per_case['min']}–{per_case['max']} per case, mean {per_case['mean']:.2f})",
        "the forwarding ceiling is judged by privbench's offline word-overlap rules, an "
        "approximation of the LLM judge",
    ]
