"""How far the offline judge agrees with graded answers — measured, and how to measure it.

The paper validated its GPT-4o judge against human grades with Spearman ρ, the mean
absolute error and an agreement rate (its section 5.2); the offline judge is measured the
same way against answers graded by the paper's protocol, with the agreement rate taken
as "within ±0.1" on the 0.0–1.0 scale (the measures of :mod:`privbench.agreement_measures`,
which the judge–human agreement table uses too). The figures below were measured once
with the current rules (v9), on sets the rules were not tuned on; ``tests/judges/test_offline_judge.py``
recomputes them from the graded sets and fails if they differ, ``bench/offline.py`` prints
them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from privbench.agreement_measures import mean_absolute_error, share_within, spearman
from privbench.shipped import JUDGE_CALIBRATION

WITHIN = 0.1
"""A grade agrees when it is this close to the reference grade."""


@dataclass(frozen=True)
class Agreement:
    """Agreement of judged grades with reference grades on one set of answers."""

    n: int
    rho: float
    """Spearman rank correlation."""
    mae: float
    """Mean absolute error."""
    within: float
    """Share of grades within ±0.1 of the reference grade (0–1)."""

    def line(self) -> str:
        """ "ρ 0.80, MAE 0.12, 78 % within ±0.1 (n = 120)"."""
        return (
            f"ρ {self.rho:.2f}, MAE {self.mae:.2f}, {100 * self.within:.0f} % within ±0.1 "
            f"(n = {self.n})"
        )


def agreement(reference: Sequence[float], judged: Sequence[float]) -> Agreement:
    """Spearman ρ, MAE and share within ±0.1 of ``judged`` against ``reference`` grades.

    A ρ that is undefined (one side constant) is reported as 0.0: no rank agreement.
    """
    if len(reference) != len(judged) or not reference:
        raise ValueError("agreement needs two equally long, non-empty lists of grades")
    rho, _ = spearman(reference, judged)
    return Agreement(
        n=len(reference),
        rho=rho if not math.isnan(rho) else 0.0,
        mae=mean_absolute_error(reference, judged),
        within=share_within(reference, judged, WITHIN),
    )


DEVELOPMENT_DATA = Path(__file__).resolve().parents[4] / "tests" / "data"
"""Where the offline judge's development sets lie: ``tests/data`` of a source checkout. They
are not shipped (they are what the rules were developed on), so in an installed package these
paths do not exist; the readers that need them (tests, benchmarks) run from a checkout."""
CALIBRATION_PARTS = JUDGE_CALIBRATION / "priviq"
"""The shipped calibration set's Priv-IQ parts, one ``<part>.jsonl`` each (its ``parts.json``
describes them, its ``README.md`` is their dataset card)."""

GRADED_FILES: dict[str, Path] = {
    "dev": DEVELOPMENT_DATA / "judge_calibration_dev.jsonl",
    "heldout": DEVELOPMENT_DATA / "judge_calibration_heldout.jsonl",
    **{
        part: CALIBRATION_PARTS / f"{part}.jsonl"
        for part in ("independent", "fresh", *(f"fresh{n}" for n in range(3, 14)))
    },
}
"""Every graded set by the names :data:`MEASURED` uses: the two development sets, then the
parts of the shipped calibration set, in the order they were written."""
UNSEEN = ("fresh12", "fresh13")
"""The sets no rule was tuned on: first read by the judge in the one measurement of the
current rules. The notice under offline-judged tables quotes these."""


def read_graded(path: Path) -> list[dict[str, object]]:
    """Graded rows of a JSONL file: ``question``, ``reference``, ``prediction``, ``score`` (or
    ``scores``, one per grader) and more. The files are the project's own, so they are read
    as they are; user files go through :mod:`privbench.judgecheck.references`, which checks
    every field."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def first_grade(row: Mapping[str, object]) -> float:
    """The grade a row was written with: its ``score``, or the first of its ``scores``.

    Why the first: a part graded twice (:data:`SECOND_GRADER`) keeps its author's grade first
    and the second, blind grading after it; :data:`MEASURED` was measured against the
    author's, so the figures do not move when a second grading is added.
    """
    scores = row.get("scores")
    value = scores[0] if isinstance(scores, list) else row["score"]
    return float(str(value))


