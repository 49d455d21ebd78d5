"""Priv-IQ per-item scoring (pure): an item's value from its judge runs, and which runs
of an earlier grade file may stand for this one.

The aggregation over items (eqs. 1–2) is :mod:`privbench.suites.priviq.aggregate`.
"""

from __future__ import annotations

import math

from privbench.suites.priviq.predictions import GradeRecord, answer_hash
from privbench.suites.priviq.record import SCORE_KEY, UNSCORED_KEY


def item_value(runs: list[float | None]) -> dict[str, float]:
    """The sample's score value: mean of the scored runs (NaN if none) and unscored runs."""
    scored = [r for r in runs if r is not None]
    mean = sum(scored) / len(scored) if scored else math.nan
    return {SCORE_KEY: mean, UNSCORED_KEY: float(len(runs) - len(scored))}


REFERENCE_PROTOCOL = "paper"
"""The protocol a grade file that names none was made with: the reference evaluator's
prompt, which the ``paper`` protocol reproduces."""


def judged_by(record: GradeRecord, judge: str) -> bool:
    """Whether ``record`` was graded by ``judge``.

    privbench records the judge as given (``openai/gpt-4o``); the reference evaluator keeps
    only the model name the judge's endpoint reported (``gpt-4o-2024-08-06``), which must
    then be the model part of ``judge`` exactly (``openai/gpt-4o-2024-08-06``): an undated
    alias may have pointed at another model when the file was made.
    """
    if record.judge:
        return record.judge == judge
    return bool(record.model) and record.model == judge.rsplit("/", 1)[-1]


def unverified(record: GradeRecord, *, judge: str, protocol: str, prompt_hash: str) -> bool:
    """Whether a run with no answer hash may be reused without an answer check: the same
    judge (:func:`judged_by`) and, where the file records them, the same protocol and
    prompt template (a file without a protocol was made with :data:`REFERENCE_PROTOCOL`)."""
    return (
        not record.answer_hash
        and judged_by(record, judge)
        and (record.protocol or REFERENCE_PROTOCOL) == protocol
        and (not record.prompt_hash or record.prompt_hash == prompt_hash)
    )


def reusable_runs(
    earlier: list[GradeRecord],
    *,
    answer: str,
    judge: str,
    protocol: str,
    prompt_hash: str,
    reuse_unverified: bool = False,
) -> list[GradeRecord]:
    """The scored runs of an earlier grade entry that grade *this* answer the same way.

    A run is reused only if it graded the same answer (by hash) with the same judge,
    protocol and prompt template; anything else is graded again. With
    ``reuse_unverified`` (``--reuse-unverified-grades``), a run that records no answer hash
    — the reference evaluator's files have none — is reused on the judge alone
    (:func:`unverified`); a run whose hash differs is still graded again.
    """
    digest = answer_hash(answer)
    return [
        r
        for r in earlier
        if r.score is not None
        and (
            (
                r.answer_hash == digest
                and r.judge == judge
                and r.protocol == protocol
                and r.prompt_hash == prompt_hash
            )
            or (
                reuse_unverified
                and unverified(r, judge=judge, protocol=protocol, prompt_hash=prompt_hash)
            )
        )
    ]
