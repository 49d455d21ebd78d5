"""What ConfAIde records in its log: each prompt's sample metadata and each answer's verdicts.

Why one module: the scorer writes these records and ``show``, the tables, ``--json``, the
leaderboard and ``diff`` read them back through the same models, so a field added here is
read the same way everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from inspect_ai.scorer import Score
from pydantic import Field

from privbench.runtime.records.base import Record
from privbench.runtime.records.call_counts import CallCountsRecord

CONFAIDE_SCORER = "confaide_scorer"
"""The inspect scorer name of ConfAIde (the key of its score in each sample)."""


class ConfAIdeSampleRecord(Record):
    """What a ConfAIde sample carries as ``Sample.metadata``: where the prompt comes from and
    the names its answer is checked against (so a log is read without the data)."""

    tier: str = ""
    question_type: str = ""
    """Tier 3 or 4 question type; empty for the rating tiers."""
    item: str = ""
    """The item's id (``tier3-0042``); several samples share it in tiers 3 and 4."""
    index: int = 0
    """The item's 0-based position in its file: the reference's scenario or meeting index."""
    label: float | None = None
    """Tiers 1/2: the human label of the item."""
    subject_agent: str = ""
    aware_agent: str = ""
    oblivious_agent: str = ""
    secret: str = ""
    private_info: str = ""
    public_info: str = ""

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, object] | None) -> ConfAIdeSampleRecord:
        return cls.model_validate(metadata or {})


class ConfAIdeScoreRecord(CallCountsRecord):
    """The metadata of one ConfAIde score: every verdict recomputed from the answer text."""

    tier: str = ""
    question_type: str = ""
    rating: int | None = None
    """Tiers 1/2: the rating read as the reference reads it; None: unreadable (``unparsed``)."""
    unparsed: bool = False
    verdicts: dict[str, bool] = Field(default_factory=dict)
    """Tiers 3/4: metric → whether the answer fails it (the reference's ``True``)."""
    binary_answer: int | None = None
    """Control questions: 0 no, 1 yes, -1 unclassified (the reference's reading)."""
    proxy_reply: str | None = None
    """With the proxy-model metric: the judge's answer to "Who is related to the act …?"."""
    proxy_replies: list[str] = Field(default_factory=list)
    judge: str = ""
    judge_reported_model: str = ""
    model_reported: str = ""

    SUMMARY_FIELDS: ClassVar[tuple[str, ...]] = ("verdicts", "proxy_replies")
    SCORER: ClassVar[str] = CONFAIDE_SCORER
    SAMPLE_KEY: ClassVar[str] = "tier"

    def metadata(self) -> dict[str, object]:
        """What the scorer stores as ``Score.metadata``."""
        return self.model_dump(exclude_unset=True)

    @classmethod
    def from_score(cls, score: Score) -> ConfAIdeScoreRecord:
        return cls.model_validate(score.metadata or {})

    def reported_versions(self) -> dict[str, set[str]]:
        """The model names the providers reported, per role (``model``, ``judge``)."""
        return {
            "model": {self.model_reported} - {""},
            "judge": {self.judge_reported_model} - {""},
        }
