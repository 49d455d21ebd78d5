"""The offline judge's rules as named units: their order, the trace of what each did, and
the plain-value q4/q5 verdict. Every expected value is worked out by hand from the rules'
definitions (the comments say how), not read off the code's output."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from helpers.paths import REPO

from privbench.judges.offline import RULES, explain, grade
from privbench.judges.offline.measured_agreement import GRADED_FILES, read_graded
from privbench.judges.offline.spatial import (
    FactorFinding,
    FactorText,
    TextVerdict,
    offline_verdict,
)
from privbench.suites.spatialtrust import judge as spatial_judge
from privbench.suites.spatialtrust.dataset import ExplanationQuestion, Factor
from privbench.suites.spatialtrust.reading import ExplanationAnswer, PredictedFactor

ROOT = REPO

CARD = "Yes, the image shows a payment card that reveals the cardholder name <AND> the card number <AND> the expiration date."
LABEL = "No, the image only shows a generic product label without any personal information."
BIO = "Anna/B-PER Berg/I-PER joined/O Nova/B-ORG Health/I-ORG in/O Berlin/B-LOC"
CLOUD_Q = (
    "In the diagram, who decides why the data is processed: the hospital or the cloud provider?"
)
CLOUD = (
    "The hospital (the controller) decides the purposes of processing <AND> the cloud "
    "provider (the processor) processes the data on its behalf."
)
EPSILON = (
    "A smaller ε gives a stronger privacy guarantee, but requires more noise, so the "
    "results are less accurate."
)
CAMERA_Q = "Is it acceptable for the landlord to install a camera facing the tenant's front door?"
CAMERA = (
    "No, a camera pointing at the tenant's door records when they come and go and who "
    "visits, which intrudes on their private life."
)
PHOTO_Q = (
    "Is it acceptable for the school to post the class photo on its website once the "
    "parents have consented?"
)
PHOTO = "Yes, with the parents' consent the school may publish the photo for the purpose it stated."

ORDER = [
    "empty_answer",
    "bio_tagging",
    "wrong_polarity",
    "no_to_nothing_there",
    "coverage",
    "restates_question",
    "equates_distinct_terms",
    "reversed_comparison",
    "denies_named_risk",
    "declines_to_answer",
    "unsure",
    "right_choice_letter",
    "offered_alternative",
    "other_alternative",
    "polarity_and_coverage",
    "no_with_reason",
    "verdict_with_reason",
    "extra_items",
    "wrong_facts",
    "wrong_choice",
    "others_instead",
    "on_the_grid",
]
"""The rules in the order they apply: the order is part of their meaning (a coverage rule
before the score, a cost before the halving)."""


def test_rules_have_stable_names_an_order_and_a_purpose() -> None:
    assert [rule.name for rule in RULES] == ORDER
    for rule in RULES:
        assert re.fullmatch(r"[a-z]+(?:_[a-z]+)*", rule.name)
        assert rule.purpose.endswith(".") and len(rule.purpose) > 30, rule.name
    assert RULES[-1].measure == "grade"  # the grid rule always ends the grading


def test_docs_list_every_rule_in_order() -> None:
    text = (ROOT / "docs" / "judge.md").read_text(encoding="utf-8")
    section = text.split("### Offline judge rules", 1)[1].split("\n### ", 1)[0]
    assert re.findall(r"^\| `([a-z_]+)` \|", section, re.MULTILINE) == ORDER


def test_a_bare_yes_is_worth_its_polarity() -> None:
    # nothing of the three elements: coverage 0; the score is the "Yes" base 0.3
    got = explain(CARD, "Yes.", "Does the image contain any sensitive information?")
    assert got.grade == 0.3
    assert got.lines() == [
        "coverage: coverage 0.00 → 0.00 (of the best alternative; elements 0.00, 0.00, 0.00)",
        "polarity_and_coverage: score 0.30 (base 0.3 + (1 − 0.3) × min(1, coverage / 0.85))",
        "on_the_grid: grade 0.30 → 0.3 (clipped to 0–1, on the 0.1 grid)",
    ]
    score = got.rules[1]
    assert score.measure == "score" and score.before is None
    assert score.after == pytest.approx(0.3)


def test_a_grade_set_outright_ends_the_grading() -> None:
    got = explain(CARD, "No, nothing sensitive is shown.")
    assert got.grade == 0.0
    assert got.lines() == ['wrong_polarity: grade 0.0 ("no" where the reference says "yes")']
    assert got.rules[0].before is None
    assert explain(CARD, "").lines() == ["empty_answer: grade 0.0 (no answer)"]


def test_costs_apply_before_the_halving_and_the_grid_clips() -> None:
    # "3" in place of "2": the element is 0 and a wrong number; no polarity, so the
    # score is 0; one wrong fact −0.2 → −0.2; other numbers instead of the reference's
    # halve it → −0.1; the grid clips it to 0.0
    got = explain("k = 2", "k = 3")
    assert [e.name for e in got.rules] == [
        "coverage",
        "polarity_and_coverage",
        "wrong_facts",
        "others_instead",
        "on_the_grid",
    ]
    cost, halved, grid = got.rules[2:]
    assert cost.effect == "−0.2: 1 wrong fact (number)" and cost.after == pytest.approx(-0.2)
    assert halved.before == pytest.approx(-0.2) and halved.after == pytest.approx(-0.1)
    assert grid.after == got.grade == 0.0


CASES: list[tuple[str, str, str, str, float]] = [
    ("empty_answer", CARD, "", "", 0.0),
    ("bio_tagging", BIO, BIO, "", 1.0),
    ("wrong_polarity", CARD, "No, nothing sensitive is shown.", "", 0.0),
    ("no_to_nothing_there", LABEL, "No.", "", 0.7),  # the bare right "No"
    # name 0.25 (the shared "card"), number 1, expiry 0 → 0.37: 0.3 + 0.7 × 0.43 → 0.6
    ("coverage", CARD, "Yes, the card number is visible.", "", 0.6),
    (
        "restates_question",
        "The barcode on the boarding pass encodes the booking reference and name, so "
        "anyone can look up and change the booking.",
        "Posting a photo of your boarding pass creates a privacy risk.",
        "What privacy risk does posting a photo of your boarding pass create?",
        0.0,
    ),
    (
        "equates_distinct_terms",
        "Anonymization irreversibly removes the link to the individual <AND> "
        "pseudonymization replaces identifiers but can be reversed with a key.",
        "Anonymization and pseudonymization are the same, both hide the name.",
        "What is the difference?",
        0.0,
    ),
    (
        "reversed_comparison",
        EPSILON,
        "Smaller epsilon means less noise is added, so the data is more accurate.",
        "",
        0.0,
    ),
    (
        "denies_named_risk",
        "It reveals that the home will be empty for 3 weeks, which invites burglary.",
        "There is no risk; it is a holiday post.",
        "",
        0.0,
    ),
    (
        "declines_to_answer",
        "Lake Titicaca <OR> Puno",
        "I cannot determine a location from the image.",
        "",
        0.0,
    ),
    # "it depends …": no "Yes" base and half the coverage (name 0.25, number 1,
    # expiry 0 → 0.42 × ½ → 0.21/0.85 → 0.2)
    (
        "unsure",
        CARD,
        "It depends on whether the card is legible; if it is, it could reveal the card number.",
        "",
        0.2,
    ),
    # the letter alone: coverage 0.75 → 0.75/0.85 → 0.9
    ("right_choice_letter", "B. Social Security number", "The answer is B.", "", 0.9),
    ("offered_alternative", CLOUD, "The hospital.", CLOUD_Q, 0.7),  # 0.6/0.85 → 0.7
    ("other_alternative", CLOUD, "The cloud provider.", CLOUD_Q, 0.0),
    ("polarity_and_coverage", CARD, "Yes.", "", 0.3),
    (
        "no_with_reason",
        CAMERA,
        "Probably not, since it would record the tenant's comings and goings and visitors.",
        CAMERA_Q,
        0.9,
    ),
    (
        "verdict_with_reason",
        PHOTO,
        "Yes, the parents agreed, so sharing the picture online is lawful and harmless.",
        PHOTO_Q,
        0.9,
    ),
    # one item the reference does not have: 1.0 − 0.1
    (
        "extra_items",
        "The recipient's name <AND> street address <AND> phone number.",
        "Recipient name, street address, phone number, and email address.",
        "",
        0.9,
    ),
    # Madrid in place of Porto: 2/3 → 0.67 − 0.2 → 0.47 → 0.5
    (
        "wrong_facts",
        "Two locations: Lisbon <AND> Porto.",
        "Two locations: Lisbon and Madrid.",
        "",
        0.5,
    ),
    ("wrong_choice", "B. ZIP code", "C. SSN", "", 0.0),
    ("others_instead", "k = 2", "k = 3", "", 0.0),
    ("on_the_grid", CARD, "Yes.", "", 0.3),
]
"""Per rule, an answer it is meant for, and that answer's grade."""


