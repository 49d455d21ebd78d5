"""From a model's raw reply to the record of its final answer: ``{"q1": …, …, "q5": …}``.

Why this is more than ``json.loads``: real vision-language models do not write the one
JSON object the prompt asks for. Reasoning models think first (``<think>…</think>``) and
may draft an answer there; others wrap the answer in ``<answer>`` tags or a code fence,
write JavaScript-style JSON (trailing commas, single quotes, ``NaN``), split it over two
objects, or answer in prose or a markdown table with a heading per question. Scoring the
shape of the reply instead of its content would measure formatting, so this module finds
the *final* answer however it is written:

1. :func:`final_text` keeps what follows the last ``</think>`` (the final answer counts,
   not a draft in the reasoning) and the inside of ``<answer>`` tags or GLM's answer box;
2. :func:`json_values` decodes every JSON object or array in it, strictly and, where
   that fails, as JSON5 (the ``json5`` package), in the order they appear;
3. :func:`final_answer_record` takes the last object that names a question (``q1``, ``Q1``,
   ``question 1`` …), merges objects that answer different questions, and falls back
   to :func:`prose_record`, which cuts prose and markdown at each question's heading.

What it returns is the record as written (strings, lists, objects); reading letters and
boxes out of it is :mod:`privbench.suites.spatialtrust.reading`.
"""

from __future__ import annotations

import ast
import json
import re

import json5
import yaml

from privbench.suites.spatialtrust.dataset import QUESTION_IDS

_THINK_END = re.compile(r"</think(?:ing)?>|◁/think▷", re.IGNORECASE)
_THINK_BLOCK = re.compile(
    r"(?:<think(?:ing)?>|◁think▷).*?(?:</think(?:ing)?>|◁/think▷|\Z)", re.IGNORECASE | re.DOTALL
)
_ANSWER_TAG = re.compile(r"<answer>(.*?)(?:</answer>|\Z)", re.IGNORECASE | re.DOTALL)
_GLM_BOX = re.compile(r"<\|begin_of_box\|>(.*?)(?:<\|end_of_box\|>|\Z)", re.DOTALL)
_FENCE = re.compile(r"```[A-Za-z0-9_+-]*[ \t]*\n?(.*?)```", re.DOTALL)
_QID_KEY = re.compile(r"^\s*(?:q|question)\s*[_\-\s]?\s*([1-5])(?![0-9])", re.IGNORECASE)

NO_ANSWER_AFTER_REASONING = "no answer after the reasoning (<think> block)"
NO_ANSWER = "no answer to any question found (no JSON object, no question headings)"


def final_text(text: str) -> str:
    """The part of a reply that holds the final answer.

    After the last ``</think>`` (a reasoning block, closed or cut, is dropped); inside the
    last ``<answer>…</answer>`` or GLM ``<|begin_of_box|>…<|end_of_box|>`` when present.
    """
    ends = list(_THINK_END.finditer(text))
    if ends:
        text = text[ends[-1].end() :]
    text = _THINK_BLOCK.sub("", text)
    for tag in (_ANSWER_TAG, _GLM_BOX):
        inner = [m.group(1) for m in tag.finditer(text) if m.group(1).strip()]
        # GLM's box holds the answer, unless it holds only coordinates (a grounding box)
        if inner and (tag is _ANSWER_TAG or re.search(r"[A-Za-z{]", inner[-1])):
            text = inner[-1]
    return text.strip()


_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def _decode(candidate: str) -> object:
    """A JSON value from ``candidate``: strict JSON first (fast), then without trailing
    commas (the most common slip, also fast), then JSON5 (slow, pure Python); else None."""
    for attempt in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
        try:
            return json.loads(attempt)
        except (ValueError, RecursionError):
            pass
    try:
        return json5.loads(candidate)
    except (ValueError, RecursionError, TypeError, IndexError, AttributeError, OverflowError):
        pass
    try:  # a Python literal: single quotes with None / True / False
        value = ast.literal_eval(candidate)
    except (ValueError, SyntaxError, RecursionError, MemoryError, TypeError):
        return None
    return value if isinstance(value, dict | list) else None


_STRUCTURE = re.compile(r'[{}\[\]"\\\n]')


