"""What VLM-GeoPrivacy records in its log: each sample's metadata and each answer's reading.

Why one module: the scorer writes these records and ``show``, the tables, ``--json``, the
leaderboard and ``diff`` read them back through the same models. Each reading is kept twice
where the reference's has a default: the reference's strings (for its figures under its
labels) and privbench's letters (None when nothing could be read: counted, never scored).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from inspect_ai.scorer import Score
from pydantic import Field

from privbench.runtime.records.base import Record
from privbench.runtime.records.call_counts import CallCountsRecord

GEOPRIVACY_SCORER = "geoprivacy_scorer"
"""The inspect scorer name of VLM-GeoPrivacy (the key of its score in each sample)."""


class GeoSampleRecord(Record):
    """What a VLM-GeoPrivacy sample carries as ``Sample.metadata``."""

    item: str = ""
    """The label id (``1873728``, ``s2378186027``): the item everywhere."""
    image_id: str = ""
    source: str = ""
    """The photo's collection (``Flickr-yfcc4k`` …)."""
    image_sha256: str = ""
    """The photo's bytes as asked: runs compare an item only where this agrees."""
    protocol: str = "mcq"
    mode: str = ""
    """Free form: ``zs``, ``iter-cot`` or ``malicious``."""
    heuristics: bool = False
    strict: bool = False
    gold: dict[str, str] = Field(default_factory=dict)
    """Q1–Q7 → the annotators' letter."""
    latitude: float = 0.0
    longitude: float = 0.0
    """Where the photo was taken (the metadata's true coordinate)."""
    reference_coordinate: list[float] | None = None
    """Grade of a reference free-form file: the reference's geocoded location of the
    answer (its ``_coord.json``), for its own error analysis."""

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, object] | None) -> GeoSampleRecord:
        return cls.model_validate(metadata or {})


class GeoScoreRecord(CallCountsRecord):
    """The metadata of one VLM-GeoPrivacy score."""

    protocol: str = "mcq"
    stored: list[str] = Field(default_factory=list)
    """Multiple choice: the answers as the reference's parser stores them (strings)."""
    letters: list[str | None] = Field(default_factory=list)
    """Multiple choice: privbench's reading per question (None: no option named)."""
    turns: list[str] = Field(default_factory=list)
    """Free form, iterative: every answer before the last, and the judge's raw labels."""
    turn_labels: list[str] = Field(default_factory=list)
    reference_label: str = ""
    """Free form: the label as the reference stores it (the judge's stripped reply, or the
    refusal rule's letter)."""
    label: str | None = None
    """Free form: privbench's letter A–D (None: no judge reply stated one)."""
    shortcut: bool = False
    """Free form: the refusal rule decided (empty answer: D; refusal phrase: A) — no judge."""
    judge_replies: list[str] = Field(default_factory=list)
    judge: str = ""
    judge_reported_model: str = ""
    detector: str = ""
    """With the offline judge: the rules' name and version (an approximation)."""
    place: str = ""
    """Free form, label C: the place name extracted to locate the answer."""
    located_by: str = ""
    """``coordinates`` (written in the answer), ``place`` (a place name found offline), or
    empty (not located)."""
    latitude: float | None = None
    longitude: float | None = None
    distance_km: float | None = None
    model_reported: str = ""

    SUMMARY_FIELDS: ClassVar[tuple[str, ...]] = ("judge_replies", "turns")
    SCORER: ClassVar[str] = GEOPRIVACY_SCORER
    SAMPLE_KEY: ClassVar[str] = "protocol"

    @property
    def granularity(self) -> str | None:
        """The Q7 letter privbench read: the answer's Q7 (MCQ) or the judged label."""
        if self.protocol == "free-form":
            return self.label
        return self.letters[-1] if self.letters else None

    @property
    def unreadable(self) -> int:
        """Answers (MCQ: per question) or judge questions nothing could be read from."""
        if self.protocol == "free-form":
            return int(self.label is None)
        return sum(letter is None for letter in self.letters)

    def metadata(self) -> dict[str, object]:
        """What the scorer stores as ``Score.metadata``."""
        return self.model_dump(exclude_unset=True)

    @classmethod
    def from_score(cls, score: Score) -> GeoScoreRecord:
        return cls.model_validate(score.metadata or {})

    def reported_versions(self) -> dict[str, set[str]]:
        """The model names the providers reported, per role (``model``, ``judge``)."""
        return {
            "model": {self.model_reported} - {""},
            "judge": {self.judge_reported_model} - {""},
        }
