"""Model answers → structured SpatialTrust predictions, pure functions.

A score must measure what a model meant, not how it wrote it. Models write letters as
"B.", "(B)", "B) a framed poster", "Option B", "Options B and D", "B & D", "**B**",
``\boxed{B}`` or the option's text; they list choices as strings, lists or Qwen-style
labelled boxes (``[{"bbox_2d": […], "label": "B. …"}]``); they put boxes under
``boxes``, ``evidence``, ``bbox_2d``, ``box_2d`` or ``bbox``, as grounding tokens or in
prose. :mod:`~privbench.suites.spatialtrust.answer_text` finds the final answer in the reply;
this module reads each question of it. What still cannot be read is a *parse failure*
of that question (scored 0 and counted, with the reason), never a guess: a hedge between
the options of a single-choice question ("A, C") is one.

Predicted boxes leave this module in absolute pixel ``xyxy``; a box that
:func:`~privbench.suites.spatialtrust.boxes.check_box` finds invalid (malformed, not finite,
negative, inverted, outside the image, in another convention) or that is given for
something that is not a chosen option earns nothing and is listed as an
:class:`InvalidBox` with the reason.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import lru_cache

from privbench.suites.spatialtrust.answer_text import TITLE, embedded_json, final_answer_record
from privbench.suites.spatialtrust.box_values import (
    BOX_KEYS,
    box_values,
    is_scalar,
    keyed_box,
    plain_boxes,
    string_boxes,
)
from privbench.suites.spatialtrust.boxes import BOX_CONVENTIONS, Box, BoxConvention, check_box
from privbench.suites.spatialtrust.dataset import (
    CHOICE_QUESTIONS,
    EXPLANATION_QUESTIONS,
    QUESTION_IDS,
    ChoiceQuestion,
    SpatialItem,
)

PIXELS = BOX_CONVENTIONS["xyxy"]
NOT_AN_OPTION = "not one of the options"
NOT_OPTION_LETTERS = "choices are not option letters"
"""The parse failures of q1 and of q2/q3 whose value is no option (letter or exact text)."""
_SHOWN_CHARS = 80


def _json_safe(value: object) -> object:
    """``value`` with what JSON cannot hold (NaN, infinities, huge numbers) as text."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**15:
        return f"{str(value)[:12]}… ({len(str(value))} digits)"
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    return value


def _shown(value: object) -> object:
    """A box value as written, or a cut JSON text of it when long (it goes into the log)."""
    safe = _json_safe(value)
    text = json.dumps(safe, ensure_ascii=False, default=str)
    return safe if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "…"


@dataclass(frozen=True)
class InvalidBox:
    """A predicted box that was not scored, where it was and why (listed, never a silent 0)."""

    question: str
    option: str
    """The option letter (q2/q3), the key as written if it is no option, or ``factor N``."""
    box: object
    reason: str

    def record(self) -> dict[str, object]:
        """As stored in the task state and the score metadata (JSON): the fields in their
        order, the box as :func:`_shown` writes it (read shallowly: the box is the model's)."""
        return {f.name: getattr(self, f.name) for f in fields(self)} | {"box": _shown(self.box)}

    @classmethod
    def from_record(cls, record: Mapping[str, object]) -> InvalidBox:
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


