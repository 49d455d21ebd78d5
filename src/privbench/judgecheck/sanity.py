"""The sanity probe: a judge grades reference answers against themselves (pure).

Why: an answer that *is* the reference answer must get the top grade under any fair
reading of the rubric. A judge that grades it low is not measuring correctness at all — it
misreads the prompt (a model that takes the hardened protocol's fenced answer for an
instruction, say), or its replies are read wrongly — and then every figure of the check,
and every score it gives in a run, is in doubt. The probe costs a few calls and is run
under the protocol being checked; its failure is a warning on every output of the check
(terminal, ``--json``, the judge card) and on every run that shows the card.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

from privbench.judgecheck.references import ReferenceItem
from privbench.runtime.cross_run import CheckCase

SANITY_ITEMS = 10
"""Reference answers graded against themselves: enough to see a systematic misreading."""
SANITY_MIN_MEAN = 0.9
"""The lowest mean grade that passes (the right grade is 1.0 for every answer)."""
PREFIX = "sanity:"


def sanity_cases(items: Sequence[ReferenceItem], seed: int) -> list[CheckCase]:
    """Up to :data:`SANITY_ITEMS` items with distinct references, drawn with ``seed``, each
    with its own reference as the answer to grade."""
    distinct: dict[str, ReferenceItem] = {}
    for item in sorted(items, key=lambda i: i.id):
        distinct.setdefault(" ".join(item.reference.split()), item)
    chosen = list(distinct.values())
    random.Random(f"sanity:{seed}").shuffle(chosen)
    return [
        CheckCase(f"{PREFIX}{item.id}", item.question, item.reference, item.reference)
        for item in sorted(chosen[:SANITY_ITEMS], key=lambda i: i.id)
    ]


@dataclass(frozen=True)
class SanityResult:
    """The grades the judge gave reference answers graded against themselves."""

    protocol: str
    n: int
    """Answers graded (unscored ones not counted)."""
    mean: float | None
    lowest: float | None
    unscored: int

    @property
    def passed(self) -> bool:
        """Every answer graded, and graded :data:`SANITY_MIN_MEAN` or more on average."""
        return self.n > 0 and self.unscored == 0 and (self.mean or 0.0) >= SANITY_MIN_MEAN

    def warning(self) -> str | None:
        """The warning every output carries when the probe failed; None when it passed."""
        if self.passed:
            return None
        mean = "n/a" if self.mean is None else f"{self.mean:.2f}"
        lowest = "n/a" if self.lowest is None else f"{self.lowest:.2f}"
        unscored = f", {self.unscored} unscored" if self.unscored else ""
        return (
            f"sanity probe failed: the judge graded reference answers against themselves "
            f"{mean} on average (n = {self.n}, lowest {lowest}{unscored}; 1.00 is right) "
            f"under protocol {self.protocol}: it misreads the prompt or its replies are "
            "misread, and its grades cannot be trusted"
        )

    def as_json(self) -> dict[str, object]:
        """The fields, then whether it passed and the mean it had to reach."""
        return {**asdict(self), "passed": self.passed, "min_mean": SANITY_MIN_MEAN}


def summarise_sanity(
    cases: Sequence[CheckCase], grades: Mapping[str, float | None], protocol: str
) -> SanityResult:
    """The probe's result from each case's grade (None or NaN: unscored)."""
    scored = [
        float(grade)
        for case in cases
        if (grade := grades.get(case.id)) is not None and not math.isnan(grade)
    ]
    return SanityResult(
        protocol=protocol,
        n=len(scored),
        mean=statistics.fmean(scored) if scored else None,
        lowest=min(scored) if scored else None,
        unscored=len(cases) - len(scored),
    )
