"""Load and validate a SpatialTrust directory (docs/spatialtrust.md, Data).

Layout::

    DIR/spatialtrust.jsonl   one JSON object per image: id, image, width, height, questions
    DIR/images/...

Why one pass: :func:`validate_spatialtrust` reports every problem with its line, image id
and question id (missing/corrupt image, size mismatch, boxes outside the image or without
area, answers not among the options, evidence for an option not in the answer, q1–q5
missing or duplicated, "None of the above" combined with another answer, an ``annotation``
with an unknown review status or category, or an element box outside the image).

A record may carry the ``annotation`` that ``privbench build spatialtrust`` drafts and
reviewers correct; its review status becomes :attr:`SpatialItem.review_status`, so a
run can refuse drafts before any model is called. A record without one (the shipped suite,
any dataset not made by ``build``) has no review status and is not a draft.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from privbench.images import DatasetImages
from privbench.json_files import iter_jsonl, load_valid
from privbench.runtime.errors import Problem
from privbench.runtime.gc_tuning import bulk_reading
from privbench.suites.spatialtrust.annotation import (
    ANNOTATION_KEY,
    CATEGORIES,
    REVIEW_STATUSES,
    Annotation,
    Category,
    ReviewStatus,
    SceneElement,
)
from privbench.suites.spatialtrust.boxes import Box, inside, is_proper, read_box

DATASET_FILE = "spatialtrust.jsonl"
QUESTION_IDS = ("q1", "q2", "q3", "q4", "q5")
CHOICE_QUESTIONS = ("q2", "q3")
EXPLANATION_QUESTIONS = ("q4", "q5")
NONE_OF_THE_ABOVE = "none of the above"


def is_none_option(text: str) -> bool:
    """Whether an option's text is "None of the above" (any case, trailing punctuation)."""
    return text.strip().rstrip(".").lower() == NONE_OF_THE_ABOVE


@dataclass(frozen=True)
class ChoiceQuestion:
    """q1 (single choice) or q2/q3 (single or multiple choice, grounded)."""

    qid: str
    type: str
    text: str
    options: dict[str, str]
    answer: tuple[str, ...]
    evidence: dict[str, tuple[Box, ...]] = field(default_factory=dict)

    @property
    def none_option(self) -> str | None:
        """The letter of the "None of the above" option, if the question has one."""
        return next((key for key, text in self.options.items() if is_none_option(text)), None)


@dataclass(frozen=True)
class Factor:
    """A ground-truth sensitive factor of q4/q5: what it is, why, where."""

    name: str
    why: str
    box: Box


@dataclass(frozen=True)
class ExplanationQuestion:
    """q4 (direct factors) or q5 (indirect factors): short answer with grounded factors."""

    qid: str
    text: str
    answer: str
    factors: tuple[Factor, ...]


@dataclass(frozen=True)
class SpatialItem:
    """One authentication capture and its five questions."""

    id: str
    image: Path
    width: int
    height: int
    q1: ChoiceQuestion
    q2: ChoiceQuestion
    q3: ChoiceQuestion
    q4: ExplanationQuestion
    q5: ExplanationQuestion
    annotation: Annotation | None = None
    """The record's ``annotation``, read (None: the record has none, so it is not a draft):
    the review app starts from it and the review export copies its image."""
    image_name: str = ""
    """The image's path as the record writes it, relative to the dataset directory."""

    @property
    def review_status(self) -> ReviewStatus | None:
        """The annotation's status (None without one). Only ``accepted`` means a person
        reviewed it."""
        return self.annotation.status if self.annotation is not None else None

    @property
    def is_unreviewed(self) -> bool:
        """An annotated image no person has accepted yet: a run on it measures a draft."""
        return self.review_status is not None and self.review_status != "accepted"

    def choice(self, qid: str) -> ChoiceQuestion:
        return {"q1": self.q1, "q2": self.q2, "q3": self.q3}[qid]

    def explanation(self, qid: str) -> ExplanationQuestion:
        return {"q4": self.q4, "q5": self.q5}[qid]


