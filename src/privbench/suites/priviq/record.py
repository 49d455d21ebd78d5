"""What Priv-IQ records in its log: each item's score metadata and each sample's metadata.

Why one module: the scorer writes these records and ``show``, the tables, the exports,
the analysis and the report read them back through :meth:`PrivIQScoreRecord.from_score`,
which also accepts the shapes older privbench versions logged (a bare float value, one
flat list of replies), so old logs stay readable.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from inspect_ai.scorer import Score, Value
from pydantic import Field

from privbench.judges.choice import parse_judge
from privbench.runtime.records.base import Record, finite_score
from privbench.runtime.records.call_counts import CallCountsRecord

PRIVIQ_SCORER = "priviq_judge"
"""The inspect scorer name of Priv-IQ (the key of its score in each sample)."""

SCORE_KEY = "score"
"""Key of the 0–1 item score in a Priv-IQ score value (``{"score": …, "unscored_runs": …}``)."""
UNSCORED_KEY = "unscored_runs"
"""Key of the count of runs no judge reply could score, in a Priv-IQ score value."""


def priviq_value_score(value: Value | None) -> float:
    """The 0–1 item score of a logged Priv-IQ value (this scorer's dict, or a bare float of
    logs written before the value held the unscored count); NaN when there is none."""
    if isinstance(value, dict):
        value = value.get(SCORE_KEY, math.nan)
    return float(value) if isinstance(value, int | float) else math.nan


@dataclass(frozen=True)
class JudgeRun:
    """One judge run of one Priv-IQ item: its grade, the judge's replies, who answered."""

    score: float | None
    """The run's grade (None: no reply could be scored)."""
    replies: tuple[str, ...]
    """Every reply of the run, the last one being the graded (or final unreadable) one."""
    reported_model: str
    reused: bool
    """Taken from an earlier grade file rather than sent to the judge."""

    @property
    def last_reply(self) -> str:
        return self.replies[-1] if self.replies else ""

    @property
    def unreadable_replies(self) -> int:
        """Replies of a fresh run that could not be scored (all of them if none could)."""
        if self.reused or not self.replies:
            return 0
        return len(self.replies) - (0 if self.score is None else 1)


class PrivIQScoreRecord(CallCountsRecord):
    """The metadata of one Priv-IQ score: the judge's identity and every judge run."""

    protocol: str = ""
    prompt_hash: str = ""
    judge: str = ""
    answer_hash: str = ""
    no_answer: bool = False
    truncated: bool = False
    answer_chars: int = 0
    runs: list[float | None] | None = None
    """One grade per judge run (absent in logs from before judge runs existed)."""
    replies: list[list[str]] | list[str] = Field(default_factory=list)
    """Per run, the judge's replies (older logs: one flat list for the sample's one run)."""
    judge_reported_model: list[str] | str | None = None
    model_reported: str = ""
    """The model name the provider of the model under test reported for its answer (a
    dated version where the provider gives one; empty for answers made elsewhere)."""
    reused_runs: int = 0
    unverified_runs: int = 0
    """Of the reused runs, those taken without an answer check: from a grade file that
    records no answer hash (the reference evaluator's), with ``--reuse-unverified-grades``."""
    offline_rules: list[str] | None = None
    """With ``--explain`` and the offline judge: the rules that made the grade, one line
    each, in the order they applied."""
    value: Value | None = Field(default=None, exclude=True)
    """The score's value, kept for logs whose runs are only in it (not written)."""

    SUMMARY_FIELDS: ClassVar[tuple[str, ...]] = ("runs", "replies", "judge_reported_model")
    SCORER: ClassVar[str] = PRIVIQ_SCORER
    SAMPLE_KEY: ClassVar[str] = "competencies"

    def metadata(self) -> dict[str, object]:
        """What the scorer stores as ``Score.metadata`` (the fields it set)."""
        return self.model_dump(exclude={"value"}, exclude_unset=True)

    @classmethod
    def from_score(cls, score: Score) -> PrivIQScoreRecord:
        return cls.model_validate({**(score.metadata or {}), "value": score.value})

    def judge_runs(self) -> list[JudgeRun]:
        """Every judge run of the sample, in order (the reused ones first)."""
        if self.runs is not None:
            grades = [finite_score(r) for r in self.runs]
        else:
            grades = [] if self.value is None else [finite_score(priviq_value_score(self.value))]
        if self.replies and all(isinstance(r, list) for r in self.replies):
            per_run = [tuple(str(x) for x in r) for r in self.replies]
        else:  # one flat list: the attempts of the sample's one run
            per_run = [tuple(str(x) for x in self.replies)] * min(len(grades), 1)
        per_run += [() for _ in range(len(grades) - len(per_run))]
        return [
            JudgeRun(score, per_run[index], self._reported(index), index < self.reused_runs)
            for index, score in enumerate(grades)
        ]

    def reported_versions(self) -> dict[str, set[str]]:
        """The model names the providers reported, per role (``model``, ``judge``)."""
        judges = {run.reported_model for run in self.judge_runs() if run.reported_model}
        return {
            "model": {self.model_reported} - {""},
            "judge": {j for j in judges if parse_judge(j).calls_a_model},
        }

    def _reported(self, index: int) -> str:
        reported = self.judge_reported_model
        if isinstance(reported, list):
            return str(reported[index]) if index < len(reported) else ""
        return str(reported or "")


class PrivIQSampleRecord(Record):
    """What a Priv-IQ sample carries as ``Sample.metadata``: its image and competencies."""

    image: str = ""
    competencies: list[str] = Field(default_factory=list)
    combination: str = ""

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, object] | None) -> PrivIQSampleRecord:
        return cls.model_validate(metadata or {})
