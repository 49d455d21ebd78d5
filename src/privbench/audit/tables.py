"""Terminal tables of an audit document (what ``privbench audit`` prints without --json).

Why separate: the figures are computed once (:mod:`privbench.audit.spatialtrust`,
:mod:`privbench.audit.priviq`) into the ``--json`` document; these functions only lay that
document out, so the terminal and the JSON always agree.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import RenderableType
from rich.table import Table

from privbench.audit.priviq import is_priviq_audit
from privbench.audit.spatialtrust import CueDocument, Offered, is_spatial_audit
from privbench.formatting import fmt
from privbench.suites.priviq.competencies import COMPETENCIES

_QUESTIONS = {
    "q1": "q1 detection",
    "q2": "q2 direct identification",
    "q3": "q3 indirect identification",
    "q4": "q4 direct explanation",
    "q5": "q5 indirect explanation",
}
_SHORT = {"q2": "q2 direct", "q3": "q3 indirect"}
_SHARES = {"direct_only": "direct only", "indirect_only": "indirect only", "both": "both",
           "neither": "neither"}  # fmt: skip


def _table(title: str, *columns: str, text: int = 1) -> Table:
    """A table whose first ``text`` columns are left-aligned text, the rest numbers."""
    table = Table(title=title, title_justify="left")
    for index, column in enumerate(columns):
        table.add_column(column, justify="left" if index < text else "right")
    return table


def _offered(cell: Offered) -> str:
    """``present / absent (rate %)`` of one factor type in one question."""
    return f"{cell['present']} / {cell['absent']} ({fmt(cell['answer_rate'])})"


def _number(value: object) -> float | None:
    """A figure of the trivial-baseline record, which the benchmark writes untyped."""
    return value if isinstance(value, int | float) else None


def spatial_tables(document: Mapping[str, object]) -> list[RenderableType]:
    """Baselines, leakage, category shares, factor types and boxes of a SpatialTrust audit."""
    if not is_spatial_audit(document):
        raise ValueError("not a SpatialTrust audit document")
    n = document["items"]
    trivial = document["baselines"]["trivial"]
    answers = trivial["answers"]
    best_answers = answers if isinstance(answers, Mapping) else {}
    baselines = _table(
        f"Trivial baselines (no image) — {n} images", "Question", "Best constant answer", "Score",
        text=2,
    )  # fmt: skip
    for qid, label in _QUESTIONS.items():
        baselines.add_row(label, str(best_answers[qid]), fmt(_number(trivial[qid])))
    baselines.add_row("Overall", "", fmt(_number(trivial["overall"])))
    tables: list[RenderableType] = [baselines]
    details, detection = document["leakage"]["details"], document["leakage"]["detection"]
    if details and detection:
        splits = next(iter(details.values()))["splits"]
        leakage = _table(
            f"Option-name leakage — text-only predictor vs best constant, held-out halves "
            f"({splits} splits, boxes assumed perfect)",
            "Question", "Option texts only", "Best constant", "Gain (points)", "± sd",
        )  # fmt: skip
        rows = [(_SHORT[qid], details[qid]) for qid in ("q2", "q3")]
        rows.append(("q1 from q2/q3 texts", detection))
        for label, d in rows:
            leakage.add_row(label, fmt(d["predictor"]), fmt(d["trivial"]),
                            f"{d['gain']:+.1f}", fmt(d["gain_sd"]))  # fmt: skip
        tables.append(leakage)
    tables.append(_cue_table(document["cue"]))
    shares = _table("Images by category", "Category", "Images", "%")
    for key, label in _SHARES.items():
        shares.add_row(
            label, str(document["shares"][key]["n"]), fmt(document["shares"][key]["percent"])
        )
    tables.append(shares)
    factors = _table(
        "Factor types: times offered present / absent (answer rate %)",
        "Option text", "q2 direct", "q3 indirect",
    )  # fmt: skip
    for name, by_qid in document["factors"].items():
        factors.add_row(name, _offered(by_qid["q2"]), _offered(by_qid["q3"]))
    tables.append(factors)
    boxes = _table(
        f"Boxes ({document['boxes']['questions_with_boxes']} questions require boxes): "
        "area as % of the image",
        "Boxes", "n", "min", "median", "mean", "max", "< 1 % (share)", "median w×h px",
    )  # fmt: skip
    evidence, factor_boxes = document["boxes"]["evidence"], document["boxes"]["factors"]
    for b, label in ((evidence, "q2/q3 evidence"), (factor_boxes, "q4/q5 factors")):
        area = b["area_percent"]
        size = f"{_f0(b['width_px']['median'])}×{_f0(b['height_px']['median'])}"
        boxes.add_row(label, str(b["n"]), _f2(area["min"]), _f2(area["median"]), _f2(area["mean"]),
                      _f2(area["max"]), fmt(b["small_percent"]), size)  # fmt: skip
    tables.append(boxes)
    return tables


def _cue_table(cue: CueDocument) -> Table:
    """The format-only strategy (best answer per question type) against the floor."""
    table = _table(
        f"Question-type cue — best constant or positional answer per question type vs one "
        f"for all questions (overall {cue['overall_gain']:+.1f} points)",
        "Question", "Cue-blind floor", "Format-only", "Gain (points)",
        "Boxes perfect: floor", "format-only", "gain",
    )  # fmt: skip
    for qid, label in _QUESTIONS.items():
        if qid not in cue["scored"]:
            continue
        scored, perfect = cue["scored"][qid], cue["boxes_assumed_perfect"][qid]
        table.add_row(label, fmt(scored["floor"]), fmt(scored["format_only"]),
                      f"{scored['gain']:+.1f}", fmt(perfect["floor"]),
                      fmt(perfect["format_only"]), f"{perfect['gain']:+.1f}")  # fmt: skip
    return table


def _f2(value: float | None) -> str:
    """Two decimals: box areas are often below one percent."""
    return "–" if value is None else f"{value:.2f}"


def _f0(value: float | None) -> str:
    """Whole pixels."""
    return "–" if value is None else f"{value:.0f}"


def priviq_tables(document: Mapping[str, object]) -> list[RenderableType]:
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
        return [f"directory: {document['directory']}"]
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
    lines.append(f"directory: {document['directory']}")
    return lines
