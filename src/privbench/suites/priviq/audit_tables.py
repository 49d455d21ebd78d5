"""Terminal tables of a Priv-IQ audit document (``privbench audit`` without --json).

Why separate: the figures are computed once (:mod:`privbench.suites.priviq.audit`) into
the ``--json`` document; these functions only lay that document out, so the terminal and
the JSON always agree.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import RenderableType

from privbench.formatting import fmt
from privbench.suites.priviq.audit import is_priviq_audit
from privbench.suites.priviq.competencies import COMPETENCIES
from privbench.terminal_tables import figure_table as _table


def audit_tables(document: Mapping[str, object]) -> list[RenderableType]:
    """Table 1 comparison, duplicates, answer lengths and (with --ocr) printed answers."""
    if not is_priviq_audit(document):
        raise ValueError("not a Priv-IQ audit document")
    table1 = document["table1"]
    ocr = document["ocr"]
    competencies = _table(
        f"Competencies — {document['items']} items", "Competency", "Items", "Table 1",
        "Answer words (mean)", *(("Printed in image %", "Items > 50 %") if ocr else ()),
    )  # fmt: skip
    lengths = document["answer_lengths"]["words_by_competency"]
    for code in COMPETENCIES:
        row = [
            code,
            str(table1["competencies"][code]["n"]),
            str(table1["competencies"][code]["paper"]),
            fmt(lengths[code]),
        ]
        if ocr:
            cell = ocr["by_competency"][code]
            row += [fmt(cell["mean_percent"]), fmt(cell["above_half_percent"])]
        competencies.add_row(*row)
    if ocr:
        competencies.add_row("All", str(document["items"]), "", "", fmt(ocr["mean_percent"]),
                             fmt(ocr["above_half_percent"]))  # fmt: skip
    combinations = _table("Combinations", "Combination", "Items", "Table 1")
    for label, counted in table1["combinations"].items():
        combinations.add_row(label, str(counted["n"]), str(counted["paper"]))
    duplicates = document["duplicates"]
    questions = duplicates["questions"]
    repeated = _table(
        f"Questions: {questions['distinct']} distinct texts; {questions['duplicates']} items repeat "
        f"an earlier question; {duplicates['question_answer_pairs']['duplicates']} repeat an "
        "earlier question and answer",
        "Items", "Most repeated questions",
    )  # fmt: skip
    for group in questions["largest"]:
        repeated.add_row(str(group["n"]), group["question"])
    return [competencies, combinations, repeated]


def summary_lines(document: Mapping[str, object]) -> list[str]:
    """One-line figures that need no table (answer lengths, OCR items above half)."""
    if not is_priviq_audit(document):
        raise ValueError("not a Priv-IQ audit document")
    words = document["answer_lengths"]["words"]
    lines = [
        f"reference answers: {fmt(words['median'])} words median, {fmt(words['mean'])} mean, "
        f"{words['min']}–{words['max']}"
    ]
    ocr = document["ocr"]
    if ocr:
        listed = ", ".join(ocr["above_half_items"][:20])
        more = f" and {ocr['above_half'] - 20} more" if ocr["above_half"] > 20 else ""
        lines.append(
            f"answers more than half printed in the image: {ocr['above_half']} of "
            f"{ocr['items']} items ({listed}{more})"
        )
    return lines