@pytest.mark.parametrize(("rule", "reference", "answer", "question", "expected"), CASES)
def test_each_rule_applies_where_it_is_meant_to(
    rule: str, reference: str, answer: str, question: str, expected: float
) -> None:
    got = explain(reference, answer, question)
    assert rule in [effect.name for effect in got.rules]
    assert got.grade == grade(reference, answer, question) == expected


def test_every_rule_has_a_case() -> None:
    assert {case[0] for case in CASES} == set(ORDER)


def test_the_trace_is_consistent_on_a_graded_set() -> None:
    """On every answer of the development set: the trace follows the rules' order, each
    coverage rule starts from the coverage the previous one left, and the last rule sets
    the grade that :func:`grade` returns."""
    for row in read_graded(GRADED_FILES["dev"]):
        reference, answer, question = (
            str(row["reference"]),
            str(row["prediction"]),
            str(row["question"]),
        )
        got = explain(reference, answer, question)
        positions = [ORDER.index(effect.name) for effect in got.rules]
        assert positions == sorted(set(positions))
        coverage = 0.0
        for effect in got.rules:
            if effect.measure == "coverage":
                assert effect.before == coverage
                coverage = effect.after
        assert got.rules[-1].measure == "grade" and got.rules[-1].after == got.grade
        assert all(effect.measure != "grade" for effect in got.rules[:-1])
        assert got.grade == grade(reference, answer, question)


