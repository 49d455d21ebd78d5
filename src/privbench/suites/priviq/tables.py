"""Terminal tables of Priv-IQ scores: Table 3 (competencies) and Table 5 (combinations).

One decimal, as in the paper; each header shows the number of items in that column and
the footer the unscored and no-answer counts, so a reader sees how much a figure rests on.
Beside each score, the percent of the items whose answer refuses or declines and answers
anyway (:mod:`privbench.suites.priviq.refusals`): a low score from refusals is not one from
wrong answers.
"""

from __future__ import annotations

from rich.table import Table

from privbench.formatting import fmt
from privbench.published import PublishedTable, terminal_table
from privbench.runtime.cross_run import unverified_line
from privbench.suites.priviq.aggregate import PrivIQScores, RefusalCell, ScoreCell
from privbench.suites.priviq.competencies import combination_label
from privbench.suites.priviq.judge import MAX_ANSWER_CHARS
from privbench.suites.priviq.log import PrivIQLog
from privbench.suites.priviq.published import NOTE, TOTAL


def _with_std(cell: ScoreCell, n_runs: int) -> str:
    if n_runs > 1 and cell.std is not None:
        return f"{fmt(cell.score)} ±{cell.std:.1f}"
    return fmt(cell.score)


def _rates(cell: RefusalCell) -> tuple[str, str]:
    return fmt(cell.refusal_rate), fmt(cell.partial_rate)


def competency_table(model: str, scores: PrivIQScores) -> Table:
    """Table 3's columns for one model, transposed for a terminal: a row per competency,
    with its refusal and partial-answer rates beside the score."""
    table = Table(title=f"Priv-IQ scores — {model}", title_justify="left")
    table.add_column("Competency")
    table.add_column("Items", justify="right")
    table.add_column(model, justify="right")
    table.add_column("Refused %", justify="right")
    table.add_column("Partial %", justify="right")
    refusals = scores.refusals
    expected = {code for combination in scores.combinations for code in combination}
    for code, cell in scores.competencies.items():
        if cell.n or code in expected:  # a competency with no graded item shows as n/a
            rates = _rates(refusals.competencies.get(code, RefusalCell()))
            table.add_row(code, str(cell.n), _with_std(cell, scores.n_runs), *rates)
    table.add_row(
        "Total",
        str(scores.overall.n),
        _with_std(scores.overall, scores.n_runs),
        *_rates(refusals.overall),
    )
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


def published_beside(
    model: str, scores: PrivIQScores, tables: list[PublishedTable], note: str = NOTE
) -> list[Table]:
    """The paper's Table 3 (by competency) and Table 5 (by combination), the run first;
    ``note`` says how the run's data relate to the paper's."""
    by_table = {
        3: {code: cell.score for code, cell in scores.competencies.items()},
        5: {combination_label(c): cell.score for c, cell in scores.combinations.items()},
    }
    return [
        terminal_table(
            table,
            f"{model} (this run)",
            {**by_table.get(table.table, {}), TOTAL: scores.overall.score},
            note,
            wide_corner="Combination",
        )
        for table in tables
    ]


def summary_line(scores: PrivIQScores, judge: str, protocol: str, prompt_hash: str) -> str:
    """Runs, unscored and no-answer counts, and the judge's identity."""
    return (
        f"{scores.overall.n} items × {scores.n_runs} run(s); unscored judgments: "
        f"{scores.unscored_runs} (items with no score: {len(scores.unscored_items)}); "
        f"no answer: {len(scores.no_answer)}; judge: {judge} ({protocol} protocol, "
        f"prompt {prompt_hash})"
    )


def refusal_line(scores: PrivIQScores) -> str:
    """How many answers refuse, answer in part, or answer, with a few refusing ids."""
    cell = scores.refusals.overall
    refusing = [i for i, r in scores.refusals.items.items() if r.label == "refusal"]
    ids = f" ({_ids(refusing)})" if refusing else ""
    return (
        f"answers read: {cell.refusals} refusal(s){ids}, {cell.partial} partial, "
        f"{cell.answers} answer(s) of {cell.n} items (named rules on the answer text)"
    )


def _ids(ids: list[str], limit: int = 5) -> str:
    more = f", … (+{len(ids) - limit})" if len(ids) > limit else ""
    return ", ".join(ids[:limit]) + more


def completeness_lines(scores: PrivIQScores, graded: PrivIQLog) -> list[str]:
    """What an incomplete run lacks: missing, failed and unscored items with their ids."""
    lines: list[str] = []
    if graded.missing:
        lines.append(f"PARTIAL: {len(graded.missing)} item(s) not graded: {_ids(graded.missing)}")
    if graded.errors:
        lines.append(f"PARTIAL: {len(graded.errors)} item(s) failed: {_ids(list(graded.errors))}")
    if scores.unscored_items:
        lines.append(
            f"{len(scores.unscored_items)} item(s) without any score: {_ids(scores.unscored_items)}"
        )
    return lines


def truncation_lines(graded: PrivIQLog) -> list[str]:
    """Answers cut before the judge saw them (longer than ``MAX_ANSWER_CHARS``), with ids."""
    if not graded.truncated:
        return []
    return [
        f"{len(graded.truncated)} answer(s) over {MAX_ANSWER_CHARS:,} characters truncated "
        f"for the judge: {_ids(graded.truncated)}"
    ]


def reuse_line(logged: PrivIQLog) -> str | None:
    """How many judge runs an earlier grade file saved (``--grades``), or None if none;
    those reused without an answer check (``--reuse-unverified-grades``) are said apart."""
    if not logged.reused_runs:
        return None
    graded_now = sum(len(r) for r in logged.records.values()) - logged.reused_runs
    unverified = logged.unverified_runs
    verified = logged.reused_runs - unverified
    how = "same answer, judge and protocol"
    if unverified:
        how = f"{unverified_line(unverified)}: same judge only"
        if verified:
            how = f"{verified} with the same answer, judge and protocol; {how}"
    return f"--grades: {logged.reused_runs} run(s) reused ({how}), {graded_now} graded now"


def rule_lines(scores: PrivIQScores, logged: PrivIQLog) -> list[str]:
    """Why each item scored what it did, from an ``--explain`` run of the offline judge:
    the item's grade, then each rule that applied, in order."""
    if not logged.offline_rules:
        return []
    lines = ["offline judge rules per item (in the order they applied):"]
    for item_id, rules in logged.offline_rules.items():
        score = scores.items.get(item_id)
        lines.append(f"{item_id}: " + ("unscored" if score is None else f"{score:.1f}"))
        lines += [f"  {rule}" for rule in rules]
    return lines
