"""How real vision-language models write a SpatialTrust answer: intended answers and renderers.

Why: a score must measure what a model meant, not how it wrote it. The parser
(:mod:`privbench.suites.spatialtrust.reading`) claims to read the shapes real model families
produce — Qwen2.5-VL's ``bbox_2d`` lists in pixels of its resized input, Qwen2-VL's
grounding tokens, InternVL's ``<ref>/<box>``, Gemini's ``box_2d`` (y first), DeepSeek-VL2's
``<|det|>``, GPT-style markdown, reasoning models' ``<think>`` drafts. This module makes
that claim testable: :func:`intended_answers` derives a realistic answer per capture
(pixel boxes, the documented record) from the ground truth with deterministic mistakes,
and each :class:`Style` writes that same answer the way one model family does, with its
boxes converted into that family's convention. Reading a rendered reply must give back
the intended answer (:func:`differences`); the tests (``test_answer_styles.py``) check a
frozen corpus of renderings (``tests/data/answer_styles/replies.jsonl``) and
``bench/answer_reading.py`` measures the whole suite and the score gap.

The styles follow the verbatim evidence collected in
``tests/data/answer_styles/README.md`` (model cards, cookbooks, harness code); where a
family's output was not found verbatim, the shape is the one its official parser or
prompt implies, and the README says so.
"""

from __future__ import annotations

import copy
import json
import random
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from privbench.suites.spatialtrust.boxes import BOX_CONVENTIONS, Box, qwen25_input_size
from privbench.suites.spatialtrust.dataset import ChoiceQuestion, SpatialItem
from privbench.suites.spatialtrust.reading import SpatialAnswer, parse_answer, parse_record

Record = dict[str, Any]
PixelBox = list[int]

# -- intended answers ------------------------------------------------------------------

WRONG_Q1 = 0.2
MISS_OPTION = 0.12
ADD_OPTION = 0.1
FAR_BOX = 0.15
"""Share of boxes shifted by about 60 % of their size (IoU well below 0.5)."""
SECOND_BOX = 0.1
"""Share of options whose evidence is given as two boxes (the halves of one)."""
MISS_FACTOR = 0.15


def _clamp_box(box: Sequence[float], width: int, height: int) -> PixelBox:
    x1, y1, x2, y2 = (round(v) for v in box)
    x1, x2 = max(0, min(x1, width - 2)), max(0, min(x2, width))
    y1, y2 = max(0, min(y1, height - 2)), max(0, min(y2, height))
    return [x1, y1, max(x2, x1 + 2), max(y2, y1 + 2)]


def _jitter(box: Box, rng: random.Random, width: int, height: int) -> PixelBox:
    """A predicted box near ``box``: a few per cent off, or (sometimes) far off."""
    w, h = box[2] - box[0], box[3] - box[1]
    moved: Sequence[float]
    if rng.random() < FAR_BOX:
        dx = rng.choice((-1, 1)) * 0.6 * w
        dy = rng.choice((-1, 1)) * 0.3 * h
        moved = (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)
    else:
        moved = tuple(
            v + rng.uniform(-0.04, 0.04) * (w if i % 2 == 0 else h) for i, v in enumerate(box)
        )
    return _clamp_box(moved, width, height)


def _random_box(rng: random.Random, width: int, height: int) -> PixelBox:
    x1, y1 = rng.randint(20, width - 260), rng.randint(120, height - 300)
    return [x1, y1, x1 + rng.randint(60, 240), y1 + rng.randint(50, 240)]


def _intended_choice(
    question: ChoiceQuestion, rng: random.Random, width: int, height: int
) -> Record:
    none = question.none_option
    real = [o for o in question.options if o != none]
    choices = list(question.answer)
    if rng.random() < MISS_OPTION:
        if len(choices) > 1:
            choices.remove(rng.choice(choices))
        elif choices != [none] and none is not None:
            choices = [none]
        else:
            choices = [rng.choice(real)]
    if rng.random() < ADD_OPTION:
        extra = [o for o in real if o not in choices]
        if extra:
            choices.append(rng.choice(extra))
    if none in choices and len(choices) > 1:
        choices.remove(none)
    choices.sort()
    boxes: dict[str, list[PixelBox]] = {}
    for letter in choices:
        if letter == none:
            continue
        truth = question.evidence.get(letter, ())
        found = [_jitter(b, rng, width, height) for b in truth] or [_random_box(rng, width, height)]
        if rng.random() < SECOND_BOX:
            x1, y1, x2, y2 = found[0]
            middle = (x1 + x2) // 2
            found = [[x1, y1, middle, y2], [middle, y1, x2, y2]]
        boxes[letter] = found
    return {"choices": choices, "boxes": boxes}


def _sentence(name: str, why: str) -> str:
    text = f"{name[:1].upper()}{name[1:]} is visible: {why.rstrip('.')}."
    return text