def measure(
    rows: Iterable[Mapping[str, object]], judge: Callable[[str, str, str], float]
) -> Agreement:
    """Agreement of ``judge(reference, prediction, question)`` with the rows' first grade.

    The question goes with every row (``""`` where a row has none): the paper's judge sees
    it, and the offline judge uses it to tell the question's topic from its answer.
    """
    pairs = [
        (
            first_grade(row),
            judge(str(row["reference"]), str(row["prediction"]), str(row.get("question", ""))),
        )
        for row in rows
    ]
    return agreement([p[0] for p in pairs], [p[1] for p in pairs])


MEASURED: dict[str, Agreement] = {
    "dev": Agreement(n=480, rho=0.9306, mae=0.0808, within=0.8000),
    "heldout": Agreement(n=47, rho=0.8245, mae=0.1106, within=0.8085),
    "independent": Agreement(n=142, rho=0.9094, mae=0.0880, within=0.7887),
    "fresh": Agreement(n=161, rho=0.9068, mae=0.0957, within=0.7702),
    "fresh3": Agreement(n=150, rho=0.9033, mae=0.0807, within=0.8267),
    "fresh4": Agreement(n=160, rho=0.8950, mae=0.0875, within=0.7625),
    "fresh5": Agreement(n=160, rho=0.9016, mae=0.0956, within=0.7750),
    "fresh6": Agreement(n=160, rho=0.8408, mae=0.1119, within=0.7375),
    "fresh7": Agreement(n=160, rho=0.8891, mae=0.0950, within=0.7688),
    "fresh8": Agreement(n=160, rho=0.8329, mae=0.1100, within=0.7438),
    "fresh9": Agreement(n=160, rho=0.8731, mae=0.0987, within=0.7562),
    "fresh10": Agreement(n=160, rho=0.7114, mae=0.1831, within=0.5375),
    "fresh11": Agreement(n=160, rho=0.7795, mae=0.1675, within=0.6062),
    "fresh12": Agreement(n=160, rho=0.6831, mae=0.2019, within=0.5437),
    "fresh13": Agreement(n=160, rho=0.7419, mae=0.1813, within=0.5813),
}
"""Figures measured once with the current rules (rules v9, each answer graded with its
question; see docs/judge.md). Only ``fresh12`` and ``fresh13`` (:data:`UNSEEN`) measure
agreement: no rule was tuned on them, and the judge first read them in that measurement.
Like ``fresh10`` and ``fresh11``, their writers were asked for answers that are hard for a
judge that matches words (right answers in other words or languages, near misses that
share the reference's words), and the judge does far worse on these four sets than on
the earlier ones. The others are fit: ``dev`` is the development part; ``independent``,
``fresh`` … ``fresh11`` were each written by someone who never saw the rules, measured
once with the rules of the time (docs/judge.md has those figures), and then used to tune
later rules; ``heldout`` is the part frozen before the rules were first tuned, measured
without looking at it by earlier rules and looked at with the rest by the later ones."""

SECOND_GRADER = ("fresh8", "fresh9")
"""The parts graded twice: their rows carry ``scores`` ``[author's, second]``, the second a
blind grading by a helper that saw neither the first grades nor the rules (the calibration
set's ``priviq/fresh8-fresh9-second-grading.md`` says how it was made): how far two graders
of the same protocol agree."""
BETWEEN_GRADERS = Agreement(n=320, rho=0.9826, mae=0.0297, within=0.9500)
"""The two gradings of fresh8 and fresh9 against each other: the ceiling the protocol
itself allows, far above the offline judge's figures."""
