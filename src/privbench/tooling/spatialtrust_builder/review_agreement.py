"""How far annotators agree on the images they both accepted (pure functions).

Why these figures: a reviewed dataset is only as good as its annotations, and the one
check of an annotation that needs no gold standard is a second person annotating the same
capture. The figures follow the questions the annotations become:

* **presence** (q1): does the capture show any direct or indirect factor? The share of
  images on which two annotators say the same, and Cohen's κ (agreement beyond what two
  annotators with their own yes/no rates would reach by chance);
* **boxes** (the evidence of q2–q5): each annotator's boxes of an image are paired by
  Hungarian assignment on ``1 − IoU``, and a pair counts as *matched* when its IoU is at
  least :data:`MATCH_IOU`. The matched share is ``2 × matched pairs / all boxes of both``
  (1: every box has a partner), the mean IoU is over matched pairs only (how tight the
  boxes that agree are);
* **category** of matched boxes (direct, indirect, near miss: which of q2/q3 a factor
  answers): Cohen's κ over the matched pairs.

Every element counts for the boxes, near misses included, so that an element one
annotator calls a near miss and the other a factor is a category disagreement, not a
missing box. With more than two annotators every pair of them is compared on the images
both accepted, and the "all pairs" figures pool those comparisons (each pair's images and
boxes counted once per pair: a pooled Cohen's κ, not Fleiss' κ).

κ is undefined when there is nothing to compare or when chance agreement is already
perfect (both annotators gave every unit one and the same label): it is then ``None``
with the reason, never 0, since κ = 0 means "no better than chance", which is a finding.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import linear_sum_assignment

from privbench.agreement_measures import Kappa, cohen_kappa
from privbench.suites.spatialtrust.annotation import CATEGORIES, SceneElement
from privbench.suites.spatialtrust.boxes import Box
from privbench.suites.spatialtrust.scoring import iou

MATCH_IOU = 0.5
"""Two annotators' boxes are one element when their IoU is at least this (the usual
detection threshold: half of their union is shared)."""
PRESENCE_WEIGHT = 2
"""Disagreement score of an image whose presence differs: it flips q1's answer and, with
it, which of q2–q5 have any answer at all, so it counts as much as two boxes."""
MOST_DISAGREEING = 10
"""How many images the agreement report lists as disagreeing most."""
PRESENCE_LABELS = ("yes", "no")
ALL_PAIRS = "all pairs"

Reviews = Mapping[str, Mapping[str, Sequence[SceneElement]]]
"""Image → annotator → the elements of that annotator's accepted annotation."""


@dataclass(frozen=True)
class BoxMatch:
    """Two annotators' boxes of one image paired by IoU (indices into their elements)."""

    pairs: tuple[tuple[int, int, float], ...]
    """Matched ``(index in a, index in b, IoU)``, IoU ≥ :data:`MATCH_IOU`."""
    unmatched_a: tuple[int, ...]
    unmatched_b: tuple[int, ...]


@dataclass(frozen=True)
class PairAgreement:
    """The agreement figures of two annotators (or of all pairs pooled)."""

    annotators: str
    """``"ann / bob"``, or :data:`ALL_PAIRS`."""
    images: int
    presence_agreement: float | None
    presence_kappa: Kappa
    boxes: int
    matched_pairs: int
    matched_share: float | None
    mean_iou: float | None
    category_agreement: float | None
    category_kappa: Kappa

    def json(self) -> dict[str, object]:
        """The fields in their order, each kappa as :func:`_kappa_json` writes it."""
        return {
            **asdict(self),
            "presence_kappa": _kappa_json(self.presence_kappa),
            "category_kappa": _kappa_json(self.category_kappa),
        }


@dataclass(frozen=True)
class ImageDisagreement:
    """How much the annotators of one image disagree, summed over their pairs.

    ``score = PRESENCE_WEIGHT × presence differences + unmatched boxes + category changes``.
    """

    image: str
    presence_differs: int
    unmatched_boxes: int
    category_changes: int

    @property
    def score(self) -> int:
        return (
            PRESENCE_WEIGHT * self.presence_differs + self.unmatched_boxes + self.category_changes
        )

    def json(self) -> dict[str, object]:
        """The fields, the score second (after the image)."""
        fields = asdict(self)
        return {"image": fields.pop("image"), "score": self.score, **fields}


@dataclass(frozen=True)
class AnnotatorAgreement:
    """Every pair's figures, the pooled figures, and the images that disagree most."""

    images: int
    """Images accepted by at least two annotators."""
    pairs: tuple[PairAgreement, ...]
    pooled: PairAgreement | None
    """All pairs pooled (``None`` when no image was accepted by two annotators)."""
    most_disagreeing: tuple[ImageDisagreement, ...]

    def json(self) -> dict[str, object]:
        return {
            "images": self.images,
            "match_iou": MATCH_IOU,
            "pairs": [p.json() for p in self.pairs],
            "pooled": self.pooled.json() if self.pooled else None,
            "most_disagreeing": [d.json() for d in self.most_disagreeing],
            "disagreement_score": (
                f"{PRESENCE_WEIGHT} × presence differs + unmatched boxes + category changes, "
                "summed over the image's annotator pairs"
            ),
        }


