"""Named privacy techniques, principles and rights: the *terms* an answer must get right.

PET, Law and Know references usually name one term ("differential privacy", "data
minimisation", "the right to erasure") and then explain it. The paper's judge gives a
full score to an answer that names the right term and explains it in its own words, and
next to nothing to one that names a *different* term of the same kind ("purpose
limitation" for data minimisation, "homomorphic encryption" for differential privacy).
Word overlap cannot tell these apart: both answers share "data", "privacy", "principle".
So terms are recognised by their usual spellings and compared as units:

* the reference's term present in the answer → the term is covered;
* a broader term of the same family ("anonymisation" for k-anonymity, "encryption" for
  homomorphic encryption) → half covered, never a contradiction;
* only another term of the same kind → a contradiction (the answer names the wrong
  technique, principle or right).

The table lists widely used names only; it is general knowledge, not taken from graded
answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from privbench.judges.offline.text import fold


@dataclass(frozen=True)
class Term:
    """A privacy term: its name, kind (technique, or law: principle or right) and family."""

    name: str
    kind: str
    pattern: re.Pattern[str]
    parent: str | None = None


def _term(name: str, kind: str, pattern: str, parent: str | None = None) -> Term:
    return Term(name, kind, re.compile(pattern), parent)


TERMS: tuple[Term, ...] = (
    # techniques (PET)
    _term("anonymisation", "technique",
          r"\b(anonymi[sz](ation|ed|e|ing)|anonymity|anonymous|de-?identif(ication|ied|y))\b"),
    _term("encryption", "technique", r"\b(encrypt(ion|ed|s|ing)?|cipher(text)?)\b"),
    _term("differential privacy", "technique",
          r"\bdifferential(ly)?[\s-]+priva(cy|te)\b|\b(ε|epsilon)[\s-]*(dp|differential)"),
    _term("k-anonymity", "technique", r"\b(k|\d+)[\s-]*anonym(ity|ous)\b",
          parent="anonymisation"),
    _term("l-diversity", "technique", r"\b(l|\d+)[\s-]*divers(ity|e)\b", parent="anonymisation"),
    _term("t-closeness", "technique", r"\bt[\s-]*closeness\b", parent="anonymisation"),
    _term("generalisation", "technique",
          r"\bgenerali[sz](ation|ed|ing|e)\b", parent="anonymisation"),
    _term("suppression", "technique", r"\bsuppress(ion|ed|ing)?\b", parent="anonymisation"),
    _term("pseudonymisation", "technique", r"\bpseudonym(i[sz](ation|ed|e)|s|ous)?\b"),
    _term("homomorphic encryption", "technique", r"\bhomomorphic(ally)?\b", parent="encryption"),
    _term("federated learning", "technique", r"\bfederated\b"),
    _term("secure multi-party computation", "technique",
          r"\b(secure\s+)?multi[\s-]*party\s+computation\b|\bs?mpc\b|\bsecret[\s-]+sharing\b"),
    _term("synthetic data", "technique", r"\bsynthetic\s+(data|records|dataset)\b"),
    _term("tokenisation", "technique", r"\btokeni[sz](ation|ed)\b"),
    _term("hashing", "technique", r"\bhash(ing|ed|es)?\b"),
    _term("masking", "technique", r"\b(data\s+)?mask(ing|ed)\b|\bredact(ion|ed)\b"),
    _term("trusted execution environment", "technique",
          r"\btrusted\s+execution\b|\b(secure\s+)?enclaves?\b|\btee\b"),
    _term("zero-knowledge proof", "technique", r"\bzero[\s-]*knowledge\b"),
    # GDPR principles (Art. 5) and similar
    _term("data minimisation", "law", r"\bminimi[sz]ation\b|\bminimi[sz]e\s+(the\s+)?(personal\s+)?data\b"),
    _term("purpose limitation", "law", r"\bpurpose\s+limitation\b"),
    _term("storage limitation", "law", r"\bstorage\s+limitation\b|\bretention\s+(limit|period)"),
    _term("transparency", "law", r"\btransparency\b"),
    _term("accuracy", "law", r"\baccuracy\s+principle\b|\bprinciple\s+of\s+accuracy\b"),
    _term("integrity and confidentiality", "law",
          r"\bintegrity\s+and\s+confidentiality\b|\bsecurity\s+of\s+processing\b"),
    _term("accountability", "law", r"\baccountability\b"),
    # data-subject rights and duties
    _term("right to erasure", "law",
          r"\b(right\s+(to|of)\s+)?erasure\b|\bright\s+to\s+be\s+forgotten\b"
          r"|\bright\s+to\s+(delete|deletion|have\s+\w+\s+data\s+deleted)"),
    _term("right to opt out", "law", r"\bopt(s|ed|ing)?[\s-]*out\b|\bdo\s+not\s+sell\b"),
    _term("right of access", "law",
          r"\bright\s+(of|to)\s+access\b|\b(data\s+)?subject\s+access\s+request\b"),
    _term("right to rectification", "law", r"\brectification\b|\bright\s+to\s+rectif"),
    _term("right to data portability", "law", r"\bportability\b"),
    _term("right to object", "law", r"\bright\s+to\s+object\b"),
    _term("breach notification", "law",
          r"\bbreach\s+notification\b|\bnotif(y|ied|ication)\b[^.]{0,40}\b(authority|regulator|72)"),
)  # fmt: skip

_BY_NAME = {t.name: t for t in TERMS}
FAMILY_CREDIT = 0.35
"""Coverage of a term by its broader family's name."""
SIBLING_CREDIT = 0.15
"""Coverage of a term by another member of its family (l-diversity for k-anonymity)."""