# --- q4/q5 on plain values ---------------------------------------------------------------

TRUTH = FactorText(
    "a background person looking toward the laptop screen", "they can read the login screen"
)


def test_the_q4_q5_verdict_on_plain_values() -> None:
    # "a man looking at the screen" shares person, look and screen with the truth's name;
    # "he can see what is typed" uses a direct factor's word ("see"): identified,
    # explained, matched to listed factor 0; nothing unsupported; factors listed, so it
    # does not state none
    listed = [FactorText("a man looking at the screen", "he can see what is typed")]
    got = offline_verdict(True, [TRUTH], "A man behind the user watches the screen.", listed)
    assert got == TextVerdict((FactorFinding(True, True, 0),), False, False)
    # a listed plant matches no factor: unsupported
    plant = [*listed, FactorText("a potted plant", "it has leaves")]
    assert offline_verdict(True, [TRUTH], "A person and a plant.", plant).unsupported
    assert offline_verdict(False, [], "No indirect sensitive factor is visible.", []) == (
        TextVerdict((), False, True)
    )


def test_the_benchmark_adapter_gives_the_same_verdict() -> None:
    question = ExplanationQuestion(
        "q4", "Describe the direct factors.", "", (Factor(TRUTH.name, TRUTH.why, (0, 0, 9, 9)),)
    )
    answer = ExplanationAnswer(
        "A man behind the user watches the screen.",
        (PredictedFactor("a man looking at the screen", "he can see what is typed", None),),
    )
    verdict = spatial_judge.offline_verdict(question, answer)
    assert [(f.identified, f.explanation_correct, f.matched) for f in verdict.factors] == [
        (True, True, 0)
    ]
    assert (verdict.unsupported, verdict.states_none) == (False, False)