_MARKUP = re.compile(r"\\boxed\{([^{}]*)\}|\\[()\[\]]|\*\*|__|`|\$")
_REF_TAGS = re.compile(
    r"<\|object_ref_start\|>|<\|object_ref_end\|>|</?ref>|<\|/?ref\|>|<\|/?quad\|>"
)
_LEAD_IN = re.compile(
    r"^[^\w(\[]*(?:(?:my|the)\s+)?(?:(?:correct|final|best|right)\s+)?"
    r"(?:answer|choice|option|selection|selected|chosen)s?\b\s*"
    r"(?:is|are|would be|:|-|=)?\s*",
    re.IGNORECASE,
)
_LETTER_AND_TEXT = re.compile("^\\s*[\\(\\[]?([A-Za-z])[\\)\\]\\.:]?\\s+\x00([A-Z])\x00\\W*$")
_OPTION_WORD = re.compile(
    r"\boptions?\s+\(?([A-Z])\b((?:\s*(?:,|and|&|or)\s*\(?[A-Z]\b)*)", re.IGNORECASE
)
"""Letters named with the word "option" anywhere in a section ("None of the above
(Option E)"): read when nothing else names an option."""
_REF_OPEN = re.compile(r"<\|object_ref_start\|>|<ref>|<\|ref\|>")
_LETTER_RUN = re.compile(r"^(?:[A-Z]\s?){2,6}$")
"""Option letters run together ("CD", "C D"), as inspect's own multiple-choice parser
accepts them; only capitals, each an option."""
_LETTER = re.compile(r"^\s*[\(\[]?\s*([A-Za-z])\s*(?:[\)\]\.:\-–—]|\s+\(|$)")
"""A letter alone, closed by ``)``, ``]``, ``.``, ``:`` or a dash, or followed by a
parenthesis ("A (Yes)"). Not a letter and a word: "A framed poster" or "a lamp" is text,
not option A."""
_QUOTES = "\"'“”‘’«»"
_PLACEHOLDER = re.compile("\x00([A-Z])\x00")
_BOX_MARK = re.compile("\x01(\\d+)\x01")
_SPLIT = re.compile(
    r"\s*(?:[,;&+/\n]|\band\b|\bor\b|\bund\b|\bet\b|(?<=[.!?])\s(?=[\s\"'*(]*[A-Z]))\s*",
    re.IGNORECASE,
)
_PROSE_WORDS = 3
"""A part of a choice answer with this many words that names no option is commentary
("B, D — both are clearly visible"), not an unreadable choice."""

CHOICE_KEYS = (
    "choices",
    "choice",
    "answer",
    "answers",
    "selected",
    "selection",
    "options",
    "option",
    "letters",
    "letter",
)
LABEL_KEYS = ("label", "option", "choice", "letter", "name", "category", "class", "object")
TEXT_KEYS = ("text", "answer", "explanation", "description", "summary", "response")
FACTOR_KEYS = ("factors", "items", "objects", "detections", "list", "evidence", "boxes")
NAME_KEYS = ("name", "label", "factor", "object", "item", "title", "what")
WHY_KEYS = ("why", "reason", "explanation", "risk", "description", "justification")


@lru_cache(maxsize=4096)
def _option_pattern(options: tuple[tuple[str, str], ...]) -> re.Pattern[str] | None:
    """A regex finding any option's exact text as a phrase (longest first)."""
    texts = sorted(
        (text.strip().rstrip(".") for _, text in options if len(text.strip()) > 1),
        key=len,
        reverse=True,
    )
    if not texts:
        return None
    alternatives = "|".join(re.escape(text) for text in texts)
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)\.?", re.IGNORECASE)


def _mark_option_texts(text: str, question: ChoiceQuestion) -> str:
    """``text`` with each option's exact text replaced by a mark of its letter, so that
    commas or "and" inside an option's text do not split it."""
    pattern = _option_pattern(tuple(question.options.items()))
    if pattern is None:
        return text
    by_text = {t.strip().rstrip(".").lower(): letter for letter, t in question.options.items()}

    def mark(match: re.Match[str]) -> str:
        letter = by_text.get(match.group().rstrip(".").lower())
        return f"\x00{letter}\x00" if letter else match.group()

    return pattern.sub(mark, text)


def _clean(text: str) -> str:
    text = _MARKUP.sub(lambda m: m.group(1) or "", text)
    text = _REF_TAGS.sub(" ", text)
    return text.strip().strip(_QUOTES).strip()


