"""Drafts are never mistaken for a benchmark: the review gate of SpatialTrust runs.

Why a gate: ``privbench build spatialtrust`` drafts each image's annotation with a model,
and a score measured against a model's draft says how much two models agree, not how a
model handles privacy. So a run on a dataset with any image whose annotation a person has
not accepted stops before the first model call, unless drafts are asked for explicitly;
then the run records how many images were drafts
(:class:`~privbench.runtime.records.task.DraftAnnotations`) and every reader says so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from privbench.formatting import plural
from privbench.runtime.records.task import DraftAnnotations
from privbench.suites.spatialtrust.annotation import REVIEW_STATUSES
from privbench.suites.spatialtrust.dataset import SpatialItem

ALLOW_DRAFTS_FLAG = "--allow-drafts"
TASK_PARAMETER = "allow_drafts=True (inspect: -T allow_drafts=true)"
"""How the inspect tasks are told to run on drafts."""


def draft_annotations(items: Sequence[SpatialItem]) -> DraftAnnotations | None:
    """How many of ``items`` are annotated but not accepted (None: none is)."""
    unreviewed = sum(1 for item in items if item.is_unreviewed)
    return DraftAnnotations(unreviewed=unreviewed, images=len(items)) if unreviewed else None


def refusal(directory: Path | str, drafts: DraftAnnotations, allow: str) -> str:
    """The one line a run on drafts stops with; ``allow`` is how to run on them anyway."""
    return (
        f"{directory}: {drafts.unreviewed} of {plural(drafts.images, 'image')} "
        f"{'has' if drafts.images == 1 else 'have'} draft annotations, "
        f"not reviewed by a person; review them (privbench review {directory}) or pass "
        f"{allow} to run on drafts"
    )


def review_summary(items: Sequence[SpatialItem]) -> str | None:
    """``validate``'s words on review: how many images a person accepted, and what the others
    are (None when no image is annotated, as in datasets not made by ``build``)."""
    statuses = Counter(item.review_status for item in items)
    without = statuses.pop(None, 0)
    if not statuses:
        return None
    reviewed = statuses.pop("accepted", 0)
    notes = []
    if statuses:
        counts = ", ".join(
            f"{status} {statuses[status]}" for status in REVIEW_STATUSES if statuses[status]
        )
        notes.append(f"{sum(statuses.values())} not reviewed: {counts}")
    if without:
        notes.append(f"{without} without an annotation")
    rest = f" ({'; '.join(notes)})" if notes else ""
    return f"{reviewed} of {plural(len(items), 'image')} reviewed by a person{rest}"