def _bracket_spans(text: str) -> list[tuple[int, int]]:
    """Outermost balanced ``{…}`` and ``[…]`` spans, skipping brackets inside strings.

    Only the characters that matter are visited (a regex jumps between them), so prose
    around an answer costs little.
    """
    spans: list[tuple[int, int]] = []
    depth = 0
    start = -1
    in_string = False
    escape_at = -2
    for match in _STRUCTURE.finditer(text):
        char, index = match.group(), match.start()
        if in_string:
            escaped = index == escape_at + 1
            if char == "\\":
                escape_at = -2 if escaped else index
            elif not escaped and char in '"\n':
                in_string = False
            continue
        if char == '"' and depth:
            in_string = True
        elif char in "{[":
            if depth == 0:
                start = index
            depth += 1
        elif char in "}]" and depth:
            depth -= 1
            if depth == 0:
                spans.append((start, index + 1))
    return spans


def json_values(text: str) -> list[object]:
    """Every JSON object or array in ``text`` (fenced or bare), in order of appearance."""
    stripped = text.strip()
    if stripped[:1] in ("{", "[") and stripped[-1:] in ("}", "]"):
        whole = _decode(stripped)
        if isinstance(whole, dict | list):
            return [whole]  # the reply is one JSON value: nothing else to find
    found: list[tuple[int, object]] = []
    covered: list[tuple[int, int]] = []
    for fence in _FENCE.finditer(text):
        covered.append(fence.span())
        body = fence.group(1).strip()
        value = _decode(body)
        if isinstance(value, dict | list):
            found.append((fence.start(), value))
            continue
        found += [(fence.start() + a, v) for a, v in _spans_values(body)]
    outside = text
    for start, end in reversed(covered):
        outside = outside[:start] + " " * (end - start) + outside[end:]
    if "{" in outside or "[" in outside:
        found += _spans_values(outside)
    return [value for _, value in sorted(found, key=lambda pair: pair[0])]


def _spans_values(text: str) -> list[tuple[int, object]]:
    values: list[tuple[int, object]] = []
    for start, end in _bracket_spans(text):
        value = _decode(text[start:end])
        if isinstance(value, dict | list):
            values.append((start, value))
    return values


def question_id(key: object) -> str | None:
    """``q1`` … ``q5`` for a key naming a question (``"Q2"``, ``"question 3"``, ``"q4_direct"``)."""
    if not isinstance(key, str):
        return None
    match = _QID_KEY.match(key)
    return f"q{match.group(1)}" if match else None


def questions_of(value: object) -> dict[str, object]:
    """The questions an answer object holds, by question id (one wrapper level unwrapped).

    ``{"answers": {"q1": …}}`` and ``[{"q1": …}]`` are answers too; keys are normalised
    with :func:`question_id`, the first of two keys for one question wins.
    """
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if isinstance(value, list):
        return _per_question_entries(value)
    if not isinstance(value, dict):
        return {}
    record: dict[str, object] = {}
    for key, inner in value.items():
        qid = question_id(key)
        if qid is not None and qid not in record:
            record[qid] = inner
    if record:
        return record
    nested = [inner for inner in value.values() if isinstance(inner, dict)]
    if len(nested) == 1:
        return {
            qid: inner for key, inner in nested[0].items() if (qid := question_id(key)) is not None
        }
    return {}


_QUESTION_KEYS = ("question", "qid", "question_id", "q")
_OPTION_KEYS = ("option", "answer", "choice", "letter")


def _question_of_entry(entry: dict[str, object]) -> tuple[str, str | None] | None:
    """(question id, option letter or None) of a list entry that says which question it
    answers: ``{"question": "q2", "option": "A", "box_2d": …}`` or a label ``"q2 A: …"``."""
    for key in _QUESTION_KEYS:
        qid = question_id(str(entry.get(key, ""))) if key in entry else None
        if qid is not None:
            options = (entry.get(k) for k in _OPTION_KEYS)
            option = next((o for o in options if isinstance(o, str)), None)
            return qid, option
    label = entry.get("label")
    match = _LABELLED.match(label) if isinstance(label, str) else None
    if match:
        return f"q{match.group(1)}", match.group(2)
    return None


_LABELLED = re.compile(
    r"^\s*q\s*([1-5])\s*[/:\-\s]\s*([A-Z])\b(?:\s*[:.\-–—]\s*|\s*$)", re.IGNORECASE
)


