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
  technique, attack, principle, right or law).

Laws (GDPR, HIPAA, …) are mostly the setting a reference names, not what it asks for:
they count toward an element only when the element is the law itself ("HIPAA (the
Privacy Rule)"), but naming another law instead of the reference's is always wrong.

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


def _pipeda_principle(name: str, number: int, spelled: str, heading: str) -> Term:
    """A PIPEDA fair information principle: by its usual wording (``spelled``), by its
    number ("Principle 4.3", "principle 3"), or by its short name next to its number in
    either order ("Consent (4.3)", "4.7 Safeguards")."""
    cited = rf"4\.{number}(?![\d.])"
    return _term(
        name,
        "law",
        rf"\b(?:{spelled})\b|\bprinciple\s+(4\.)?{number}(?![\d.])"
        rf"|\b(?:{heading})\s*(?:[-–—:(]\s*)?(?:principle\s+)?{cited}"
        rf"|(?<![\d.]){cited}\s*(?:[-–—:)]\s*)?\(?(?:{heading})\b",
    )


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
    _term("private set intersection", "technique", r"\bprivate\s+set\s+intersection\b|\bpsi\b",
          parent="secure multi-party computation"),
    _term("synthetic data", "technique", r"\bsynthetic\s+(data|records|dataset)\b"),
    _term("tokenisation", "technique", r"\btokeni[sz](ation|ed)\b"),
    _term("hashing", "technique", r"\bhash(ing|ed|es)?\b"),
    _term("masking", "technique", r"\b(data\s+)?mask(ing|ed)\b|\bredact(ion|ed)\b"),
    _term("trusted execution environment", "technique",
          r"\btrusted\s+execution\b|\b(secure\s+)?enclaves?\b|\btee\b"),
    _term("zero-knowledge proof", "technique", r"\bzero[\s-]*knowledge\b"),
    _term("split learning", "technique", r"\bsplit[\s-]+learning\b"),
    _term("end-to-end encryption", "technique", r"\bend[\s-]+to[\s-]+end\b|\be2ee\b",
          parent="encryption"),
    _term("onion routing", "technique", r"\bonion\b|\btor\b"),
    _term("multi-factor authentication", "technique",
          r"\b(two|multi|2)[\s-]*(factor|step)\s+(authentication|verification)\b|\b[2m]fa\b"),
    # attacks (PrivRisk): what an adversary does with released data or a model
    _term("linkage attack", "attack",
          r"\blinkage\b|\blinking\s+attacks?\b|\bre-?identification\s+attacks?\b"
          r"|\bde-?anonymi[sz]ation\s+attacks?\b|\bvinculaci[oó]n\b|\breidentifica(ci[oó]n|ção)\b"
          r"|\bverknüpfungsangriff|\breidentifizierung"),
    _term("membership inference", "attack",
          r"\bmembership[\s-]+inference\b|\binferencia\s+de\s+(pertenencia|membres[ií]a)\b"
          r"|\binférence\s+d'appartenance\b|\bmitgliedschaftsinferenz"),
    _term("model inversion", "attack", r"\b(model[\s-]+)?inversion\s+attacks?\b|\bmodel\s+inversion\b"),
    _term("attribute inference", "attack", r"\battribute[\s-]+inference\b"),
    _term("model extraction", "attack", r"\bmodel[\s-]+(extraction|stealing)\b"),
    _term("homogeneity attack", "attack", r"\bhomogeneity\b"),
    _term("background knowledge attack", "attack", r"\bbackground[\s-]+knowledge\b"),
    _term("reconstruction attack", "attack", r"\breconstruction\s+attacks?\b"),
    _term("data poisoning", "attack", r"\bpoisoning\b"),
    _term("phishing", "attack", r"\b(spear[\s-]*)?phish(ing|ed)?\b|\bsmishing\b|\bvishing\b"),
    _term("skimming", "attack", r"\bskim(ming|mer|mers|med)\b"),
    _term("shoulder surfing", "attack", r"\bshoulder[\s-]+surf(ing|er)?\b"),
    _term("doxxing", "attack", r"\bdox(x)?(ing|ed)?\b"),
    _term("credential stuffing", "attack", r"\bcredential[\s-]+stuffing\b"),
    _term("brute-force attack", "attack", r"\bbrute[\s-]*forc(e|ing)\b|\bdictionary\s+attacks?\b"),
    # laws and regulations: naming another regime is naming the wrong law
    _term("GDPR", "regime",
          r"\bgdpr\b|\brgpd\b|\bdsgvo\b|\bgeneral\s+data\s+protection\s+regulation\b"
          r"|\b2016/679\b"),
    _term("HIPAA", "regime", r"\bhipaa\b|\bhealth\s+insurance\s+portability\b"),
    _term("CCPA", "regime",
          r"\bccpa\b|\bcpra\b|\bcalifornia\s+(consumer\s+)?privacy\s+(rights\s+)?act\b"),
    _term("FERPA", "regime", r"\bferpa\b|\bfamily\s+educational\s+rights\b"),
    _term("COPPA", "regime", r"\bcoppa\b|\bchildren'?s\s+online\s+privacy\s+protection\b"),
    _term("PIPEDA", "regime", r"\bpipeda\b"),
    _term("PIPL", "regime", r"\bpipl\b|\bpersonal\s+information\s+protection\s+law\b|个人信息保护法"),
    _term("LGPD", "regime", r"\blgpd\b|\blei\s+geral\s+de\s+prote"),
    _term("APPI", "regime", r"\bappi\b|\bact\s+on\s+the\s+protection\s+of\s+personal\s+information\b"),
    _term("BIPA", "regime", r"\bbipa\b|\bbiometric\s+information\s+privacy\s+act\b"),
    _term("GLBA", "regime", r"\bglba\b|\bgramm[\s-]+leach"),
    _term("ePrivacy", "regime", r"\be-?privacy\s+directive\b"),
    _term("DPDP Act", "regime", r"\bdpdp\b|\bdigital\s+personal\s+data\s+protection\s+act\b"),
    # GDPR principles (Art. 5) and similar
    _term("data minimisation", "law", r"\bminimi[sz]ation\b|\bminimi[sz]e\s+(the\s+)?(personal\s+)?data\b"),
    _term("purpose limitation", "law", r"\bpurpose\s+limitation\b"),
    _term("storage limitation", "law", r"\bstorage\s+limitation\b|\bretention\s+(limit|period)"),
    _term("transparency", "law", r"\btransparency\b"),
    _pipeda_principle("accuracy", 6, r"accuracy\s+principle|principle\s+of\s+accuracy", r"accuracy"),
    _term("integrity and confidentiality", "law",
          r"\bintegrity\s+and\s+confidentiality\b|\bsecurity\s+of\s+processing\b"),
    # PIPEDA's fair information principles (Schedule 1, numbered 4.1-4.10 or 1-10); the
    # OPC's case studies cite them by name, by number, or both ("Consent (4.3)")
    _pipeda_principle("accountability", 1, r"accountability", r"accountability"),
    _pipeda_principle("identifying purposes", 2, r"identif(y|ying|ied)\s+(the\s+)?purposes?",
                      r"identifying\s+purposes"),
    _pipeda_principle("consent principle", 3, r"consent\s+principle|principle\s+of\s+consent",
                      r"consent"),
    _pipeda_principle("limiting collection", 4, r"limit(ing|ed|s)?\s+(the\s+)?collection",
                      r"limiting\s+collection"),
    _pipeda_principle("limiting use, disclosure and retention", 5,
                      r"limit(ing|ed|s)?\s+(the\s+)?(use|disclosure|retention)", r"limiting\s+use"),
    _pipeda_principle("safeguards", 7, r"safeguards?\s+principle", r"safeguards?"),
    _pipeda_principle("openness", 8, r"openness", r"openness"),
    _pipeda_principle("individual access", 9, r"individual\s+access", r"individual\s+access"),
    _pipeda_principle("challenging compliance", 10, r"challeng(e|ing)\s+compliance",
                      r"challenging\s+compliance"),
    # data-subject rights and duties
    _term("right to erasure", "law",
          r"\b(right\s+(to|of)\s+)?erasure\b|\bright\s+to\s+be\s+forgotten\b"
          r"|\bright\s+to\s+(delete|deletion|have\s+\w+\s+data\s+deleted)"
          r"|\bsupresi[oó]n\b|\bderecho\s+al\s+olvido\b|\beffacement\b|\bdroit\s+à\s+l'oubli\b"
          r"|\bl[oö]schung\b|\bvergessenwerden\b|\bapagamento\b|\bcancellazione\b|\boblio\b"
          r"|\bправо\s+на\s+(удаление|забвение)|删除权|被遗忘权"),
    _term("right to opt out", "law", r"\bopt(s|ed|ing)?[\s-]*out\b|\bdo\s+not\s+sell\b"),
    _term("right of access", "law",
          r"\bright\s+(of|to)\s+access\b|\b(data\s+)?subject\s+access\s+request\b"
          r"|\bderecho\s+(de|al)\s+acceso\b|\bdroit\s+d'accès\b|\bauskunft(srecht)?\b"
          r"|\bdireito\s+de\s+acesso\b|\bdiritto\s+di\s+accesso\b|\bправо\s+на\s+доступ|查阅权|访问权"),
    _term("right to rectification", "law",
          r"\brectifica(tion|ci[oó]n)\b|\bright\s+to\s+rectif|\bberichtigung\b|\bretifica[cç][aã]o\b"
          r"|\brettifica\b|更正权"),
    _term("right to data portability", "law",
          r"\bportab(ility|ilidad|ilité|ilidade|ilità)\b|\bübertragbarkeit\b|可携(带)?权"),
    _term("right to object", "law",
          r"\bright\s+to\s+object\b|\bderecho\s+de\s+oposici[oó]n\b|\bdroit\s+d'opposition\b"
          r"|\bwiderspruchsrecht\b|\brecht\s+auf\s+widerspruch\b|\bdireito\s+de\s+oposi"),
    _term("breach notification", "law",
          r"\bbreach\s+notification\b|\bnotif(y|ied|ication)\b[^.]{0,40}\b(authority|regulator|72)"),
)  # fmt: skip

