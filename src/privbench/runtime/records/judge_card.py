"""A judge card as a record: its fields, its one check, and the copy a run logs.

Why here, below every reader: a card is read from the cache, from ``--judge-card`` and
from a run's log; each reading refuses a hand-edited card the same way
(:func:`check_card`), and a log's card is checked again whenever the log is read
(:func:`logged_agreement`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import Field, StrictInt, ValidationError

from privbench.runtime.card_figures import (
    Count,
    GradeFigures,
    Number,
    ProbeFigures,
    SanityFigures,
    StrictCard,
    VerdictFigures,
)
from privbench.runtime.records.base import Record
from privbench.runtime.records.benchmark import Benchmark
from privbench.runtime.records.judge_agreement import JudgeAgreement

CARD_FORMAT: Literal["privbench-judge-card"] = "privbench-judge-card"


class JudgeCard(StrictCard):
    """One check of one judge under one protocol and prompt, on one reference set."""

    format: Literal["privbench-judge-card"] = CARD_FORMAT
    version: Literal[1] = 1
    benchmark: Benchmark
    judge: str
    """The judge as the run names it (``--judge``)."""
    reported_models: list[str] = Field(default_factory=list)
    """The model names the provider reported in its replies (e.g. a dated version)."""
    protocol: str
    prompt_hash: Annotated[str, Field(pattern=r"^[0-9a-f]{8,64}$")]
    reference_set: str
    set_hash: str
    left_out: dict[str, Count] = Field(default_factory=dict)
    """Parts of the reference set left out, with their sizes (e.g. parts the judge was
    tuned on)."""
    checked: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")]
    """The day of the check, ``YYYY-MM-DD`` (UTC)."""
    judge_runs: Annotated[StrictInt, Field(ge=1)] = 1
    judge_temperature: Annotated[Number, Field(ge=0.0, le=10.0)] | None = None
    """The judge's sampling temperature in the check (None: the offline judge has none)."""
    grades: GradeFigures | None = None
    verdicts: VerdictFigures | None = None
    sanity: SanityFigures | None = None
    """The sanity probe under the card's protocol (None: not run)."""
    probes: list[ProbeFigures] = Field(default_factory=list)
    """The bias probes, under each protocol probed (empty: not run)."""
    warnings: list[str] = Field(default_factory=list)
    """What makes the figures doubtful (a failed sanity probe): shown wherever the card is."""

    def agreement(self, location: str) -> JudgeAgreement:
        """The figures a run records and shows (``location``: where the card was found)."""
        grades, verdicts = self.grades, self.verdicts
        return JudgeAgreement(
            reference_set=self.reference_set,
            set_hash=self.set_hash,
            n=grades.n if grades else 0,
            left_out=sum(self.left_out.values()),
            spearman=grades.spearman if grades else None,
            mae=grades.mae if grades else None,
            within_0_1=grades.within_0_1 if grades else None,
            verdict_accuracy=dict(verdicts.accuracy) if verdicts else {},
            verdict_n=verdicts.n_factors if verdicts else 0,
            checked=self.checked,
            card=location,
            warnings=list(self.warnings),
        )


class CardRejected(ValueError):
    """A judge card that fails :func:`check_card`; ``str(error)`` names the field."""


def card_mismatch(card: JudgeCard, identity: Mapping[str, str | None]) -> str | None:
    """The first identity field in which ``card`` differs from the run's, as a phrase."""
    for name, ours in identity.items():
        theirs = getattr(card, name)
        if theirs != ours:
            return f"{name}: {theirs!r}, the run's is {ours!r}"
    return None


def check_card(data: object, identity: Mapping[str, str | None] | None = None) -> JudgeCard:
    """The card ``data`` holds, if every figure lies in its range and (with ``identity``:
    ``benchmark``, ``judge``, ``protocol``, ``prompt_hash``) it is the card of that run.

    The one check of a card, wherever it was read — the cache, ``--judge-card``, a run's
    log — so that a hand-edited card is refused the same way everywhere.
    Raises :class:`CardRejected` naming the first failing field.
    """
    try:
        card = JudgeCard.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "card"
        raise CardRejected(f"{where}: {first['msg'].removeprefix('Value error, ')}") from None
    except RecursionError:
        raise CardRejected("card: nested too deeply") from None
    mismatch = card_mismatch(card, identity or {})
    if mismatch is not None:
        raise CardRejected(mismatch)
    return card


class LoggedCard(Record):
    """The judge card as a run records it in its log: whole, with where it was found, so
    that every reading of the log checks it again (:func:`logged_agreement`)."""

    source: str
    """Where the card was found (a path, or ``shipped`` for the offline judge's)."""
    content: dict[str, object]
    """The card, as :meth:`JudgeCard.model_dump` writes it."""

    @classmethod
    def of(cls, card: JudgeCard, source: str) -> LoggedCard:
        return cls(source=source, content=card.model_dump(mode="json"))


def logged_agreement(
    logged: object, identity: Mapping[str, str | None]
) -> tuple[JudgeAgreement | None, str]:
    """The agreement a log's recorded card gives, or None and why it was ignored.

    ``logged``: the task record's ``judge_card`` as read (anything: a log is a file anyone
    can edit); ``identity``: the run's benchmark, judge, protocol and prompt hash. The card
    is checked by :func:`check_card`, as when the run found it; a log of an older privbench,
    which recorded only the figures, cannot be checked and counts as not checked.
    """
    if logged is None:
        return None, ""
    try:
        record = LoggedCard.model_validate(logged)
    except ValidationError:
        return None, "the card is not recorded whole (an older privbench, or edited)"
    try:
        card = check_card(record.content, identity)
    except CardRejected as error:
        return None, str(error)
    return card.agreement(record.source), ""