def _intended_explanation(item: SpatialItem, qid: str, rng: random.Random) -> Record:
    question = item.explanation(qid)
    factors: list[Record] = [
        {
            "name": f.name,
            "why": f.why,
            "box": _jitter(f.box, rng, item.width, item.height),
        }
        for f in question.factors
        if rng.random() >= MISS_FACTOR
    ]
    kind = "direct" if qid == "q4" else "indirect"
    if not factors:
        return {"text": f"No {kind} sensitive factor is visible.", "factors": []}
    text = " ".join(_sentence(f["name"], f["why"]) for f in factors)
    return {"text": text, "factors": factors}


def intended_answer(item: SpatialItem, seed: int = 0) -> Record:
    """The answer a fairly good model means for ``item`` (pixel boxes, the predictions format)."""
    rng = random.Random(f"{seed}:{item.id}")
    q1 = item.q1.answer[0]
    if rng.random() < WRONG_Q1:
        q1 = rng.choice([o for o in item.q1.options if o != q1])
    record: Record = {"q1": q1}
    for qid in ("q2", "q3"):
        record[qid] = _intended_choice(item.choice(qid), rng, item.width, item.height)
    for qid in ("q4", "q5"):
        record[qid] = _intended_explanation(item, qid, rng)
    return record


def intended_answers(items: Sequence[SpatialItem], seed: int = 0) -> dict[str, Record]:
    """Per image id, :func:`intended_answer` (deterministic in ``seed``, no clock)."""
    return {item.id: intended_answer(item, seed) for item in items}


# -- box conventions as models write them ----------------------------------------------


def to_convention(box: Sequence[float], box_format: str, width: int, height: int) -> list[int]:
    """A pixel box written in ``box_format`` as a model writes it (integers)."""
    x1, y1, x2, y2 = box
    if box_format == "xyxy":
        return [round(v) for v in box]
    if box_format == "xyxy1000":
        return [round(x1 / width * 1000), round(y1 / height * 1000),
                round(x2 / width * 1000), round(y2 / height * 1000)]  # fmt: skip
    if box_format == "yxyx1000":
        return [round(y1 / height * 1000), round(x1 / width * 1000),
                round(y2 / height * 1000), round(x2 / width * 1000)]  # fmt: skip
    if box_format == "qwen25":
        seen_w, seen_h = qwen25_input_size(width, height)
        return [round(x1 * seen_w / width), round(y1 * seen_h / height),
                round(x2 * seen_w / width), round(y2 * seen_h / height)]  # fmt: skip
    raise ValueError(f"no integer rendering for {box_format}")


# -- styles ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """One model family's way of writing the answer."""

    name: str
    box_format: str
    source: str
    render_fn: Callable[[Record, SpatialItem, Style], str]
    keeps_names: bool = True
    """Whether a factor's name survives as written (token styles lose it to prose)."""

    def render(self, record: Record, item: SpatialItem) -> str:
        return self.render_fn(copy.deepcopy(record), item, self)

    def box(self, box: Sequence[float], item: SpatialItem) -> list[int]:
        return to_convention(box, self.box_format, item.width, item.height)


def variant(item: SpatialItem, count: int, salt: str = "") -> int:
    """A sub-variant number for ``item`` (stable across runs and Python versions)."""
    return zlib.crc32(f"{salt}{item.id}".encode()) % count


def _converted(record: Record, item: SpatialItem, style: Style) -> Record:
    """The record with every box in the style's convention."""
    out = copy.deepcopy(record)
    for qid in ("q2", "q3"):
        out[qid]["boxes"] = {
            k: [style.box(b, item) for b in v] for k, v in record[qid]["boxes"].items()
        }
    for qid in ("q4", "q5"):
        for factor in out[qid]["factors"]:
            factor["box"] = style.box(factor["box"], item)
    return out


def _option_label(question: ChoiceQuestion, letter: str) -> str:
    return f"{letter}. {question.options[letter]}"


def _coords(box: Sequence[int]) -> str:
    return "(" + ", ".join(str(v) for v in box) + ")"


def _render_clean(record: Record, item: SpatialItem, style: Style) -> str:
    return json.dumps(_converted(record, item, style), ensure_ascii=False)


def _closing_sentence(record: Record) -> str:
    if record["q1"] == "A":
        return "The main risks are the items listed under q4 and q5."
    return "I did not find anything that would leak information from the screen."


def _render_fenced(record: Record, item: SpatialItem, style: Style) -> str:
    body = json.dumps(_converted(record, item, style), indent=2, ensure_ascii=False)
    lead = ["", "Here is my answer:\n\n", "Based on the visible evidence:\n\n"][variant(item, 3)]
    return f"{lead}```json\n{body}\n```\n\n{_closing_sentence(record)}"


def _letters_prose(question: ChoiceQuestion, choices: list[str], form: int) -> str:
    if len(choices) == 1:
        letter = choices[0]
        return [f"{letter}", f"Option {letter}", f"{letter} ({question.options[letter]})"][form % 3]
    if form % 2:
        return "Options " + ", ".join(choices[:-1]) + " and " + choices[-1]
    return ", ".join(choices)


