"""Roles: which things a reference says *are* what — and answers that swap them.

A reference such as "The name is a direct identifier <AND> ZIP code, age and sex are
quasi-identifiers" makes claims of the form *subjects are predicate*, and its elements
differ by their predicates. An answer that says "ZIP code is a direct identifier, while
name, age and sex are quasi-identifiers" has every word of the reference and is still
wrong: it binds the subjects to the wrong roles, though shared words alone would give it
full credit. Table 2's principle is that an element counts when the answer *states* it, so each
subject of such an element must be bound in the answer to that element's predicate.

Claims are read in two shapes, the ones answers use: "A and B are P" (a copula) and
"P: A, B" (a heading). Only references with at least two such claims whose predicates
differ are checked.

Claims written with verbs ("the hospital decides the purposes <AND> the cloud provider
processes the data on its behalf") are read by position instead (:func:`verb_roles`):
each element's subject is its first concept that no other element has, its predicate the
rest of what sets it apart. An answer clause that opens with one element's subject and
says more of another element's predicate than of its own swaps them ("the cloud provider
decides the purposes").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from privbench.judges.offline.facts import facts
from privbench.judges.offline.polarity import NO, YES
from privbench.judges.offline.text import content_words, fold, tokens, word_set

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


_CLAUSE = re.compile(r"[.;,:!?\n()\u2014\u2013]+|\s-\s|\b(?:while|whereas|whilst|but|and)\b")
_APPOSITIVE = re.compile(
    r",\s*((?:like|such\s+as|e\.g\.,?|for\s+example|for\s+instance|including)\b[^,.;:]*),"
)
"""An example set off by commas ("a quasi-identifier, like a social security number,
identifies …"): part of its clause, whose subject it illustrates."""


def _ordered_concepts(text: str) -> list[str]:
    """A text's concepts in the order they first occur."""
    seen: list[str] = []
    for token in tokens(text.replace("-", " ")):
        for concept in sorted(content_words(token)):
            if concept not in seen:
                seen.append(concept)
    return seen


CLAUSE_CONCEPTS = 3
"""Concepts an element needs to be read as a claim (subject, verb, object), not an item;
with just that many it also needs a verb (:data:`_VERB`): "the recipient's e-mail
address" is an item."""
CLAIM_MAX_CONCEPTS = 12
"""Concepts beyond which an element is an explanation, not a claim: "the company
contravened Principle 4.7 because authenticating callers with easily obtainable
information …" has no one subject whose role an answer could swap, and an answer that
explains it in its own order is no swap."""
_VERB = re.compile(
    r"\b(?:is|are|was|were|can|could|may|might|must|should|will|would|does|do|has|have|"
    r"\w+(?:es|ed))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class VerbRoles:
    """Claims read by position, and the concepts every element shares ("data")."""

    claims: tuple[Claim, ...]
    common: frozenset[str]


@lru_cache(maxsize=4096)
def verb_roles(elements: tuple[str, ...]) -> VerbRoles | None:
    """Per element, its subject (its first concept after those every element opens with)
    and its predicate (its other concepts no other element has); None unless there are at
    least two elements, each a clause of at least :data:`CLAUSE_CONCEPTS` concepts with a subject of its own
    and a predicate (a list of items, "date of birth", is no claim)."""
    if len(elements) < 2:
        return None
    read = [_ordered_concepts(e) for e in elements]
    if any(len(r) < CLAUSE_CONCEPTS or (len(r) == CLAUSE_CONCEPTS and not _VERB.search(e))
           or len(r) > CLAIM_MAX_CONCEPTS
           for r, e in zip(read, elements, strict=True)):  # fmt: skip
        return None
    common = frozenset.intersection(*(frozenset(r[:2]) for r in read))
    subjects = [next(c for c in r if c not in common) for r in read]
    if (
        len(set(subjects)) < len(subjects)
        or any(_participle_first(e, common) for e in elements)
        or any(_verb_first(e) for e in elements)
    ):
        return None
    own = []
    for i, concepts in enumerate(read):
        others = frozenset().union(*(frozenset(r) for j, r in enumerate(read) if j != i))
        predicate = frozenset(concepts) - others - {subjects[i]}
        if not predicate:
            return None
        own.append(Claim(frozenset({subjects[i]}), predicate))
    return VerbRoles(tuple(own), common)


def _participle_first(element: str, common: frozenset[str]) -> bool:
    """Whether the element opens with a participle phrase ("combined with the post, …"):
    it does not open with its subject, so its claim cannot be read by position. A
    participle before a noun ("anonymised data") is part of the subject."""
    found = tokens(element)
    for i, token in enumerate(found):
        concepts = content_words(token)
        if concepts and not concepts <= common:
            after = found[i + 1] if i + 1 < len(found) else ""
            return token.endswith(("ed", "ing")) and after in _PREPOSITIONS
    return False


_PREPOSITIONS = word_set("with by in on to from at for into as over under")
_DETERMINERS = word_set("the a an its their his her this that these those")


def _verb_first(element: str) -> bool:
    """Whether the element opens with a verb form or a verdict, not a subject ("blurring
    the faces …", "failed to implement safeguards …", "Yes, the cake shows …"): an action,
    an item or a reason, with no party whose role an answer could swap."""
    found = [t.lower() for t in tokens(element)]
    if found and (found[0] in YES or found[0] in NO):
        return True  # "Yes, the cake shows …": a verdict and its reasons, not a claim
    while found and found[0] in _DETERMINERS:
        found.pop(0)
    if len(found) < 2 or not found[0].endswith(("ing", "ed")):
        return False
    # a participle before a noun is part of the subject ("anonymised data …")
    return found[1] in _DETERMINERS or found[1] in _PREPOSITIONS or found[1] in ("or", "and")


def _verb_bindings(read: VerbRoles, answer: str) -> tuple[float | None, ...]:
    """Per element, the share of the answer's clauses opening with its subject (after
    what all elements share) that say more of its own predicate than of another
    element's (None: no such clause)."""
    roles = read.claims
    right = [0] * len(roles)
    swapped = [0] * len(roles)
    for clause in _CLAUSE.split(_APPOSITIVE.sub(r" \1 ", fold(answer))):
        concepts = [c for c in _ordered_concepts(clause) if c not in read.common]
        opener = next(
            (i for i, r in enumerate(roles) if concepts and concepts[0] in r.subject), None
        )
        if opener is None:
            continue
        said = frozenset(concepts)
        own = len(said & roles[opener].predicate)
        other = max(
            (len(said & r.predicate - r.subject) for j, r in enumerate(roles) if j != opener),
            default=0,
        )
        if other > own:
            swapped[opener] += 1
        elif own:
            right[opener] += 1
    return tuple(r / (r + w) if r + w else None for r, w in zip(right, swapped, strict=True))


_DIRECTED = re.compile(
    r"(?<!\bnext\s)(?<!\bclose\s)(?<!\bdue\s)(?<!\baccording\s)(?<!\bup\s)(?<!\bprior\s)"
    r"(?<!\bsimilar\s)(?<!\bcompared\s)(?<!\baddition\s)(?<!\bthanks\s)(?<!\brelated\s)"
    r"(?<!\baccess\s)(?<!\brefers\s)(?<!\brefer\s)(?<!\breferring\s)(?<!\bpertaining\s)"
    r"(?<!\brelating\s)(?<!\bpoints\s)"
    r"\b(to|towards?|from)\s+(?:(?:the|a|an|his|her|their|its)\s+([\w'\-]+)"
    r"|([A-Z][\w'\-]*))"
)
"""Where something goes ("to Tom", "to the weather app") or comes from: a determiner or a
capital after the preposition ("to enter the home" is an infinitive, not a direction);
what a word refers to ("'आधार' refers to Aadhaar") goes nowhere."""
_DIRECTION = {"to": "to", "toward": "to", "towards": "to", "from": "from"}


def _mark(word: str) -> str:
    """The concept a directed word stands for (the word itself when it has none)."""
    concepts = content_words(word)
    return min(concepts) if concepts else word.lower()


def _directions(text: str, names_only: bool = False) -> dict[str, str]:
    """What a text marks as where something goes ("to Tom") or comes from ("from
    Maria"): the concept of the first word after the preposition; with ``names_only``
    only capitalised ones (a party, not "to the team")."""
    return {
        _mark(m.group(2) or m.group(3)): _DIRECTION[m.group(1).lower()]
        for m in _DIRECTED.finditer(text)
        if not names_only or (m.group(2) or m.group(3))[:1].isupper()
    }


def reverses(element: str, answer: str) -> bool:
    """Whether the answer turns the element's direction around: what the reference sends
    something *to* (or gets it *from*) — a named party ("to Tom", "to AdTrack Inc."),
    not a place or a group ("next to the pen", "to the team") — is not marked so in the
    answer, and another thing the reference names is ("Maria pays Tom" read as "Tom pays … to Maria"). The same two
    in the other voice ("Tom receives it from Maria") mark nothing the reference's way
    round, so they do not count as reversed."""
    wanted = _directions(element, names_only=True)  # "to an insulin pen" is a place
    if not wanted:
        return False
    given = _directions(answer)
    first = _DIRECTED.search(element)
    before = element[: first.start()] if first else element  # the other party: the sender
    named = content_words(before) | {_mark(w) for w in re.findall(r"[\w'\-]+", before)}
    for way in set(wanted.values()):
        ends = {t for t, w in wanted.items() if w == way}  # "to an address of Jana": one end
        if all(given.get(t) != way for t in ends) and any(
            given.get(o) == way for o in named - ends
        ):
            return True
    return False


def bindings(elements: tuple[str, ...], answer: str) -> tuple[float | None, ...]:
    """Per reference element, the share of its subjects that the answer binds to its own
    role rather than another element's (None: the answer does not bind them at all); an
    element whose direction the answer reverses (:func:`reverses`) is bound wrong."""
    out = _bindings(elements, answer)
    return tuple(0.0 if reverses(e, answer) else b for e, b in zip(elements, out, strict=True))


def _bindings(elements: tuple[str, ...], answer: str) -> tuple[float | None, ...]:
    roles = reference_roles(elements)
    if roles is None:
        by_verb = verb_roles(elements)
        if by_verb is None:
            return tuple(None for _ in elements)
        return _verb_bindings(by_verb, answer)
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
