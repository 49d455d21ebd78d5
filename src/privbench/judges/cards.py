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
import math
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeInt,
    StrictFloat,
    StrictInt,
    ValidationError,
    model_validator,
)

from privbench.runtime.cache import CACHE_ENV as CACHE_ENV  # re-exported: where it was
from privbench.runtime.cache import cache_dir as cache_dir
from privbench.runtime.errors import UsageError
from privbench.runtime.record import Benchmark, JudgeAgreement
from privbench.shipped import JUDGE_CALIBRATION

CARD_FORMAT: Literal["privbench-judge-card"] = "privbench-judge-card"
OFFLINE_CARDS = JUDGE_CALIBRATION / "cards"
"""The offline judge's cards, one per benchmark, shipped with the package."""


class _Card(BaseModel):
    # strict: a card is a file anyone can write; ``true`` is no count and "0.5" no figure
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


_UNBOUNDED = 1e9
_ROUNDING = 1e-9
"""Slack at each bound: a figure computed in floating point may pass it by a rounding."""


def _within(low: float, high: float) -> Any:
    return Field(ge=low - _ROUNDING, le=high + _ROUNDING)


Count = Annotated[NonNegativeInt, Field(strict=True)]
Number = StrictFloat | StrictInt
Correlation = Annotated[Number, _within(-1.0, 1.0)]
"""ρ, ICC, κ: a correlation-like figure lies in [−1, 1]."""
Share = Annotated[Number, _within(0.0, 1.0)]
"""A share or an accuracy: in [0, 1]."""
GradeGap = Annotated[Number, _within(0.0, 1.0)]
"""A mean absolute gap between two grades on 0–1: in [0, 1]."""
SignedGap = Annotated[Number, _within(-1.0, 1.0)]
"""A mean signed gap between two grades on 0–1 (bias): in [−1, 1]."""
Limit = Annotated[Number, _within(-3.0, 3.0)]
"""A limit of agreement (bias ± 1.96 SD of gaps in [−1, 1], SD ≤ 1): in [−3, 3]."""
Icc = Annotated[Number, _within(-_UNBOUNDED, 1.0)]
"""ICC(2,1): at most 1; a sample ICC can fall below −1 on degenerate data."""

_GRADE_RANGES: dict[str, tuple[float, float]] = {
    "spearman": (-1.0, 1.0),
    "icc": (-_UNBOUNDED, 1.0),
    "kappa_quadratic": (-1.0, 1.0),
    "mae": (0.0, 1.0),
    "within_0_1": (0.0, 1.0),
    "bias": (-1.0, 1.0),
    "loa_low": (-3.0, 3.0),
    "loa_high": (-3.0, 3.0),
}
"""Each Priv-IQ agreement figure's range: its interval in ``ci`` must lie in it too."""


class GradeFigures(_Card):
    """Priv-IQ: agreement of the judge's grades with the reference grades (all items)."""

    n: Count
    spearman: Correlation | None
    icc: Icc | None
    mae: GradeGap | None
    within_0_1: Share | None
    kappa_quadratic: Correlation | None
    bias: SignedGap | None
    loa_low: Limit | None
    loa_high: Limit | None
    ci: dict[str, list[Number | None]]
    """95 % bootstrap interval ``[low, high]`` of each figure."""
    unscored: Count
    """Items the judge's replies never gave a grade (left out of the figures)."""

    @model_validator(mode="after")
    def _intervals_in_range(self) -> GradeFigures:
        """Each interval is ``[low, high]`` of a known figure, ordered, within its range."""
        for key, bounds in self.ci.items():
            if key not in _GRADE_RANGES:
                raise ValueError(f"ci.{key}: not a figure of the card")
            if len(bounds) != 2:
                raise ValueError(f"ci.{key}: an interval is [low, high]")
            low, high = bounds
            least, most = _GRADE_RANGES[key]
            for value in (low, high):
                inside = (
                    least - _ROUNDING <= value <= most + _ROUNDING if value is not None else True
                )
                if value is not None and not (math.isfinite(value) and inside):
                    raise ValueError(f"ci.{key}: {value!r} is outside [{least:g}, {most:g}]")
            if low is not None and high is not None and low > high:
                raise ValueError(f"ci.{key}: low {low!r} above high {high!r}")
        return self


class VerdictFigures(_Card):
    """SpatialTrust q4/q5: agreement of the judge's verdicts with the reference verdicts."""

    n_factors: Count
    n_answers: Count
    accuracy: dict[str, Share | None]
    kappa: dict[str, Correlation | None]
    unscored: Count


class SanityFigures(_Card):
    """The sanity probe: reference answers graded against themselves (1.0 is right)."""

    protocol: str
    n: Count
    mean: Share | None
    lowest: Share | None
    unscored: Count
    passed: bool
    min_mean: Share


class ProbeFigures(_Card):
    """One bias probe variant under one protocol: mean grades and the paired change."""

    probe: str
    description: str
    variant: str
    protocol: str
    n: Count
    mean_base: Share | None
    mean_variant: Share | None
    mean_change: SignedGap | None
    change_low: SignedGap | None
    change_high: SignedGap | None
    unscored: Count


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
    """A card from ``path``; a one-line error naming the file and the field otherwise."""
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
    except RecursionError:
        raise UsageError(f"{path}: not a judge card: nested too deeply") from None
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "card"
        message = first["msg"].removeprefix("Value error, ")
        raise UsageError(f"{path}: not a judge card: {where}: {message}") from None


def _mismatch(card: JudgeCard, identity: dict[str, str]) -> str | None:
    """The first identity field in which ``card`` differs from the run's, as a phrase."""
    for field, ours in identity.items():
        theirs = getattr(card, field)
        if theirs != ours:
            return f"{field}: {theirs!r}, the run's is {ours!r}"
    return None


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

    A card must be of this benchmark, judge, protocol and prompt, and every figure in its
    range: a card of another judge, or a hand-edited one, would put figures beside scores
    it did not measure. A given card that fails is a one-line error; a cached one is named
    in one warning line (file and field) and ignored: the judge is then "not checked".
    """
    identity = {
        "benchmark": benchmark,
        "judge": judge,
        "protocol": protocol,
        "prompt_hash": prompt_hash,
    }
    if given:
        card = read_card(Path(given))
        if _mismatch(card, identity):
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
    except UsageError as error:
        _ignored(str(error))  # a damaged cached card is a judge not checked, not a failed run
        return None
    mismatch = _mismatch(card, identity)
    if mismatch is not None:
        if not shipped:  # the shipped card of other offline rules is no one's doing
            _ignored(f"{path}: {mismatch}")
        return None
    return card.agreement("shipped" if shipped else str(path))


def _ignored(problem: str) -> None:
    """One line on stderr: the card is not used (``problem`` names the file and field)."""
    print(f"warning: judge card ignored, the judge counts as not checked: {problem}",
          file=sys.stderr)  # fmt: skip
