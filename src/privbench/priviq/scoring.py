"""Priv-IQ per-item scoring (pure): an item's value from its judge runs, and which runs
of an earlier grade file may stand for this one.

The aggregation over items (eqs. 1–2) is :mod:`privbench.priviq.aggregate`.
"""

from __future__ import annotations

import math

from privbench.priviq.predictions import GradeRecord, answer_hash
from privbench.runtime.record import SCORE_KEY, UNSCORED_KEY


def item_value(runs: list[float | None]) -> dict[str, float]:
    """The sample's score value: mean of the scored runs (NaN if none) and unscored runs."""
    scored = [r for r in runs if r is not None]
    mean = sum(scored) / len(scored) if scored else math.nan
    return {SCORE_KEY: mean, UNSCORED_KEY: float(len(runs) - len(scored))}


def reusable_runs(
    earlier: list[GradeRecord],
    *,
    answer: str,
    judge: str,
    protocol: str,
    prompt_hash: str,
) -> list[GradeRecord]:
    """The scored runs of an earlier grade entry that grade *this* answer the same way.

    A run is reused only if it graded the same answer (by hash) with the same judge,
    protocol and prompt template; anything else is graded again.
    """
    digest = answer_hash(answer)
    return [
        r
        for r in earlier
        if r.score is not None
        and r.answer_hash == digest
        and r.judge == judge
        and r.protocol == protocol
        and r.prompt_hash == prompt_hash
    ]