_BY_NAME = {t.name: t for t in TERMS} | {
    "another attack": Term("another attack", "attack", re.compile(r"(?!x)x"))
}
FAMILY_CREDIT = 0.35
"""Coverage of a term by its broader family's name."""
SIBLING_CREDIT = 0.15
"""Coverage of a term by another member of its family (l-diversity for k-anonymity)."""


@lru_cache(maxsize=8192)
def terms_in(text: str) -> frozenset[str]:
    """Names of the terms a text mentions; a family's name is dropped when one of its
    members is there ("k-anonymity" is not also "anonymisation"); an attack the table
    does not know ("a hacking attack", "a differential attack") is :data:`OTHER_ATTACK`."""
    folded = fold(text)
    found = [t for t in TERMS if t.pattern.search(folded)]
    parents = {t.parent for t in found if t.parent}
    names = {t.name for t in found if t.name not in parents}
    if _unknown_attack(folded):
        names.add(OTHER_ATTACK)
    return frozenset(names)


def reference_terms_in(text: str) -> frozenset[str]:
    """The terms a reference names: an attack the table does not know is no term an
    answer must repeat (any other unknown attack would meet it)."""
    return terms_in(text) - {OTHER_ATTACK}


OTHER_ATTACK = "another attack"
_NAMED_ATTACK = re.compile(r"\b([^\W\d_][\w-]*)[\s-]+attacks?\b")
_GENERIC_ATTACK = frozenset(
    ["a", "an", "the", "this", "that", "such", "same", "any", "each", "privacy", "inference", "possible", "potential", "common", "known", "real", "successful", "targeted", "cyber", "security", "data", "type", "kind", "of", "or", "and", "which", "what", "serious", "simple", "typical", "classic", "sophisticated", "main", "primary", "specific", "these", "those", "their", "its", "his", "her", "our", "your", "one", "some", "many", "other", "similar", "most", "all", "both", "several", "various", "such", "further", "future", "new", "no"]
)  # fmt: skip
"""Words before "attack" that name no attack ("this attack", "a privacy attack")."""
_ATTACKS = tuple(t for t in TERMS if t.kind == "attack")