def ground_truth_record(item: SpatialItem) -> dict[str, dict[str, object]]:
    """The questions' ground truth in the dataset file's shape (kept in each sample's metadata,
    so a log alone is enough to show and re-check an answer)."""
    record: dict[str, dict[str, object]] = {}
    for question in (item.q1, item.q2, item.q3):
        record[question.qid] = {
            "text": question.text,
            "options": question.options,
            "answer": list(question.answer),
            "evidence": {k: [list(b) for b in v] for k, v in question.evidence.items()},
        }
    for explanation in (item.q4, item.q5):
        record[explanation.qid] = {
            "text": explanation.text,
            "answer": explanation.answer,
            "factors": [
                {"name": f.name, "why": f.why, "box": list(f.box)} for f in explanation.factors
            ],
        }
    return record


class _Checker:
    """Collects problems for one line of the JSONL file."""

    def __init__(self, display: str, line: int, item: str | None) -> None:
        self.display, self.line, self.item = display, line, item
        self.problems: list[Problem] = []

    def add(self, message: str, qid: str | None = None) -> None:
        where = f"{self.display}:{self.line}"
        item = self.item if qid is None else f"{self.item} {qid}"
        self.problems.append(Problem(where, item, message))

    def text(self, entry: Mapping[str, object], key: str, qid: str | None = None) -> str:
        value = entry.get(key)
        if not isinstance(value, str) or not value.strip():
            self.add(f"missing or empty '{key}'", qid)
            return ""
        return value

    def box(self, value: object, width: int, height: int, what: str, qid: str | None) -> Box | None:
        if type(value) is list and len(value) == 4:
            # the common case, four integers of a proper box inside the image, decided
            # without the general reading below (a fifth of validation time on 100,000 lines)
            x1, y1, x2, y2 = value
            if (
                type(x1) is int
                and type(y1) is int
                and type(x2) is int
                and type(y2) is int
                and 0 <= x1 < x2 <= width
                and 0 <= y1 < y2 <= height
            ):
                return (float(x1), float(y1), float(x2), float(y2))
        box = read_box(value)
        if isinstance(box, str):
            self.add(f"{what}: box must be four finite numbers [x1, y1, x2, y2] ({box})", qid)
            return None
        if not is_proper(box):
            self.add(f"{what}: box {list(box)} needs x1 < x2 and y1 < y2", qid)
            return None
        if width and height and not inside(box, width, height):
            self.add(f"{what}: box {list(box)} is outside the {width}×{height} image", qid)
            return None
        return box


def _choice_question(
    check: _Checker, entry: Mapping[str, object], qid: str, width: int, height: int
) -> ChoiceQuestion | None:
    before = len(check.problems)
    text = check.text(entry, "text", qid)
    kind = entry.get("type")
    allowed = ("single",) if qid == "q1" else ("single", "multiple")
    if kind not in allowed:
        check.add(f"'type' must be {' or '.join(allowed)}", qid)
    options: dict[str, str] = {}
    raw_options = entry.get("options")
    if (
        not isinstance(raw_options, dict)
        or not raw_options
        or not all(
            isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in raw_options.items()
        )
    ):
        check.add("'options' must map letters to non-empty texts", qid)
    else:
        options = raw_options
    answer: list[str] = []
    raw_answer = entry.get("answer")
    if (
        not isinstance(raw_answer, list)
        or not raw_answer
        or not all(isinstance(a, str) for a in raw_answer)
    ):
        check.add("'answer' must be a non-empty list of option letters", qid)
    else:
        answer = raw_answer
    for letter in answer:
        if options and letter not in options:
            check.add(f"answer option '{letter}' is not among the options", qid)
    if len(set(answer)) != len(answer):
        check.add("'answer' repeats an option", qid)
    if kind == "single" and len(answer) > 1:
        check.add("single-choice question with more than one answer", qid)
    nones = [a for a in answer if is_none_option(options.get(a, ""))]
    if nones and len(answer) > 1:
        check.add(f"'None of the above' ({nones[0]}) combined with another answer", qid)
    evidence: dict[str, tuple[Box, ...]] = {}
    raw_evidence = entry.get("evidence", {})
    if qid == "q1" and raw_evidence:
        check.add("q1 has no evidence boxes", qid)
    elif not isinstance(raw_evidence, dict):
        check.add("'evidence' must map option letters to lists of boxes", qid)
    else:
        for letter, boxes in raw_evidence.items():
            if letter not in answer:
                check.add(f"evidence for option '{letter}', which is not in the answer", qid)
                continue
            if not isinstance(boxes, list):
                check.add(f"evidence for '{letter}' must be a list of boxes", qid)
                continue
            read = [check.box(b, width, height, f"evidence for '{letter}'", qid) for b in boxes]
            evidence[letter] = tuple(b for b in read if b is not None)
    if len(check.problems) > before:
        return None
    return ChoiceQuestion(qid, str(kind), text, dict(options), tuple(answer), evidence)


