"""The captures of a SpatialTrust dataset as the annotation review app shows them.

Why here: the review app (:mod:`privbench.review.app`) serves any benchmark whose images
people annotate; what a SpatialTrust record holds (its capture, size, review status and
drafted elements) is read here and handed to it as plain
:class:`~privbench.runtime.cross_run.ReviewImage` records.
"""

from __future__ import annotations

from pathlib import Path

from privbench.runtime.cross_run import AnnotationReview, ReviewImage
from privbench.suites.spatialtrust.annotation import CATEGORIES, REVIEW_STATUSES
from privbench.suites.spatialtrust.dataset import load_spatialtrust


def review_images(directory: Path) -> list[ReviewImage]:
    """Every record's capture (resolved) with its drafted annotation.

    Raises :class:`~privbench.runtime.errors.DatasetError` (one line) for a directory that
    is not a valid SpatialTrust dataset: the app never serves a half-valid one.
    """
    images = []
    for item in load_spatialtrust(directory):
        annotation = item.annotation
        images.append(
            ReviewImage(
                id=item.id,
                path=item.image.resolve(),
                source=item.image,
                width=item.width,
                height=item.height,
                status=item.review_status,
                annotators=annotation.annotators if annotation is not None else (),
                factors=tuple(
                    {"name": e.name, "category": e.category, "why": e.why, "box": list(e.box)}
                    for e in (annotation.elements if annotation is not None else ())
                ),
            )
        )
    return images


ANNOTATION_REVIEW = AnnotationReview(
    categories=tuple(CATEGORIES),
    statuses=tuple(REVIEW_STATUSES),
    images=review_images,
    made_with="privbench build spatialtrust",
)
"""What the review app needs of SpatialTrust (attached to its suite by the registry)."""
