"""What SpatialTrust records in its log: each image's score metadata and sample metadata.

Why one module: the scorer writes these records and ``show``, the tables, the exports,
the analysis, the regrading and the report read them back through
:meth:`SpatialScoreRecord.from_score`, which also accepts the shapes older privbench
versions logged (renamed counters, a count of invalid boxes), so old logs stay readable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from inspect_ai.log import EvalSampleSummary
from inspect_ai.scorer import Score, Value
from pydantic import Field

from privbench.runtime.records.base import Record, finite_score
from privbench.runtime.records.call_counts import CallCountsRecord

SPATIAL_SCORER = "spatialtrust_scorer"
"""The inspect scorer name of SpatialTrust (the key of its score in each sample)."""


class SpatialSampleRecord(Record):
    """What a SpatialTrust sample carries as ``Sample.metadata``: the capture and its
    ground truth per question (the report draws both)."""

    image: str = ""
    width: int | None = None
    height: int | None = None
    ground_truth: dict[str, dict[str, object]] = Field(default_factory=dict)
    direct_factors: int = 0
    indirect_factors: int = 0

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, object] | None) -> SpatialSampleRecord:
        return cls.model_validate(metadata or {})


class StrategyRecord(Record):
    """What a SpatialTrust strategy did for one image (``strategy`` in score metadata).

    Older logs named two counters differently (``verifier_unparsed``) or counted lock
    disagreements and unparsed locked answers as one ``lock_mismatches``.
    """

    strategy: str = ""
    selected: dict[str, list[str]] = Field(default_factory=dict)
    kept: dict[str, list[str]] = Field(default_factory=dict)
    deleted: dict[str, list[str]] = Field(default_factory=dict)
    selection_failures: dict[str, str] | list[str] = Field(default_factory=dict)
    verifier_calls: int = 0
    verifier_unreadable: list[str] | int | None = None
    verifier_unparsed: list[str] | int | None = None
    lock_disagreements: list[str] | None = None
    final_unparsed: list[str] = Field(default_factory=list)
    lock_mismatches: list[str] = Field(default_factory=list)
    reasks: int = 0

    @property
    def is_pipeline(self) -> bool:
        """A staged or guard run (direct runs and predictions have no stages)."""
        return self.strategy in ("staged", "guard")

    @property
    def unreadable_verifier_replies(self) -> int:
        value = self.verifier_unreadable
        if value is None:
            value = self.verifier_unparsed if self.verifier_unparsed is not None else 0
        return len(value) if isinstance(value, list) else int(value)

    @property
    def disagreements(self) -> int:
        if self.lock_disagreements is not None:
            return len(self.lock_disagreements)
        return len(self.lock_mismatches)

    @property
    def unparsed_locked(self) -> int:
        return len(self.final_unparsed) if self.lock_disagreements is not None else 0


class JudgeDetail(Record):
    """What the q4/q5 judge said about one question: its replies and its verdict."""

    replies: list[str] = Field(default_factory=list)
    """Every reply of an LLM judge (none for the offline judge)."""
    verdict: dict[str, object] | None = None
    """The validated verdict (absent when no reply validated)."""
    reported_model: str = ""
    """The model name the judge's provider reported (none for the offline judge)."""

    @property
    def unreadable_replies(self) -> int:
        """Replies that gave no valid verdict (all of them when none did; none for the
        offline judge, which sends nothing)."""
        return len(self.replies) - (1 if self.verdict is not None and self.replies else 0)


class SpatialScoreRecord(CallCountsRecord):
    """The metadata of one SpatialTrust score: the reading of the answer and the verdicts."""

    prediction: dict[str, object] = Field(default_factory=dict)
    parse_failures: dict[str, str] = Field(default_factory=dict)
    """Question id → why its answer did not parse."""
    invalid_boxes: list[dict[str, object]] | int = Field(default_factory=list)
    """Boxes not scored, each with its reason (very old logs: a count)."""
    unscored: list[str] = Field(default_factory=list)
    judge: str = ""
    judge_details: dict[str, JudgeDetail] = Field(default_factory=dict)
    strategy: StrategyRecord | None = None
    without_reask: dict[str, float | None] | None = Field(default=None)
    first_parse_failures: dict[str, str] | None = Field(default=None)
    regraded_box_format: str | None = None
    """Set on a copy of the log regraded in another box convention (``show --box-format``)."""
    model_reported: str = ""
    """The model name the provider of the model under test reported (its last answer)."""
    value: Value | None = Field(default=None, exclude=True)

    SUMMARY_FIELDS: ClassVar[tuple[str, ...]] = (
        "parse_failures",
        "invalid_boxes",
        "strategy",
        "without_reask",
        "first_parse_failures",
        "judge",
    )

    def metadata(self) -> dict[str, object]:
        """What the scorer stores as ``Score.metadata``: the fields it set (the re-ask
        fields only for an image that was asked again; a strategy's own keys only)."""
        return self.model_dump(exclude={"value"}, exclude_unset=True)

    @classmethod
    def from_score(cls, score: Score) -> SpatialScoreRecord:
        return cls.model_validate({**(score.metadata or {}), "value": score.value})

    def reported_versions(self) -> dict[str, set[str]]:
        """The model names the providers reported, per role (``model``, ``judge``)."""
        judges = {d.reported_model for d in self.judge_details.values() if d.reported_model}
        return {"model": {self.model_reported} - {""}, "judge": judges}

    def question_scores(self, questions: Sequence[str]) -> dict[str, float | None]:
        """The image's score per question (None where unscored or missing)."""
        numbers = self.value if isinstance(self.value, dict) else {}
        return {qid: finite_score(numbers.get(qid)) for qid in questions}

    def listed_invalid_boxes(self, image_id: str) -> list[dict[str, object]]:
        """This image's invalid boxes, each with the image id."""
        if isinstance(self.invalid_boxes, int):
            return [
                {"id": image_id, "reason": "not listed by this log's privbench"}
            ] * self.invalid_boxes
        return [{"id": image_id, **box} for box in self.invalid_boxes]

    @classmethod
    def summary_is_complete(cls, summary: EvalSampleSummary) -> bool:
        """Whether a sample summary holds this record whole (inspect thins metadata values
        over 1 kB in summaries; such a sample is read in full)."""
        score = (summary.scores or {}).get(SPATIAL_SCORER)
        metadata = (score.metadata if score is not None else None) or {}
        return "parse_failures" in metadata and cls.holds_whole(metadata)
