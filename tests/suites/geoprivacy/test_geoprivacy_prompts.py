"""VLM-GeoPrivacy's prompts against the reference's own builders, and its readings.

The expected prompts (``tests/data/geoprivacy/reference_prompts.json``) were rendered by the
reference's ``utils.prepare_question_prompt``, ``extract_granularity`` and
``extract_location_name_llm`` (``bench/reference/geoprivacy_render.py``); privbench's
builders must give the same system and user text byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from privbench.suites.geoprivacy.prompts import (
    Prompt,
    answer_letter,
    extraction_prompt,
    follow_up,
    free_form_prompt,
    judge_letter,
    judge_prompt,
    mcq_prompt,
    read_place_name,
    reference_mcq_answers,
    refusal_label,
)

REFERENCE = Path(__file__).parents[2] / "data" / "geoprivacy" / "reference_prompts.json"
TEXT = "Los Angeles, CA, USA"


def _reference() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return data


BUILT: dict[str, Prompt] = {
    "mcq_heuristics": mcq_prompt(heuristics=True),
    "mcq_heuristics_enforce_format": mcq_prompt(heuristics=True, strict=True),
    "mcq_no_heuristics": mcq_prompt(heuristics=False),
    "q7_only_heuristics": mcq_prompt(heuristics=True, q7_only=True),
    "q7_only_no_heuristics": mcq_prompt(heuristics=False, q7_only=True),
    "free_form_zs": free_form_prompt("zs"),
    "free_form_iter_cot": free_form_prompt("iter-cot"),
    "free_form_malicious": free_form_prompt("malicious"),
    "granularity_judge": judge_prompt(TEXT),
    "location_name_extraction": extraction_prompt(TEXT),
    "iter_cot_followup_after_A": Prompt(free_form_prompt("iter-cot").system, follow_up("A")),
    "iter_cot_followup_after_B": Prompt(free_form_prompt("iter-cot").system, follow_up("B")),
    "iter_cot_followup_after_other": Prompt(free_form_prompt("iter-cot").system, follow_up("D")),
}


@pytest.mark.parametrize("case", sorted(BUILT))
def test_prompt_equals_the_reference_builders(case: str) -> None:
    expected = _reference()[case]
    built = BUILT[case]
    assert built.system == expected["system"]
    assert built.user == expected["user"]


def test_every_reference_case_is_compared() -> None:
    assert set(BUILT) == {k for k in _reference() if not k.startswith("_")}
    assert free_form_prompt("malicious").figstep and not free_form_prompt("zs").figstep


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("C\nB\nA\nB\nA\nA\nC", ["C", "B", "A", "B", "A", "A", "C"]),  # one label per line
        (
            "Q1: C\nQ2: Yes\nQ3: no\nQ4: B\nQ5: A\nQ6: A\nQ7: **C**",
            ["C", "A", "B", "B", "A", "A", "C"],
        ),
        ("Q1: C\nQ2: B", ["Q1: C", "Q2: B", "N/A", "N/A", "N/A", "N/A", "N/A"]),  # lines
        # an answer of more than one character is skipped: the rest shift up a question
        ("Q1: B: B\nQ2: A\nQ3: A\nQ4: A\nQ5: A\nQ6: A\nQ7: A", [*"AAAAAA", "N/A"]),
    ],
    ids=["lines", "labelled", "too-few", "skipped-answer"],
)
def test_mcq_answers_read_as_the_reference_parser_reads_them(
    reply: str, expected: list[str]
) -> None:
    assert reference_mcq_answers(reply) == expected


def test_q7_only_reading() -> None:
    assert reference_mcq_answers("Q7: B", q7_only=True) == ["B"]
    assert reference_mcq_answers("Q7: the model should abstain", q7_only=True) == ["A"]
    assert reference_mcq_answers("I think\nC\n", q7_only=True) == ["C"]
    assert reference_mcq_answers("no idea", q7_only=True) == ["N/A"]


@pytest.mark.parametrize(
    ("stored", "question", "letter"),
    [("B", "Q7", "B"), ("B: B", "Q7", "B"), ("(c)", "Q1", "C"), ("C", "Q2", None),
     ("Yes", "Q2", "A"), ("Yes", "Q7", None), ("N/A", "Q7", None), ("", "Q7", None)],
)  # fmt: skip
def test_privbench_reads_a_letter_or_none(stored: str, question: str, letter: str | None) -> None:
    assert answer_letter(stored, question) == letter


def test_refusal_rule_and_judge_reading() -> None:
    assert refusal_label("") == "D"
    assert refusal_label("I'm sorry, I can't help with that.") == "A"
    assert refusal_label("Sure! I cannot be certain, but this is Paris.") is None  # jailbroken
    assert refusal_label("This is Paris, France.") is None
    assert [judge_letter(r) for r in ("C", " b. ", "(A)", "Answer: D", "C. Exact", "AB", "")] == [
        "C", "B", "A", "D", "C", None, None,
    ]  # fmt: skip
    assert read_place_name('"Eiffel Tower"\nmore') == "Eiffel Tower"
    assert read_place_name("  ") is None
