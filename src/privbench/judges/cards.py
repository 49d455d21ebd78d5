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
import sys
from pathlib import Path

from privbench.judges.choice import parse_judge
from privbench.runtime.cache import CACHE_ENV as CACHE_ENV  # re-exported: where it was
from privbench.runtime.cache import cache_dir as cache_dir
from privbench.runtime.card_figures import GradeFigures as GradeFigures
from privbench.runtime.card_figures import ProbeFigures as ProbeFigures
from privbench.runtime.card_figures import SanityFigures as SanityFigures
from privbench.runtime.card_figures import VerdictFigures as VerdictFigures
from privbench.runtime.errors import UsageError
from privbench.runtime.records.benchmark import Benchmark
from privbench.runtime.records.judge_card import CARD_FORMAT as CARD_FORMAT
from privbench.runtime.records.judge_card import CardRejected, LoggedCard, card_mismatch, check_card
from privbench.runtime.records.judge_card import JudgeCard as JudgeCard
from privbench.shipped import JUDGE_CALIBRATION

OFFLINE_CARDS = JUDGE_CALIBRATION / "cards"
"""The offline judge's cards, one per benchmark, shipped with the package."""


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
    """A card from ``path``; a one-line error naming the file and the field otherwise (the
    checks of :func:`~privbench.runtime.records.judge_card.check_card`)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"{path}: no such judge card") from None
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"{path}: cannot read the judge card ({type(error).__name__})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"{path}:{error.lineno}: not JSON: {error.msg}") from None
    except RecursionError:
        raise UsageError(f"{path}: not a judge card: nested too deeply") from None
    try:
        return check_card(data)
    except CardRejected as error:
        raise UsageError(f"{path}: not a judge card: {error}") from None


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
) -> LoggedCard | None:
    """The card a run records: from ``given`` (``--judge-card``), else the cache.

    A card must be of this benchmark, judge, protocol and prompt, and every figure in its
    range: a card of another judge, or a hand-edited one, would put figures beside scores
    it did not measure. A given card that fails is a one-line error; a cached one is named
    in one warning line (file and field) and ignored: the judge is then "not checked".
    The run records the card whole, and every reading of its log checks it again.
    """
    identity = {
        "benchmark": benchmark,
        "judge": judge,
        "protocol": protocol,
        "prompt_hash": prompt_hash,
    }
    if given:
        card = read_card(Path(given))
        if card_mismatch(card, identity):
            raise UsageError(
                f"--judge-card {given}: a card for {card.judge} on {card.benchmark} (protocol "
                f"{card.protocol}, prompt {card.prompt_hash}); this run's judge is {judge} on "
                f"{benchmark} (protocol {protocol}, prompt {prompt_hash})"
            )
        return LoggedCard.of(card, str(given))
    shipped = parse_judge(judge).card_ships
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
    mismatch = card_mismatch(card, identity)
    if mismatch is not None:
        if not shipped:  # the shipped card of other offline rules is no one's doing
            _ignored(f"{path}: {mismatch}")
        return None
    return LoggedCard.of(card, "shipped" if shipped else str(path))


def _ignored(problem: str) -> None:
    """One line on stderr: the card is not used (``problem`` names the file and field)."""
    print(f"warning: judge card ignored, the judge counts as not checked: {problem}",
          file=sys.stderr)  # fmt: skip
