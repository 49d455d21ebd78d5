"""Terminal tables of Priv-IQ scores: Table 3 (competencies) and Table 5 (combinations).

One decimal, as in the paper; each header shows the number of items in that column and
the footer the unscored and no-answer counts, so a reader sees how much a figure rests on.
"""

from __future__ import annotations

from rich.table import Table

from privbench.formatting import fmt
from privbench.priviq.competencies import combination_label
from privbench.priviq.scores import PrivIQScores, ScoreCell


def _with_std(cell: ScoreCell, n_runs: int) -> str:
    if n_runs > 1 and cell.std is not None:
        return f"{fmt(cell.score)} ±{cell.std:.1f}"
    return fmt(cell.score)


def competency_table(model: str, scores: PrivIQScores) -> Table:
    """Table 3's columns for one model, transposed for a terminal: a row per competency."""
    table = Table(title=f"Priv-IQ scores — {model}", title_justify="left")
    table.add_column("Competency")
    table.add_column("Items", justify="right")
    table.add_column(model, justify="right")
    for code, cell in scores.competencies.items():
        if cell.n:
            table.add_row(code, str(cell.n), _with_std(cell, scores.n_runs))
    table.add_row("Total", str(scores.overall.n), _with_std(scores.overall, scores.n_runs))
    return table


def combination_table(model: str, scores: PrivIQScores) -> Table:
    """Table 5's columns for one model, transposed for a terminal: a row per combination."""
    table = Table(title="By competency combination", title_justify="left")
    table.add_column("Combination")
    table.add_column("Items", justify="right")
    table.add_column(model, justify="right")
    for combination, cell in scores.combinations.items():
        table.add_row(combination_label(combination), str(cell.n), _with_std(cell, scores.n_runs))
    table.add_row("Total", str(scores.overall.n), _with_std(scores.overall, scores.n_runs))
    return table


def summary_line(scores: PrivIQScores, judge: str, protocol: str, prompt_hash: str) -> str:
    """Runs, unscored and no-answer counts, and the judge's identity."""
    return (
        f"{scores.overall.n} items × {scores.n_runs} run(s); unscored judgments: "
        f"{scores.unscored_runs} (items with no score: {len(scores.unscored_items)}); "
        f"no answer: {len(scores.no_answer)}; judge: {judge} ({protocol} protocol, "
        f"prompt {prompt_hash})"
    )