def _split_outside_parentheses(text: str) -> list[str]:
    """Parts separated by commas, "and", "&" … that are not inside parentheses."""
    parts: list[str] = []
    depth = 0
    start = 0
    for match in re.finditer(r"[()\[\]]|" + _SPLIT.pattern, text, re.IGNORECASE):
        token = match.group()
        if token in "([":
            depth += 1
        elif token in ")]":
            depth = max(0, depth - 1)
        elif depth == 0:
            parts.append(text[start : match.start()])
            start = match.end()
    parts.append(text[start:])
    return [part for part in parts if part.strip()]


def _part_letter(part: str, question: ChoiceQuestion) -> str | None:
    """The option a part names: a letter ("B", "(B)", "B) text"), or one option's text."""
    part = _LEAD_IN.sub("", _clean(part))
    marks = set(_PLACEHOLDER.findall(part))
    match = _LETTER.match(part.replace("\x00", ""))
    if match is not None and match.group(1).upper() in question.options:
        return str(match.group(1).upper())
    echoed = _LETTER_AND_TEXT.match(part)
    if echoed and echoed.group(1).upper() == echoed.group(2):
        return echoed.group(2)  # "A a dark TV screen": the letter, then its own text
    described = re.match(r"^\s*([A-Z])\s+(\S.*)$", part.replace("\x00", " "))
    if described and described.group(1) in question.options:
        shared = _content_words(described.group(2)) & _content_words(
            question.options[described.group(1)]
        )
        if len(shared) >= 2:  # "C small wall camera …": the letter, then its label
            return described.group(1)
    if len(marks) == 1 and not _PLACEHOLDER.sub("", part).strip(" .:-–—()[]"):
        return str(next(iter(marks)))  # the option's exact text, nothing else
    return None


def option_letter(value: object, question: ChoiceQuestion) -> str | None:
    """The one option letter meant by ``value`` ("B", "b", "B.", "(B)", "B) text", the
    option's text, "Option B", "**B**", ``\\boxed{B}``), or None."""
    if not isinstance(value, str):
        return None
    return _part_letter(_mark_option_texts(value, question), question)


@dataclass
class ChoiceReading:
    """What a choice value says: the letters in order, boxes per letter, and stray boxes."""

    letters: list[str] = field(default_factory=list)
    boxes: dict[str, list[object]] = field(default_factory=dict)
    stray: list[tuple[str, object, str]] = field(default_factory=list)
    """Boxes for no option: (key as written, box, reason)."""
    failure: str | None = None

    def add(self, letter: str, boxes: list[object] | None = None) -> None:
        if letter not in self.letters:
            self.letters.append(letter)
        if boxes:
            self.boxes.setdefault(letter, []).extend(boxes)


_ANSWER_MARK = re.compile(r"\b(?:final\s+|correct\s+)?answer\s*(?:is\b|:|=)", re.IGNORECASE)
"""Where reasoning written into a question's section ends and its answer begins."""
_LEAD_LETTER = re.compile(r"^\s*[\(\[]?[A-Za-z]\s*[\)\]\.:\-–—]\s*")
_STOPWORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "on",
        "in",
        "at",
        "to",
        "with",
        "for",
        "by",
        "from",
        "behind",
        "near",
        "into",
        "onto",
        "its",
        "their",
        "that",
        "this",
        "is",
        "are",
        "be",
        "user",
        "users",
    ]
)


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in _STOPWORDS}


