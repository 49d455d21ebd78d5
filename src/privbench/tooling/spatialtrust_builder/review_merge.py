"""``review export --merge``: one annotation of an image from several annotators' (pure).

The rule, chosen so that a merged answer is one that every annotator who accepted the
image stands behind:

* an image is merged only when at least two annotators **accepted** it (one acceptance is
  one person's word; ``--annotator`` exports that);
* its **presence** (q1) must be the same for all of them;
* its elements are matched box to box: every other annotator's boxes are paired with the
  *reference* annotator's (the first of them by name) by Hungarian assignment on IoU
  (:func:`~privbench.tooling.spatialtrust_builder.review_agreement.match_boxes`, IoU ≥ 0.5). An element is kept when
  every annotator has a matched box for it and all give it the same category; its box is
  the coordinate-wise **mean** of their boxes (not the intersection, which shrinks with
  every annotator and would cut off evidence that all of them drew), its name and why are
  the reference annotator's;
* what could not be settled is listed. A contested **factor** (a direct or indirect
  element someone drew and another did not, or any category disagreement) leaves the
  whole image out: dropping it would change a q1–q5 answer to one nobody gave. A contested
  **near miss** is only dropped from the image, since a near miss is never an answer (it
  feeds distractors and "not a factor" sentences).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from privbench.suites.spatialtrust.annotation import SceneElement
from privbench.tooling.spatialtrust_builder.review_agreement import MATCH_IOU, match_boxes, presence


@dataclass(frozen=True)
class MergeDecision:
    """One image's merge: the merged elements, or ``None`` when it is left out, and why."""

    image: str
    annotators: tuple[str, ...]
    """The annotators who accepted it."""
    elements: tuple[SceneElement, ...] | None
    unsettled: tuple[str, ...] = ()
    """Why it is left out, or which contested near misses were dropped."""

    @property
    def exported(self) -> bool:
        return self.elements is not None

    def json(self) -> dict[str, object]:
        return {
            "image": self.image,
            "annotators": list(self.annotators),
            "exported": self.exported,
            "elements": None if self.elements is None else len(self.elements),
            "unsettled": list(self.unsettled),
        }


def _describe(annotator: str, element: SceneElement) -> str:
    return f"{annotator}'s {element.name!r} ({element.category})"


def _mean_box(
    boxes: Sequence[tuple[float, float, float, float]],
) -> tuple[float, float, float, float]:
    n = len(boxes)
    return (
        sum(b[0] for b in boxes) / n,
        sum(b[1] for b in boxes) / n,
        sum(b[2] for b in boxes) / n,
        sum(b[3] for b in boxes) / n,
    )


def merge_image(
    image: str,
    statuses: Mapping[str, str],
    accepted: Mapping[str, Sequence[SceneElement]],
) -> MergeDecision:
    """Merge the accepted annotations of one image by the module's rule.

    ``statuses``: every annotator's latest status of the image (for the reason when fewer
    than two accepted); ``accepted``: the elements of those who accepted it.
    """
    names = tuple(sorted(accepted))
    if len(names) < 2:
        rest = ", ".join(f"{a} {s}" for a, s in sorted(statuses.items()) if a not in accepted)
        who = names[0] if names else "nobody"
        tail = f" (others: {rest})" if rest else ""
        return MergeDecision(image, names, None, (f"accepted by {who} only{tail}",))
    present = {name: presence(accepted[name]) for name in names}
    if len(set(present.values())) > 1:
        said = ", ".join(f"{n} {'yes' if present[n] else 'no'}" for n in names)
        return MergeDecision(image, names, None, (f"presence disagrees: {said}",))
    reference, others = names[0], names[1:]
    base = accepted[reference]
    groups: list[list[tuple[str, SceneElement]]] = [[(reference, e)] for e in base]
    contested: list[tuple[str, bool]] = []  # why, and whether anyone called it a factor
    for other in others:
        theirs = accepted[other]
        match = match_boxes([e.box for e in base], [e.box for e in theirs])
        for i, j, _ in match.pairs:
            groups[i].append((other, theirs[j]))
        for j in match.unmatched_b:
            why = f"no match in {reference}'s boxes (IoU ≥ {MATCH_IOU})"
            contested.append((f"{_describe(other, theirs[j])}: {why}", _factor(theirs[j])))
    kept: list[SceneElement] = []
    for group in groups:
        name, element = group[0]
        factor = any(_factor(e) for _, e in group)
        if len(group) < len(names):
            missing = ", ".join(sorted(set(others) - {n for n, _ in group[1:]}))
            why = f"no match in {missing}'s boxes (IoU ≥ {MATCH_IOU})"
            contested.append((f"{_describe(name, element)}: {why}", factor))
            continue
        if len({e.category for _, e in group}) > 1:
            said = ", ".join(f"{n} {e.category}" for n, e in group)
            contested.append((f"{_describe(name, element)}: categories differ: {said}", factor))
            continue
        box = _mean_box([e.box for _, e in group])
        kept.append(SceneElement(element.name, element.category, element.why, box))
    reasons = tuple(reason for reason, _ in contested)
    if any(factor for _, factor in contested):
        return MergeDecision(image, names, None, reasons)
    return MergeDecision(image, names, tuple(kept), tuple(f"dropped {r}" for r in reasons))


def _factor(element: SceneElement) -> bool:
    return element.category != "near_miss"
