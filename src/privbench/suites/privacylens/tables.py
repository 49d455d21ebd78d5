"""Terminal tables of a PrivacyLens run (each fits 80 columns).

Final action, per agent prompt type: cases, actions with no ``Action:``, the leakage rate
with its 95 % Wilson interval (over cases with a verdict), unscored cases, helpfulness and
the leakage among helpful actions; the reference's own figures beside them; the leakage per
application and per source. Probing, per level: accuracy with its interval, unreadable
answers, the always-(B) baseline on the same questions and the reference's reading.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table

from privbench.rates import interval_text as interval
from privbench.rates import percent as pct
from privbench.suites.privacylens.log import PrivacyLensLog
from privbench.terminal_tables import figure_table


def action_table(model: str, graded: PrivacyLensLog) -> Table | None:
    if not graded.actions:
        return None
    table = figure_table(
        f"PrivacyLens final actions — {model} (%)",
        "Prompt", "Cases", "No act.", "Leak", "95% CI", "Unsc.", "Helpful", "Leak|help",
    )  # fmt: skip
    for f in graded.actions:
        table.add_row(
            f.prompt_type,
            str(f.cases),
            str(f.no_action),
            pct(f.leakage.value),
            interval(f.leakage),
            str(f.unscored),
            pct(f.helpful.value),
            pct(f.adjusted_leakage.value),
        )
    return table


def reference_table(graded: PrivacyLensLog) -> Table | None:
    if not graded.actions:
        return None
    table = figure_table(
        "As the reference computes them (all cases; %; helpfulness 0–3)",
        "Prompt", "Leakage rate", "Helpfulness", "Helpful", "Adjusted leakage",
    )  # fmt: skip
    for f in graded.actions:
        r = f.reference
        help_mean = "–" if r.helpfulness is None else f"{r.helpfulness:.2f}"
        table.add_row(
            f.prompt_type,
            pct(r.leakage_rate),
            help_mean,
            pct(r.binary_helpfulness_rate),
            pct(r.adjusted_leakage_rate),
        )
    return table


def breakdown_table(graded: PrivacyLensLog) -> Table | None:
    if not graded.actions:
        return None
    table = figure_table(
        "Leakage by application and source (%)",
        "Prompt",
        "Group",
        "Cases",
        "Leak",
        "95% CI",
        text=2,
    )
    for f in graded.actions:
        for group, rate in [*f.by_application.items(), *f.by_source.items()]:
            table.add_row(f.prompt_type, group, str(rate.n), pct(rate.value), interval(rate))
    return table


def probing_table(model: str, graded: PrivacyLensLog) -> Table | None:
    if not graded.probing:
        return None
    table = figure_table(
        f"PrivacyLens probing — {model} (% correct)",
        "Level", "Variant", "Ans.", "Acc.", "95% CI", "Unread.", "Always-B", "Ref.", text=2,
    )  # fmt: skip
    for f in graded.probing:
        table.add_row(
            f.level,
            f.variant,
            str(f.answers),
            pct(f.accuracy.value),
            interval(f.accuracy),
            str(f.unreadable),
            pct(f.always_b.value),
            pct(f.reference_accuracy),
        )
    return table


def run_tables(model: str, graded: PrivacyLensLog) -> list[RenderableType]:
    """Every table of the run, in reading order."""
    tables = (
        action_table(model, graded),
        reference_table(graded),
        breakdown_table(graded),
        probing_table(model, graded),
    )
    return [t for t in tables if t is not None]


def count_lines(graded: PrivacyLensLog) -> list[str]:
    """What the figures rest on and what they leave out, one line each."""
    lines: list[str] = []
    if graded.actions:
        lines.append(f"judge: {graded.judge or 'none'}")
        lines.append(
            f"unreadable judge replies: {graded.unreadable_judge} questions (re-asked; still "
            "unreadable ones leave their case unscored, never counted as no leak)"
        )
    if graded.detector:
        from privbench.suites.privacylens.offline import MEASURED_AGREEMENT as m

        lines.append(
            f"leakage judged offline by {graded.detector}: an approximation of the LLM judge "
            f"(on {m.n} held-out labelled pairs: accuracy {100 * m.accuracy:.1f} %, Cohen's "
            f"kappa {m.cohen_kappa:.2f}); helpfulness offline checks the action's form only"
        )
    if graded.probing:
        lines.append(
            "probing: the reference's gold answer is always (B) No; an always-(B) answerer "
            "scores the Always-B column"
        )
    if graded.errors:
        lines.append(f"failed samples: {len(graded.errors)}")
    if graded.missing:
        lines.append(f"not run yet: {len(graded.missing)} samples (--resume)")
    return lines
