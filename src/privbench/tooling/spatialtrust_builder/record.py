"""What a build's drafting run records in its log: the elements each reply proposed.

Why a record: the drafting scorer writes it and the build reads it back to write the
draft annotations, with what could not be read counted, never silently dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Literal

from pydantic import Field

from privbench.runtime.records.base import Record
from privbench.runtime.records.call_counts import CallCountsRecord

DRAFT_SCORER = "draft_scorer"
"""The inspect scorer name of a build's drafting run."""


class DraftElementRecord(Record):
    """One element a drafter proposed (pixel box on the normalized capture)."""

    name: str
    category: Literal["direct", "indirect", "near_miss"]
    why: str
    box: list[float]


class DraftScoreRecord(CallCountsRecord):
    """The metadata of one drafting score: the elements read and what could not be read."""

    elements: list[DraftElementRecord] = Field(default_factory=list)
    unreadable: str | None = None
    """Why the reply held no element list (the draft is empty)."""
    skipped: list[str] = Field(default_factory=list)
    """Per element left out of the draft, why."""
    reported_model: str | None = None
    """The model version the provider reported for the reply."""

    SUMMARY_FIELDS: ClassVar[tuple[str, ...]] = ("elements", "skipped")

    def metadata(self) -> dict[str, object]:
        return self.model_dump()

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, object]) -> DraftScoreRecord:
        return cls.model_validate(dict(metadata))
