"""Priv-IQ score arithmetic (pure): eq. 1, eq. 2, combinations, runs.

* Overall ``S = 100 · Σ s_i / N`` (eq. 1) per run; per competency ``S_C`` over the items
  that require C (eq. 2) — an item counts toward every competency it requires; per
  combination over the items whose exact set it is (Table 5).
* With several judge runs (the paper's ``num_run``) each figure is
  computed per run and the reported value is the mean over runs; ``std`` is the
  population standard deviation over runs, as the reference evaluator computes it.
* An unscored judgment (judge reply never parsed) is left out of its run's mean and
  counted; it is never a 0.0.
* Refusal rates (:mod:`privbench.suites.priviq.refusals`): per competency and overall, the share
  of items whose answer declines (``refusal``) or declines and answers (``partial``), over
  the items whose answer was read; shown beside the score, never mixed into it.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from privbench.suites.priviq.competencies import COMPETENCIES, Combination
from privbench.suites.priviq.refusals import RefusalReading


@dataclass(frozen=True)
class ItemGrades:
    """The judge's scores (0–1) of one item, one per run; None where unscored."""

    id: str
    competencies: Combination
    runs: tuple[float | None, ...]
    no_answer: bool = False
    refusal: RefusalReading | None = None
    """How the answer reads (refusal, partial, answer); None where no answer was logged."""

    @property
    def mean(self) -> float | None:
        """Mean over the scored runs (None if no run was scored)."""
        scored = [s for s in self.runs if s is not None]
        return statistics.fmean(scored) if scored else None


@dataclass(frozen=True)
class ScoreCell:
    """One table cell: a percentage (mean over runs), its std over runs, items, run values."""

    score: float | None
    std: float | None
    n: int
    runs: tuple[float | None, ...]


@dataclass(frozen=True)
class RefusalCell:
    """Refusals and partial answers among ``n`` items whose answer was read."""

    n: int = 0
    refusals: int = 0
    partial: int = 0

    @property
    def answers(self) -> int:
        """Items that neither refuse nor answer only in part."""
        return self.n - self.refusals - self.partial

    @property
    def refusal_rate(self) -> float | None:
        """Percent of the items that refuse (None with no item read)."""
        return 100 * self.refusals / self.n if self.n else None

    @property
    def partial_rate(self) -> float | None:
        """Percent of the items that decline and answer anyway (None with no item read)."""
        return 100 * self.partial / self.n if self.n else None


@dataclass(frozen=True)
class RefusalRates:
    """Refusal counts overall and per competency, and each item's reading."""

    overall: RefusalCell = field(default_factory=RefusalCell)
    competencies: dict[str, RefusalCell] = field(default_factory=dict)
    items: dict[str, RefusalReading] = field(default_factory=dict)


def refusal_cell(grades: Sequence[ItemGrades]) -> RefusalCell:
    """Count the refusals and partial answers among the items of ``grades`` that were read."""
    labels = [g.refusal.label for g in grades if g.refusal is not None]
    return RefusalCell(len(labels), labels.count("refusal"), labels.count("partial"))


def refusal_rates(grades: Sequence[ItemGrades]) -> RefusalRates:
    """Refusal cells overall and per competency (an item counts toward each it requires)."""
    return RefusalRates(
        overall=refusal_cell(grades),
        competencies={
            code: refusal_cell([g for g in grades if code in g.competencies])
            for code in COMPETENCIES
        },
        items={g.id: g.refusal for g in grades if g.refusal is not None},
    )


@dataclass(frozen=True)
class PrivIQScores:
    """Everything the Priv-IQ tables and the ``--json`` document report."""

    overall: ScoreCell
    competencies: dict[str, ScoreCell]
    combinations: dict[Combination, ScoreCell]
    items: dict[str, float | None]
    n_runs: int
    unscored_runs: int
    unscored_items: list[str] = field(default_factory=list)
    no_answer: list[str] = field(default_factory=list)
    refusals: RefusalRates = field(default_factory=RefusalRates)


def run_scores(grades: Sequence[ItemGrades], n_runs: int) -> tuple[float | None, ...]:
    """Percentage score of each run over ``grades`` (eq. 1 / eq. 2 on that subset)."""
    result: list[float | None] = []
    for run in range(n_runs):
        scored = [s for g in grades if run < len(g.runs) and (s := g.runs[run]) is not None]
        result.append(100 * math.fsum(scored) / len(scored) if scored else None)
    return tuple(result)


def score_cell(grades: Sequence[ItemGrades], n_runs: int) -> ScoreCell:
    """Mean and population std over runs of the percentage score of ``grades``."""
    runs = run_scores(grades, n_runs)
    scored = [r for r in runs if r is not None]
    return ScoreCell(
        score=statistics.fmean(scored) if scored else None,
        std=statistics.pstdev(scored) if scored else None,
        n=len(grades),
        runs=runs,
    )


def combinations_by_count(grades: Sequence[ItemGrades]) -> list[Combination]:
    """Combinations present, most frequent first (Table 5's order), ties in code order."""
    counts: dict[Combination, int] = {}
    for grade in grades:
        counts[grade.competencies] = counts.get(grade.competencies, 0) + 1
    rank = {code: i for i, code in enumerate(COMPETENCIES)}
    return sorted(counts, key=lambda c: (-counts[c], len(c), [rank[code] for code in c]))


def priviq_scores(
    grades: Sequence[ItemGrades], expected: Sequence[Combination] = ()
) -> PrivIQScores:
    """Overall, per-competency and per-combination scores of a set of graded items.

    ``expected``: the combinations of every item the run was asked to grade; one with no
    graded item still gets its (empty, n = 0) cell, so a partial run shows the gap.
    """
    n_runs = max((len(g.runs) for g in grades), default=0)
    competencies = {
        code: score_cell([g for g in grades if code in g.competencies], n_runs)
        for code in COMPETENCIES
    }
    combinations = {
        combination: score_cell([g for g in grades if g.competencies == combination], n_runs)
        for combination in combinations_by_count(grades)
    }
    for combination in expected:
        combinations.setdefault(combination, score_cell([], n_runs))
    return PrivIQScores(
        overall=score_cell(grades, n_runs),
        competencies=competencies,
        combinations=combinations,
        items={g.id: g.mean for g in grades},
        n_runs=n_runs,
        unscored_runs=sum(1 for g in grades for s in g.runs if s is None),
        unscored_items=[g.id for g in grades if g.mean is None],
        no_answer=[g.id for g in grades if g.no_answer],
        refusals=refusal_rates(grades),
    )