def _read_choice_string(text: str, question: ChoiceQuestion, reading: ChoiceReading) -> None:
    """Letters (and boxes written beside them) of a string such as "Options B and D",
    "B (framed poster), D", "B & D", "CD", "B <|box_start|>(8,14),(101,42)<|box_end|>",
    or a prose section with reasoning, an "Answer:" line and boxes on lines of their own."""
    alone = _LETTER.match(text) if len(text) <= 4 else None
    if alone is not None and alone.group(1).upper() in question.options:
        reading.add(alone.group(1).upper())  # the common case: one letter
        return
    text, embedded = embedded_json(text)
    marks = list(_ANSWER_MARK.finditer(text))
    if marks:
        text = text[marks[-1].end() :]
    boxes: list[object] = []
    pieces: list[str] = []
    cursor = 0
    for start, end, span_boxes in plain_boxes(text):
        box_marks = "".join(f"\x01{len(boxes) + i}\x01" for i in range(len(span_boxes)))
        boxes += span_boxes
        pieces += [text[cursor:start], f" {box_marks} "]
        cursor = end
    text = "".join([*pieces, text[cursor:]])
    text = _REF_OPEN.sub("\n", text)  # each grounded reference starts an option
    text = _mark_option_texts(_clean(text), question)
    orphans: list[tuple[str, list[object]]] = []
    previous: str | None = None
    for part in _split_outside_parentheses(text):
        title = TITLE in part
        part = part.replace(TITLE, "")
        part_boxes = [boxes[int(i)] for i in _BOX_MARK.findall(part)]
        words = _BOX_MARK.sub(" ", part).strip(" .:-–—()[]")
        run_together = _LETTER_RUN.match(_LEAD_IN.sub("", words))
        if run_together and all(c in question.options for c in run_together.group().split()):
            for run_letter in "".join(run_together.group().split()):  # "CD", "C D"
                reading.add(run_letter)
            continue
        if not words and part_boxes and previous is not None:
            reading.add(previous, part_boxes)  # "B: (…), (…)": a second box of B
            continue
        letter = _part_letter(words, question) if words else None
        if letter is None and part_boxes:
            orphans.append((words, part_boxes))  # "Box for C: […]", a label in other words
            continue
        described = _LEAD_LETTER.sub("", words)
        if letter is not None and part_boxes and len(_content_words(described)) >= _PROSE_WORDS:
            reading.add(letter)  # "D. The person standing nearby is at […]": whose box?
            orphans.append((described, part_boxes))
            previous = None
            continue
        if letter is None:
            if title or not words:
                continue  # a heading's title ("Direct factors")
            if len(re.findall(r"\w+", _PLACEHOLDER.sub(" ", words))) >= _PROSE_WORDS:
                continue  # commentary between the choices
            reading.failure = f"'{_shorten(words)}' is {NOT_AN_OPTION}"
            return
        reading.add(letter, part_boxes)
        previous = letter
    for value in embedded:
        _read_detections(
            value if isinstance(value, list) else [value], question, reading, choose=True
        )
        if reading.failure:
            return
    if not reading.letters:
        unmarked = _PLACEHOLDER.sub(" ", text)
        for match in _OPTION_WORD.finditer(unmarked):
            named = re.sub(r"(?i)\boptions?\b", " ", match.group(0))
            for letter in re.findall(r"\b([A-Za-z])\b", named):
                if letter.upper() in question.options:
                    reading.add(letter.upper())
    _assign_orphans(orphans, question, reading)


def _assign_orphans(
    orphans: list[tuple[str, list[object]]], question: ChoiceQuestion, reading: ChoiceReading
) -> None:
    """Boxes written apart from their letter go to the chosen option their words describe
    (two or more shared words with its text); the rest, in order, to the chosen options
    that have no box yet when their numbers match, or all to the one option chosen."""
    chosen = [letter for letter in reading.letters if letter != question.none_option]
    pending: list[list[object]] = []
    for words, boxes in orphans:
        said = _content_words(_PLACEHOLDER.sub(lambda m: question.options[m.group(1)], words))
        overlap = [(len(said & _content_words(question.options[x])), x) for x in chosen]
        best, letter = max(overlap, default=(0, ""))
        if best >= 2 and sum(1 for n, _ in overlap if n == best) == 1:
            reading.add(letter, boxes)
        else:
            pending.append(boxes)
    without = [letter for letter in chosen if letter not in reading.boxes]
    if pending and len(pending) == len(without):
        for letter, boxes in zip(without, pending, strict=True):
            reading.add(letter, boxes)
    elif pending and len(chosen) == 1:
        for boxes in pending:
            reading.add(chosen[0], boxes)
    else:
        reading.stray += [("", box, "a box that names no option") for b in pending for box in b]


