"""Model answers → structured SpatialTrust predictions (SPEC §3.2, §3.4), pure functions.

Models wrap JSON in code fences, add prose after it, write letters as "B.", "(B)" or
"B) a framed poster", give one box where a list is expected, or use another box
convention. :func:`parse_answer` tolerates all of that; what still cannot be read is a
*parse failure* of the affected question (scored 0 and counted), never a guess.
Predicted boxes leave this module in absolute pixel ``xyxy``; a box that
:func:`~privbench.spatialtrust.boxes.check_box` finds invalid (malformed, negative,
inverted, outside the image, in another convention) or that is given for something that
is not an option earns nothing and is listed as an :class:`InvalidBox` with the reason.
A q2/q3 answer's boxes may be under ``boxes`` or ``evidence`` (the dataset's own key).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from privbench.spatialtrust.boxes import BOX_CONVENTIONS, Box, BoxConvention, check_box
from privbench.spatialtrust.dataset import (
    CHOICE_QUESTIONS,
    EXPLANATION_QUESTIONS,
    QUESTION_IDS,
    ChoiceQuestion,
    SpatialItem,
)

PIXELS = BOX_CONVENTIONS["xyxy"]
BOX_KEYS = ("boxes", "evidence")
"""Where a q2/q3 answer puts its boxes: ``boxes`` (SPEC §3.2) or ``evidence``, the key the
dataset itself uses, so a ground-truth record copied as a prediction is read whole."""
NOT_AN_OPTION = "not one of the options"
NOT_OPTION_LETTERS = "choices are not option letters"
"""The parse failures of q1 and of q2/q3 whose value is no option (letter or exact text)."""
_SHOWN_CHARS = 80


def _shown(value: object) -> object:
    """A box value as written, or a cut JSON text of it when long (it goes into the log)."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return value if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "…"