def _render_gpt4o(record: Record, item: SpatialItem, style: Style) -> str:
    rec = _converted(record, item, style)
    form = variant(item, 6)
    q1 = rec["q1"]
    lines = ["Here is my analysis of the capture.", ""]
    heading = ["**q1:** ", "### q1\n", "**Q1.** "][form % 3]
    lines.append(f"{heading}{q1} ({item.q1.options[q1]})")
    for qid in ("q2", "q3"):
        question = item.choice(qid)
        answer = rec[qid]
        heading = [f"**{qid}:** ", f"### {qid}\n", f"**{qid.upper()}.** "][form % 3]
        lines += ["", heading + _letters_prose(question, answer["choices"], form)]
        for letter in answer["choices"]:
            for box in answer["boxes"].get(letter, []):
                lines.append(f"- {letter} ({question.options[letter]}): {_coords(box)}")
    for qid in ("q4", "q5"):
        answer = rec[qid]
        heading = [f"**{qid}:** ", f"### {qid}\n", f"**{qid.upper()}.** "][form % 3]
        lines += ["", heading + answer["text"]]
        for factor in answer["factors"]:
            lines.append(f"- **{factor['name']}** {_coords(factor['box'])}: {factor['why']}")
    return "\n".join(lines)


def _render_table(record: Record, item: SpatialItem, style: Style) -> str:
    rec = _converted(record, item, style)
    rows = ["| Question | Answer | Evidence |", "|---|---|---|"]
    rows.append(f"| q1 | {rec['q1']} ({item.q1.options[rec['q1']]}) | — |")
    for qid in ("q2", "q3"):
        question = item.choice(qid)
        answer = rec[qid]
        evidence = "; ".join(
            f"{letter}: " + ", ".join(_coords(b) for b in boxes)
            for letter, boxes in answer["boxes"].items()
        )
        rows.append(f"| {qid} | {', '.join(answer['choices'])} | {evidence or '—'} |")
        del question
    for qid in ("q4", "q5"):
        answer = rec[qid]
        evidence = "; ".join(f"{f['name']} {_coords(f['box'])}" for f in answer["factors"])
        rows.append(f"| {qid} | {answer['text']} | {evidence or '—'} |")
    return "\n".join(rows)


def _detections(
    question: ChoiceQuestion, answer: Record, key: str, label_form: int
) -> list[Record]:
    entries: list[Record] = []
    for letter in answer["choices"]:
        label = [_option_label(question, letter), letter, question.options[letter]][label_form]
        boxes = answer["boxes"].get(letter, [])
        if not boxes:
            entries.append({"label": label})
        entries += [{key: box, "label": label} for box in boxes]
    return entries


def _json_lines(value: object, indent: str) -> str:
    """A Qwen cookbook-style dump: one object per line inside lists of detections."""
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        inner = (",\n" + indent).join(json.dumps(v, ensure_ascii=False) for v in value)
        return f"[\n{indent}{inner}\n]"
    return json.dumps(value, ensure_ascii=False)


def _render_qwen25(record: Record, item: SpatialItem, style: Style) -> str:
    rec = _converted(record, item, style)
    form = variant(item, 4)
    out: Record = {"q1": f"{rec['q1']} ({item.q1.options[rec['q1']]})"}
    for qid in ("q2", "q3"):
        out[qid] = _detections(item.choice(qid), rec[qid], "bbox_2d", 0)
    for qid in ("q4", "q5"):
        answer = rec[qid]
        out[qid] = {
            "text": answer["text"],
            "factors": [
                {"bbox_2d": f["box"], "label": f["name"], "why": f["why"]}
                for f in answer["factors"]
            ],
        }
    indent = "\t" if form % 2 else "    "
    body = "{\n" + ",\n".join(
        f'{indent}"{k}": {_json_lines(v, indent * 2)}' for k, v in out.items()
    ) + "\n}"  # fmt: skip
    if form >= 2:
        return f"```json\n{body}\n```"
    return f"```json\n{body}\n```\n\nThere are {_factor_count(rec)} sensitive factors in the image."


def _factor_count(record: Record) -> int:
    return len(record["q4"]["factors"]) + len(record["q5"]["factors"])


def _render_qwen3(record: Record, item: SpatialItem, style: Style) -> str:
    rec = _converted(record, item, style)
    form = variant(item, 3)
    out: Record = {"q1": rec["q1"]}
    for qid in ("q2", "q3"):
        question = item.choice(qid)
        answer = rec[qid]
        if form == 0:
            boxes: object = _detections(question, {**answer, "choices": [
                c for c in answer["choices"] if answer["boxes"].get(c)]}, "bbox_2d", 1)  # fmt: skip
        else:
            boxes = {
                letter: [{"bbox_2d": b, "label": question.options[letter]} for b in bs]
                for letter, bs in answer["boxes"].items()
            }
        out[qid] = {"choices": answer["choices"], "boxes": boxes}
    for qid in ("q4", "q5"):
        answer = rec[qid]
        out[qid] = {
            "text": answer["text"],
            "factors": [
                {"name": f["name"], "why": f["why"], "bbox_2d": f["box"]} for f in answer["factors"]
            ],
        }
    body = json.dumps(out, indent="\t" if form == 1 else 4, ensure_ascii=False)
    return f"json\n{body}" if form == 2 else f"```json\n{body}\n```"