def _factor_entries(value: object) -> list[object]:
    """The factors an entry lists: a list as written, one object as a list of one; anything
    else (a number, ``true``, a bare string) lists none; the answer's text is still read."""
    if isinstance(value, list):
        return value
    return [value] if isinstance(value, dict) else []


def _per_question_entries(entries: list[object]) -> dict[str, object]:
    """A list whose items each name their question, grouped by question: per choice
    question a list of labelled detections, per explanation question its text and factors."""
    grouped: dict[str, list[dict[str, object]]] = {}
    for entry in entries:
        if not isinstance(entry, dict):
            return {}
        found = _question_of_entry(entry)
        if found is None:
            return {}
        qid, option = found
        item = dict(entry)
        if option is not None:
            item["label"] = option
        grouped.setdefault(qid, []).append(item)
    record: dict[str, object] = {}
    for qid, items in grouped.items():
        if qid in ("q4", "q5"):
            text = " ".join(str(i["text"]) for i in items if isinstance(i.get("text"), str))
            factors = [f for i in items for f in _factor_entries(i.get("factors"))]
            factors += [i for i in items if "text" not in i and "factors" not in i]
            record[qid] = {"text": text, "factors": factors}
        else:
            record[qid] = items
    return record


_PREFIX = r"^[^\w\n]*(?:for\s+|(?:the\s+)?(?:correct|final)?\s*answers?\s+(?:for|to)\s+)?"
"""What may stand before a question's name on its heading line: markdown (``#``, ``**``,
``-``, ``|``), an emoji, "Correct answer for", "The answer to", "For"."""
_HEADING = re.compile(
    _PREFIX + r"(?:q|question|answer)\s*([1-5])(?![0-9])\s*(?:\([^)\n]*\))?\s*(?:is\b)?"
    r"[\s*_`]*[:.)\-–—|,]?[\s*_`]*",
    re.IGNORECASE,
)
TITLE = "\x02"
"""Marks the rest of a heading line that has lines under it ("### 2. Direct factors"): a
title, read as an answer only if it names an option."""
_NUMBERED = re.compile(r"^[\s>#*_\-]*\(?([1-5])\s*[.):]\**(?![0-9])[\s*_`]*")
"""A numbered heading ``1.``, ``**2.**``, ``3)``: read only when no line names a question
and only in order (1, 2, 3 …), so a numbered list inside an answer is not a heading."""
_TASK_HEADING = re.compile(
    _PREFIX + r"(?:(detection)|(direct|indirect)\s+(identification|explanation)|"
    r"explanation\s*\((direct|indirect)\))\s*[:.)\-–—]?[\s*_`]*",
    re.IGNORECASE,
)
"""A heading that names the question by its task (the paper's Table 2 names): "Detection",
"Direct identification", "Explanation (indirect)" …"""
_ANSWER_LINE = re.compile(r"(?:final\s+)?answer\s*[:=]|\\boxed\{", re.IGNORECASE)


def _table_row(line: str) -> tuple[str, str] | None:
    """A markdown table row whose first cell names a question: (qid, the other cells, one
    per line, so an answer cell and an evidence cell are not run together)."""
    if not line.lstrip().startswith("|"):
        return None
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    match = _HEADING.fullmatch(cells[0]) if cells else None
    if match is None:
        return None
    return f"q{match.group(1)}", "\n".join(cell for cell in cells[1:] if cell)


def _heading(line: str, numbered: bool, expected: int) -> tuple[str | None, str]:
    """The question a heading line opens, and the rest of the line."""
    if numbered:
        match = _NUMBERED.match(line)
        if match and int(match.group(1)) == expected:
            return f"q{match.group(1)}", line[match.end() :]
        return None, line
    match = _HEADING.match(line)
    if match:
        return f"q{match.group(1)}", line[match.end() :]
    task = _TASK_HEADING.match(line)
    if task:
        detection, kind, what, explained = task.groups()
        if detection and line[task.end() :].lstrip()[:1] not in ("{", "["):
            return "q1", line[task.end() :]
        if detection:
            return None, line  # "Detection: {…}": a detection listed, not a heading
        kind = (kind or explained).lower()
        number = 2 if kind == "direct" else 3
        if what is None or what.lower() == "explanation":
            number += 2
        return f"q{number}", line[task.end() :]
    return None, line


