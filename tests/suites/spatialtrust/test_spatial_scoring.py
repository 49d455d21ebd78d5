"""SpatialTrust eqs. 1–6 on hand-computed cases, one per branch."""

from __future__ import annotations

import pytest

from privbench.suites.spatialtrust.boxes import BOX_CONVENTIONS, to_pixels
from privbench.suites.spatialtrust.scoring import (
    TAU,
    ExplanationVerdict,
    FactorVerdict,
    iou,
    max_iou,
    score_choice,
    score_explanation,
    score_single,
    verdict_problem,
)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((0, 0, 10, 10), (0, 0, 10, 10), 1.0),
        ((0, 0, 10, 10), (20, 20, 30, 30), 0.0),
        ((0, 0, 10, 10), (10, 0, 20, 10), 0.0),  # touching edges share no area
        ((0, 0, 10, 10), (5, 0, 15, 10), 50 / 150),
        ((0, 0, 10, 10), (0, 0, 10, 5), 0.5),
        ((0, 0, 4, 4), (1, 1, 3, 3), 4 / 16),
        ((0, 0, 0, 10), (0, 0, 10, 10), 0.0),  # zero width
        ((0, 0, 10, 10), (5, 5, 5, 5), 0.0),  # a point
        ((10, 10, 0, 0), (0, 0, 10, 10), 0.0),  # inverted
    ],
)
def test_iou(a: tuple[float, ...], b: tuple[float, ...], expected: float) -> None:
    assert iou(a, b) == pytest.approx(expected)  # type: ignore[arg-type]
    assert iou(b, a) == pytest.approx(expected)  # type: ignore[arg-type]


def test_max_iou_is_best_pair_and_zero_when_a_side_is_empty() -> None:
    gt = [(0.0, 0.0, 10.0, 10.0), (100.0, 100.0, 110.0, 110.0)]
    predicted = [(50.0, 50.0, 60.0, 60.0), (100.0, 100.0, 110.0, 105.0)]
    assert max_iou(predicted, gt) == pytest.approx(0.5)
    assert max_iou([], gt) == 0.0
    assert max_iou(predicted, []) == 0.0


def test_q1_exact_match() -> None:
    assert score_single("A", "A") == 1.0
    assert score_single("A", "B") == 0.0
    assert score_single("A", None) == 0.0


GT_BOX = {"B": [(0.0, 0.0, 10.0, 10.0)]}


def test_choice_extra_wrong_option_scores_zero() -> None:
    assert score_choice(["B"], ["B", "C"], GT_BOX, {"B": [(0.0, 0.0, 10.0, 10.0)]}) == 0.0


def test_choice_grounded_option_needs_iou_above_tau() -> None:
    assert score_choice(["B"], ["B"], GT_BOX, {"B": [(0.0, 0.0, 10.0, 10.0)]}) == 1.0
    # IoU exactly 0.5 is not credited (strict >)
    assert iou((0, 0, 10, 5), GT_BOX["B"][0]) == 0.5 == TAU  # half the box: τ itself
    assert score_choice(["B"], ["B"], GT_BOX, {"B": [(0.0, 0.0, 10.0, 5.0)]}) == 0.0
    assert score_choice(["B"], ["B"], GT_BOX, {"B": [(0.0, 0.0, 10.0, 5.01)]}) == 1.0
    assert score_choice(["B"], ["B"], GT_BOX, {}) == 0.0  # chosen but no box given


def test_choice_option_without_gt_box_is_credited_on_selection() -> None:
    assert score_choice(["E"], ["E"], {}, {}) == 1.0
    assert score_choice(["B", "C"], ["C"], GT_BOX, {}) == pytest.approx(0.5)


def test_choice_partial_credit_and_several_gt_boxes() -> None:
    gt = {"A": [(0.0, 0.0, 10.0, 10.0), (50.0, 50.0, 60.0, 60.0)], "B": [(20.0, 20.0, 30.0, 30.0)]}
    predicted = {"A": [(50.0, 50.0, 60.0, 59.0)], "B": [(0.0, 0.0, 5.0, 5.0)]}
    # A: best of its pairs is 0.9 > τ; B: IoU 0 → (1 + 0) / 2
    assert score_choice(["A", "B"], ["A", "B"], gt, predicted) == pytest.approx(0.5)
    assert score_choice(["A", "B"], [], gt, predicted) == 0.0


