"""What ``privbench agreement`` shows: the Table 6 layout and the plots of a rating study.

Why here and not in the command: the table and the figures are the study's output, the
command only prints them; they sit in the report layer because the plots are the
report's figures.
"""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from privbench.analysis.agreement import AgreementStats, Ratings, format_stat
from privbench.report import figures

METRICS = (
    ("Intraclass correlation (ICC2)", "icc"),
    ("Spearman ρ", "spearman_rho"),
    ("Spearman p", "spearman_p"),
    ("Mean absolute error", "mae"),
    ("Agreement rate", "agreement_rate"),
    ("Bland–Altman bias (human − judge)", "bias"),
    ("Limits of agreement, low", "loa_low"),
    ("Limits of agreement, high", "loa_high"),
)
"""The rows of the table: title, and the :class:`AgreementStats` field it shows."""


def agreement_plots(ratings: Ratings, directory: Path, scale: float) -> list[Path]:
    """A Bland–Altman plot per survey and the violins, saved in ``directory`` (PNG paths)."""
    surveys = list(dict.fromkeys(ratings.pairs["survey"]))
    saved = [
        figures.save(figures.bland_altman(ratings, s, scale), directory, f"bland-altman-{i}", s)
        for i, s in enumerate(surveys)
    ]
    violins = figures.violins(ratings, scale)
    saved.append(figures.save(violins, directory, "violins", "Human vs judge"))
    return [f.png for f in saved]


def agreement_rich_table(columns: dict[str, AgreementStats]) -> Table:
    """Table 6's layout: one column per survey (and the average), one row per metric."""
    table = Table(title="Judge–human agreement (Table 6 layout)", title_justify="left")
    table.add_column("Metric")
    for name, stats in columns.items():
        table.add_column(f"{name}\n(n = {stats.n})", justify="right")
    for title, key in METRICS:
        table.add_row(title, *(format_stat(key, getattr(s, key)) for s in columns.values()))
    return table


def summary_line(ratings: Ratings, plots: list[Path]) -> str:
    """Who rated on which scale, what was skipped, where the plots are."""
    return (
        f"{ratings.raters} human rater(s) on 0–{ratings.scale:g}; {ratings.blank} blank "
        f"rating(s) skipped; plots: {', '.join(str(p) for p in plots)}"
    )