def _label_letter(label: object, question: ChoiceQuestion) -> str | None:
    """The option a detection's label names: a letter, an option's text, or a label that
    is contained in exactly one option's text ("framed poster")."""
    letter = option_letter(label, question)
    if letter is not None or not isinstance(label, str):
        return letter
    wanted = _clean(label).lower().rstrip(".")
    if len(wanted) < 4:
        return None
    hits = [k for k, text in question.options.items() if wanted in text.lower()]
    return hits[0] if len(hits) == 1 else None


def _detection_label(value: Mapping[object, object]) -> object:
    lowered = {str(k).lower(): v for k, v in value.items()}
    return next((lowered[key] for key in LABEL_KEYS if key in lowered), None)


def _read_detections(
    entries: list[object], question: ChoiceQuestion, reading: ChoiceReading, *, choose: bool
) -> None:
    """Boxes listed with labels (``[{"bbox_2d": […], "label": "B. …"}]``); with
    ``choose``, each label is also a chosen option."""
    for entry in entries:
        if isinstance(entry, str) and choose:
            _read_choice_string(entry, question, reading)
            if reading.failure:
                return
            continue
        if not isinstance(entry, dict):
            unlabelled = box_values(entry)
            chosen = [x for x in reading.letters if x != question.none_option]
            if len(chosen) == 1 and not choose:
                reading.add(chosen[0], unlabelled)
            else:
                reading.stray += [("", box, "a box that names no option") for box in unlabelled]
            continue
        label = _detection_label(entry)
        box = keyed_box(entry)
        letter = _label_letter(label, question)
        if letter is None:
            if choose:
                reading.failure = f"the label '{_shorten(str(label))}' names no option"
                return
            reading.stray += [
                (str(label), b, "not an option of this question") for b in box_values(box)
            ]
            continue
        if choose or letter in reading.letters:
            reading.add(letter, box_values(box))
        else:
            reading.stray += [
                (letter, b, "a box for an option not chosen") for b in box_values(box)
            ]


def _read_box_map(value: object, question: ChoiceQuestion, reading: ChoiceReading) -> None:
    """Boxes given apart from the choices: {option: box(es)} or a list of detections."""
    if value is None:
        return
    if isinstance(value, dict):
        if keyed_box(value) is not None and not any(_label_letter(k, question) for k in value):
            _read_detections([value], question, reading, choose=False)
            return
        for key, raw in value.items():
            letter = _label_letter(key, question)
            if letter is None:
                reading.stray += [
                    (str(key), box, "not an option of this question") for box in box_values(raw)
                ]
            else:
                reading.boxes.setdefault(letter, []).extend(box_values(raw))
        return
    if isinstance(value, list):
        entries = value
        if (entries and all(is_scalar(entry) for entry in entries)) or (
            len(entries) == 2 and all(isinstance(p, list) and len(p) == 2 for p in entries)
        ):
            entries = [entries]  # one box
        _read_detections(entries, question, reading, choose=False)
        return
    if isinstance(value, str) and (boxes := string_boxes(value)) is not None:
        # boxes written as one string ("<|box_start|>(8,14),(101,42)<|box_end|>"): unlabelled
        _read_detections(list(boxes), question, reading, choose=False)
        return
    reading.failure = "boxes are neither {option: [box, ...]} nor a list of labelled boxes"


_BOX_PARTS = ("x1", "y1", "x2", "y2", "xmin", "ymin", "xmax", "ymax", "x", "y", "w", "h",
              "width", "height", "left", "top", "right", "bottom")  # fmt: skip


def _is_numeric_box(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 4
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )


