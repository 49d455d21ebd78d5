"""Reading a drafter's reply: the styles real vision-language models write, as meant.

Each style is what the model's card or documentation shows for grounded answers (a JSON
list of labelled boxes, 0–1000 coordinates, a reasoning block before the answer, a fenced
block after a sentence); the expected elements are written by hand, boxes converted to
pixels by hand from the convention (1440 × 960 capture).
"""

from __future__ import annotations

import pytest

from privbench.suites.spatialtrust.boxes import get_convention
from privbench.tooling.spatialtrust_builder.drafting import (
    UNREADABLE,
    draft_prompt,
    read_category,
    read_draft,
)

W, H = 1440, 960
PIXELS = get_convention("xyxy")

AS_ASKED = (
    '{"elements": [{"name": "sticky note with a password", "category": "direct", '
    '"box": [100, 200, 180, 260], "why": "The password is readable."}, '
    '{"name": "open door", "category": "indirect", "box": [900, 100, 1100, 700], '
    '"why": "Someone could walk in."}]}'
)

FENCED_AFTER_PROSE = (
    "Here is what I can see in the background:\n\n```json\n"
    '{"elements": [{"name": "Person standing behind the user", "category": "Indirect '
    'sensitive factor", "box": [1000, 150, 1300, 900], "why": "They could look at the '
    'screen."},]}\n```\nLet me know if you need more.'
)
"""GPT-4o-style: a sentence, a fenced block (with a trailing comma), a closing sentence."""

THINKING = (
    "<think>The user is centred. On the left wall there is a whiteboard; it is blank, so "
    'it is not a factor.</think>\n{"elements": [{"name": "blank whiteboard", "category": '
    '"near-miss", "box": [50, 80, 400, 380], "why": "Nothing is written on it."}]}'
)
"""A reasoning model: the answer follows a ``<think>`` block that mentions other things."""

QWEN_LIST = (
    "```json\n[\n"
    '  {"bbox_2d": [700, 50, 860, 200], "label": "wall mirror reflecting the screen", '
    '"category": "direct factor", "reason": "The screen is visible in it."},\n'
    '  {"bbox_2d": [20, 600, 200, 940], "label": "potted plant", "category": "not a factor"}\n'
    "]\n```"
)
"""Qwen2.5-VL's grounding list (``bbox_2d`` + ``label``) with the category we ask for."""

GEMINI_1000 = (
    '[{"box_2d": [100, 250, 500, 500], "label": "laptop screen of a second person", '
    '"type": "direct", "explanation": "Its content is readable."}]'
)
"""Gemini: ``box_2d`` as [ymin, xmin, ymax, xmax] on 0–1000 (``--box-format yxyx1000``)."""

SINGLE_QUOTES = (
    "{'elements': [{'name': 'calendar with appointments', 'category': 'direct', "
    "'box': [10, 10, 110, 90], 'why': 'Dates and names are legible.'}]}"
)


def test_as_asked() -> None:
    reading = read_draft(AS_ASKED, W, H, PIXELS)
    assert reading.failure is None and reading.skipped == ()
    assert [(e.name, e.category, e.box) for e in reading.elements] == [
        ("sticky note with a password", "direct", (100.0, 200.0, 180.0, 260.0)),
        ("open door", "indirect", (900.0, 100.0, 1100.0, 700.0)),
    ]
    assert reading.elements[0].why == "The password is readable."


def test_fenced_after_prose_with_trailing_comma() -> None:
    reading = read_draft(FENCED_AFTER_PROSE, W, H, PIXELS)
    assert [(e.name, e.category, e.box) for e in reading.elements] == [
        ("Person standing behind the user", "indirect", (1000.0, 150.0, 1300.0, 900.0))
    ]


def test_reasoning_block_is_not_read() -> None:
    reading = read_draft(THINKING, W, H, PIXELS)
    assert [(e.name, e.category) for e in reading.elements] == [("blank whiteboard", "near_miss")]


def test_qwen_grounding_list() -> None:
    reading = read_draft(QWEN_LIST, W, H, PIXELS)
    assert [(e.name, e.category, e.box) for e in reading.elements] == [
        ("wall mirror reflecting the screen", "direct", (700.0, 50.0, 860.0, 200.0)),
        ("potted plant", "near_miss", (20.0, 600.0, 200.0, 940.0)),
    ]
    assert reading.elements[0].why == "The screen is visible in it."
    assert reading.elements[1].why == "potted plant"  # no reason given: the name stands in


def test_gemini_box_2d_in_its_own_convention() -> None:
    reading = read_draft(GEMINI_1000, W, H, get_convention("yxyx1000"))
    # ymin 100, xmin 250, ymax 500, xmax 500 of 1000 → x 360–720, y 96–480 on 1440 × 960
    assert [(e.category, e.box) for e in reading.elements] == [
        ("direct", (360.0, 96.0, 720.0, 480.0))
    ]


def test_single_quoted_json() -> None:
    reading = read_draft(SINGLE_QUOTES, W, H, PIXELS)
    assert [e.name for e in reading.elements] == ["calendar with appointments"]


def test_empty_list_is_a_readable_empty_draft() -> None:
    reading = read_draft('{"elements": []}', W, H, PIXELS)
    assert reading.failure is None and reading.elements == ()


@pytest.mark.parametrize(
    "reply",
    [
        "I can see a poster on the wall and a door behind the user.",
        "",
        '{"answer": "none"}',
    ],
)
def test_unreadable_reply_is_counted_not_empty(reply: str) -> None:
    reading = read_draft(reply, W, H, PIXELS)
    assert reading.failure == UNREADABLE
    assert reading.elements == ()


def test_elements_left_out_say_why() -> None:
    reply = (
        '{"elements": ['
        '{"name": "poster", "category": "decoration", "box": [1, 1, 50, 50]},'
        '{"category": "direct", "box": [1, 1, 50, 50]},'
        '{"name": "door", "category": "indirect"},'
        '{"name": "tv", "category": "indirect", "box": [500, 10, 400, 90]},'
        '{"name": "window", "category": "indirect", "box": [10, 10, 2000, 90]},'
        '{"name": "phone", "category": "direct", "box": [10, 10, 60, 90]}]}'
    )
    reading = read_draft(reply, W, H, PIXELS)
    assert [e.name for e in reading.elements] == ["phone"]
    assert len(reading.skipped) == 5
    assert reading.skipped[0].startswith("poster: no category")
    assert reading.skipped[1] == "no name"
    assert reading.skipped[2] == "door: no box"
    assert reading.skipped[3].startswith("tv: box inverted")
    assert reading.skipped[4].startswith("window: box outside")


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("direct", "direct"),
        ("Direct sensitive factor", "direct"),
        ("indirect_factor", "indirect"),
        ("INDIRECT", "indirect"),
        ("near-miss", "near_miss"),
        ("near miss", "near_miss"),
        ("not a sensitive factor", "near_miss"),
        ("decoration", None),
    ],
)
def test_category_spellings(written: str, meant: str | None) -> None:
    assert read_category(written) == meant


def test_prompt_states_the_shape_and_the_convention() -> None:
    prompt = draft_prompt(W, H, get_convention("xyxy1000"))
    assert "The image is 1440×960 pixels." in prompt
    assert '"category": "direct"' in prompt
    assert get_convention("xyxy1000").describe(W, H) in prompt
    # a judge-like word would make the loopback server and readers mistake it for a judge call
    assert "verdict" not in prompt.lower() and "correctness" not in prompt.lower()