def _explanation_question(
    check: _Checker, entry: Mapping[str, object], qid: str, width: int, height: int
) -> ExplanationQuestion | None:
    before = len(check.problems)
    text = check.text(entry, "text", qid)
    if entry.get("type") != "short":
        check.add("'type' must be short", qid)
    answer = check.text(entry, "answer", qid)
    raw_factors = entry.get("factors")
    factors: list[Factor] = []
    if not isinstance(raw_factors, list):
        check.add("'factors' must be a list", qid)
        raw_factors = []
    for index, raw in enumerate(raw_factors):
        if not isinstance(raw, dict):
            check.add(f"factor {index} must be an object", qid)
            continue
        name = check.text(raw, "name", qid)
        why = check.text(raw, "why", qid)
        box = check.box(raw.get("box"), width, height, f"factor {index}", qid)
        if name and why and box is not None:
            factors.append(Factor(name, why, box))
    if len(check.problems) > before:
        return None
    return ExplanationQuestion(qid, text, answer, tuple(factors))


_STATUSES: dict[str, ReviewStatus] = {status: status for status in REVIEW_STATUSES}
_CATEGORIES: dict[str, Category] = {category: category for category in CATEGORIES}


def _annotation(
    check: _Checker, raw: object, image: str, width: int, height: int
) -> Annotation | None:
    """A record's ``annotation``, after checking its shape (None when it is not valid: the
    problems are reported, so the record is not loaded)."""
    if not isinstance(raw, dict):
        check.add(f"'{ANNOTATION_KEY}' must be an object")
        return None
    before = len(check.problems)
    raw_status = raw.get("status")
    status = _STATUSES.get(raw_status) if isinstance(raw_status, str) else None
    if status is None:
        allowed = ", ".join(REVIEW_STATUSES)
        check.add(f"annotation: 'status' must be one of {allowed}, not {raw_status!r}")
    annotators = raw.get("annotators", [])
    if not isinstance(annotators, list) or not all(isinstance(a, str) for a in annotators):
        check.add("annotation: 'annotators' must be a list of names")
    elements = raw.get("elements", [])
    if not isinstance(elements, list):
        check.add("annotation: 'elements' must be a list")
        elements = []
    read: list[SceneElement] = []
    for index, element in enumerate(elements):
        what = f"annotation element {index}"
        if not isinstance(element, dict):
            check.add(f"{what} must be an object")
            continue
        name, why = element.get("name"), element.get("why")
        for key, value in (("name", name), ("why", why)):
            if not isinstance(value, str) or not value.strip():
                check.add(f"{what}: missing or empty '{key}'")
        raw_category = element.get("category")
        category = _CATEGORIES.get(raw_category) if isinstance(raw_category, str) else None
        if category is None:
            allowed = ", ".join(CATEGORIES)
            check.add(f"{what}: 'category' must be one of {allowed}, not {raw_category!r}")
        box = check.box(element.get("box"), width, height, what, None)
        if isinstance(name, str) and isinstance(why, str) and category and box is not None:
            read.append(SceneElement(name, category, why, box))
    if len(check.problems) > before or status is None:
        return None
    names = tuple(annotators) if isinstance(annotators, list) else ()
    return Annotation(str(check.item), image, width, height, tuple(read), status, names)


def _image(
    check: _Checker, record: Mapping[str, object], images: DatasetImages
) -> tuple[Path | None, int, int]:
    relative = check.text(record, "image")
    width, height = record.get("width"), record.get("height")
    if not (isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0):
        check.add("'width' and 'height' must be positive integers")
        width, height = 0, 0
    if not relative:
        return None, width, height
    image = images.get(relative)
    if image.path is None or image.check is None:
        check.add(f"image path '{relative}' leaves the dataset directory")
        return None, width, height
    if image.check.problem is not None or image.check.size is None:
        check.add(f"{image.check.problem}: {relative}")
        return None, width, height
    actual = image.check.size
    if width and height and actual != (width, height):
        check.add(f"image is {actual[0]}×{actual[1]}, not the declared {width}×{height}")
    return image.path, width, height


