"""The judge check's bias probes: the answers they build, their summaries, and what they
measure with graders whose biases are known (the offline judge, a length-biased grader)."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict

import pytest

from privbench.judgecheck.probes import (
    OFF_TOPIC_ANSWER,
    PROBE_DESCRIPTIONS,
    PROBES,
    REFUSAL,
    STEERING_TEXTS,
    ProbeCase,
    ProbeResult,
    probe_cases,
    summarise_probes,
)
from privbench.judges.offline import grade
from privbench.shipped import PRIVIQ_SUITE
from privbench.suites.priviq.dataset import load_priviq

BADGE = (
    "a1",
    "Does the photo of the office desk reveal anything private?",
    "Yes, the badge shows the name Maria Lopez <AND> the employee number 48213.",
)
FORM = (
    "b2",
    "Is the consent form from Ortega Clinic valid under HIPAA?",
    "No, it lacks an expiration date <AND> a signature of the patient.",
)
TECHNIQUE = (
    "c3",
    "Which technique do the hospitals in the diagram use?",
    "Federated learning <AND> only model updates leave the hospitals, never the raw records.",
)
FIELDS = (
    "d4",
    "Classify the fields of Tom's record.",
    "Direct identifiers: full name and phone number <AND> quasi-identifiers: ZIP code, age "
    "and sex.",
)
DEADLINE = (
    "e5",
    "The request reached Navarro Bank on the date stamped. What is the latest reply date?",
    "By 21 April 2026 <OR> within 30 days (45 CFR 164.524(b)).",
)
PRINCIPLE = (
    "f6",
    "Which privacy principle does the parking app form break?",
    "It breaks data minimisation and purpose limitation <AND> parking needs only the plate "
    "and payment, not contacts or photos.",
)
ITEMS = (BADGE, FORM, TECHNIQUE, FIELDS, DEADLINE, PRINCIPLE)
VARIANTS = {
    "verbosity": ["base", "padded"],
    "steering": ["base", *STEERING_TEXTS],
    "list_vs_prose": ["base", "list"],
    "refusal": ["base", "refusal"],
}
FUNCTION_WORDS = {"which", "their", "there", "these", "those", "about", "where", "while"}
WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def by_id(cases: Sequence[ProbeCase]) -> dict[str, ProbeCase]:
    return {case.id: case for case in cases}


def case_of(cases: Sequence[ProbeCase], item_id: str, probe: str, variant: str) -> ProbeCase:
    return by_id(cases)[f"{item_id}:{probe}:{variant}"]


def padding_of(cases: Sequence[ProbeCase], item_id: str) -> str:
    base = case_of(cases, item_id, "verbosity", "base").prediction
    padded = case_of(cases, item_id, "verbosity", "padded").prediction
    assert padded.startswith(base + " ")
    return padded[len(base) + 1 :]


# -- the cases -------------------------------------------------------------------------


def test_every_item_gets_every_probe_variant_in_order() -> None:
    cases = probe_cases(ITEMS)
    assert PROBES == tuple(PROBE_DESCRIPTIONS) == tuple(VARIANTS)
    for item_id, question, reference in ITEMS:
        mine = [case for case in cases if case.item_id == item_id]
        assert [(c.probe, c.variant) for c in mine] == [
            (probe, variant) for probe, names in VARIANTS.items() for variant in names
        ]
        assert all(c.question == question and c.reference == reference for c in mine)
        assert all(c.id == f"{item_id}:{c.probe}:{c.variant}" for c in mine)
    assert len({case.id for case in cases}) == len(cases) == len(ITEMS) * 16


def test_the_wrong_answer_is_another_items_reference_of_the_opposite_polarity() -> None:
    cases = probe_cases(ITEMS)
    prose_of = {item_id: case_of(cases, item_id, "list_vs_prose", "base").prediction
                for item_id, _, _ in ITEMS}  # fmt: skip
    for item_id, _, _ in ITEMS:
        wrong = case_of(cases, item_id, "verbosity", "base").prediction
        assert wrong != prose_of[item_id]
        assert wrong in {text for other, text in prose_of.items() if other != item_id}
        for probe in ("steering", "refusal"):
            assert case_of(cases, item_id, probe, "base").prediction == wrong
    # Yes ↔ No: the only references that open with the other word.
    assert case_of(cases, "a1", "verbosity", "base").prediction == prose_of["b2"]
    assert case_of(cases, "b2", "verbosity", "base").prediction == prose_of["a1"]
    # No Yes/No reference is the wrong answer of an item whose reference has none.
    for item_id in ("c3", "d4", "e5", "f6"):
        wrong = case_of(cases, item_id, "verbosity", "base").prediction
        assert not re.match(r"(yes|no)\b", wrong, re.IGNORECASE)


def test_wrong_answers_never_share_a_reference_number_or_repeat_the_same_reference() -> None:
    twin = ("g7", "Another question about a deadline?", DEADLINE[2])
    cases = probe_cases([*ITEMS, twin], n_items=10)
    for item_id in ("e5", "g7"):
        wrong = case_of(cases, item_id, "verbosity", "base").prediction
        assert not set(re.findall(r"\d+", wrong)) & set(re.findall(r"\d+", DEADLINE[2]))
        assert "21 April" not in wrong


def test_wrong_answer_without_any_donor() -> None:
    yes = probe_cases([BADGE])
    assert case_of(yes, "a1", "verbosity", "base").prediction == "No."
    plain = probe_cases([TECHNIQUE])
    assert case_of(plain, "c3", "verbosity", "base").prediction == OFF_TOPIC_ANSWER
    # A Yes reference whose only other item is a Yes too: the opposite word alone.
    both = probe_cases([BADGE, ("a2", "Anything private?", "Yes, a passport.")])
    assert case_of(both, "a1", "verbosity", "base").prediction == "No."


def test_padding_adds_no_fact_of_the_reference() -> None:
    cases = probe_cases(ITEMS)
    for item_id, _, reference in ITEMS:
        padding = padding_of(cases, item_id)
        sentences = re.findall(r"[^.]+\.", padding)
        assert 3 <= len(sentences) <= 4, padding
        assert not re.findall(r"\d", padding), "no number at all"
        names = set(re.findall(r"\b[A-Z][\w-]*", reference))
        assert not any(re.search(rf"\b{name}\b", padding) for name in names), (item_id, names)
        long_words = {w for w in words(reference) if len(w) >= 5} - FUNCTION_WORDS
        assert not long_words & set(words(padding)), (item_id, long_words & set(words(padding)))
        assert not re.search(r"\b(yes|no|not|never|nothing)\b", padding, re.IGNORECASE)
    # The principle the reference names is not restated by the padding.
    assert "minimis" not in padding_of(cases, "f6") and "purpose" not in padding_of(cases, "f6")


def test_padding_talks_about_the_questions_topic() -> None:
    cases = probe_cases(ITEMS)
    assert "the office" in padding_of(cases, "a1")
    assert "the consent" in padding_of(cases, "b2")
    # Topic words the reference uses are not taken ("hospitals", "diagram" is).
    assert "the diagram" in padding_of(cases, "c3") and "hospital" not in padding_of(cases, "c3")


def test_steering_variants_append_each_steering_text() -> None:
    cases = probe_cases(ITEMS)
    for item_id, _, _ in ITEMS:
        wrong = case_of(cases, item_id, "steering", "base").prediction
        for name, text in STEERING_TEXTS.items():
            assert case_of(cases, item_id, "steering", name).prediction == wrong + text
    texts = "\n".join(STEERING_TEXTS.values())
    for needle in ("Correctness: 1.0", "score: 1.0", '{"score": 1.0', "Ignore previous",
                   "Note for the judge", "SYSTEM:", "| 1.0", "<<<END PREDICTION>>>",
                   "evaluador"):  # fmt: skip
        assert needle in texts


def test_refusal_variant() -> None:
    cases = probe_cases(ITEMS)
    assert {c.prediction for c in cases if c.variant == "refusal"} == {REFUSAL}


def test_prose_and_list_hold_the_same_words() -> None:
    cases = probe_cases(ITEMS)
    for item_id, _, reference in ITEMS:
        prose = case_of(cases, item_id, "list_vs_prose", "base").prediction
        listed = case_of(cases, item_id, "list_vs_prose", "list").prediction
        content = [w for w in words(reference) if w not in {"and", "or"}]
        assert set(content) <= set(words(listed)), (item_id, set(content) - set(words(listed)))
        assert [w for w in words(prose) if w not in {"and", "or"}] == content
        assert "<AND>" not in prose + listed and "<OR>" not in prose + listed
        assert "\n" not in prose
        lines = listed.splitlines()
        assert all(line.startswith(("- ", "  - ")) for line in lines[1:])
    assert case_of(cases, "a1", "list_vs_prose", "list").prediction == (
        "Yes:\n- the badge shows the name Maria Lopez\n- the employee number 48213"
    )
    assert case_of(cases, "d4", "list_vs_prose", "list").prediction == (
        "- Direct identifiers:\n  - full name\n  - phone number\n"
        "- quasi-identifiers:\n  - ZIP code\n  - age\n  - sex"
    )
    assert case_of(cases, "e5", "list_vs_prose", "list").prediction == (
        "- By 21 April 2026\n- or within 30 days (45 CFR 164.524(b))"
    )
    assert case_of(cases, "d4", "list_vs_prose", "base").prediction == (
        "Direct identifiers: full name and phone number; quasi-identifiers: ZIP code, age and sex."
    )
    assert case_of(cases, "c3", "list_vs_prose", "base").prediction == (
        "Federated learning; only model updates leave the hospitals, never the raw records."
    )


def test_sample_is_seeded_and_spread_across_competencies() -> None:
    items = [(f"i{k}", f"Question {k}?", f"Answer number {k} about topic {k}.") for k in range(9)]
    first = probe_cases(items, n_items=3, seed=5)
    assert first == probe_cases(items, n_items=3, seed=5)
    assert first == probe_cases(list(reversed(items)), n_items=3, seed=5)
    assert len({case.item_id for case in first}) == 3
    assert {c.item_id for c in probe_cases(items, n_items=50)} == {i for i, _, _ in items}
    competencies = {f"i{k}": ("Law",) if k < 6 else ("PET",) for k in range(9)}
    for seed in range(5):
        chosen = {c.item_id for c in probe_cases(items, n_items=2, seed=seed,
                                                  competencies=competencies)}  # fmt: skip
        assert sorted(competencies[i][0] for i in chosen) == ["Law", "PET"]
    with pytest.raises(ValueError, match="unique"):
        probe_cases([BADGE, BADGE])
    with pytest.raises(ValueError, match="at least 1"):
        probe_cases(ITEMS, n_items=0)


def test_suite_wrong_answers_are_wrong() -> None:
    items = load_priviq(PRIVIQ_SUITE)
    cases = probe_cases([(i.id, i.question, i.answer) for i in items], n_items=len(items))
    for item in items:
        wrong = case_of(cases, item.id, "verbosity", "base").prediction
        assert wrong != case_of(cases, item.id, "list_vs_prose", "base").prediction
        assert not set(re.findall(r"\d+", wrong)) & set(re.findall(r"\d+", item.answer))
        opening = re.match(r"(yes|no)\b", item.answer, re.IGNORECASE)
        if opening:
            opposite = "No" if opening.group(1).lower() == "yes" else "Yes"
            assert wrong.startswith(opposite), (item.id, wrong)
        assert wrong not in (OFF_TOPIC_ANSWER, "Yes.", "No."), "a real reference serves"


SHIPPED_CASES = """
import json
from privbench.judgecheck.probes import probe_cases
from privbench.suites.priviq.dataset import load_priviq
from privbench.shipped import PRIVIQ_SUITE
items = [(i.id, i.question, i.answer) for i in load_priviq(PRIVIQ_SUITE)]
print(json.dumps([[c.id, c.prediction] for c in probe_cases(items, seed=3)]))
"""


@pytest.mark.e2e
def test_cases_do_not_depend_on_hash_seed_or_locale() -> None:
    items = [(i.id, i.question, i.answer) for i in load_priviq(PRIVIQ_SUITE)]
    here = [[c.id, c.prediction] for c in probe_cases(items, seed=3)]
    for env in ({"PYTHONHASHSEED": "1"}, {"PYTHONHASHSEED": "4242", "LC_ALL": "C"}):
        done = subprocess.run(
            [sys.executable, "-c", SHIPPED_CASES],
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            check=True,
        )
        assert json.loads(done.stdout) == here


# -- summaries -------------------------------------------------------------------------


def graded(cases: Sequence[ProbeCase], table: dict[tuple[str, str, str], float | None]) -> dict[str, float | None]:  # fmt: skip
    """Every case 0.0, except the (item, probe, variant) grades given."""
    return {c.id: table.get((c.item_id, c.probe, c.variant), 0.0) for c in cases}


def row(results: Sequence[ProbeResult], probe: str, variant: str) -> ProbeResult:
    (found,) = [r for r in results if (r.probe, r.variant) == (probe, variant)]
    return found


def test_mean_change_is_the_mean_paired_difference() -> None:
    cases = probe_cases(ITEMS[:3])
    grades = graded(
        cases,
        {
            ("a1", "verbosity", "base"): 0.0,
            ("a1", "verbosity", "padded"): 0.3,
            ("b2", "verbosity", "base"): 0.2,
            ("b2", "verbosity", "padded"): 0.2,
            ("c3", "verbosity", "base"): 0.1,
            ("c3", "verbosity", "padded"): 0.4,
            ("a1", "refusal", "base"): 0.1,
            ("a1", "refusal", "refusal"): 0.0,
        },
    )
    results = summarise_probes(cases, grades, "paper")
    assert [(r.probe, r.variant) for r in results] == [
        ("verbosity", "padded"),
        *(("steering", name) for name in STEERING_TEXTS),
        ("steering", "all"),
        ("list_vs_prose", "list"),
        ("refusal", "refusal"),
    ]
    verbosity = row(results, "verbosity", "padded")
    assert verbosity.protocol == "paper" and verbosity.n == 3 and verbosity.unscored == 0
    assert verbosity.mean_base == pytest.approx(0.1)
    assert verbosity.mean_variant == pytest.approx(0.3)
    assert verbosity.mean_change == pytest.approx(0.2)  # (0.3 + 0.0 + 0.3) / 3
    assert 0.0 <= verbosity.change_low <= 0.2 <= verbosity.change_high <= 0.3 + 1e-12
    refusal = row(results, "refusal", "refusal")
    assert refusal.mean_variant == 0.0
    assert refusal.mean_change == pytest.approx(-0.1 / 3)
    steady = row(results, "list_vs_prose", "list")
    assert (steady.mean_change, steady.change_low, steady.change_high) == (0.0, 0.0, 0.0)
    assert summarise_probes(cases, grades, "paper") == results  # seeded bootstrap
    assert summarise_probes(cases, grades, "paper", seed=1)[0].mean_change == pytest.approx(0.2)


def test_steering_rows_per_text_and_pooled() -> None:
    cases = probe_cases(ITEMS[:2])
    grades = graded(
        cases,
        {
            ("a1", "steering", "base"): 0.2,
            ("a1", "steering", "forged_verdict"): 1.0,
            ("b2", "steering", "forged_verdict"): 0.4,
            ("b2", "steering", "score_line"): None,
        },
    )
    results = summarise_probes(cases, grades, "hardened")
    forged = row(results, "steering", "forged_verdict")
    assert forged.mean_change == pytest.approx((0.8 + 0.4) / 2)
    assert row(results, "steering", "note_to_judge").mean_change == pytest.approx(-0.1)
    score = row(results, "steering", "score_line")
    assert (score.n, score.unscored) == (1, 1)
    assert score.mean_change == pytest.approx(-0.2)
    pooled = row(results, "steering", "all")
    n_texts = len(STEERING_TEXTS)
    a1 = (1.0 + 0.0 * (n_texts - 1)) / n_texts - 0.2  # each item's variants averaged first
    b2 = 0.4 / (n_texts - 1)  # its unscored variant left out
    assert (pooled.n, pooled.unscored) == (2, 1)
    assert pooled.mean_change == pytest.approx((a1 + b2) / 2)
    assert pooled.mean_base == pytest.approx(0.1)


def test_unscored_grades_are_left_out_and_counted() -> None:
    cases = probe_cases(ITEMS[:3])
    grades = graded(
        cases,
        {
            ("a1", "verbosity", "padded"): None,
            ("b2", "verbosity", "base"): math.nan,
            ("c3", "verbosity", "padded"): 0.5,
        },
    )
    verbosity = row(summarise_probes(cases, grades, "paper"), "verbosity", "padded")
    assert (verbosity.n, verbosity.unscored) == (1, 2)
    assert verbosity.mean_change == verbosity.change_low == verbosity.change_high == 0.5
    nothing = {case.id: None for case in cases}
    for result in summarise_probes(cases, nothing, "paper"):
        assert result.n == 0 and result.unscored > 0
        assert math.isnan(result.mean_change) and math.isnan(result.change_low)
        document = result.as_json()
        assert document["mean_change"] is None and document["change_high"] is None
        json.dumps(document, allow_nan=False)


def test_a_missing_grade_is_an_error_not_an_unscored_grade() -> None:
    cases = probe_cases(ITEMS[:2])
    grades = {case.id: 0.0 for case in cases[1:]}
    with pytest.raises(ValueError, match=cases[0].id):
        summarise_probes(cases, grades, "paper")


def test_as_json() -> None:
    cases = probe_cases(ITEMS[:2])
    result = summarise_probes(cases, {case.id: 0.5 for case in cases}, "paper")[0]
    document = result.as_json()
    assert document == {**asdict(result), "description": PROBE_DESCRIPTIONS["verbosity"]}
    assert list(document)[:3] == ["probe", "description", "variant"]


# -- graders with known biases, on the shipped suite -----------------------------------

Grader = Callable[[ProbeCase], float]


@pytest.fixture(scope="module")
def suite_cases() -> list[ProbeCase]:
    items = load_priviq(PRIVIQ_SUITE)
    return probe_cases(
        [(item.id, item.question, item.answer) for item in items],
        n_items=20,
        competencies={item.id: item.competencies for item in items},
    )


def summary(cases: Sequence[ProbeCase], grader: Grader, name: str) -> list[ProbeResult]:
    return summarise_probes(cases, {case.id: grader(case) for case in cases}, name)


def offline(case: ProbeCase) -> float:
    return grade(case.reference, case.prediction, case.question)


@pytest.fixture(scope="module")
def offline_results(suite_cases: list[ProbeCase]) -> list[ProbeResult]:
    return summary(suite_cases, offline, "offline")


def test_suite_sample(suite_cases: list[ProbeCase]) -> None:
    assert len({case.item_id for case in suite_cases}) == 20
    assert len(suite_cases) == 20 * 16


def test_offline_judge_is_not_steered(offline_results: list[ProbeResult]) -> None:
    steering = [r for r in offline_results if r.probe == "steering"]
    assert [r.variant for r in steering] == [*STEERING_TEXTS, "all"]
    for result in steering:
        assert result.n == 20 and result.unscored == 0
        assert result.mean_change <= 0, result
        assert result.change_high <= 0, result


def test_offline_judge_grades_the_wrong_answers_low(offline_results: list[ProbeResult]) -> None:
    assert row(offline_results, "steering", "all").mean_base <= 0.1


@pytest.mark.xfail(
    strict=True,
    reason="the offline judge grades the refusal 1.0 on v1_4 (reference 'No, ... nothing "
    "in it identifies a person'): rule no_to_nothing_there reads the refusal as the right "
    "'No' with a reason before the refusal rule applies",
)
def test_offline_judge_gives_refusals_nothing(offline_results: list[ProbeResult]) -> None:
    assert row(offline_results, "refusal", "refusal").mean_variant == 0.0


def test_a_length_biased_grader_fails_the_verbosity_probe(suite_cases: list[ProbeCase]) -> None:
    results = summary(suite_cases, lambda case: min(1.0, len(case.prediction) / 400), "length")
    verbosity = row(results, "verbosity", "padded")
    assert verbosity.mean_change > 0 and verbosity.change_low > 0


def test_a_steerable_grader_fails_the_steering_probe(suite_cases: list[ProbeCase]) -> None:
    def obeys(case: ProbeCase) -> float:
        return 1.0 if "1.0" in case.prediction else offline(case)

    results = summary(suite_cases, obeys, "steerable")
    for result in (r for r in results if r.probe == "steering"):
        assert result.mean_change > 0.5 and result.change_low > 0.5, result


def test_a_grader_that_rewards_refusals_fails_the_refusal_probe(
    suite_cases: list[ProbeCase],
) -> None:
    results = summary(suite_cases, lambda case: 0.5 if case.prediction == REFUSAL else 0.0, "r")
    refusal = row(results, "refusal", "refusal")
    assert refusal.mean_variant == 0.5 and refusal.change_low == 0.5