@dataclass(frozen=True)
class InvalidBox:
    """A predicted box that was not scored, where it was and why (listed, never a silent 0)."""

    question: str
    option: str
    """The option letter (q2/q3), the key as written if it is no option, or ``factor N``."""
    box: object
    reason: str

    def record(self) -> dict[str, Any]:
        """As stored in the task state and the score metadata (JSON)."""
        return {
            "question": self.question,
            "option": self.option,
            "box": _shown(self.box),
            "reason": self.reason,
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> InvalidBox:
        return cls(
            str(record.get("question", "")),
            str(record.get("option", "")),
            record.get("box"),
            str(record.get("reason", "")),
        )


@dataclass(frozen=True)
class ChoiceAnswer:
    """A q2/q3 answer: chosen option letters and evidence boxes per option (pixels)."""

    choices: tuple[str, ...]
    boxes: dict[str, tuple[Box, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class PredictedFactor:
    """One factor a q4/q5 answer names; ``box`` is None when missing or invalid."""

    name: str
    why: str
    box: Box | None


@dataclass(frozen=True)
class ExplanationAnswer:
    """A q4/q5 answer: free text and the factors it names."""

    text: str
    factors: tuple[PredictedFactor, ...] = ()


@dataclass(frozen=True)
class SpatialAnswer:
    """A whole prediction for one image; ``failures`` maps a qid to why it did not parse."""

    q1: str | None = None
    q2: ChoiceAnswer | None = None
    q3: ChoiceAnswer | None = None
    q4: ExplanationAnswer | None = None
    q5: ExplanationAnswer | None = None
    failures: dict[str, str] = field(default_factory=dict)
    invalid_boxes: tuple[InvalidBox, ...] = ()

    def choice(self, qid: str) -> ChoiceAnswer | None:
        return {"q2": self.q2, "q3": self.q3}[qid]

    def explanation(self, qid: str) -> ExplanationAnswer | None:
        return {"q4": self.q4, "q5": self.q5}[qid]


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_LETTER = re.compile(r"^\s*[\(\[]?\s*([A-Za-z])\s*(?:[\)\]\.:,\-]|$)")
"""A letter alone or closed by ``)``, ``]``, ``.``, ``:``, ``,`` or ``-``. Not a letter and a
space: "A framed poster by the door" or "a lamp" is text, not option A."""


def extract_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in ``text`` that mentions a question id (else the first one)."""
    candidates = [*_FENCE.findall(text), text]
    decoder = json.JSONDecoder()
    first: dict[str, Any] | None = None
    for candidate in candidates:
        for match in re.finditer(r"\{", candidate):
            try:
                value, _ = decoder.raw_decode(candidate, match.start())
            except json.JSONDecodeError:
                continue
            if isinstance(value, dict):
                if any(qid in value for qid in QUESTION_IDS):
                    return value
                first = first or value
    return first


def option_letter(value: object, question: ChoiceQuestion) -> str | None:
    """The option letter meant by ``value`` ("B", "b", "B.", "(B)", "B) text", or the text)."""
    if not isinstance(value, str):
        return None
    for letter, text in question.options.items():
        if value.strip().rstrip(".").lower() == text.strip().rstrip(".").lower():
            return letter
    match = _LETTER.match(value)
    if match is None:
        return None
    letter = match.group(1).upper()
    return letter if letter in question.options else None


def option_letters(value: object, question: ChoiceQuestion) -> tuple[str, ...] | None:
    """Letters of a list (or a "B, C" string) of options; None if any is not an option."""
    if isinstance(value, str):
        value = [part for part in re.split(r"\s*(?:,|;|/|\band\b)\s*", value) if part.strip()]
    if not isinstance(value, list):
        return None
    letters: list[str] = []
    for part in value:
        letter = option_letter(part, question)
        if letter is None:
            return None
        if letter not in letters:
            letters.append(letter)
    return tuple(letters)


def _box_list(value: object) -> list[object]:
    """A single box ``[x1, y1, x2, y2]`` or a list of boxes (``null``: none) as box values."""
    if value is None:
        return []
    if isinstance(value, list) and len(value) == 4 and not any(isinstance(v, list) for v in value):
        return [value]
    return list(value) if isinstance(value, list) else [value]


class _Reader:
    """Reads one prediction record, listing invalid boxes."""

    def __init__(self, item: SpatialItem, convention: BoxConvention) -> None:
        self.item, self.convention = item, convention
        self.invalid_boxes: list[InvalidBox] = []

    def box(self, value: object, qid: str, option: str) -> Box | None:
        checked = check_box(value, self.convention, self.item.width, self.item.height)
        if isinstance(checked, str):
            self.invalid_boxes.append(InvalidBox(qid, option, value, checked))
            return None
        return checked

    def choice(self, value: object, qid: str, question: ChoiceQuestion) -> ChoiceAnswer | str:
        """The answer, or why it does not parse."""
        raw_boxes: object = {}
        if isinstance(value, dict):
            raw_choices = value.get("choices", value.get("choice", value.get("answer")))
            keys = [key for key in BOX_KEYS if key in value]
            if len(keys) > 1:
                return "gives both 'boxes' and 'evidence'"
            raw_boxes = value[keys[0]] if keys else {}
        else:
            raw_choices = value
        letters = option_letters(raw_choices, question)
        if letters is None:
            return NOT_OPTION_LETTERS
        if raw_boxes is None:
            raw_boxes = {}
        if not isinstance(raw_boxes, dict):
            return "boxes are not an object {option letter: [box, ...]}"
        boxes: dict[str, tuple[Box, ...]] = {}
        for key, raw in raw_boxes.items():
            letter = option_letter(key, question)
            if letter is None:
                for stray in _box_list(raw):
                    self.invalid_boxes.append(
                        InvalidBox(qid, str(key), stray, "not an option of this question")
                    )
                continue
            read = [self.box(b, qid, letter) for b in _box_list(raw)]
            boxes[letter] = boxes.get(letter, ()) + tuple(b for b in read if b is not None)
        return ChoiceAnswer(letters, boxes)

    def explanation(self, value: object, qid: str) -> ExplanationAnswer | None:
        if isinstance(value, str):
            return ExplanationAnswer(value)
        if not isinstance(value, dict):
            return None
        text = value.get("text", value.get("answer", ""))
        raw_factors = value.get("factors", [])
        if not isinstance(text, str) or not isinstance(raw_factors, list):
            return None
        factors = []
        for index, raw in enumerate(raw_factors):
            if not isinstance(raw, dict):
                return None
            name, why = raw.get("name", ""), raw.get("why", "")
            box = None if raw.get("box") is None else self.box(raw["box"], qid, f"factor {index}")
            factors.append(PredictedFactor(str(name), str(why), box))
        return ExplanationAnswer(text, tuple(factors))


def parse_record(
    record: Mapping[str, Any], item: SpatialItem, convention: BoxConvention = PIXELS
) -> SpatialAnswer:
    """A prediction object in the SPEC §3.2 shape, question by question."""
    reader = _Reader(item, convention)
    failures: dict[str, str] = {}
    raw_q1 = record.get("q1")
    if isinstance(raw_q1, dict):
        raw_q1 = raw_q1.get("choice", raw_q1.get("answer"))
    if isinstance(raw_q1, list) and len(raw_q1) == 1:
        raw_q1 = raw_q1[0]
    q1 = option_letter(raw_q1, item.q1)
    if q1 is None:
        failures["q1"] = "missing" if "q1" not in record else NOT_AN_OPTION
    choices: dict[str, ChoiceAnswer | None] = {}
    for qid in CHOICE_QUESTIONS:
        read = reader.choice(record[qid], qid, item.choice(qid)) if qid in record else "missing"
        choices[qid] = None if isinstance(read, str) else read
        if isinstance(read, str):
            failures[qid] = read
    explanations: dict[str, ExplanationAnswer | None] = {}
    for qid in EXPLANATION_QUESTIONS:
        explanations[qid] = reader.explanation(record[qid], qid) if qid in record else None
        if explanations[qid] is None:
            failures[qid] = "missing" if qid not in record else "not a text with factors"
    return SpatialAnswer(
        q1,
        choices["q2"],
        choices["q3"],
        explanations["q4"],
        explanations["q5"],
        failures,
        tuple(reader.invalid_boxes),
    )


def parse_answer(text: str, item: SpatialItem, convention: BoxConvention) -> SpatialAnswer:
    """A model's raw answer; no JSON object at all fails all five questions."""
    record = extract_json_object(text)
    if record is None:
        return SpatialAnswer(failures=dict.fromkeys(QUESTION_IDS, "no JSON object in the answer"))
    return parse_record(record, item, convention)


def answer_record(answer: SpatialAnswer) -> dict[str, Any]:
    """The SPEC §3.2 record of an answer (pixel boxes); unparsed questions are left out."""
    record: dict[str, Any] = {}
    if answer.q1 is not None:
        record["q1"] = answer.q1
    for qid in CHOICE_QUESTIONS:
        choice = answer.choice(qid)
        if choice is not None:
            boxes = {k: [list(b) for b in v] for k, v in choice.boxes.items()}
            record[qid] = {"choices": list(choice.choices), "boxes": boxes}
    for qid in EXPLANATION_QUESTIONS:
        explanation = answer.explanation(qid)
        if explanation is not None:
            factors = [
                {"name": f.name, "why": f.why, "box": None if f.box is None else list(f.box)}
                for f in explanation.factors
            ]
            record[qid] = {"text": explanation.text, "factors": factors}
    return record
