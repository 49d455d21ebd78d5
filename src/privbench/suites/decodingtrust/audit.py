"""``privbench audit`` of DecodingTrust data: its shape and the floors of its scores.

Why these figures: a leak rate means little without its floors. A model that always
refuses leaks nothing (the privacy score's ceiling, 100) and is counted as refusing
everywhere; a model that always answers one fixed address (the most common domain's first
address, the best single guess) gets the domain of every target of that domain right and
nothing else: the Enron leak rate a blind guesser reaches. Both are computed here with the
reference's own rules, on the folder's own targets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from rich.console import RenderableType

from privbench.suites.decodingtrust.dataset import load_enron_data
from privbench.suites.decodingtrust.prompts import (
    PII_MODES,
    enron_prompts,
    pii_prompts,
    pii_types,
    topics,
)
from privbench.suites.decodingtrust.scoring import (
    enron_verdict,
    pii_verdict,
    reference_enron,
    reference_pii,
    reference_total,
    reference_understanding,
    understanding_verdict,
)
from privbench.suites.decodingtrust.validation import is_templates_only
from privbench.terminal_tables import figure_table

REFUSAL = "I'm sorry, I cannot share that."
"""The always-refusing answerer's completion (a refusal phrase of the reference's list)."""


def audit_decodingtrust(directory: str | Path) -> dict[str, object]:
    """The audit document of a folder (bad data raises one line)."""
    root = Path(directory)
    refusing = understanding_verdict(REFUSAL)
    understanding = reference_understanding({t: [refusing] * 17 for t in topics()})
    document: dict[str, object] = {
        "benchmark": "decodingtrust",
        "directory": str(root),
        "understanding_prompts": len(topics()) * 17,
        "floors": {"always_refuse": {"understanding": understanding}},
    }
    if is_templates_only(root):
        return document
    data = load_enron_data(root)
    targets = list(data.files["one_shot.json"])
    domains = Counter(t.split("@")[1] for t in targets)
    common, count = domains.most_common(1)[0]
    fixed = next(t for t in targets if t.endswith("@" + common))
    mode = "zero-shot-a"
    prompts = enron_prompts(mode, data.shots(mode), data.email2name)
    guessed = reference_enron({mode: [enron_verdict(p.gt, fixed) for p in prompts]})
    refused = reference_enron({mode: [enron_verdict(p.gt, REFUSAL) for p in prompts]})
    pii = reference_pii({
        f"{t}_{m}": [pii_verdict(p.gt, REFUSAL) for p in pii_prompts(data.five_shot, t, m)]
        for t in pii_types() for m in PII_MODES
    })  # fmt: skip
    document |= {
        "people": len(data.email2name),
        "targets": len(targets),
        "domains": len(domains),
        "largest_domain_share": count / len(targets),
        "floors": {
            "always_refuse": {
                "enron": refused,
                "pii": pii,
                "understanding": understanding,
                "all": reference_total(refused, pii, understanding),
            },
            "always_fixed_address": {"enron": guessed},
        },
    }
    return document


def audit_tables(document: Mapping[str, object]) -> list[RenderableType]:
    """The floors, as the reference's keys (0–100)."""
    floors = document["floors"]
    assert isinstance(floors, dict)
    table = figure_table("DecodingTrust floors (reference's rules, 0–100)", "Answerer",
                         "Scenario", "Leak", "Refused", "Score", text=2)  # fmt: skip
    for answerer, scenarios in floors.items():
        for scenario, figures in scenarios.items():
            table.add_row(
                answerer.replace("_", " "), scenario,
                f"{figures['leak_rate']:.2f}" if "leak_rate" in figures else "–",
                f"{figures['reject_rate']:.2f}" if "reject_rate" in figures else "–",
                f"{figures['privacy_score']:.2f}" if "privacy_score" in figures else "",
            )  # fmt: skip
    return [table]


def summary_lines(document: Mapping[str, object]) -> list[str]:
    """The data's shape in one line."""
    if "targets" not in document:
        return ["no Enron files: the understanding part only (privbench download decodingtrust)"]
    return [
        f"Enron: {document['people']:,} people, {document['targets']:,} targets over "
        f"{document['domains']:,} domains (the largest holds "
        f"{100 * float(str(document['largest_domain_share'])):.1f} % of the targets)"
    ]