def _qwen2_box(box: Sequence[int], stripped: bool) -> str:
    coords = f"({box[0]},{box[1]}),({box[2]},{box[3]})"
    return coords if stripped else f"<|box_start|>{coords}<|box_end|>"


def _qwen2_ref(label: str, stripped: bool) -> str:
    return label if stripped else f"<|object_ref_start|>{label}<|object_ref_end|>"


def _render_qwen2(record: Record, item: SpatialItem, style: Style) -> str:
    rec = _converted(record, item, style)
    stripped = variant(item, 3) == 2
    out: Record = {"q1": rec["q1"]}
    for qid in ("q2", "q3"):
        question = item.choice(qid)
        parts = []
        for letter in rec[qid]["choices"]:
            boxes = "".join(_qwen2_box(b, stripped) for b in rec[qid]["boxes"].get(letter, []))
            parts.append(_qwen2_ref(_option_label(question, letter), stripped) + boxes)
        out[qid] = ", ".join(parts)
    for qid in ("q4", "q5"):
        answer = rec[qid]
        if not answer["factors"]:
            out[qid] = answer["text"]
            continue
        sentences = [
            f"{_qwen2_ref(f['name'], stripped)}{_qwen2_box(f['box'], stripped)} "
            f"{f['why'].rstrip('.')}."
            for f in answer["factors"]
        ]
        out[qid] = " ".join(sentences)
    return json.dumps(out, ensure_ascii=False)


def _render_internvl(record: Record, item: SpatialItem, style: Style) -> str:
    rec = _converted(record, item, style)
    out: Record = {"q1": rec["q1"]}
    for qid in ("q2", "q3"):
        question = item.choice(qid)
        parts = []
        for letter in rec[qid]["choices"]:
            boxes = rec[qid]["boxes"].get(letter, [])
            box_text = f"<box>{json.dumps(boxes)}</box>" if boxes else ""
            parts.append(f"<ref>{_option_label(question, letter)}</ref>{box_text}")
        out[qid] = " ".join(parts) if variant(item, 2) else ", ".join(parts)
    for qid in ("q4", "q5"):
        answer = rec[qid]
        if not answer["factors"]:
            out[qid] = answer["text"]
            continue
        out[qid] = " ".join(
            f"<ref>{f['name']}</ref><box>{json.dumps([f['box']])}</box> {f['why'].rstrip('.')}."
            for f in answer["factors"]
        )
    return json.dumps(out, ensure_ascii=False, indent=2)


def _render_gemini(record: Record, item: SpatialItem, style: Style) -> str:
    rec = _converted(record, item, style)
    form = variant(item, 2)
    out: Record = {"q1": rec["q1"]}
    for qid in ("q2", "q3"):
        question = item.choice(qid)
        answer = rec[qid]
        if form == 0:
            out[qid] = _detections(question, answer, "box_2d", 0)
        else:
            with_boxes = [c for c in answer["choices"] if answer["boxes"].get(c)]
            out[qid] = {
                "choices": answer["choices"],
                "boxes": _detections(question, {**answer, "choices": with_boxes}, "box_2d", 1),
            }
    for qid in ("q4", "q5"):
        answer = rec[qid]
        out[qid] = {
            "text": answer["text"],
            "factors": [
                {"box_2d": f["box"], "label": f["name"], "why": f["why"]} for f in answer["factors"]
            ],
        }
    return "```json\n" + json.dumps(out, indent=2, ensure_ascii=False) + "\n```"


def _deepseek_det(boxes: list[list[int]]) -> str:
    return "<|det|>" + json.dumps(boxes) + "<|/det|>"


def _render_deepseek(record: Record, item: SpatialItem, style: Style) -> str:
    rec = _converted(record, item, style)
    prose = variant(item, 2) == 1
    out: Record = {"q1": rec["q1"]}
    for qid in ("q2", "q3"):
        question = item.choice(qid)
        parts = []
        for letter in rec[qid]["choices"]:
            boxes = rec[qid]["boxes"].get(letter, [])
            det = _deepseek_det(boxes) if boxes else ""
            parts.append(f"<|ref|>{_option_label(question, letter)}<|/ref|>{det}")
        out[qid] = "".join(parts)
    for qid in ("q4", "q5"):
        answer = rec[qid]
        if not answer["factors"]:
            out[qid] = answer["text"]
            continue
        out[qid] = " ".join(
            f"<|ref|>{f['name']}<|/ref|>{_deepseek_det([f['box']])} {f['why'].rstrip('.')}."
            for f in answer["factors"]
        )
    if prose:
        return "\n".join(f"{qid}: {value}" for qid, value in out.items())
    return json.dumps(out, ensure_ascii=False) + "<｜end▁of▁sentence｜>"


