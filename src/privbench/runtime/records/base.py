"""The base of every logged record, and the logged sample it is read from.

Why one base: every record ignores keys it does not know (a newer log read by an older
reader), and every score record leaves out the values inspect thinned out of a sample
summary, the same way, whichever benchmark wrote it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import ClassVar

from inspect_ai.log import EvalSample, EvalSampleSummary
from pydantic import BaseModel, ConfigDict, model_validator

LoggedSample = EvalSample | EvalSampleSummary
"""A sample as a log reader gets it: whole, or inspect's summary of it."""

THINNED = "Key removed from summary (> 1k)"
"""What inspect writes in a sample *summary* in place of a metadata value over 1 kB."""


class Record(BaseModel):
    """Records ignore keys they do not know (a newer log read by an older reader)."""

    model_config = ConfigDict(extra="ignore")


class ScoreRecord(Record):
    """A score's metadata; read from a sample summary, thinned values are left out (a
    reader that needs one reads the sample in full: see ``summary_is_complete``)."""

    SUMMARY_FIELDS: ClassVar[tuple[str, ...]] = ()
    """The fields the log readers need, which a usable summary must hold whole."""
    SCORER: ClassVar[str] = ""
    """The inspect scorer whose score metadata this record is."""
    SAMPLE_KEY: ClassVar[str] = ""
    """A key every sample of the benchmark carries in its metadata."""

    @model_validator(mode="before")
    @classmethod
    def _without_thinned(cls, data: object) -> object:
        if isinstance(data, dict):
            return {key: value for key, value in data.items() if value != THINNED}
        return data

    @classmethod
    def holds_whole(cls, metadata: Mapping[str, object]) -> bool:
        """Whether none of :attr:`SUMMARY_FIELDS` was thinned out of ``metadata``."""
        return all(metadata.get(name) != THINNED for name in cls.SUMMARY_FIELDS)

    @classmethod
    def summary_is_complete(cls, summary: EvalSampleSummary) -> bool:
        """Whether a sample summary holds what the readers need whole: the
        :attr:`SCORER`'s metadata unthinned and the sample's :attr:`SAMPLE_KEY` (inspect
        thins metadata values over 1 kB in summaries; such a sample is read in full)."""
        score = (summary.scores or {}).get(cls.SCORER)
        metadata = (score.metadata if score is not None else None) or {}
        return cls.holds_whole(metadata) and cls.SAMPLE_KEY in summary.metadata


def finite_score(value: object) -> float | None:
    """A number that is a real score: None for NaN, booleans and anything not a number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return None if math.isnan(value) else float(value)