@lru_cache(maxsize=8192)
def terms_in(text: str) -> frozenset[str]:
    """Names of the terms a text mentions; a family's name is dropped when one of its
    members is there ("k-anonymity" is not also "anonymisation")."""
    folded = fold(text)
    found = [t for t in TERMS if t.pattern.search(folded)]
    parents = {t.parent for t in found if t.parent}
    return frozenset(t.name for t in found if t.name not in parents)


def kind(name: str) -> str:
    """The kind of a term: technique or law (principles and rights compete)."""
    return _BY_NAME[name].kind


def is_law(names: frozenset[str]) -> bool:
    """Whether the terms are principles or rights of a law (cited by article numbers)."""
    return any(kind(n) == "law" for n in names)


def covers(wanted: str, given: frozenset[str]) -> float:
    """How far the answer's terms cover one reference term: 1; a third for its family's
    name ("anonymisation" for k-anonymity: right direction, not the answer); a little for
    a sibling (l-diversity); else 0."""
    if wanted in given:
        return 1.0
    parent = _BY_NAME[wanted].parent
    if parent is None:
        return 0.0
    if parent in given:
        return FAMILY_CREDIT
    return SIBLING_CREDIT if any(_BY_NAME[g].parent == parent for g in given) else 0.0


def conflicts(wanted: frozenset[str], given: frozenset[str]) -> bool:
    """Whether the answer names other terms of the reference terms' kind instead of them.

    A broader or narrower term of the same family is no conflict (it is partly right).
    """
    if not wanted or any(covers(w, given) for w in wanted):
        return False
    family = {w for w in wanted} | {p for w in wanted if (p := _BY_NAME[w].parent)}
    kinds = {kind(w) for w in wanted}
    return any(
        kind(g) in kinds and g not in family and _BY_NAME[g].parent not in family for g in given
    )


def rivals(wanted: frozenset[str], given: frozenset[str]) -> bool:
    """Whether the answer also names another term of the reference terms' kind, outside
    their family ("probably homomorphic encryption, although secure multi-party
    computation could also do it"): it has not settled on the right one."""
    family = set(wanted) | {p for w in wanted if (p := _BY_NAME[w].parent)}
    kinds = {kind(w) for w in wanted}
    return any(
        kind(g) in kinds and g not in family and _BY_NAME[g].parent not in family for g in given
    )
