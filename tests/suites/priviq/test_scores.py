"""Eq. 1, eq. 2 and the combination table on hand-computed cases."""

from __future__ import annotations

import pytest

from privbench.suites.priviq.aggregate import ItemGrades, combinations_by_count, priviq_scores
from privbench.suites.priviq.competencies import (
    COMPETENCIES,
    combination_file_label,
    combination_of,
    normalize_competency,
)

VC = ("VizPriv", "CntxPriv")


def test_one_run_overall_competency_and_combination() -> None:
    grades = [
        ItemGrades("a", VC, (1.0,)),
        ItemGrades("b", ("VizPriv",), (0.5,)),
        ItemGrades("c", ("Law",), (0.2,)),
        ItemGrades("d", VC, (0.0,)),
    ]
    scores = priviq_scores(grades)
    # eq. 1: 100 * (1.0 + 0.5 + 0.2 + 0.0) / 4
    assert scores.overall.score == pytest.approx(42.5)
    # eq. 2: an item with two competencies counts in both
    assert scores.competencies["VizPriv"].score == pytest.approx(100 * 1.5 / 3)
    assert scores.competencies["VizPriv"].n == 3
    assert scores.competencies["CntxPriv"].score == pytest.approx(50.0)
    assert scores.competencies["CntxPriv"].n == 2
    assert scores.competencies["Law"].score == pytest.approx(20.0)
    assert scores.competencies["NER"].score is None and scores.competencies["NER"].n == 0
    # per combination: exact sets only
    assert scores.combinations[VC].score == pytest.approx(50.0)
    assert scores.combinations[("VizPriv",)].score == pytest.approx(50.0)
    assert scores.combinations[("Law",)].n == 1
    assert list(scores.combinations) == [VC, ("VizPriv",), ("Law",)]


def test_runs_mean_and_population_std() -> None:
    grades = [
        ItemGrades("a", ("Law",), (1.0, 0.8, 0.6)),
        ItemGrades("b", ("Know",), (0.0, 0.2, 0.4)),
    ]
    scores = priviq_scores(grades)
    # per-run totals 50, 50, 50 -> mean 50, std 0
    assert scores.overall.runs == pytest.approx((50.0, 50.0, 50.0))
    assert scores.overall.std == pytest.approx(0.0)
    # Law per run: 100, 80, 60 -> mean 80, population std sqrt(800/3)
    assert scores.competencies["Law"].score == pytest.approx(80.0)
    assert scores.competencies["Law"].std == pytest.approx((800 / 3) ** 0.5)
    assert scores.items == pytest.approx({"a": 0.8, "b": 0.2})


def test_unscored_runs_are_left_out_and_counted_not_zeroed() -> None:
    grades = [
        ItemGrades("a", ("Law",), (1.0, None)),
        ItemGrades("b", ("Law",), (None, None)),
        ItemGrades("c", ("Law",), (0.5, 0.5)),
    ]
    scores = priviq_scores(grades)
    # run 1: (1.0 + 0.5) / 2 = 75; run 2: 0.5 / 1 = 50
    assert scores.overall.runs == pytest.approx((75.0, 50.0))
    assert scores.overall.score == pytest.approx(62.5)
    assert scores.unscored_runs == 3
    assert scores.unscored_items == ["b"]
    assert scores.items["b"] is None
    assert scores.items["a"] == pytest.approx(1.0)


def test_no_answer_items_are_listed() -> None:
    scores = priviq_scores([ItemGrades("a", ("NER",), (0.0,), no_answer=True)])
    assert scores.no_answer == ["a"]
    assert scores.overall.score == 0.0


def test_combinations_most_frequent_first() -> None:
    grades = [ItemGrades(str(i), ("Law",), (1.0,)) for i in range(3)]
    grades += [ItemGrades("k", ("Know",), (1.0,)), ItemGrades("v", VC, (1.0,))]
    grades += [ItemGrades("v2", VC, (1.0,))]
    assert combinations_by_count(grades) == [("Law",), VC, ("Know",)]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("VizPriv", "VizPriv"),
        ("vizpriv", "VizPriv"),
        ("Visual Privacy (Recognition)", "VizPriv"),
        ("visual privacy", "VizPriv"),
        ("Named Entity Recognition", "NER"),
        ("Privacy Risk Assessment", "PrivRisk"),
        ("Privacy-Enhancing Technologies", "PET"),
        ("privacy enhancing technologies", "PET"),
        ("Privacy Law and Regulations", "Law"),
        ("General Privacy Knowledge", "Know"),
        ("Contextual Privacy Understanding", "CntxPriv"),
        ("Multilingual (Privacy) Understanding", "MultLing"),
        ("Multilingual Understanding", "MultLing"),
        ("Cooking", None),
    ],
)
def test_competency_names_normalise_to_codes(name: str, code: str | None) -> None:
    assert normalize_competency(name) == code


def test_combination_is_canonical_order() -> None:
    assert combination_of(["CntxPriv", "VizPriv"]) == VC
    assert combination_file_label(combination_of(["MultLing", "NER", "CntxPriv"])) == (
        "NER_CntxPriv_MultLing"
    )
    assert len(COMPETENCIES) == 8