def _draft(record: Record, item: SpatialItem) -> Record:
    """A first answer the model revises: q1 flipped, q2's choice replaced, no factors."""
    draft = copy.deepcopy(record)
    draft["q1"] = next(o for o in item.q1.options if o != record["q1"])
    none = item.q2.none_option
    wrong = [o for o in item.q2.options if o not in record["q2"]["choices"] and o != none]
    draft["q2"] = {"choices": wrong[:1], "boxes": {}}
    draft["q4"] = {"text": "Not sure yet.", "factors": []}
    return draft


def _render_think(record: Record, item: SpatialItem, style: Style) -> str:
    form = variant(item, 3)
    final = _converted(record, item, style)
    draft = _converted(_draft(record, item), item, style)
    thinking = (
        "<think>\nThe user sits in the centre; I should look only at the background.\n"
        f"A first answer would be:\n{json.dumps(draft, ensure_ascii=False)}\n"
        "Wait, let me check q1 and q2 again against the options. That draft is wrong.\n</think>"
    )
    body = json.dumps(final, ensure_ascii=False, indent=2 if form else None)
    if form == 1:
        return f"{thinking}\n\n```json\n{body}\n```"
    if form == 2:
        return f"{thinking}\n\nFinal answer:\n{body}"
    return f"{thinking}\n{body}"


def _render_glm(record: Record, item: SpatialItem, style: Style) -> str:
    final = _converted(record, item, style)
    draft = _converted(_draft(record, item), item, style)
    spacing = "\n" if variant(item, 2) else ""
    return (
        f"<think>\nLooking at the background. Draft: {json.dumps(draft)}\n"
        "No, I need to revise q1 and q2.</think>"
        f"{spacing}<answer>{spacing}<|begin_of_box|>{json.dumps(final, ensure_ascii=False)}"
        f"<|end_of_box|>{spacing}</answer>"
    )


def _render_letters(record: Record, item: SpatialItem, style: Style) -> str:
    rec = _converted(record, item, style)
    form = variant(item, 4)
    q1 = rec["q1"]
    rec["q1"] = [f"{q1} ({item.q1.options[q1]})", f"Answer: {q1}", f"**{q1}**",
                 f"\\boxed{{{q1}}}"][form]  # fmt: skip
    for offset, qid in enumerate(("q2", "q3")):
        question = item.choice(qid)
        choices = rec[qid]["choices"]
        kind = (form + offset) % 4
        if kind == 0:
            rec[qid]["choices"] = " & ".join(choices)
        elif kind == 1:
            rec[qid]["choices"] = ", ".join(f"Option {c}" for c in choices)
        elif kind == 2:
            rec[qid]["choices"] = [f"Option {c}" for c in choices]
        else:
            rec[qid]["choices"] = ", ".join(f"{c} ({question.options[c]})" for c in choices)
    return json.dumps(rec, ensure_ascii=False)


