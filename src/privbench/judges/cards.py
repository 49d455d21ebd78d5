"""Judge cards: what ``privbench judge check`` measured of a judge, found again by every run.

Why a card: a score is only as good as its judge, and a judge's agreement with reference
grades is measured once (it costs judge calls) but matters for every run it grades. The
card is a small JSON file naming the judge as requested and as the provider reported it,
the protocol and prompt hash it was checked under, the reference set (name and content
hash), the day, and the figures. It is kept in privbench's cache directory under a name
made of judge, protocol and prompt hash, so that ``eval`` and ``grade`` find the card of
exactly the judge and prompt they use — a changed prompt is a judge not yet checked.

The offline judge's card is shipped with the package: it is built by the same check, over
the shipped calibration set, and a test recomputes it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from privbench.runtime.cache import CACHE_ENV as CACHE_ENV  # re-exported: where it was
from privbench.runtime.cache import cache_dir as cache_dir
from privbench.runtime.errors import UsageError
from privbench.runtime.record import Benchmark, JudgeAgreement
from privbench.shipped import JUDGE_CALIBRATION

CARD_FORMAT: Literal["privbench-judge-card"] = "privbench-judge-card"
OFFLINE_CARDS = JUDGE_CALIBRATION / "cards"
"""The offline judge's cards, one per benchmark, shipped with the package."""


class _Card(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GradeFigures(_Card):
    """Priv-IQ: agreement of the judge's grades with the reference grades (all items)."""

    n: int
    spearman: float | None
    icc: float | None
    mae: float | None
    within_0_1: float | None
    kappa_quadratic: float | None
    bias: float | None
    loa_low: float | None
    loa_high: float | None
    ci: dict[str, list[float | None]]
    """95 % bootstrap interval ``[low, high]`` of each figure."""
    unscored: int
    """Items the judge's replies never gave a grade (left out of the figures)."""


class VerdictFigures(_Card):
    """SpatialTrust q4/q5: agreement of the judge's verdicts with the reference verdicts."""

    n_factors: int
    n_answers: int
    accuracy: dict[str, float | None]
    kappa: dict[str, float | None]
    unscored: int


class JudgeCard(_Card):
    """One check of one judge under one protocol and prompt, on one reference set."""

    format: Literal["privbench-judge-card"] = CARD_FORMAT
    version: Literal[1] = 1
    benchmark: Benchmark
    judge: str
    """The judge as the run names it (``--judge``)."""
    reported_models: list[str] = Field(default_factory=list)
    """The model names the provider reported in its replies (e.g. a dated version)."""
    protocol: str
    prompt_hash: str
    reference_set: str
    set_hash: str
    left_out: dict[str, int] = Field(default_factory=dict)
    """Parts of the reference set left out, with their sizes (e.g. parts the judge was
    tuned on)."""
    checked: str
    """The day of the check, ``YYYY-MM-DD`` (UTC)."""
    judge_runs: int = 1
    grades: GradeFigures | None = None
    verdicts: VerdictFigures | None = None

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
        )


def card_name(benchmark: str, judge: str, protocol: str, prompt_hash: str) -> str:
    """The card's file name: readable start, hash of the exact identity."""
    identity = "\0".join((benchmark, judge, protocol, prompt_hash))
    digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:16]
    readable = "".join(c if c.isalnum() or c in "-." else "_" for c in judge)[:60]
    return f"{benchmark}-{readable}-{digest}.json"


def card_path(benchmark: str, judge: str, protocol: str, prompt_hash: str) -> Path:
    """Where ``judge check`` keeps, and runs look for, the card of this judge and prompt."""
    return cache_dir() / "judge-cards" / card_name(benchmark, judge, protocol, prompt_hash)


def card_file(benchmark: str) -> str:
    """The card's name in a folder of cards (``--card-dir``, the shipped offline cards)."""
    return f"{benchmark}.json"


def read_card(path: Path) -> JudgeCard:
    """A card from ``path``; a one-line error naming the file otherwise."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"{path}: no such judge card") from None
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"{path}: cannot read the judge card ({type(error).__name__})") from None
    try:
        return JudgeCard.model_validate(json.loads(text))
    except json.JSONDecodeError as error:
        raise UsageError(f"{path}:{error.lineno}: not JSON: {error.msg}") from None
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "card"
        raise UsageError(f"{path}: not a judge card: {where}: {first['msg']}") from None


def write_card(card: JudgeCard, path: Path) -> Path:
    """Write ``card`` to ``path`` whole or not at all (written beside it, then moved)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(card.model_dump_json(indent=2) + "\n", encoding="utf-8")
    partial.replace(path)
    return path


def find_card(
    benchmark: Benchmark,
    judge: str,
    protocol: str,
    prompt_hash: str,
    given: str | Path | None = None,
) -> JudgeAgreement | None:
    """The agreement a run records: from ``given`` (``--judge-card``), else the cache.

    A given card must be of this benchmark, judge, protocol and prompt: a card of another
    judge would put its figures beside scores it did not grade (a one-line error).
    """
    if given:
        card = read_card(Path(given))
        theirs = (card.benchmark, card.judge, card.protocol, card.prompt_hash)
        ours = (benchmark, judge, protocol, prompt_hash)
        if theirs != ours:
            raise UsageError(
                f"--judge-card {given}: a card for {card.judge} on {card.benchmark} (protocol "
                f"{card.protocol}, prompt {card.prompt_hash}); this run's judge is {judge} on "
                f"{benchmark} (protocol {protocol}, prompt {prompt_hash})"
            )
        return card.agreement(str(given))
    shipped = judge == "offline"
    path = (
        OFFLINE_CARDS / card_file(benchmark)
        if shipped
        else card_path(benchmark, judge, protocol, prompt_hash)
    )
    if not path.is_file():
        return None
    try:
        card = read_card(path)
    except UsageError:
        return None  # a damaged cached card is a judge not checked, not a failed run
    if (card.protocol, card.prompt_hash) != (protocol, prompt_hash):
        return None  # the offline judge's shipped card of other rules
    return card.agreement("shipped" if shipped else str(path))
