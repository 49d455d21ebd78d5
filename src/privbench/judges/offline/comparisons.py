"""Comparisons: "a smaller ε gives stronger privacy" — and answers that turn them around.

Trade-offs are a common kind of Priv-IQ reference (PET, Know): a smaller privacy budget
means more noise and stronger privacy, a larger k means more generalisation and less
utility. An answer that says "a larger ε means more noise and stronger privacy" has every
word of such a reference and states the opposite; the paper's judge gives it next to
nothing (0.0–0.2), where shared words alone would give it 0.6–1.0. So each clause
that opens with a compared quantity ("smaller ε", "a higher k") is read as relations:
for every other quantity it compares ("more noise", "weaker privacy"), whether it moves
the same way as the first or the other way (the first quantity compared anew, "…, while a
larger ε …", sets the way again). An answer that relates a pair of quantities
the other way round from the reference reverses it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from privbench.judges.offline.text import content_words, fold

_UP = (
    r"larger|bigger|higher|greater|more|stronger|increas\w*|rais\w*|grows?|better|"
    r"big|large|high"
)
_DOWN = r"smaller|lower|less|fewer|weaker|decreas\w*|reduc\w*|worse|small|low|little"
_COMPARED = re.compile(
    rf"\b(?P<way>{_UP}|{_DOWN})\s+(?:the\s+)?(?P<what>ε|epsilon|[a-z][\w-]*)", re.IGNORECASE
)
"""A direction word and the quantity it qualifies ("smaller ε", "more noise")."""
_CLAUSE = re.compile(r"(?<=[.;!?])\s+|\n+")
_NO_QUANTITY = frozenset({"than", "that", "this", "likely", "often", "about", "much", "many",
                          "important", "useful", "difficult", "easily", "such"})  # fmt: skip
_SAME_THING = {"epsilon": "ε", "accurate": "accuracy", "private": "privacy", "noisy": "noise"}


def _quantity(word: str) -> str | None:
    word = _SAME_THING.get(word.lower(), word.lower())
    if word == "ε":
        return word
    concepts = content_words(word)
    if concepts:
        return min(concepts)
    # "privacy", "data": too common to be concepts, but what a trade-off compares
    return word if word.isalpha() and len(word) > 3 and word not in _NO_QUANTITY else None


def _way(word: str) -> int:
    return 1 if re.fullmatch(_UP, word, re.IGNORECASE) else -1


@lru_cache(maxsize=4096)
def relations(text: str) -> frozenset[tuple[str, str, int]]:
    """The text's comparisons, sentence by sentence, as (first quantity, other quantity,
    ±1): +1 when the other moves the same way as the first, −1 when it moves the other
    way."""
    found: set[tuple[str, str, int]] = set()
    for clause in _CLAUSE.split(fold(text)):
        compared = [
            (what, _way(m.group("way")))
            for m in _COMPARED.finditer(clause)
            if (what := _quantity(m.group("what"))) is not None
        ]
        if len(compared) < 2:
            continue
        anchor, anchor_way = compared[0]
        for what, way in compared[1:]:
            if what == anchor:  # "…, while a larger ε …": the same quantity, compared anew
                anchor_way = way
            else:
                found.add((anchor, what, way * anchor_way))
    return frozenset(found)


def reverses(reference: str, answer: str) -> bool:
    """Whether the answer relates two of the reference's quantities the other way round
    ("a larger ε … stronger privacy" for "a smaller ε gives stronger privacy")."""
    wanted = relations(reference)
    if not wanted:
        return False
    given = relations(answer)
    opposite = {(a, b, -way) for a, b, way in wanted} | {(b, a, -way) for a, b, way in wanted}
    agreeing = {(a, b, way) for a, b, way in wanted} | {(b, a, way) for a, b, way in wanted}
    return bool(given & opposite) and not given & agreeing
