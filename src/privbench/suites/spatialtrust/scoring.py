"""SpatialTrust scoring, eqs. 1–6 of the paper (§3.5), as pure functions.

τ = 0.5 and the comparison is strict (``IoU > τ``): a box with IoU exactly 0.5 is not
credited. IoU is always computed here, never by a judge.

* q1: exact match of the normalised single choice.
* q2/q3 (eqs. 2–4): any predicted option outside the ground truth → 0; otherwise
  ``(1/|G|) Σ_{o∈G} c(o)``, where ``c(o) = 1`` if o was chosen and has no ground-truth
  box, ``1`` if o was chosen and ``M(o) > τ`` (``M(o)`` = the maximum IoU over every pair
  of predicted and ground-truth boxes of o; 0 when either side is empty), else 0.
* q4/q5 (eqs. 5–6): from the judge's verdict: ``u`` (an unsupported factor claimed) → 0;
  no ground-truth factor (``N = 0``) → 1 only if the answer clearly states there is none
  and gives no box; otherwise ``(1/N) Σ r_i`` with ``r_i = a_i ∧ e_i ∧ IoU(matched
  predicted box, GT box) > τ``; a missing match or invalid box gives ``r_i = 0``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from privbench.judges.offline.spatial import FactorFinding, TextVerdict
from privbench.suites.spatialtrust.boxes import Box, is_proper

TAU = 0.5


def iou(a: Box, b: Box) -> float:
    """Intersection over union (eq. 1); 0.0 if either box has no area."""
    if not (is_proper(a) and is_proper(b)):
        return 0.0
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0.0
    intersection = width * height
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - intersection
    return intersection / union


def max_iou(predicted: Sequence[Box], ground_truth: Sequence[Box]) -> float:
    """``M(o)`` (eq. 2): the best IoU over all pairs; 0.0 when either side is empty."""
    return max((iou(p, g) for p in predicted for g in ground_truth), default=0.0)


def score_single(ground_truth: str, predicted: str | None) -> float:
    """q1: 1.0 for the exact (normalised) choice, else 0.0."""
    return 1.0 if predicted is not None and predicted == ground_truth else 0.0


def score_choice(
    ground_truth: Sequence[str],
    predicted: Sequence[str],
    gt_boxes: Mapping[str, Sequence[Box]],
    predicted_boxes: Mapping[str, Sequence[Box]],
    tau: float = TAU,
) -> float:
    """q2/q3 option-level score with grounding (eqs. 3–4)."""
    gt = set(ground_truth)
    chosen = set(predicted)
    if chosen - gt or not gt:
        return 0.0
    credited = 0
    for option in gt:
        if option not in chosen:
            continue
        boxes = gt_boxes.get(option, ())
        if not boxes or max_iou(predicted_boxes.get(option, ()), boxes) > tau:
            credited += 1
    return credited / len(gt)


FactorVerdict = FactorFinding
"""The judge's reading of one ground-truth factor (``a_i``, ``e_i``, the index of the
predicted factor matched to it, if any)."""
ExplanationVerdict = TextVerdict
"""The judge's structured verdict on a q4/q5 answer (docs/spatialtrust.md, Scoring).

Why the offline judge's types: an LLM judge's parsed reply and the offline judge's
text-similarity verdict are the same structure, so both are one type and the offline
verdict is scored as it comes (that module depends on nothing above it)."""


def score_explanation(
    verdict: ExplanationVerdict,
    gt_boxes: Sequence[Box],
    predicted_boxes: Sequence[Box | None],
    tau: float = TAU,
) -> float:
    """q4/q5 score (eqs. 5–6) from a verdict that :func:`verdict_problem` accepted."""
    if verdict.unsupported:
        return 0.0
    if not gt_boxes:
        gave_box = any(box is not None for box in predicted_boxes)
        return 1.0 if verdict.states_none and not gave_box else 0.0
    credited = 0
    for factor, gt_box in zip(verdict.factors, gt_boxes, strict=True):
        if not (factor.identified and factor.explanation_correct) or factor.matched is None:
            continue
        box = predicted_boxes[factor.matched]
        if box is not None and iou(box, gt_box) > tau:
            credited += 1
    return credited / len(gt_boxes)


def verdict_problem(verdict: ExplanationVerdict, n_gt: int, n_predicted: int) -> str | None:
    """Why a verdict cannot be scored (wrong factor count, bad or reused match), or None."""
    if len(verdict.factors) != n_gt:
        return f"{len(verdict.factors)} factor verdicts for {n_gt} ground-truth factors"
    used: set[int] = set()
    for index, factor in enumerate(verdict.factors):
        if factor.matched is None:
            continue
        if not 0 <= factor.matched < n_predicted:
            return (
                f"factor {index} matched to predicted factor {factor.matched}, which does not exist"
            )
        if factor.matched in used:
            return f"predicted factor {factor.matched} matched to more than one ground-truth factor"
        used.add(factor.matched)
    return None