def _unread_boxes(
    value: Mapping[object, object], read: tuple[str, ...]
) -> list[tuple[str, object, str]]:
    """Boxes under keys privbench does not read (``"region": [x1, y1, x2, y2]``): listed as
    invalid, so a box in an unexpected place is never dropped without a word."""
    known = {key.lower() for key in read}
    found: list[tuple[str, object, str]] = []
    for key, inner in value.items():
        if str(key).lower() in known or not isinstance(inner, list):
            continue
        candidates = [inner] if _is_numeric_box(inner) else inner
        if candidates and all(_is_numeric_box(c) for c in candidates):
            reason = f"under '{key}', a key privbench does not read (use 'boxes' or 'box')"
            found += [(str(key), box, reason) for box in candidates]
    return found


def read_choice(value: object, question: ChoiceQuestion) -> ChoiceReading:
    """Every way a model writes its choice of options, with or without boxes; choosing
    nothing at all is a failure (every question has an answer, "None of the above"
    included), so commentary without a letter is never scored as an empty choice."""
    reading = _read_choice(value, question)
    if reading.failure is None and not reading.letters:
        reading.failure = "no option chosen"
    return reading


def _read_choice(value: object, question: ChoiceQuestion) -> ChoiceReading:
    reading = ChoiceReading()
    if isinstance(value, str):
        _read_choice_string(value, question, reading)
    elif isinstance(value, list):
        _read_detections(value, question, reading, choose=True)
    elif isinstance(value, dict):
        lowered = {str(k).lower(): v for k, v in value.items()}
        box_keys = [key for key in BOX_KEYS if key in lowered]
        if len(box_keys) > 1:
            reading.failure = f"gives boxes under both '{box_keys[0]}' and '{box_keys[1]}'"
            return reading
        choice_key = next((key for key in CHOICE_KEYS if key in lowered), None)
        if choice_key is not None:
            raw = lowered[choice_key]
            if raw is None or raw == []:
                pass
            elif isinstance(raw, str | list):
                inner = _read_choice(raw, question)
                if inner.failure:
                    return inner
                reading = inner
            else:
                reading.failure = NOT_OPTION_LETTERS
                return reading
            if box_keys:
                _read_box_map(lowered[box_keys[0]], question, reading)
        elif box_keys and isinstance(lowered[box_keys[0]], list):
            _read_detections(lowered[box_keys[0]], question, reading, choose=True)
        elif value and all(_label_letter(key, question) for key in value):
            for key, raw in value.items():  # {"B": [box], "D": [box]}
                letter = _label_letter(key, question)
                if letter is not None:
                    reading.add(letter, box_values(raw))
        elif keyed_box(value) is not None and _detection_label(value) is not None:
            _read_detections([value], question, reading, choose=True)
        else:
            reading.failure = NOT_OPTION_LETTERS
    elif value is None:
        reading.failure = "no answer (null)"
    else:
        reading.failure = NOT_OPTION_LETTERS
    return reading


def option_letters(value: object, question: ChoiceQuestion) -> tuple[str, ...] | None:
    """Letters of a list (or a "B, C" / "Options B and D" string) of options; None if a
    part names no option."""
    reading = read_choice(value, question)
    return None if reading.failure else tuple(reading.letters)