def _factor_row(line: str) -> str:
    """A table row listing a factor (name | why | box) as prose: ``name (box): why``."""
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    boxed = [i for i, cell in enumerate(cells) if re.search(r"\d+\s*,\s*\d+", cell)]
    if len(boxed) != 1 or boxed[0] == 0:
        return " ".join(cells)
    box = cells.pop(boxed[0])
    return f"{cells[0]} {box}: {' '.join(cells[1:])}"


def _sections(lines: list[str], numbered: bool) -> tuple[dict[str, list[str]], list[str]]:
    """Lines under each heading, and the lines before the first heading (the preamble)."""
    sections: dict[str, list[str]] = {}
    preamble: list[str] = []
    current: str | None = None
    expected = 1
    for line in lines:
        row = None if numbered else _table_row(line)
        if row is not None:
            if row[0] == current:  # a question's second row: another option
                sections[current].append(row[1])
            else:
                current = row[0]
                sections[current] = [row[1]]
            continue
        if line.lstrip().startswith("|") and current is not None:
            if set(line.strip()) <= set("|-: ") or not re.search(r"\d", line):
                continue  # a table's separator or header row
            line = _factor_row(line)
        qid, rest = _heading(line, numbered, expected)
        if qid is not None:
            current = qid
            expected = int(qid[1]) + 1
            sections[current] = [rest]  # a second heading for one question: the later one
        elif current is not None:
            sections[current].append(line)
        else:
            preamble.append(line)
    return sections, preamble


def prose_record(text: str) -> dict[str, str]:
    """Per question, the text under its heading (``q1:``, ``**Q2**``, ``### Question 3``,
    ``✅ Correct answer for Q1:``, a markdown table row ``| q4 | … |``, or where no line
    names a question, ``1.`` … ``5.`` in order), up to the next question's heading.

    A q1 answered before the first heading ("**Answer: B. No**", then ``Q2:`` …) is the
    preamble's answer line.
    """
    lines = text.splitlines()
    sections, preamble = _sections(lines, numbered=False)
    if len(sections) < 2:
        numbered, numbered_preamble = _sections(lines, numbered=True)
        if len(numbered) > len(sections):
            sections, preamble = numbered, numbered_preamble
    if "q1" not in sections and "q2" in sections:
        answers = [line for line in preamble if _ANSWER_LINE.search(line)]
        if len(answers) == 1:
            sections["q1"] = [answers[0]]
    record: dict[str, str] = {}
    for qid in sorted(sections):
        lines = sections[qid]
        if lines and lines[0].strip() and any(line.strip() for line in lines[1:]):
            lines = [TITLE + lines[0], *lines[1:]]
        joined = "\n".join(line.rstrip() for line in lines).strip()
        if joined:
            record[qid] = joined
    return record


def embedded_json(text: str) -> tuple[str, list[object]]:
    """JSON values written inside a prose answer (a fenced detection list under ``Q2:``):
    the text without them, and the values in order."""
    if "{" not in text and "[{" not in text and "```" not in text:
        return text, []
    values: list[object] = [v for v in json_values(text) if _holds_objects(v)]
    if not values:
        return text, []
    rest = _FENCE.sub(" ", text)
    for start, end in reversed(_bracket_spans(rest)):
        if _holds_objects(_decode(rest[start:end])):
            label = re.search(r"[A-Za-z][A-Za-z ]{0,24}:\s*$", rest[:start].split("\n")[-1])
            start -= len(label.group()) if label else 0  # "Detection: {…}": the label too
            rest = rest[:start] + " " + rest[end:]
    return rest.replace("```", " ").strip(), values


_COORDINATE_KEYS = frozenset(
    [
        "x1",
        "y1",
        "x2",
        "y2",
        "xmin",
        "ymin",
        "xmax",
        "ymax",
        "left",
        "top",
        "right",
        "bottom",
        "x",
        "y",
        "w",
        "h",
        "width",
        "height",
    ]
)


def _holds_objects(value: object) -> bool:
    """A JSON object, or a list holding one — not a box written as numbers or as an object
    of coordinates (``{"xmin": …}``: the prose reader reads those where they stand)."""
    if isinstance(value, dict):
        return not value or not {str(k).lower() for k in value} <= _COORDINATE_KEYS
    return isinstance(value, list) and any(_holds_objects(v) for v in value)


