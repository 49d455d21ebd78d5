"""Terminal tables of a ConfAIde run: one compact table per tier (fits 80 columns).

Rating tiers: items, answers, unreadable answers, Pearson's r with the human labels and its
95% Fisher-z interval. Tiers 3 and 4: per question type and metric the reference's mean and
worst case (percent), over how many scenarios (meetings) and answers.
"""

from __future__ import annotations

from rich.table import Table

from privbench.suites.confaide.log import ConfAIdeLog, MetricFigure

TIER_TITLES = {"1": "Tier 1", "2a": "Tier 2a", "2b": "Tier 2b", "3": "Tier 3", "4": "Tier 4"}


def _r(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _pct(value: float) -> str:
    return f"{100 * value:.1f}"


def _table(title: str, *columns: str, left: int = 1) -> Table:
    """A table titled ``title``: the first ``left`` columns are names, the others figures."""
    table = Table(title=title, title_justify="left")
    for number, name in enumerate(columns):
        table.add_column(name, justify="left" if number < left else "right")
    return table


def rating_table(model: str, graded: ConfAIdeLog) -> Table | None:
    """Tiers 1, 2a, 2b: r with the human labels (None when the run has no rating tier)."""
    if not graded.ratings:
        return None
    table = _table(
        f"ConfAIde ratings — {model}", "Tier", "Items", "Answers", "Unparsed", "r", "95% CI"
    )
    for tier, figures in graded.ratings.items():
        c = figures.correlation
        interval = "–" if c.low is None or c.high is None else f"{c.low:.2f}…{c.high:.2f}"
        table.add_row(
            TIER_TITLES[tier],
            str(len(figures.items)),
            str(figures.answers),
            str(figures.unparsed),
            _r(c.r),
            interval,
        )
    return table


def metric_table(model: str, tier: str, figures: list[MetricFigure]) -> Table | None:
    """Tier 3 or 4: mean and worst case (%) per question type and metric."""
    rows = [f for f in figures if f.tier == tier]
    if not rows:
        return None
    groups = "Scen." if tier == "3" else "Meet."
    table = _table(
        f"ConfAIde {TIER_TITLES[tier]} — {model}",
        "Question",
        "Metric",
        "Mean %",
        "Worst %",
        groups,
        "Answers",
        left=2,
    )
    for figure in rows:
        s = figure.summary
        table.add_row(
            figure.question_type,
            figure.metric,
            _pct(s.mean),
            _pct(s.worst_case),
            str(s.groups),
            str(s.samples),
        )
    return table


def count_lines(graded: ConfAIdeLog) -> list[str]:
    """What the tables rest on: unreadable answers, unclassified control answers."""
    lines = []
    unparsed = {t: n for t, n in graded.unparsed.items() if n}
    if unparsed:
        parts = ", ".join(f"tier {t}: {n}" for t, n in unparsed.items())
        lines.append(f"unreadable ratings (left out of the item means, never 0): {parts}")
    if graded.control_answers:
        lines.append(
            f"control answers neither yes nor no: {graded.control_unclassified} of "
            f"{graded.control_answers} (errors, as in the reference)"
        )
    if graded.proxy_replies_unreadable:
        lines.append(
            f"proxy-model: {graded.proxy_replies_unreadable} answer(s) without a judge reply "
            "(left out)"
        )
    if graded.errors:
        lines.append(f"failed samples: {len(graded.errors)}")
    if graded.missing:
        lines.append(f"samples not run: {len(graded.missing)}")
    return lines
