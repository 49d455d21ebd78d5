"""Terminal tables of a DecodingTrust run (each fits 80 columns), and the lines under them.

Per scenario: privbench's pooled rates with 95 % Wilson intervals (the scored settings);
per setting the same; then the reference's ``result_agg.py`` figures and HELM's corrected
view beside them.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table

from privbench.rates import Rate, interval_text
from privbench.rates import percent as pct
from privbench.suites.decodingtrust.log import DecodingTrustLog, SettingFigures
from privbench.terminal_tables import figure_table


def interval(share: Rate) -> str:
    return interval_text(share, 0)


def _row(f: SettingFigures) -> tuple[str, ...]:
    if f.enron is not None:
        e = f.enron
        return (str(e.completions), pct(e.email.value), interval(e.email), pct(e.local.value),
                pct(e.domain.value), pct(e.rejected.value))  # fmt: skip
    assert f.leak is not None
    k = f.leak
    return (str(k.completions), pct(k.leaked.value), interval(k.leaked), "", "",
            pct(k.rejected.value))  # fmt: skip


def scenario_table(model: str, graded: DecodingTrustLog) -> Table | None:
    if not graded.pooled:
        return None
    table = figure_table(
        f"DecodingTrust privacy — {model} (% of completions)",
        "Scenario", "N", "Leak", "95% CI", "Local", "Domain", "Refused",
    )  # fmt: skip
    for scenario, figures in graded.pooled.items():
        table.add_row(scenario, *_row(figures))
    return table


def settings_table(graded: DecodingTrustLog) -> Table | None:
    if len(graded.settings) <= 1:
        return None
    table = figure_table(
        "Per setting (%; Enron: leak = the whole address)",
        "Setting", "N", "Leak", "95% CI", "Local", "Domain", "Refused",
    )  # fmt: skip
    for f in graded.settings:
        name = f"{f.scenario}/{f.setting}" + ("" if f.scored else " *")
        table.add_row(name, *_row(f))
    return table


def reference_table(graded: DecodingTrustLog) -> Table | None:
    if not graded.reference:
        return None
    table = figure_table(
        "As the reference's result_agg.py computes them (0–100)",
        "Scenario", "Leak", "Refused", "Leak w/o ref.", "Score",
    )  # fmt: skip
    for scenario, r in graded.reference.items():
        table.add_row(
            scenario,
            f"{r['leak_rate']:.2f}" if "leak_rate" in r else "–",
            f"{r['reject_rate']:.2f}" if "reject_rate" in r else "–",
            f"{r['leak_rate_wo_reject']:.2f}" if "leak_rate_wo_reject" in r else "–",
            f"{r['privacy_score']:.2f}" if "privacy_score" in r else "",
        )
    return table


def helm_table(graded: DecodingTrustLog) -> Table | None:
    if not graded.helm:
        return None
    table = figure_table("HELM's view (fractions pooled, no refusals)", "Figure", "Value")
    for key, value in graded.helm.items():
        table.add_row(key, "–" if value is None else f"{value:.4f}")
    return table


def run_tables(model: str, graded: DecodingTrustLog) -> list[RenderableType]:
    """Every table of the run, in reading order."""
    tables = (scenario_table(model, graded), settings_table(graded), reference_table(graded),
              helm_table(graded))  # fmt: skip
    return [t for t in tables if t is not None]


def count_lines(graded: DecodingTrustLog) -> list[str]:
    """What the figures rest on and what they leave out, one line each."""
    lines: list[str] = []
    enron = [c.enron for c in graded.completions if c.enron is not None]
    if enron:
        none = sum(v.found is None for v in enron)
        lines.append(f"Enron: {none} of {len(enron)} completions hold no e-mail address "
                     "(not a leak, as the reference counts them)")  # fmt: skip
    leaks = [c.leak for c in graded.completions if c.leak is not None]
    if leaks:
        neither = sum(not v.leaked and not v.rejected for v in leaks)
        lines.append(f"PII and understanding: {neither} of {len(leaks)} completions neither "
                     "leak nor hold a refusal phrase")  # fmt: skip
    if any(not f.scored for f in graded.settings):
        lines.append("* not in the reference's score (PII 1-shot files and other SSN "
                     "spellings; understanding questions 2 and 3): shown beside it")  # fmt: skip
    if "all" not in graded.reference and graded.reference:
        lines.append("privacy score: needs all three scenarios (enron, pii, understanding)")
    if graded.errors:
        lines.append(f"failed samples: {len(graded.errors)}")
    if graded.missing:
        lines.append(f"not run yet: {len(graded.missing)} samples (--resume)")
    return lines
