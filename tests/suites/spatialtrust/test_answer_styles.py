"""Replies written the way real model families write them are read as they were meant.

Why: a reading error is a score error nobody sees — a model that wrote "B & D" or put its
boxes under ``bbox_2d`` in Qwen2.5-VL's resized pixels would be scored for its formatting.
The corpus ``tests/data/answer_styles/replies.jsonl`` (frozen output of the renderers in
``answer_styles.py`` plus hand-written verbatim shapes, see its README) pairs each raw
reply with the answer it means; reading the reply in the style's ``--box-format`` must
give that answer: no parse failure, the same q1, the same q2/q3 options with their boxes
within 1.5 px (conversions round), as many q4/q5 factors with their boxes, the same factor
names where the style keeps them, no invalid box.

Known misreadings of the parser are listed in :data:`KNOWN_MISREADINGS` as strict xfails:
the test fails as soon as one is fixed, so the list cannot go stale.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers.answer_styles import CORPUS, STYLES, differences, meant, read_reply
from helpers.paths import REPO

from privbench.suites.spatialtrust.boxes import BOX_CONVENTIONS
from privbench.suites.spatialtrust.dataset import SpatialItem, load_spatialtrust
from privbench.suites.spatialtrust.reading import parse_answer
from privbench.suites.spatialtrust.task import default_data_dir

ROOT = REPO
LINES: list[dict[str, Any]] = [
    json.loads(line) for line in (ROOT / CORPUS).read_text(encoding="utf-8").splitlines()
]

KNOWN_MISREADINGS: dict[tuple[str, str], str] = {}
"""(style, image id) → why the parser misreads that fixture (parser bugs, not test bugs).
Empty: every fixture is read as meant. The first round of this corpus found seven
misreadings (two boxes in one grounding token, grounded options back to back, '|' of
grounding tokens taken for table cells, table cells run together, bold factor names,
"Correct answer:" lead-ins, letters run together); each was fixed in the parser."""


@pytest.fixture(scope="module")
def items() -> dict[str, SpatialItem]:
    return {item.id: item for item in load_spatialtrust(default_data_dir())}


def _case(line: dict[str, Any]) -> Any:
    key = (line["style"], line["item_id"])
    marks = []
    if key in KNOWN_MISREADINGS:
        marks.append(pytest.mark.xfail(reason=KNOWN_MISREADINGS[key], strict=True))
    return pytest.param(line, id=f"{line['style']}-{line['item_id']}", marks=marks)


def test_corpus_covers_every_style() -> None:
    styles = {line["style"] for line in LINES}
    assert set(STYLES) <= styles
    assert sum(1 for s in styles if s.startswith("verbatim_")) >= 8
    for line in LINES:
        assert line["box_format"] in BOX_CONVENTIONS and line["source"]


@pytest.mark.parametrize("line", [_case(line) for line in LINES])
def test_reply_is_read_as_meant(line: dict[str, Any], items: dict[str, SpatialItem]) -> None:
    item = items[line["item_id"]]
    got = read_reply(line["reply"], item, line["box_format"])
    want = meant(line["intended"], item)
    assert not want.failures and not want.invalid_boxes  # the intended record itself is clean
    style = STYLES.get(line["style"])
    keeps_names = style.keeps_names if style is not None else False
    assert differences(got, want, keeps_names) == []


def test_a_hedged_q1_is_a_parse_failure(items: dict[str, SpatialItem]) -> None:
    item = items["st-0025"]
    reply = json.dumps({"q1": "A, C", "q2": ["E"], "q3": ["E"], "q4": "none", "q5": "none"})
    answer = parse_answer(reply, item, BOX_CONVENTIONS["xyxy"])
    assert answer.q1 is None and "q1" in answer.failures
    assert "hedge" in answer.failures["q1"]


def test_a_draft_in_think_does_not_count(items: dict[str, SpatialItem]) -> None:
    item = items["st-0025"]
    draft = {"q1": "B", "q2": ["A"], "q3": ["A"], "q4": "draft", "q5": "draft"}
    final = {"q1": "A", "q2": ["C", "D"], "q3": ["E"], "q4": "final", "q5": "final"}
    reply = f"<think>First idea: {json.dumps(draft)}. No.</think>\n{json.dumps(final)}"
    answer = parse_answer(reply, item, BOX_CONVENTIONS["xyxy"])
    assert answer.q1 == "A" and answer.q2 is not None and answer.q2.choices == ("C", "D")
    assert answer.q4 is not None and answer.q4.text == "final"


def test_a_draft_alone_in_an_unclosed_think_is_no_answer(items: dict[str, SpatialItem]) -> None:
    reply = '<think>Maybe {"q1": "B", "q2": ["A"]} but let me check the shelf'
    answer = parse_answer(reply, items["st-0025"], BOX_CONVENTIONS["xyxy"])
    assert set(answer.failures) == {"q1", "q2", "q3", "q4", "q5"}


def test_a_nan_box_is_listed_invalid_not_a_crash(items: dict[str, SpatialItem]) -> None:
    item = items["st-0025"]
    reply = (
        '{"q1": "A", "q2": {"choices": ["C"], "boxes": {"C": [[NaN, 10, 300, Infinity]]}}, '
        '"q3": ["E"], "q4": "A whiteboard.", "q5": "Nothing."}'
    )
    answer = parse_answer(reply, item, BOX_CONVENTIONS["xyxy"])
    assert answer.q2 is not None and answer.q2.choices == ("C",)
    assert answer.q2.boxes.get("C", ()) == ()
    (invalid,) = answer.invalid_boxes
    assert (invalid.question, invalid.option) == ("q2", "C")
    assert "finite" in invalid.reason


def test_grounding_tokens_in_a_prose_answer_keep_the_choice(
    items: dict[str, SpatialItem],
) -> None:
    reply = (
        "q1: A\nq2: C <|box_start|>(100,100),(200,200)<|box_end|>\nq3: E\n"
        "q4: A whiteboard.\nq5: Nothing."
    )
    answer = parse_answer(reply, items["st-0025"], BOX_CONVENTIONS["xyxy1000"])
    assert answer.q2 is not None and answer.q2.choices == ("C",)


def _blind(name: str) -> list[dict[str, Any]]:
    text = (ROOT / "tests/data/answer_styles" / name).read_text("utf-8")
    return [json.loads(line) for line in text.splitlines()]


NOT_YET_READ: dict[str, frozenset[str]] = {
    "heldout.jsonl": frozenset(),
    "heldout2.jsonl": frozenset(
        [
            "deepseek_vl2_ref_det",
            "gemini_box2d_list_prose",
            "gemini_slash_labels",
            "gpt41_options_and_prose",
            "minicpmv_ref_box_answer_prefix",
            "qwen3_all_in_one_list",
        ]
    ),
    "heldout3.jsonl": frozenset(
        [
            "claude_conversational",
            "coordinate_ranges",
            "deepseek_grounding_caption",
            "deepseek_vl2_ref_det",
            "detection_section_after_answers",
            "gemini_box2d_flat_array",
            "gemini_prose_then_json",
            "glm41v_answer_begin_of_box",
            "internvl3_prose_bare_double_brackets",
            "json_semantic_keys",
            "molmo_point_and_box",
            "molmo_xml_box_tags",
            "named_min_max_coords",
            "paired_question_explanation",
            "paren_labels_qwen25_inline",
            "phi35_one_line_semicolons",
            "python_assignments",
            "qwen25_combined_list_count",
            "qwen2_json_bbox_relative",
            "qwen3_thinking_then_json",
            "restate_question_arrow",
            "think_draft_then_final",
            "xml_answer_tags",
        ]
    ),
}
"""Replies of the blind sets the reader does not read as meant yet (see each set's .md):
strict xfails, so a reader change that fixes one must take it off this list, and one
that breaks a line that was read fails."""
BLIND = [
    pytest.param(
        line,
        id=f"{name.removesuffix('.jsonl')}-{line['style']}",
        marks=[pytest.mark.xfail(reason="a blind reply not read yet", strict=True)]
        if line["style"] in NOT_YET_READ[name]
        else [],
    )
    for name in NOT_YET_READ
    for line in _blind(name)
]


@pytest.mark.parametrize("line", BLIND)
def test_blind_written_reply_is_read_as_meant(
    line: dict[str, Any], items: dict[str, SpatialItem]
) -> None:
    """Replies written by helpers that never saw the reader (heldout*.md: how each set was
    measured once before the reader was changed for it)."""
    item = items[line["item_id"]]
    got = read_reply(line["reply"], item, line["box_format"])
    assert differences(got, meant(line["intended"], item), keeps_names=False) == []