_ABSENT = object()
"""What a record without an ``annotation`` key reads as (``null`` is a bad annotation)."""


def _record(
    check: _Checker, record: Mapping[str, object], images: DatasetImages
) -> SpatialItem | None:
    path, width, height = _image(check, record, images)
    questions = record.get("questions")
    if not isinstance(questions, list):
        check.add("'questions' must be a list of q1–q5")
        return None
    by_qid: dict[str, Mapping[str, object]] = {}
    for entry in questions:
        qid = entry.get("qid") if isinstance(entry, dict) else None
        if qid not in QUESTION_IDS:
            check.add(f"question with unknown qid {qid!r}")
        elif qid in by_qid:
            check.add("duplicated question", qid)
        else:
            by_qid[qid] = entry
    for qid in QUESTION_IDS:
        if qid not in by_qid:
            check.add("missing question", qid)
    choices = {
        qid: _choice_question(check, by_qid[qid], qid, width, height)
        for qid in ("q1", *CHOICE_QUESTIONS)
        if qid in by_qid
    }
    explanations = {
        qid: _explanation_question(check, by_qid[qid], qid, width, height)
        for qid in EXPLANATION_QUESTIONS
        if qid in by_qid
    }
    q1, q2, q3 = (choices.get(qid) for qid in ("q1", *CHOICE_QUESTIONS))
    q4, q5 = (explanations.get(qid) for qid in EXPLANATION_QUESTIONS)
    # most records have no annotation: one lookup, nothing more
    raw_annotation = record.get(ANNOTATION_KEY, _ABSENT)
    image = str(record.get("image"))
    annotation = (
        None
        if raw_annotation is _ABSENT
        else _annotation(check, raw_annotation, image, width, height)
    )
    if check.problems or path is None or None in (q1, q2, q3, q4, q5):
        return None
    assert q1 and q2 and q3 and q4 and q5  # narrowed by the check above
    return SpatialItem(str(check.item), path, width, height, q1, q2, q3, q4, q5, annotation, image)


def validate_spatialtrust(directory: Path) -> tuple[list[SpatialItem], list[Problem]]:
    """Every valid image record and every problem found, in one pass.

    Each line is checked as it is read and only its item kept, without cycle collection
    (:func:`~privbench.runtime.gc_tuning.bulk_reading`): 100,000 lines would otherwise spend most
    of their time in the collector.
    """
    display = str(directory / DATASET_FILE)
    problems: list[Problem] = []
    images = DatasetImages(directory)
    items: list[SpatialItem] = []
    seen: set[str] = set()
    lines = 0
    with bulk_reading():
        for number, record in iter_jsonl(directory / DATASET_FILE, display, problems):
            lines += 1
            if not isinstance(record, dict):
                problems.append(Problem(f"{display}:{number}", None, "line must be a JSON object"))
                continue
            raw_id = record.get("id")
            check = _Checker(display, number, str(raw_id) if raw_id is not None else None)
            if not isinstance(raw_id, str) or not raw_id.strip():
                check.add("missing or empty 'id'")
            elif raw_id in seen:
                check.add("duplicate id")
            else:
                seen.add(raw_id)
            item = _record(check, record, images)
            problems.extend(check.problems)
            if item is not None and not check.problems:
                items.append(item)
    if not lines and not problems:
        problems.append(Problem(display, None, "no images"))
    return items, sorted(problems, key=_line_number)


def _line_number(problem: Problem) -> int:
    """The line a problem is on (``file:LINE[:COL]``), for reporting in file order."""
    parts = problem.file.rsplit(":", 2)
    numbers = [p for p in parts[1:] if p.isdigit()]
    return int(numbers[0]) if numbers else 0


def write_dataset_file(directory: Path, records: Sequence[Mapping[str, object]]) -> Path:
    """``directory/spatialtrust.jsonl``: one record per line, UTF-8 as written (what the
    generator, ``build`` and ``review export`` all write)."""
    path = directory / DATASET_FILE
    text = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    path.write_text(text, encoding="utf-8")
    return path


def load_spatialtrust(directory: str | Path) -> list[SpatialItem]:
    """Load a valid SpatialTrust directory; raise :class:`DatasetError` listing its problems."""
    return load_valid(directory, validate_spatialtrust)