def final_answer_record(text: str) -> tuple[dict[str, object], str | None]:
    """The final answer's record and, when nothing could be found, why.

    The last JSON value that names a question wins; earlier ones are taken only for
    questions the later ones do not answer when they share no question with them (an
    answer split over two objects), never to replace a later answer (a draft).
    """
    final = final_text(text)
    if not final:
        reasoned = _THINK_END.search(text) or _THINK_BLOCK.search(text)
        return {}, NO_ANSWER_AFTER_REASONING if reasoned else NO_ANSWER
    values = json_values(final)
    answers = [record for value in values if (record := questions_of(value))]
    if not answers:
        structured: dict[str, object] = (
            _xml_record(final) or _yaml_record(final) or dict(prose_record(final))
        )
        return (structured, None) if structured else ({}, NO_ANSWER)
    if len(answers) == 1 and _is_entry_list(values, answers[0]):
        prose = prose_record(final)  # a list of per-question boxes beside a prose answer
        if prose:
            return _with_entries(prose, answers[0]), None
    merged = dict(answers[-1])
    for earlier in reversed(answers[:-1]):
        if not set(earlier) & set(merged):
            merged = {**earlier, **merged}
    return {qid: merged[qid] for qid in QUESTION_IDS if qid in merged}, None


def _is_entry_list(values: list[object], record: dict[str, object]) -> bool:
    return any(isinstance(v, list) and _per_question_entries(v) == record for v in values)


def _with_entries(prose: dict[str, str], entries: dict[str, object]) -> dict[str, object]:
    """A prose answer completed by a list of boxes that name their question and option."""
    record: dict[str, object] = dict(prose)
    for qid, value in entries.items():
        written = prose.get(qid)
        if written is None:
            record[qid] = value
        elif qid in ("q4", "q5"):
            factors = value.get("factors", []) if isinstance(value, dict) else []
            record[qid] = {"text": written, "factors": factors}
        else:
            record[qid] = {"choices": written, "detections": value}
    return record


_XML_SECTION = re.compile(r"<(q[1-5])>(.*?)</\1>", re.IGNORECASE | re.DOTALL)
_XML_TAG = re.compile(
    r"<(?P<name>[a-z_]+)(?P<attrs>(?:\s+[a-z_]+=\"[^\"]*\")*)\s*/?>", re.IGNORECASE
)
_XML_ATTR = re.compile(r'([a-z_]+)="([^"]*)"', re.IGNORECASE)


def _xml_record(text: str) -> dict[str, object]:
    """``<q1>A</q1>`` sections (Claude-style tags); ``<factor name="…" box="…"/>`` tags
    inside q4/q5 are factors, ``<box option="A">[…]</box>`` boxes of that option."""
    record: dict[str, object] = {}
    for match in _XML_SECTION.finditer(text):
        qid, inner = match.group(1).lower(), match.group(2)
        factors = [
            dict(_XML_ATTR.findall(tag.group("attrs")))
            for tag in _XML_TAG.finditer(inner)
            if tag.group("name").lower() == "factor"
        ]
        plain = re.sub(r"<factor\b[^>]*/?>(?:.*?</factor>)?", " ", inner, flags=re.DOTALL)
        plain = re.sub(r'<box option="([A-Z])">', r"\n\1: ", plain)
        plain = re.sub(
            r"</?[a-z_]+(?:\s+[a-z_]+=\"[^\"]*\")*\s*/?>", " ", plain, flags=re.IGNORECASE
        )
        plain = "\n".join(line.strip() for line in plain.splitlines() if line.strip())
        record[qid] = {"text": plain, "factors": factors} if factors else plain
    return record


def _yaml_record(text: str) -> dict[str, object]:
    """An answer written as YAML (``q2:`` then indented ``choices:`` and ``boxes:``)."""
    if not re.search(r"^\s*q[1-5]\s*:\s*$", text, re.IGNORECASE | re.MULTILINE):
        return {}  # no question opens a nested block: prose headings read it better
    try:
        value = yaml.safe_load(_FENCE.sub(lambda m: m.group(1), text))
    except (yaml.YAMLError, RecursionError, ValueError):
        return {}
    record = questions_of(value)
    return {qid: record[qid] for qid in QUESTION_IDS if qid in record}


def first_json_object(text: str) -> dict[str, object] | None:
    """The first JSON object of ``text`` (fenced or bare), e.g. a judge's verdict."""
    for value in json_values(text):
        if isinstance(value, dict):
            return value
    return None