def _verdict(
    *factors: tuple[bool, bool, int | None], u: bool = False, none: bool = False
) -> ExplanationVerdict:
    return ExplanationVerdict(tuple(FactorVerdict(*f) for f in factors), u, none)


GT_FACTORS = [(0.0, 0.0, 10.0, 10.0), (20.0, 20.0, 30.0, 30.0)]


def test_explanation_unsupported_claim_scores_zero() -> None:
    verdict = _verdict((True, True, 0), (True, True, 1), u=True)
    assert score_explanation(verdict, GT_FACTORS, GT_FACTORS) == 0.0


def test_explanation_credits_identified_explained_and_grounded() -> None:
    verdict = _verdict((True, True, 1), (True, True, 0))
    predicted = [(20.0, 20.0, 30.0, 30.0), (0.0, 0.0, 10.0, 9.0)]
    assert score_explanation(verdict, GT_FACTORS, predicted) == 1.0


@pytest.mark.parametrize(
    ("factor", "box", "expected"),
    [
        ((True, True, 0), (0.0, 0.0, 10.0, 10.0), 0.5),
        ((False, True, 0), (0.0, 0.0, 10.0, 10.0), 0.0),  # not identified
        ((True, False, 0), (0.0, 0.0, 10.0, 10.0), 0.0),  # wrong explanation
        ((True, True, None), (0.0, 0.0, 10.0, 10.0), 0.0),  # no match
        ((True, True, 0), None, 0.0),  # invalid box
        ((True, True, 0), (0.0, 0.0, 10.0, 5.0), 0.0),  # IoU exactly 0.5
    ],
)
def test_explanation_each_condition(
    factor: tuple[bool, bool, int | None], box: tuple[float, ...] | None, expected: float
) -> None:
    verdict = _verdict(factor, (False, False, None))
    assert score_explanation(verdict, GT_FACTORS, [box]) == expected  # type: ignore[list-item]


def test_explanation_without_ground_truth_factors() -> None:
    assert score_explanation(_verdict(none=True), [], []) == 1.0
    assert score_explanation(_verdict(none=True), [], [None]) == 1.0  # a factor without a box
    assert score_explanation(_verdict(none=True), [], [(0.0, 0.0, 5.0, 5.0)]) == 0.0  # spurious box
    assert score_explanation(_verdict(none=False), [], []) == 0.0
    assert score_explanation(_verdict(none=True, u=True), [], []) == 0.0


def test_verdict_problems() -> None:
    assert verdict_problem(_verdict((True, True, 0)), 2, 1) is not None  # one verdict for two
    assert verdict_problem(_verdict((True, True, 3), (True, True, None)), 2, 2) is not None
    assert verdict_problem(_verdict((True, True, 0), (True, True, 0)), 2, 2) is not None
    assert verdict_problem(_verdict((True, True, 1), (True, True, 0)), 2, 2) is None


@pytest.mark.parametrize(
    ("fmt", "value", "pixels"),
    [
        ("xyxy", [144, 96, 288, 192], (144, 96, 288, 192)),
        ("xyxy1000", [100, 100, 200, 200], (144, 96, 288, 192)),
        ("yxyx1000", [100, 100, 200, 200], (144, 96, 288, 192)),
        ("yxyx1000", [100, 200, 300, 400], (288, 96, 576, 288)),
        ("xyxy1", [0.1, 0.1, 0.2, 0.2], (144, 96, 288, 192)),
        ("xyxy", ["10", "20", "30", "40"], (10, 20, 30, 40)),
    ],
)
def test_box_formats_convert_to_pixels(
    fmt: str, value: list[object], pixels: tuple[float, ...]
) -> None:
    box = to_pixels(value, BOX_CONVENTIONS[fmt], 1440, 960)
    assert box == pytest.approx(pixels)


@pytest.mark.parametrize(
    "value",
    [[1, 2, 3], [1, 2, 3, "x"], [5, 5, 5, 10], [10, 0, 0, 10], "1,2,3,4", None, [1, 2, 3, True]],
)
def test_malformed_or_empty_boxes_are_rejected(value: object) -> None:
    assert to_pixels(value, BOX_CONVENTIONS["xyxy"], 100, 100) is None