def _shorten(text: str, limit: int = 40) -> str:
    text = " ".join(_BOX_MARK.sub(" ", _PLACEHOLDER.sub(r"\1", text)).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


_CLAUSE = re.compile(r"[^.;:!?\n]*$")
_NAME_WORDS = 16
"""At most this many words before a box in prose name its factor ("the night window on
the back wall, right of the user")."""


def _grounded_text(text: str) -> tuple[str, list[tuple[str, str, object]]]:
    """A q4/q5 string without its coordinates, and a factor per box written in it:
    (name: the label or the words before the box, why: its sentence, box)."""
    found = plain_boxes(text)
    if not found:
        return _REF_TAGS.sub("", text).strip(), []
    factors: list[tuple[str, str, object]] = []
    cursor = 0
    pieces: list[str] = []
    for start, end, span_boxes in found:
        before = _REF_TAGS.sub("", text[cursor:start])
        pieces.append(before)
        clause = _CLAUSE.search(_MARKUP.sub("", "".join(pieces)).replace("\x01", ""))
        words = (clause.group() if clause else "").split()
        name = " ".join(words[-_NAME_WORDS:]).strip(" ,:-–—(*")
        factors += [(name, "", box) for box in span_boxes]
        pieces.append("\x01")  # where a box was: only for telling listings apart
        cursor = end
    pieces.append(_REF_TAGS.sub("", text[cursor:]))
    lines = [line for line in "".join(pieces).split("\n") if not _is_listing(line)]
    plain = "\n".join(lines).replace("\x01", "")
    plain = re.sub(r"\(\s*\)|\[\s*\]", "", plain)
    plain = re.sub(r"[ \t]+([,.;:])", r"\1", re.sub(r"[ \t]{2,}", " ", plain)).strip()
    sentences = re.split(r"(?<=[.!?])\s+", plain)
    return plain, [(name, _why(name, sentences), box) for name, _, box in factors]


def _why(name: str, sentences: list[str]) -> str:
    """The sentence that explains a factor named in prose: the one naming it, else the one
    sharing most of its words (a table's evidence cell names it, its answer cell says why)."""
    wanted = name.lower()
    naming = [s for s in sentences if wanted and wanted in s.lower()]
    if naming:
        return " ".join(naming)
    words = set(re.findall(r"\w{3,}", wanted))
    scored = [(len(words & set(re.findall(r"\w{3,}", s.lower()))), s) for s in sentences]
    best, sentence = max(scored, default=(0, ""))
    return sentence if best >= 2 else ""


def _is_listing(line: str) -> bool:
    """A line that only lists factors by name, each followed by its box — a table's
    evidence cell, "the poster (…); the door (…)" — repeats names, it explains nothing,
    so it is left out of the text the judge reads (the factors keep the names)."""
    if "\x01" not in line:
        return False
    parts = [p for p in re.split(r"[;,]", _MARKUP.sub("", line)) if p.strip(" -–—*•.")]
    return all(
        "\x01" in p
        and not p.split("\x01")[-1].strip(" .")
        and len(p.split()) <= _NAME_WORDS
        and not re.search(r"[:!?]", p)
        for p in parts
    )


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

    def single(self, value: object, question: ChoiceQuestion) -> str:
        """q1's one letter, or why it does not parse (a hedge between options included)."""
        if isinstance(value, dict):
            lowered = {str(k).lower(): v for k, v in value.items()}
            value = next((lowered[key] for key in CHOICE_KEYS if key in lowered), value)
        reading = read_choice(value, question)
        if reading.failure:
            return NOT_AN_OPTION if reading.failure == NOT_OPTION_LETTERS else reading.failure
        if len(reading.letters) > 1:
            return f"hedges between options {' and '.join(reading.letters)} (single choice)"
        if not reading.letters:
            return NOT_AN_OPTION
        return reading.letters[0]

    def choice(self, value: object, qid: str, question: ChoiceQuestion) -> ChoiceAnswer | str:
        """The answer, or why it does not parse."""
        reading = read_choice(value, question)
        if reading.failure:
            return reading.failure
        # a q2/q3 of type "single" with two choices is read as given: eq. 3 scores it 0
        if isinstance(value, dict) and not all(_label_letter(k, question) for k in value):
            reading.stray += _unread_boxes(value, (*CHOICE_KEYS, *BOX_KEYS))
        for key, stray, reason in reading.stray:
            self.invalid_boxes.append(InvalidBox(qid, key, stray, reason))
        boxes: dict[str, tuple[Box, ...]] = {}
        for letter, raw_boxes in reading.boxes.items():
            if letter not in reading.letters:
                for stray in raw_boxes:
                    self.invalid_boxes.append(
                        InvalidBox(qid, letter, stray, "a box for an option not chosen")
                    )
                continue
            read = [self.box(b, qid, letter) for b in raw_boxes]
            boxes[letter] = tuple(b for b in read if b is not None)
        return ChoiceAnswer(tuple(reading.letters), boxes)

    def factor(self, raw: object, qid: str, index: int) -> PredictedFactor | None:
        if isinstance(raw, str):
            _, inline = _grounded_text(raw)
            if inline:
                name, _, value = inline[0]
                return PredictedFactor(name or raw, raw, self.box(value, qid, f"factor {index}"))
            return PredictedFactor(raw, "", None)
        if not isinstance(raw, dict):
            return None
        lowered = {str(k).lower(): v for k, v in raw.items()}
        name = next((lowered[k] for k in NAME_KEYS if k in lowered), "")
        why = next((lowered[k] for k in WHY_KEYS if k in lowered), "")
        boxes = box_values(keyed_box(raw))
        for key, stray, reason in _unread_boxes(
            raw, (*NAME_KEYS, *WHY_KEYS, *BOX_KEYS, *_BOX_PARTS)
        ):
            self.invalid_boxes.append(InvalidBox(qid, f"factor {index} {key}", stray, reason))
        box = self.box(boxes[0], qid, f"factor {index}") if boxes else None
        for extra in boxes[1:]:
            self.invalid_boxes.append(
                InvalidBox(qid, f"factor {index}", extra, "a second box for one factor")
            )
        return PredictedFactor(str(name), str(why), box)

    def explanation(self, value: object, qid: str) -> ExplanationAnswer | None:
        if isinstance(value, str):
            rest, embedded = embedded_json(value.replace(TITLE, ""))
            listed = [f for v in embedded for f in (v if isinstance(v, list) else [v])]
            if listed:  # a prose answer with a JSON list of its factors
                return self.explanation({"text": rest, "factors": listed}, qid)
            plain, inline = _grounded_text(value.replace(TITLE, ""))
            grounded = [
                PredictedFactor(name, why, self.box(box, qid, f"factor {index}"))
                for index, (name, why, box) in enumerate(inline)
            ]
            return ExplanationAnswer(plain, tuple(grounded))
        raw_factors: object
        text: object = ""
        if isinstance(value, list):
            raw_factors = value
        elif isinstance(value, dict):
            lowered = {str(k).lower(): v for k, v in value.items()}
            text = next((lowered[k] for k in TEXT_KEYS if k in lowered), "")
            raw_factors = next((lowered[k] for k in FACTOR_KEYS if k in lowered), [])
            if raw_factors is None:
                raw_factors = []
        else:
            return None
        if not isinstance(text, str) or not isinstance(raw_factors, list):
            return None
        factors = []
        for index, raw in enumerate(raw_factors):
            factor = self.factor(raw, qid, index)
            if factor is None:
                return None
            factors.append(factor)
        if not text.strip():
            text = "; ".join(f"{f.name}: {f.why}" if f.why else f.name for f in factors)
        return ExplanationAnswer(text, tuple(factors))


def parse_record(
    record: Mapping[str, object], item: SpatialItem, convention: BoxConvention = PIXELS
) -> SpatialAnswer:
    """A prediction object (q1–q5 as privbench's format or as models write them)."""
    reader = _Reader(item, convention)
    failures: dict[str, str] = {}
    q1: str | None = None
    if "q1" not in record:
        failures["q1"] = "missing"
    else:
        single = reader.single(record["q1"], item.q1)
        if single in item.q1.options:
            q1 = single
        else:
            failures["q1"] = single
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
    """A model's raw reply: its final answer (:func:`answer_text.answer_record`), read
    question by question; a reply with no answer at all fails all five questions."""
    record, why = final_answer_record(text)
    if why is not None:
        return SpatialAnswer(failures=dict.fromkeys(QUESTION_IDS, why))
    answer = parse_record(record, item, convention)
    return answer


def answer_record(answer: SpatialAnswer) -> dict[str, object]:
    """The predictions-format record of an answer (pixel boxes); unparsed questions are left out."""
    record: dict[str, object] = {}
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