def _kappa_json(kappa: Kappa) -> dict[str, object]:
    return {"value": kappa.value, "units": kappa.units, "undefined_because": kappa.reason}


def match_boxes(a: Sequence[Box], b: Sequence[Box], threshold: float = MATCH_IOU) -> BoxMatch:
    """Pair ``a`` with ``b`` one to one, maximizing the summed IoU (Hungarian assignment on
    ``1 − IoU``); assigned pairs below ``threshold`` stay unmatched.

    Why an assignment rather than each box's best partner: two boxes of one annotator
    around neighbouring things must not both claim the other annotator's one box.
    """
    pairs: list[tuple[int, int, float]] = []
    if a and b:
        overlap = np.array([[iou(x, y) for y in b] for x in a], dtype=float)
        rows, columns = linear_sum_assignment(1.0 - overlap)
        pairs = [
            (int(r), int(c), float(overlap[r, c]))
            for r, c in zip(rows, columns, strict=True)
            if overlap[r, c] >= threshold
        ]
    taken_a = {p[0] for p in pairs}
    taken_b = {p[1] for p in pairs}
    return BoxMatch(
        tuple(pairs),
        tuple(i for i in range(len(a)) if i not in taken_a),
        tuple(j for j in range(len(b)) if j not in taken_b),
    )


def contingency(pairs: Sequence[tuple[str, str]], labels: Sequence[str]) -> NDArray[np.int64]:
    """The ``len(labels)²`` table of how often the first rater said row and the second column."""
    index = {label: i for i, label in enumerate(labels)}
    table = np.zeros((len(labels), len(labels)), dtype=np.int64)
    for first, second in pairs:
        table[index[first], index[second]] += 1
    return table


def presence(elements: Sequence[SceneElement]) -> bool:
    """q1's answer: any direct or indirect element."""
    return any(e.category != "near_miss" for e in elements)


@dataclass
class _Tally:
    """What one pair of annotators (or all pairs) agreed on, before the figures."""

    presence: list[tuple[str, str]]
    categories: list[tuple[str, str]]
    ious: list[float]
    boxes: int = 0

    def figures(self, annotators: str) -> PairAgreement:
        matched = len(self.ious)
        return PairAgreement(
            annotators=annotators,
            images=len(self.presence),
            presence_agreement=_share(self.presence),
            presence_kappa=cohen_kappa(contingency(self.presence, PRESENCE_LABELS)),
            boxes=self.boxes,
            matched_pairs=matched,
            matched_share=2 * matched / self.boxes if self.boxes else None,
            mean_iou=sum(self.ious) / matched if matched else None,
            category_agreement=_share(self.categories),
            category_kappa=cohen_kappa(contingency(self.categories, CATEGORIES)),
        )


def _share(pairs: Sequence[tuple[str, str]]) -> float | None:
    return sum(a == b for a, b in pairs) / len(pairs) if pairs else None


def _yes(flag: bool) -> str:
    return PRESENCE_LABELS[0] if flag else PRESENCE_LABELS[1]


def compare(
    a: Sequence[SceneElement], b: Sequence[SceneElement]
) -> tuple[BoxMatch, ImageDisagreement]:
    """Two annotators' elements of one image: their box match and their disagreement."""
    match = match_boxes([e.box for e in a], [e.box for e in b])
    changes = sum(a[i].category != b[j].category for i, j, _ in match.pairs)
    return match, ImageDisagreement(
        "",
        int(presence(a) != presence(b)),
        len(match.unmatched_a) + len(match.unmatched_b),
        changes,
    )


def agreement(reviews: Reviews, most: int = MOST_DISAGREEING) -> AnnotatorAgreement:
    """The agreement of every annotator pair on the images both accepted, pooled over pairs,
    and the ``most`` images with the highest disagreement score (ties: by image)."""
    tallies: dict[tuple[str, str], _Tally] = {}
    pooled = _Tally([], [], [])
    per_image: dict[str, ImageDisagreement] = {}
    shared = 0
    for image in sorted(reviews):
        by_annotator = reviews[image]
        if len(by_annotator) < 2:
            continue
        shared += 1
        total = ImageDisagreement(image, 0, 0, 0)
        for first, second in itertools.combinations(sorted(by_annotator), 2):
            a, b = by_annotator[first], by_annotator[second]
            match, differs = compare(a, b)
            for tally in (tallies.setdefault((first, second), _Tally([], [], [])), pooled):
                tally.presence.append((_yes(presence(a)), _yes(presence(b))))
                tally.categories += [(a[i].category, b[j].category) for i, j, _ in match.pairs]
                tally.ious += [overlap for _, _, overlap in match.pairs]
                tally.boxes += len(a) + len(b)
            total = ImageDisagreement(
                image,
                total.presence_differs + differs.presence_differs,
                total.unmatched_boxes + differs.unmatched_boxes,
                total.category_changes + differs.category_changes,
            )
        per_image[image] = total
    pairs = tuple(tally.figures(f"{a} / {b}") for (a, b), tally in sorted(tallies.items()))
    ranked = sorted(
        (d for d in per_image.values() if d.score > 0), key=lambda d: (-d.score, d.image)
    )
    return AnnotatorAgreement(
        images=shared,
        pairs=pairs,
        pooled=pooled.figures(ALL_PAIRS) if tallies else None,
        most_disagreeing=tuple(ranked[:most]),
    )