def _json5(value: object, quote: str, level: int = 0) -> str:
    """JSON5 with trailing commas everywhere and ``quote`` around strings."""
    pad, inner = "  " * level, "  " * (level + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = "".join(f"{inner}{_json5(str(k), quote)}: {_json5(v, quote, level + 1)},\n"
                        for k, v in value.items())  # fmt: skip
        return "{\n" + items + pad + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        if all(isinstance(v, int) for v in value):
            return "[" + ", ".join(str(v) for v in value) + ",]"
        items = "".join(f"{inner}{_json5(v, quote, level + 1)},\n" for v in value)
        return "[\n" + items + pad + "]"
    if isinstance(value, str):
        if quote == '"':
            return json.dumps(value, ensure_ascii=False)
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return json.dumps(value)


def _render_json5(record: Record, item: SpatialItem, style: Style) -> str:
    quote = "'" if variant(item, 2) else '"'
    return _json5(_converted(record, item, style), quote)


STYLES: dict[str, Style] = {
    s.name: s
    for s in (
        Style("clean_json", "xyxy", "docs/spatialtrust.md (privbench's documented format)",
              _render_clean),
        Style("fenced_json_prose", "xyxy",
              "QwenLM/Qwen2.5-VL cookbooks/spatial_understanding.ipynb (fenced JSON, then prose)",
              _render_fenced),
        Style("gpt4o_prose", "xyxy",
              "not found verbatim for GPT-4o; markdown habits of chat VLMs as in QwenLM/Qwen3-VL "
              "cookbooks (bold headings, bullets)", _render_gpt4o),
        Style("gpt_markdown_table", "xyxy",
              "not found verbatim; markdown table answers of chat models", _render_table,
              keeps_names=False),
        Style("qwen25_vl", "qwen25",
              "QwenLM/Qwen2.5-VL cookbooks/spatial_understanding.ipynb; issues QwenLM/Qwen3-VL#676, "
              "#733 (absolute pixels of the smart_resize'd input)", _render_qwen25),
        Style("qwen3_vl", "xyxy1000",
              "QwenLM/Qwen3-VL cookbooks/2d_grounding.ipynb (relative 0-1000); issue #2020 "
              "(bare 'json' fence line)", _render_qwen3),
        Style("qwen2_vl_tokens", "xyxy1000",
              "QwenLM/Qwen3-VL issue #9 (Qwen2-VL <|box_start|> output); "
              "qwen-vl-finetune/tools/process_bbox.ipynb (0-1000)", _render_qwen2,
              keeps_names=False),
        Style("internvl", "xyxy1000",
              "OpenGVLab/InternVL streamlit_demo/app.py and eval/refcoco/evaluate_grounding.py "
              "(<ref>/<box>[[...]], 0-1000)", _render_internvl, keeps_names=False),
        Style("gemini", "yxyx1000",
              "Google Cloud Vertex AI 'Bounding box detection' ([y_min, x_min, y_max, x_max], "
              "0-1000); roboflow/supervision from_google_gemini_2_0", _render_gemini),
        Style("deepseek_vl2", "xyxy1000",
              "deepseek-ai/DeepSeek-VL2 README (<|ref|>..<|/ref|><|det|>[[..]]<|/det|>)",
              _render_deepseek, keeps_names=False),
        Style("reasoning_think", "xyxy",
              "vLLM reasoning parsers (Qwen3 / DeepSeek-R1 <think>); VLMEvalKit "
              "split('</think>')[-1]", _render_think),
        Style("glm_thinking", "xyxy1000",
              "zai-org/GLM-V README and glmv_reward (<think>, <answer>, <|begin_of_box|>)",
              _render_glm),
        Style("letters_variants", "xyxy",
              "VLMEvalKit matching_util.py, lmms-eval MultiChoiceRegexFilter, inspect_ai "
              "multiple_choice (letter forms)", _render_letters),
        Style("json_trailing_commas", "xyxy",
              "supervision recover_truncated_qwen_2_5_vl_response (trailing commas); JSON5",
              _render_json5),
    )
}  # fmt: skip


# -- reading back ----------------------------------------------------------------------

BOX_TOLERANCE = 1.5
"""Pixels per coordinate: converting to 0–1000 or Qwen2.5-VL's input size rounds."""


def read_reply(reply: str, item: SpatialItem, box_format: str) -> SpatialAnswer:
    return parse_answer(reply, item, BOX_CONVENTIONS[box_format])


def meant(record: Record, item: SpatialItem) -> SpatialAnswer:
    """The intended record as privbench's own format reads it (pixels)."""
    return parse_record(record, item, BOX_CONVENTIONS["xyxy"])


def _boxes_close(a: Sequence[float] | None, b: Sequence[float] | None) -> bool:
    if a is None or b is None:
        return a is b
    return all(abs(x - y) <= BOX_TOLERANCE for x, y in zip(a, b, strict=True))


def differences(got: SpatialAnswer, want: SpatialAnswer, keeps_names: bool = True) -> list[str]:
    """How an answer as read differs from the answer as meant (empty: read as intended)."""
    diffs: list[str] = []
    if got.failures:
        diffs += [f"{qid} failed: {why}" for qid, why in got.failures.items()]
    if got.invalid_boxes:
        diffs += [f"invalid box {b.question}/{b.option}: {b.box} ({b.reason})"
                  for b in got.invalid_boxes]  # fmt: skip
    if got.q1 != want.q1:
        diffs.append(f"q1 read {got.q1!r}, meant {want.q1!r}")
    for qid in ("q2", "q3"):
        g, w = got.choice(qid), want.choice(qid)
        if g is None or w is None:
            if g is not w:
                diffs.append(f"{qid} read {g}, meant {w}")
            continue
        if set(g.choices) != set(w.choices):
            diffs.append(f"{qid} choices read {sorted(g.choices)}, meant {sorted(w.choices)}")
        for letter in sorted(set(g.boxes) | set(w.boxes)):
            gb, wb = g.boxes.get(letter, ()), w.boxes.get(letter, ())
            if len(gb) != len(wb) or not all(
                _boxes_close(x, y) for x, y in zip(gb, wb, strict=True)
            ):
                diffs.append(f"{qid} boxes of {letter} read {list(gb)}, meant {list(wb)}")
    for qid in ("q4", "q5"):
        ge, we = got.explanation(qid), want.explanation(qid)
        if ge is None or we is None:
            if ge is not we:
                diffs.append(f"{qid} read {ge}, meant {we}")
            continue
        if len(ge.factors) != len(we.factors):
            diffs.append(f"{qid} read {len(ge.factors)} factors, meant {len(we.factors)}")
            continue
        for index, (gf, wf) in enumerate(zip(ge.factors, we.factors, strict=True)):
            if not _boxes_close(gf.box, wf.box):
                diffs.append(f"{qid} factor {index} box read {gf.box}, meant {wf.box}")
            if keeps_names and gf.name != wf.name:
                diffs.append(f"{qid} factor {index} name read {gf.name!r}, meant {wf.name!r}")
    return diffs


# -- the frozen corpus -----------------------------------------------------------------

CORPUS = "tests/data/answer_styles/replies.jsonl"
FIXTURE_ITEMS = ("st-0010", "st-0014", "st-0025", "st-0052")
"""st-0010: q2 "None of the above", q3 two options, no q4 factor; st-0014: q2 two options,
one of them with two boxes, q3 "None of the above"; st-0025: q2 two options with boxes,
q3 "None", a q4 factor; st-0052: q2 two and q3 three options, two factors each."""
VERBATIM_ITEM = "st-0025"


def _line(style: str, source: str, box_format: str, item_id: str, reply: str,
          record: Record) -> Record:  # fmt: skip
    return {"style": style, "source": source, "box_format": box_format, "item_id": item_id,
            "reply": reply, "intended": record}  # fmt: skip


def verbatim_lines(item: SpatialItem, record: Record) -> list[Record]:
    """Hand-written replies in shapes quoted verbatim by the sources, for ``item``
    (st-0025: q2 C and D with one box each, q3 E, one q4 factor, no q5 factor)."""
    c, d = record["q2"]["boxes"]["C"][0], record["q2"]["boxes"]["D"][0]
    factor = record["q4"]["factors"][0]
    f = factor["box"]
    w, h = item.width, item.height

    def q25(box: Sequence[float]) -> list[int]:
        return to_convention(box, "qwen25", w, h)

    def k(box: Sequence[float]) -> list[int]:
        return to_convention(box, "xyxy1000", w, h)

    def g(box: Sequence[float]) -> list[int]:
        return to_convention(box, "yxyx1000", w, h)

    name, why = factor["name"], factor["why"]
    q2c, q2d = item.q2.options["C"], item.q2.options["D"]
    q4_text, q5_text = record["q4"]["text"], record["q5"]["text"]
    lines = []
    qwen25 = (
        "```json\n{\n"
        '\t"q1": "A",\n'
        f'\t"q2": [\n\t\t{{"bbox_2d": {q25(c)}, "label": "C. {q2c}"}},\n'
        f'\t\t{{"bbox_2d": {q25(d)}, "label": "D. {q2d}"}}\n\t],\n'
        '\t"q3": [{"label": "E. None of the above"}],\n'
        f'\t"q4": {{"text": {json.dumps(q4_text)}, "factors": [{{"bbox_2d": {q25(f)}, '
        f'"label": {json.dumps(name)}, "why": {json.dumps(why)}}}]}},\n'
        f'\t"q5": {{"text": {json.dumps(q5_text)}, "factors": []}}\n'
        "}\n```\n\nThere are 2 items in the image."
    )
    lines.append(("verbatim_qwen25_cookbook", "qwen25",
                  "QwenLM/Qwen2.5-VL cookbooks/spatial_understanding.ipynb (tab-indented fenced "
                  "list, then 'There are 12 items in the image.')", qwen25))  # fmt: skip
    stripped = json.dumps({
        "q1": "A",
        "q2": f"C. {q2c}({k(c)[0]},{k(c)[1]}),({k(c)[2]},{k(c)[3]}), "
              f"D. {q2d}({k(d)[0]},{k(d)[1]}),({k(d)[2]},{k(d)[3]})",
        "q3": "E. None of the above",
        "q4": f"{name}({k(f)[0]},{k(f)[1]}),({k(f)[2]},{k(f)[3]}) {why}",
        "q5": q5_text,
    }, ensure_ascii=False)  # fmt: skip
    lines.append(("verbatim_qwen2_tokens_stripped", "xyxy1000",
                  "QwenLM/Qwen3-VL issue #9 output '击掌(531,516),(581,596)' as decoded with "
                  "skip_special_tokens=True", stripped))  # fmt: skip
    qwen3 = "json\n" + json.dumps({
        "q1": "A",
        "q2": {"choices": ["C", "D"], "boxes": [{"bbox_2d": k(c), "label": "C"},
                                                 {"bbox_2d": k(d), "label": "D"}]},
        "q3": {"choices": ["E"], "boxes": []},
        "q4": {"text": q4_text, "factors": [{"bbox_2d": k(f), "label": name, "why": why}]},
        "q5": {"text": q5_text, "factors": []},
    }, indent=4, ensure_ascii=False)  # fmt: skip
    lines.append(("verbatim_qwen3_bare_json_line", "xyxy1000",
                  "QwenLM/Qwen3-VL issue #2020 (Qwen3-VL-235B reply whose fence is a bare "
                  "'json' line)", qwen3))  # fmt: skip
    internvl = json.dumps({
        "q1": "A",
        "q2": f"<ref>C. {q2c}</ref><box>[[{', '.join(map(str, k(c)))}]]</box>, "
              f"<ref>D. {q2d}</ref><box>[[{', '.join(map(str, k(d)))}]]</box>",
        "q3": "E",
        "q4": f"<ref>{name}</ref><box>[[{', '.join(map(str, k(f)))}]]</box> {why}",
        "q5": q5_text,
    }, ensure_ascii=False)  # fmt: skip
    lines.append(("verbatim_internvl_ref_box", "xyxy1000",
                  "OpenGVLab/InternVL streamlit_demo/app.py regex "
                  "<ref>(.*?)</ref><box>(\\[\\[.*?\\]\\])</box>", internvl))  # fmt: skip
    deepseek = (
        "q1: A\n"
        f"q2: <|ref|>C. {q2c}<|/ref|><|det|>[{k(c)}]<|/det|><|ref|>D. {q2d}<|/ref|>"
        f"<|det|>[{k(d)}]<|/det|>\n"
        "q3: <|ref|>E. None of the above<|/ref|>\n"
        f"q4: <|ref|>{name}<|/ref|><|det|>[{k(f)}]<|/det|> {why}\n"
        f"q5: {q5_text}<|end▁of▁sentence|>"
    )
    lines.append(("verbatim_deepseek_two_refs", "xyxy1000",
                  "roboflow/supervision from_deepseek_vl_2 docstring (two refs back to back, "
                  "then <|end▁of▁sentence|>); deepseek-ai/DeepSeek-VL2 README", deepseek))  # fmt: skip
    gemini = (
        "```json\n    {\n"
        '        "q1": "A",\n'
        f'        "q2": [\n            {{"box_2d": {g(c)}, "label": "C", "id": 1}},\n'
        f'            {{"box_2d": {g(d)}, "label": "D", "id": 2}}\n        ],\n'
        '        "q3": ["E"],\n'
        f'        "q4": {{"text": {json.dumps(q4_text)}, "factors": [{{"box_2d": {g(f)}, '
        f'"label": {json.dumps(name)}, "why": {json.dumps(why)}, "id": 1}}]}},\n'
        f'        "q5": {{"text": {json.dumps(q5_text)}, "factors": []}}\n'
        "    }\n```"
    )
    lines.append(("verbatim_gemini_supervision", "yxyx1000",
                  "roboflow/supervision Gemini example (indented fenced list with an extra 'id' "
                  "key); Vertex AI bounding-box-detection ([y_min, x_min, y_max, x_max])",
                  gemini))  # fmt: skip
    clean = json.dumps(_converted(record, item, STYLES["glm_thinking"]), ensure_ascii=False)
    glm = (
        "<think>\nI need to look at the background only.\nC and D are visible; nothing "
        "indirect.\n</think>\n<answer>\n<|begin_of_box|>" + clean + "<|end_of_box|>\n</answer>"
    )
    lines.append(("verbatim_glm_reward", "xyxy1000",
                  "zai-org/GLM-V glmv_reward/README.md (<think>\\n…\\n</think>\\n<answer>\\n"
                  "<|begin_of_box|>…<|end_of_box|>\\n</answer>)", glm))  # fmt: skip
    pixels = json.dumps(record, ensure_ascii=False)
    kimi = (
        '◁think▷The user is in the centre. Draft: {"q1": "B"}. Make sure to be concise. '
        "Let's put it all together.◁/think▷" + pixels
    )
    lines.append(("verbatim_kimi_think", "xyxy",
                  "VLMEvalKit vlmeval/vlm/kimi_vl.py extract_summary(bot='◁think▷', "
                  "eot='◁/think▷'); leaked Kimi-VL-Thinking output", kimi))  # fmt: skip
    chat = (
        "So, the background holds a whiteboard and a person peering at the screen.\n\n"
        "**q1:** ✅ Correct answer: **A. Yes.**\n\n"
        "**q2:** **Answer: C, D**\n"
        f"- C: {_coords(c)}\n- D: {_coords(d)}\n\n"
        "**q3:** E. None of the above\n\n"
        f"**q4:** {q4_text}\n- {name} {_coords(f)}\n\n"
        f"**q5:** {q5_text}"
    )
    lines.append(("verbatim_qwen3_chat_markdown", "xyxy",
                  "QwenLM/Qwen3-VL cookbook chat answers ('✅ Correct answer: **B. Blue.**', "
                  "'**Answer: D. D.**')", chat))  # fmt: skip
    return [_line(s, src, fmt, item.id, reply, record) for s, fmt, src, reply in lines]


def corpus_lines(items: Sequence[SpatialItem], seed: int = 0) -> list[Record]:
    """Every style's rendering of the fixture items, then the verbatim shapes."""
    by_id = {item.id: item for item in items}
    intended = intended_answers([by_id[i] for i in (*FIXTURE_ITEMS, VERBATIM_ITEM)], seed)
    lines = [
        _line(style.name, style.source, style.box_format, item_id,
              style.render(intended[item_id], by_id[item_id]), intended[item_id])
        for style in STYLES.values()
        for item_id in FIXTURE_ITEMS
    ]  # fmt: skip
    return lines + verbatim_lines(by_id[VERBATIM_ITEM], intended[VERBATIM_ITEM])


def write_corpus() -> None:
    """Regenerate the frozen corpus (``python tests/helpers/answer_styles.py``); review the diff."""
    from pathlib import Path

    from privbench.suites.spatialtrust.dataset import load_spatialtrust
    from privbench.suites.spatialtrust.task import default_data_dir

    path = Path(__file__).resolve().parents[2] / CORPUS
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = corpus_lines(load_spatialtrust(default_data_dir()))
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    path.write_text(text, encoding="utf-8")
    print(f"{len(lines)} replies → {path}")


if __name__ == "__main__":
    write_corpus()
