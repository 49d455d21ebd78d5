"""Roles: which things a reference says *are* what — and answers that swap them.

A reference such as "The name is a direct identifier <AND> ZIP code, age and sex are
quasi-identifiers" makes claims of the form *subjects are predicate*, and its elements
differ by their predicates. An answer that says "ZIP code is a direct identifier, while
name, age and sex are quasi-identifiers" has every word of the reference and is still
wrong: it binds the subjects to the wrong roles (issue 11: role swaps got full credit).
Table 2's principle is that an element counts when the answer *states* it, so each
subject of such an element must be bound in the answer to that element's predicate.

Claims are read in two shapes, the ones answers use: "A and B are P" (a copula) and
"P: A, B" (a heading). Only references with at least two such claims whose predicates
differ are checked; for any other reference this module says nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from privbench.judges.offline.facts import facts
from privbench.judges.offline.text import content_words, fold

_COPULA = re.compile(r"\b(?:is|are)\b(?:\s+(?:a|an|the|all|both|also|each|considered))*\s+")
_PREDICATE_END = re.compile(r"[,;:]|\b(?:while|whereas|but|and|because|since|which|so)\b")
_LEADING = re.compile(r"^(?:\W|\b(?:and|while|whereas|but|so|then)\b)+")
_HEADING = re.compile(r"^\s*[-*•]?\s*([^:]{2,40}):\s*(.+)$")
_SENTENCE = re.compile(r"[.;\n]+(?:\s|$)")


@dataclass(frozen=True)
class Claim:
    """One "subjects are predicate" statement: the concepts on either side."""

    subject: frozenset[str]
    predicate: frozenset[str]


def _concepts(text: str) -> frozenset[str]:
    return content_words(text) | frozenset(facts(text).names)


def claims(text: str) -> tuple[Claim, ...]:
    """The claims of a text, sentence by sentence, in either shape."""
    found: list[Claim] = []
    for sentence in _SENTENCE.split(fold(text)):
        heading = _HEADING.match(sentence)
        if heading and not _COPULA.search(heading.group(1)):
            found.append(Claim(_concepts(heading.group(2)), _concepts(heading.group(1))))
            continue
        start = 0
        for match in _COPULA.finditer(sentence):
            if match.start() < start:
                continue
            end = _PREDICATE_END.search(sentence, match.end())
            stop = end.start() if end else len(sentence)
            subject = _LEADING.sub("", sentence[start : match.start()])
            predicate = sentence[match.end() : stop]
            found.append(Claim(_concepts(subject), _concepts(predicate)))
            start = stop
    return tuple(c for c in found if c.subject and c.predicate)


@lru_cache(maxsize=4096)
def reference_roles(elements: tuple[str, ...]) -> tuple[Claim, ...] | None:
    """Per element, its subjects and the predicate words that set it apart from the
    other elements; None unless every element is one claim and all predicates differ."""
    read = [claims(e) for e in elements]
    if len(elements) < 2 or any(len(c) != 1 for c in read):
        return None
    own = []
    for i, (claim,) in enumerate(read):
        other_predicates = frozenset().union(
            *(r[0].predicate for j, r in enumerate(read) if j != i)
        )
        other_subjects = frozenset().union(*(r[0].subject for j, r in enumerate(read) if j != i))
        distinct = claim.predicate - other_predicates
        subjects = claim.subject - other_subjects - claim.predicate - other_predicates
        if not distinct or not subjects:
            return None
        own.append(Claim(subjects, distinct))
    return tuple(own)


def bindings(elements: tuple[str, ...], answer: str) -> tuple[float | None, ...]:
    """Per reference element, the share of its subjects that the answer binds to its own
    role rather than another element's (None: the answer does not bind them at all)."""
    roles = reference_roles(elements)
    if roles is None:
        return tuple(None for _ in elements)
    stated = claims(answer)
    out: list[float | None] = []
    for i, role in enumerate(roles):
        others = frozenset().union(*(r.predicate for j, r in enumerate(roles) if j != i))
        right = swapped = 0
        for subject in role.subject:
            bound = [c for c in stated if subject in c.subject]
            if any(c.predicate & role.predicate for c in bound):
                right += 1
            elif any(c.predicate & others for c in bound):
                swapped += 1
        out.append(right / (right + swapped) if right + swapped else None)
    return tuple(out)
