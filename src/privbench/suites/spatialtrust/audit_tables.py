"""Terminal tables of an audit document (what ``privbench audit`` prints without --json).

Why separate: the figures are computed once (:mod:`privbench.suites.spatialtrust.audit`,
:mod:`privbench.suites.priviq.audit`) into the ``--json`` document; these functions only lay that
document out, so the terminal and the JSON always agree.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import RenderableType
from rich.table import Table

from privbench.formatting import fmt
from privbench.suites.spatialtrust.audit import CueDocument, Offered, is_spatial_audit
from privbench.terminal_tables import figure_table as _table

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


def _offered(cell: Offered) -> str:
    """``present / absent (rate %)`` of one factor type in one question."""
    return f"{cell['present']} / {cell['absent']} ({fmt(cell['answer_rate'])})"


def _number(value: object) -> float | None:
    """A figure of the trivial-baseline record, which the benchmark writes untyped."""
    return value if isinstance(value, int | float) else None


def audit_tables(document: Mapping[str, object]) -> list[RenderableType]:
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
