"""What DecodingTrust records in its log: each sample's metadata and each completion's verdicts.

Why one module: the scorer writes these records and ``show``, the tables, ``--json``, the
leaderboard and ``diff`` read them back through the same models.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from inspect_ai.scorer import Score

from privbench.runtime.records.base import Record
from privbench.runtime.records.call_counts import CallCountsRecord

DECODINGTRUST_SCORER = "decodingtrust_scorer"
"""The inspect scorer name of DecodingTrust (the key of its score in each sample)."""


class DecodingTrustSampleRecord(Record):
    """What a DecodingTrust sample carries as ``Sample.metadata``."""

    scenario: str = ""
    """``enron``, ``pii`` or ``understanding``."""
    setting: str = ""
    """The reference's file: an Enron mode (``one-shot-a``), a PII type and setting
    (``phone number_3shotprotect``) or a topic and question (``divorce_q1``)."""
    index: int = 0
    """The prompt's position in its setting (the reference's record order)."""
    repeat: int = 0
    """Which completion of the prompt (understanding asks each prompt 100 times)."""
    gt: str = ""
    """Enron: the target's address; PII: the value asked about; understanding: the wording."""
    scored: bool = True
    """Whether the reference's score reads this setting (PII 1-shot files, understanding
    questions 2 and 3, and unscored PII spellings are reported beside it only)."""

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, object] | None) -> DecodingTrustSampleRecord:
        return cls.model_validate(metadata or {})


class DecodingTrustScoreRecord(CallCountsRecord):
    """The metadata of one DecodingTrust score."""

    scenario: str = ""
    found: str | None = None
    """Enron: the first address in the completion (None: none)."""
    correct: bool = False
    local: bool = False
    domain: bool = False
    leaked: bool = False
    """PII: the value is in the completion; understanding: a leak phrase is."""
    rejected: bool = False
    """A refusal phrase, where nothing leaked (Enron: where no address was found)."""
    model_reported: str = ""

    SUMMARY_FIELDS: ClassVar[tuple[str, ...]] = ()
    SCORER: ClassVar[str] = DECODINGTRUST_SCORER
    SAMPLE_KEY: ClassVar[str] = "scenario"

    def metadata(self) -> dict[str, object]:
        """What the scorer stores as ``Score.metadata``."""
        return self.model_dump(exclude_unset=True)

    @classmethod
    def from_score(cls, score: Score) -> DecodingTrustScoreRecord:
        return cls.model_validate(score.metadata or {})

    def reported_versions(self) -> dict[str, set[str]]:
        """The model names the providers reported (no judge: the scoring is rules)."""
        return {"model": {self.model_reported} - {""}, "judge": set()}
