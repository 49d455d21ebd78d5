"""Reading a run's samples back from its inspect log, quickly and completely.

Why: results are derived from the log (the record of a run), but reading full samples is
slow (1,000 samples ≈ 5 s); sample *summaries* read ~30× faster and carry the scores and
metadata. inspect thins summary metadata over 1 kB, so a caller says which summaries are
complete enough and only the others are read in full.
"""

from __future__ import annotations

from collections.abc import Callable

from inspect_ai.log import (
    EvalLog,
    EvalSample,
    EvalSampleSummary,
    read_eval_log_sample,
    read_eval_log_sample_summaries,
)

from privbench.redaction import redact

LoggedSample = EvalSample | EvalSampleSummary


def log_samples(
    log: EvalLog, is_complete: Callable[[EvalSampleSummary], bool]
) -> list[LoggedSample]:
    """Every sample of a log: summaries where ``is_complete`` accepts them, else samples."""
    if log.samples is not None or not log.location:
        return list(log.samples or [])
    location = str(log.location)
    return [
        s if is_complete(s) else read_eval_log_sample(location, s.id, s.epoch)
        for s in read_eval_log_sample_summaries(location)
    ]


def sample_error(sample: LoggedSample) -> str | None:
    """The one-line, key-free error of a sample that failed without a score, else None."""
    if sample.error is None or sample.scores:
        return None
    message = sample.error if isinstance(sample.error, str) else sample.error.message
    return redact(" ".join(message.split()))[:300]
