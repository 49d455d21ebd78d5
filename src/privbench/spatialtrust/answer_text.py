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
boxes out of it is :mod:`privbench.spatialtrust.parsing`.
"""

from __future__ import annotations

import json
import re
from typing import Any

import json5

from privbench.spatialtrust.dataset import QUESTION_IDS

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
        if inner:
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
        return None


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


def questions_of(value: object) -> dict[str, Any]:
    """The questions an answer object holds, by question id (one wrapper level unwrapped).

    ``{"answers": {"q1": …}}`` and ``[{"q1": …}]`` are answers too; keys are normalised
    with :func:`question_id`, the first of two keys for one question wins.
    """
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if not isinstance(value, dict):
        return {}
    record: dict[str, Any] = {}
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


_HEADING = re.compile(
    r"^[\s>#*_|`\-]*(?:q|question)\s*([1-5])(?![0-9])\s*(?:\([^)\n]*\))?[\s*_`]*[:.)\-–—|]?[\s*_`]*",
    re.IGNORECASE,
)


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


def prose_record(text: str) -> dict[str, str]:
    """Per question, the text under its heading (``q1:``, ``**Q2**``, ``### Question 3``,
    a markdown table row ``| q4 | … |``), up to the next question's heading."""
    sections: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.splitlines():
        row = _table_row(line)
        if row is not None:
            current = row[0]
            sections[current] = [row[1]]
            continue
        if (
            line.lstrip().startswith("|")
            and current is not None
            and set(line.strip()) <= set("|-: ")
        ):
            continue  # a table's separator row
        match = _HEADING.match(line)
        if match:
            current = f"q{match.group(1)}"
            rest = line[match.end() :]
            if current in sections:  # a second heading for one question: the later one
                sections[current] = []
            sections[current] = [rest]
        elif current is not None:
            sections[current].append(line)
    record: dict[str, str] = {}
    for qid, lines in sections.items():
        joined = "\n".join(line.rstrip() for line in lines).strip()
        if joined:
            record[qid] = joined
    return record


def final_answer_record(text: str) -> tuple[dict[str, Any], str | None]:
    """The final answer's record and, when nothing could be found, why.

    The last JSON value that names a question wins; earlier ones are taken only for
    questions the later ones do not answer when they share no question with them (an
    answer split over two objects), never to replace a later answer (a draft).
    """
    final = final_text(text)
    if not final:
        reasoned = _THINK_END.search(text) or _THINK_BLOCK.search(text)
        return {}, NO_ANSWER_AFTER_REASONING if reasoned else NO_ANSWER
    answers = [record for value in json_values(final) if (record := questions_of(value))]
    if answers:
        merged = dict(answers[-1])
        for earlier in reversed(answers[:-1]):
            if not set(earlier) & set(merged):
                merged = {**earlier, **merged}
        return {qid: merged[qid] for qid in QUESTION_IDS if qid in merged}, None
    prose = prose_record(final)
    if prose:
        return prose, None
    return {}, NO_ANSWER


def first_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object of ``text`` (fenced or bare), e.g. a judge's verdict."""
    for value in json_values(text):
        if isinstance(value, dict):
            return value
    return None
