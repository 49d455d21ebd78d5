"""SpatialTrust q4/q5 without a model: the structured verdict from the answer's words.

The LLM judge of q4/q5 returns, per ground-truth factor, whether the answer identifies it
and explains it correctly, which listed factor matches it, whether the answer claims
factors that are not there, and whether it states there are none. This module returns
the same verdict by text similarity, so ``--judge offline`` scores SpatialTrust end to
end. Names and reasons are compared as concepts
(:func:`~privbench.judges.offline.text.content_words`), so "a man behind the user"
meets "a background person".

It works on plain values (:class:`FactorText`, :class:`TextVerdict`): the benchmark's
own types are converted by its judge module, so that this layer needs nothing above it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from privbench.judges.offline.text import content_words

OFFLINE_MATCH = 0.34
"""Share of the shorter name's concepts a predicted and a ground-truth factor must share."""
IDENTIFIED_IN_TEXT = 0.5
"""Share of a factor's name concepts the answer text must have to identify it unlisted."""
REASON_MATCH = 0.25
"""Share of the reference reason's concepts that makes an explanation correct."""
_NONE = re.compile(
    r"\b(no|none|nothing|not any|there are no|there is no)\b.{0,40}\b(factor|visible|present|risk)s?\b"
    r"|^\s*(none|no)\b"
    r"|\b(?:don't|do not|cannot|can't|could not|couldn't)\s+(?:see|find|spot|identify|detect)"
    r"\s+(?:any|anything)\b",
    re.IGNORECASE,
)
_SCENE = frozenset({"user", "capture", "frame", "scene", "image"})
"""Words every capture's description has: they tell no factor from another."""
_DIRECT_WHY = frozenset(
    {"see", "read", "record", "recording", "captur", "look", "looking", "visible", "film",
     "watch", "point", "mirror"}
)  # fmt: skip
"""Word starts of a direct factor's reason: it sees or records the screen."""
_INDIRECT_WHY = frozenset(
    {"could", "might", "may", "possib", "risk", "potential", "would", "pass", "turn", "expos",
     "later"}
)  # fmt: skip
"""Word starts of an indirect factor's reason: it could become a risk."""


@dataclass(frozen=True)
class FactorText:
    """A factor as words: a ground-truth factor or one an answer lists (no box: the
    verdict never looks at locations)."""

    name: str
    why: str


@dataclass(frozen=True)
class FactorFinding:
    """The verdict on one ground-truth factor."""

    identified: bool
    explanation_correct: bool
    matched: int | None
    """The index of the answer's listed factor that matches it (None: none does)."""


@dataclass(frozen=True)
class TextVerdict:
    """The verdict on one q4/q5 answer: per ground-truth factor, and per answer."""

    factors: tuple[FactorFinding, ...]
    unsupported: bool
    """The answer lists a factor that matches no ground-truth factor."""
    states_none: bool
    """The answer lists no factor and says there is none."""


def _similarity(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a) if a else 0.0


def _name_similarity(truth: frozenset[str], predicted: frozenset[str]) -> float:
    """Shared name concepts over the shorter name (at least two): "the mirror" names "a
    mirror on the wall behind the user"; one shared word of two long names does not."""
    truth, predicted = truth - _SCENE, predicted - _SCENE
    if not truth or not predicted:
        return 0.0
    return len(truth & predicted) / max(2, min(len(truth), len(predicted)))


def offline_verdict(
    direct: bool, truth: Sequence[FactorText], text: str, listed: Sequence[FactorText]
) -> TextVerdict:
    """The structured verdict from text similarity, without a model (``--judge offline``):
    for the ``truth`` factors of a question about direct (q4) or indirect (q5) factors,
    and an answer's ``text`` and ``listed`` factors.

    A predicted factor matches the ground-truth factor whose name concepts it shares most
    (at least a third of the shorter name, one-to-one, best pairs first); a ground-truth factor is identified
    when matched or named in the answer text; its explanation is correct when the matched
    factor's reason (or the answer text) shares concepts with the reference reason or
    uses the vocabulary of its kind (direct: seeing, recording; indirect: could, risk).
    Any listed factor that matches nothing is unsupported. The answer states none when
    it lists no factor and says so.
    """
    names = [content_words(f.name) for f in truth]
    predicted = [content_words(f.name) for f in listed]
    pairs = sorted(
        (
            (_name_similarity(g, p), i, j)
            for i, g in enumerate(names)
            for j, p in enumerate(predicted)
        ),
        reverse=True,
    )
    matched: dict[int, int] = {}
    used: set[int] = set()
    for similarity, i, j in pairs:
        if similarity >= OFFLINE_MATCH and i not in matched and j not in used:
            matched[i], used = j, used | {j}
    said = content_words(text)
    kind_words = _DIRECT_WHY if direct else _INDIRECT_WHY
    factors = []
    for i, factor in enumerate(truth):
        match = matched.get(i)
        identified = match is not None or _similarity(names[i], said) >= IDENTIFIED_IN_TEXT
        raw = listed[match].why if match is not None else text
        reason = content_words(raw)
        stems = {w[:6] for w in re.findall(r"\w+", raw.lower())}
        explained = _similarity(content_words(factor.why), reason) >= REASON_MATCH or any(
            k[:6] in stems for k in kind_words
        )
        factors.append(FactorFinding(identified, identified and explained, match))
    unsupported = any(k not in used and predicted[k] for k in range(len(listed)))
    states_none = not listed and bool(_NONE.search(text))
    return TextVerdict(tuple(factors), unsupported, states_none)


def graded_verdict_fields(rows: Iterable[Mapping[str, Any]]) -> tuple[int, int]:
    """(fields agreeing, fields in all) between :func:`offline_verdict` and hand-graded
    q4/q5 verdicts: per factor *identified* and *explanation correct*, per answer
    *unsupported* and *states none*. The rows are the calibration files' JSON lines
    (``question``, ``reference``, ``factors``, ``answer_text``, ``answer_factors``,
    ``verdict``); boxes play no part in these fields."""
    agree = total = 0
    for row in rows:
        got = offline_verdict(
            row["question"] == "q4",
            [FactorText(f["name"], f["why"]) for f in row["factors"]],
            row["answer_text"],
            [FactorText(p["name"], p["why"]) for p in row["answer_factors"]],
        )
        want = row["verdict"]
        pairs = [(got.unsupported, want["unsupported"]), (got.states_none, want["states_none"])]
        for factor, identified, explained in zip(
            got.factors, want["identified"], want["explained"], strict=True
        ):
            pairs += [(factor.identified, identified), (factor.explanation_correct, explained)]
        agree += sum(a == b for a, b in pairs)
        total += len(pairs)
    return agree, total