def _unknown_attack(folded: str) -> bool:
    """Whether the text names an attack ("X attack") that is none of the known ones."""
    for match in _NAMED_ATTACK.finditer(folded):
        if match.group(1) in _GENERIC_ATTACK:
            continue
        around = folded[max(0, match.start() - 40) : match.end()]
        if not any(t.pattern.search(around) for t in _ATTACKS):
            return True
    return False


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


def _clauses(text: str) -> list[str]:
    """A text's sentences, lines and semicolon clauses, folded: where two terms named
    together are weighed against each other."""
    return re.split(r"(?<=[.!?;])\s+|\n+", fold(text))


_HEDGE = re.compile(r"\b(?:or|either|maybe|perhaps|possibly|whether|not\s+sure)\b|/")
"""Words that leave a choice between two named terms open."""
_ASIDE = re.compile(r"\b(?:although|though|alternatively|(?:could|might|may)\s+also)\b")
"""Words that settle on one term and concede another ("probably X, although Y could
also do it")."""


def rivals(
    wanted: frozenset[str], given: frozenset[str], answer: str = "", hedge: re.Pattern[str] = _HEDGE
) -> bool:
    """Whether the answer hedges between a reference term and another term of its kind,
    outside its family ("either a model inversion or a membership inference attack",
    "maybe data masking or differential privacy"): it has not settled on the right one.

    Only a sentence that names both with a hedge word counts: "onion routing: three
    layers of encryption" explains the right term with another, it does not doubt it.
    """
    family = set(wanted) | {p for w in wanted if (p := _BY_NAME[w].parent)}
    kinds = {kind(w) for w in wanted}
    others = [
        g
        for g in given
        if kind(g) in kinds and g not in family and _BY_NAME[g].parent not in family
    ]
    if not others:
        return False
    for sentence in _clauses(answer):
        if not hedge.search(sentence):
            continue
        named = terms_in(sentence)
        if named & family and any(g in named for g in others):
            return True
    return False


