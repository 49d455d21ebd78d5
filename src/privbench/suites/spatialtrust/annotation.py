"""What a person (or a drafter) says a capture shows: its elements, each with a category.

Why a type of its own: the same annotation is drafted by a model, corrected by reviewers
and turned into questions, so all three speak one shape. An element is *direct* (discloses
sensitive information in this capture), *indirect* (creates a risk of disclosure) or a
*near miss* (looks like a factor but is not one: a switched-off screen, a camera turned
away) — the last kind feeds hard distractors and "not a factor" sentences, never an answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

from privbench.suites.spatialtrust.boxes import Box

Category = Literal["direct", "indirect", "near_miss"]
CATEGORIES: tuple[Category, ...] = get_args(Category)

ReviewStatus = Literal["draft", "accepted", "needs_work", "discarded"]
REVIEW_STATUSES: tuple[ReviewStatus, ...] = get_args(ReviewStatus)
"""``draft``: as drafted (by a model, or empty), not yet reviewed by a person; the others
are a reviewer's verdict. Only ``accepted`` images count as reviewed."""


@dataclass(frozen=True)
class SceneElement:
    """One visible element of a capture's background or non-primary-subject area."""

    name: str
    """A short noun phrase ("a sticky note with a password"), used as an option text."""
    category: Category
    why: str
    """One sentence: why it is (or is not) a sensitive factor."""
    box: Box
    """Pixel ``[x1, y1, x2, y2]`` on the normalized capture."""


@dataclass(frozen=True)
class Annotation:
    """One capture and what is annotated on it."""

    image_id: str
    image: str
    """The capture's path relative to the dataset directory (``images/<id>.jpg``)."""
    width: int
    height: int
    elements: tuple[SceneElement, ...] = ()
    status: ReviewStatus = "draft"
    annotators: tuple[str, ...] = field(default=())
    """Who reviewed it (empty for a draft)."""

    def of(self, category: Category) -> tuple[SceneElement, ...]:
        """The elements of one category, in annotation order."""
        return tuple(e for e in self.elements if e.category == category)

    @property
    def reviewed(self) -> bool:
        return self.status == "accepted"


ANNOTATION_KEY = "annotation"
"""The dataset record's key for its annotation (datasets not made by ``build`` have none)."""


def annotation_record(annotation: Annotation) -> dict[str, object]:
    """The ``annotation`` value of a dataset record: review status, reviewers, elements."""
    return {
        "status": annotation.status,
        "annotators": list(annotation.annotators),
        "elements": [
            {
                "name": e.name,
                "category": e.category,
                "why": e.why,
                "box": [round(v, 1) if v % 1 else int(v) for v in e.box],
            }
            for e in annotation.elements
        ],
    }