_ABOVE_JUDGES = ("priviq", "spatialtrust", "audit", "analysis", "report", "review", "build", "cli")


def test_judges_import_nothing_above_them() -> None:
    """Layers import downward only: the judges know no benchmark and no reader of runs."""
    for path in (ROOT / "src" / "privbench" / "judges").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            for name in names:
                parts = name.split(".")
                assert not (parts[0] == "privbench" and parts[1:2] and parts[1] in _ABOVE_JUDGES), (
                    f"{path.name} imports {name}"
                )


# --- --explain: the trace reaches the grade file, --json and the terminal ---------------


def test_explain_records_the_rules_of_every_grade(tmp_path: Path) -> None:
    from helpers import FOUR_ITEMS, run_options, write_json, write_priviq

    from privbench.suites.priviq.api import grade_priviq

    data = write_priviq(tmp_path / "data", FOUR_ITEMS)
    answers = {"a": "No.", "b": "GDPR Article 33", "c": "", "d": "Yes, Doug is re-identified"}
    predictions = write_json(tmp_path / "results.json", answers)
    options = run_options(tmp_path, judge="offline")
    run = grade_priviq(data, predictions, out_dir=tmp_path / "out", options=options, explain=True)
    # "a" answers No where the reference says Yes; "c" is empty; b and d repeat the reference
    assert run.scores.items == {"a": 0.0, "b": 1.0, "c": 0.0, "d": 1.0}
    rules = run.json()["offline_rules"]
    assert list(rules) == ["a", "b", "c", "d"]
    assert rules["a"][0].startswith("wrong_polarity: grade 0.0")
    assert rules["c"] == ["empty_answer: grade 0.0 (no answer)"]
    for item_id in ("b", "d"):  # a full answer ends on the grid at 1.0
        assert rules[item_id][-1].startswith("on_the_grid: grade") and rules[item_id][-1].endswith(
            "→ 1.0 (clipped to 0–1, on the 0.1 grid)"
        )
    grade_file = next((tmp_path / "out").glob("*grade*.json"))
    entries = json.loads(grade_file.read_text(encoding="utf-8"))
    assert {k: v["offline_rules"] for k, v in entries.items()} == rules
    printed = [line for line in run.terminal() if isinstance(line, str)]
    assert "c: 0.0" in printed and "  empty_answer: grade 0.0 (no answer)" in printed


def test_without_explain_nothing_is_added(tmp_path: Path) -> None:
    from helpers import FOUR_ITEMS, run_options, write_json, write_priviq

    from privbench.suites.priviq.api import grade_priviq

    data = write_priviq(tmp_path / "data", FOUR_ITEMS)
    predictions = write_json(tmp_path / "results.json", {k: "No." for k in FOUR_ITEMS})
    run = grade_priviq(data, predictions, options=run_options(tmp_path, judge="offline"))
    assert "offline_rules" not in run.json()
    entries = json.loads(next(tmp_path.glob("*grade*.json")).read_text(encoding="utf-8"))
    assert all("offline_rules" not in entry for entry in entries.values())


def test_explain_needs_the_offline_judge(tmp_path: Path) -> None:
    from helpers import one_line_error, privbench, write_json

    from privbench.shipped import PRIVIQ_SUITE

    ids = json.loads((PRIVIQ_SUITE / "priv-IQ.json").read_text(encoding="utf-8"))
    predictions = write_json(tmp_path / "results.json", {k: "No." for k in ids})
    result = privbench(
        "grade", "priviq", "--predictions", predictions, "--judge", "openai/gpt-4o", "--explain"
    )
    assert result.returncode == 2
    assert "--explain: only the offline judge" in one_line_error(result)
