"""How far a run's judge agreed with reference grades, and the sentences that say so.

Why together: a run records its judge card's figures when it starts, and every reader —
the tables, ``--json``, ``show``, the exports and the report — says them (or that the
judge was not checked) in the same words, from :func:`agreement_line` and
:func:`agreement_short`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from privbench.runtime.records.base import Record


@dataclass(frozen=True)
class AgreementWording:
    """How a benchmark's runs say their judge's agreement: with reference grades (ρ, MAE),
    or, where ``verdicts`` names what its judge decides (``SpatialTrust q4/q5 verdicts``),
    with reference verdicts (accuracy per verdict field).

    Why declared by the benchmark (on its ``CrossRun``): the sentence under its tables
    names what its judge was checked on, which only the benchmark knows."""

    verdicts: str | None = None
    """What a verdict check covers, as the sentence names it; None: reference grades."""
    verdicts_short: str = ""
    """:attr:`verdicts` in a table cell (``q4/q5``)."""
    unchecked: str = ""
    """The line for a run whose judge had no card (empty: :data:`NOT_CHECKED`, which says
    how to check it); a benchmark whose judge no reference set can check says so here."""


GRADES = AgreementWording()
"""Agreement with reference grades: the wording of a benchmark that declares no other."""


class JudgeAgreement(Record):
    """How far the run's judge agreed with reference grades, from the judge card found for it.

    Why in the task record: the card is looked up when the run starts (by judge, protocol
    and prompt hash), so every reader — the tables, ``--json``, ``show``, the exports and
    the report — says what was known of the judge when it graded, even if the card is
    later replaced or deleted.
    """

    reference_set: str
    """The reference grades' name (e.g. the shipped calibration set)."""
    set_hash: str
    n: int
    """Items with both a reference and a judge grade."""
    left_out: int = 0
    """Items of the reference set left out because the judge was tuned on them."""
    spearman: float | None = None
    mae: float | None = None
    within_0_1: float | None = None
    """Share (0–1) of judge grades within ±0.1 of the reference grade."""
    verdict_accuracy: dict[str, float | None] = Field(default_factory=dict)
    """Accuracy per verdict field (``identified``, ``explanation_correct``), where the card
    has a verdict check (a benchmark whose judge gives verdicts)."""
    verdict_n: int = 0
    checked: str = ""
    """The day of the check (``YYYY-MM-DD``), as the card says."""
    card: str = ""
    """Where the card was found (a path, or ``shipped`` for the offline judge's)."""
    warnings: list[str] = Field(default_factory=list)
    """What the card says makes its figures doubtful (a failed sanity probe)."""

    @staticmethod
    def _figure(value: float | None, digits: int = 2) -> str:
        return "n/a" if value is None else f"{value:.{digits}f}"

    def line(self, wording: AgreementWording = GRADES) -> str:
        """The sentence under every table and beside the judge in the report."""
        if wording.verdicts is not None:
            if not self.verdict_accuracy:
                return f"judge not checked on {wording.verdicts}"
            fields = ", ".join(
                f"{name.replace('_', ' ')} {self._figure(None if v is None else 100 * v, 0)} %"
                for name, v in self.verdict_accuracy.items()
            )
            return (
                f"judge agreement with reference verdicts ({self.reference_set}, "
                f"n = {self.verdict_n} factors): accuracy {fields}"
            )
        within = None if self.within_0_1 is None else 100 * self.within_0_1
        tuned = f", {self.left_out} items it was tuned on left out" if self.left_out else ""
        warned = "".join(f"; WARNING: {warning}" for warning in self.warnings)
        return (
            f"judge agreement with reference grades ({self.reference_set}, n = {self.n}{tuned}): "
            f"ρ {self._figure(self.spearman)}, MAE {self._figure(self.mae)}, "
            f"within ±0.1 {self._figure(within, 0)} %{warned}"
        )

    def short(self, wording: AgreementWording = GRADES) -> str:
        """The figures of :meth:`line` in a few words, for a table cell beside the judge
        (the report shows the full sentence on hover and in a footnote)."""
        if wording.verdicts is not None:
            values = [v for v in self.verdict_accuracy.values() if v is not None]
            if not values:
                return f"{wording.verdicts_short} not checked"
            return f"verdicts ≥ {self._figure(100 * min(values), 0)} % right"
        return f"ρ {self._figure(self.spearman)}, MAE {self._figure(self.mae)}"


NOT_CHECKED = "judge not checked (privbench judge check --judge JUDGE measures it)"
"""The line for a run whose judge had no card."""
NOT_CHECKED_SHORT = "not checked"
""":data:`NOT_CHECKED` in a table cell."""


def agreement_line(card: JudgeAgreement | None, problem: str, wording: AgreementWording) -> str:
    """The judge's agreement with reference grades when the run started, in one line
    (``problem``: why the card the log records was ignored; empty if it was not)."""
    unchecked = wording.unchecked or NOT_CHECKED
    if problem:
        return f"{unchecked}; {problem}"
    return unchecked if card is None else card.line(wording)


def agreement_short(card: JudgeAgreement | None, problem: str, wording: AgreementWording) -> str:
    """:func:`agreement_line` in a few words, for a table cell."""
    if problem:
        return f"{NOT_CHECKED_SHORT} (its card was ignored)"
    if card is None:
        return NOT_CHECKED_SHORT
    return card.short(wording)
