"""What PrivacyLens records in its log: each sample's metadata and each answer's verdicts.

Why one module: the scorer writes these records and ``show``, the tables, ``--json``, the
leaderboard and ``diff`` read them back through the same models, so a field added here is
read the same way everywhere. Each verdict is kept twice where the reference's reading has a
default: privbench's (None when no reply could be read: counted, never scored) and the
reference's own (for the figures under the reference's key names).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from inspect_ai.scorer import Score
from pydantic import Field

from privbench.runtime.records.base import Record
from privbench.runtime.records.call_counts import CallCountsRecord

PRIVACYLENS_SCORER = "privacylens_scorer"
"""The inspect scorer name of PrivacyLens (the key of its score in each sample)."""


class PrivacyLensSampleRecord(Record):
    """What a PrivacyLens sample carries as ``Sample.metadata``."""

    part: str = "action"
    case: str = ""
    """The case's name (``main42``)."""
    index: int = 0
    """The case's 0-based position in ``main_data.json``."""
    prompt_type: str = ""
    """Final action: ``naive`` or ``privacy_enhanced``."""
    level: str = ""
    """Probing: ``seed``, ``vignette``, ``trajectory`` or ``trajectory_enhancing``."""
    variant: str = ""
    """Probing: ``original`` (the reference's question) or ``shuffled``."""
    swapped: bool = False
    """Probing: the choices were asked as (A) No, (B) Yes (half of the shuffled variant)."""
    application: str = ""
    """The application of the final action (``Gmail``, ``Messenger`` …)."""
    source: str = ""
    """Where the case's norm comes from (``regulation``, ``literature``, ``crowdsourcing``)."""
    final_tool: str = ""
    """The tool the final action must use (``GmailSendEmail``)."""
    items: int = 0
    """The case's sensitive items: one leakage question each."""

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, object] | None) -> PrivacyLensSampleRecord:
        return cls.model_validate(metadata or {})


class PrivacyLensScoreRecord(CallCountsRecord):
    """The metadata of one PrivacyLens score."""

    part: str = "action"
    action: str = ""
    """Final action: the reply cut as the reference cuts it."""
    judged: bool = False
    """Whether the action holds ``Action:`` (the reference judges only those)."""
    leaks: list[bool | None] = Field(default_factory=list)
    """Per sensitive item, whether the action leaks it (None: no judge reply was readable)."""
    reference_leaks: list[bool] = Field(default_factory=list)
    """The same as the reference reads the last reply (a reply with no answer is read too)."""
    leak_replies: list[list[str]] = Field(default_factory=list)
    helpfulness: int | None = None
    """0–3; None: no judge reply was readable (or no action to judge: see ``judged``)."""
    reference_helpfulness: int = 0
    """As the reference reads it: 0 for no action and for a reply naming no label."""
    helpfulness_replies: list[str] = Field(default_factory=list)
    judge: str = ""
    judge_reported_model: str = ""
    detector: str = ""
    """With the offline judge: the rules' name and version (an approximation)."""
    answer: str = ""
    """Probing: the model's answer."""
    letter: str | None = None
    """Probing: the one choice letter the answer names (None: neither or both)."""
    correct: bool | None = None
    """Probing: privbench's verdict (the letter of "No"); None when no letter was read."""
    reference_correct: bool = False
    """Probing: the reference's reading (an isolated B), meaningful on unswapped questions."""
    model_reported: str = ""

    SUMMARY_FIELDS: ClassVar[tuple[str, ...]] = ("leak_replies", "helpfulness_replies", "action")
    SCORER: ClassVar[str] = PRIVACYLENS_SCORER
    SAMPLE_KEY: ClassVar[str] = "part"

    @property
    def leaked(self) -> bool | None:
        """The case leaks when any item leaks; None when none does and one is unscored."""
        if any(self.leaks):
            return True
        return None if any(v is None for v in self.leaks) else False

    @property
    def reference_leaked(self) -> bool:
        return any(self.reference_leaks)

    @property
    def unreadable_judge(self) -> int:
        """Judge questions no reply of which could be read."""
        return sum(v is None for v in self.leaks) + (self.judged and self.helpfulness is None)

    def metadata(self) -> dict[str, object]:
        """What the scorer stores as ``Score.metadata``."""
        return self.model_dump(exclude_unset=True)

    @classmethod
    def from_score(cls, score: Score) -> PrivacyLensScoreRecord:
        return cls.model_validate(score.metadata or {})

    def reported_versions(self) -> dict[str, set[str]]:
        """The model names the providers reported, per role (``model``, ``judge``)."""
        return {
            "model": {self.model_reported} - {""},
            "judge": {self.judge_reported_model} - {""},
        }