LISTED_OPTIONS = 2
"""Other terms of its kind listed beside the reference's one term that make the list a set
of options rather than an answer."""


def listed_as_options(
    wanted: frozenset[str], given: frozenset[str], items: tuple[str, ...]
) -> bool:
    """Whether a list names the reference's term as one item among several of its kind,
    after another ("Right of access (Art. 15); Right to rectification (Art. 16); Right to
    erasure …" to "which right?"): it offers options instead of settling on one; a list
    that leads with the right term settles on it. ``wanted`` is the reference's one term
    of its kind, ``given`` the answer's terms the reference does not name."""
    family = set(wanted) | {p for w in wanted if (p := _BY_NAME[w].parent)}
    kinds = {kind(w) for w in wanted}
    named = [n for n in map(terms_in, items) if {kind(t) for t in n} & kinds]
    if not any(n & family for n in named) or named[0] & family:
        return False  # a list led by the right term settles on it ("Article 17: …; see also …")
    others = {
        g
        for n in named
        if not n & family
        for g in n & given
        if kind(g) in kinds and _BY_NAME[g].parent not in family
    }
    return len(others) >= LISTED_OPTIONS


_SAME = re.compile(
    r"\b(?:are|is)\s+(?:basically\s+|essentially\s+|just\s+|really\s+)?(?:the\s+same|identical|"
    r"equivalent|interchangeable|synonyms?)\b|\bno\s+(?:real\s+)?difference\b|\bsame\s+thing\b"
)


def equates(contrasted: frozenset[str], answer: str) -> bool:
    """Whether the answer calls two terms the reference tells apart the same thing
    ("anonymisation and pseudonymisation are the same"): the point of the question
    denied. ``contrasted`` are the reference's terms of one kind."""
    if len(contrasted) < 2:
        return False
    for sentence in _clauses(answer):
        if _SAME.search(sentence) and len(terms_in(sentence) & contrasted) >= 2:
            return True
    return False


def concedes(wanted: frozenset[str], given: frozenset[str], answer: str) -> bool:
    """Whether the answer names the reference's term but concedes another of its kind in
    the same sentence ("probably homomorphic encryption, although secure multi-party
    computation could also achieve this"): settled, with a doubt."""
    return rivals(wanted, given, answer, _ASIDE)


def regimes(names: frozenset[str]) -> frozenset[str]:
    """The laws among the terms (GDPR, HIPAA, …)."""
    return frozenset(n for n in names if kind(n) == "regime")
