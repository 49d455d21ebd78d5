"""The grade: polarity, then coverage of the reference's elements, then what costs credit.

Priv-IQ Table 2 is the rubric: "Yes." earns 0.3 against a "Yes, …" reference, each
further element of the reference the answer states raises the score toward 1.0, and the
wrong polarity is 0.0. ``<OR>`` alternatives: the best one counts; ``<AND>`` elements:
each counts. The score is ``base + (1 − base) × coverage`` on the 0.1 grid, where

* ``base`` is what the polarity alone is worth (0.3 for "Yes"; for "No", 0.7 when the
  reference only says nothing is there — and 1.0 with any reason of the answer's own —,
  0.4 when the reference's reason is the point);
* ``coverage`` is the best alternative's mean element coverage, an answer with 85 % of
  it counting as complete (references spell out more than a full answer needs);

then each *wrong* item costs credit: a list item the reference does not have 0.1, an
extra named entity or an invented value (a phone number the reference, which gives the
document's values, does not have) 0.2 (0.2 at most for extras), a wrong fact in place of
a missing one (another number, another person, a wrong count, another article beside the
right right, subjects bound to another element's role) 0.2;
and an answer that has none of the reference's names and numbers but others instead, or
picks another choice, is halved. An answer that leaves a yes/no question open ("it
depends on …", "a grey area") states no polarity and keeps half its coverage.

An element's coverage mixes what it has of key facts (numbers, identifiers, names:
exact), terms (techniques, principles, rights: as units) and concepts (content words,
paraphrases merged). A long explanation need not repeat every concept of the reference:
about 40 % of them after the first make it complete, as a reader would judge; a short
phrase ("verifiable parental consent") needs all its concepts but half of one; concepts
that several elements share ("card" in "card number" and "payment card"), and those
nearly every answer has ("someone", "a person"), say less and count half. Two ways of
saying the same thing count alike: a provision's article number or its name ("Article 15"
for "the right of access (Article 15 GDPR)"), a value or its kind with the value ("the
phone number +49 …"); the kind without the value ("a phone number") is part of it.

The question (rules v4): the paper's judge sees it, and a reference restates its topic.
Concepts the question already has count half, its terms and names count only where an
element has nothing else, an answer that merely restates the question has said nothing,
and the alternatives a question offers ("the hospital or the cloud provider?") are what
the answer must pick (see :class:`Topic`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from privbench.judges.offline import comparisons, lists, roles, terms
from privbench.judges.offline.facts import (
    CITATION,
    CITED_NUMBER,
    NUMBER_WORDS,
    Facts,
    abbreviated,
    count_in,
    digits,
    facts,
    full_name_given,
    in_other_units,
    name_in,
    name_spans,
    same_phone_number,
)
from privbench.judges.offline.polarity import denies, is_absence, polarity
from privbench.judges.offline.steering import clean, refuses
from privbench.judges.offline.text import content_words, fold, sentences, unescape_markdown

GRID = 10
NEARLY_COMPLETE = 0.85
"""Coverage at which an answer counts as complete."""
CONCEPTS_NEEDED = 0.4
"""Share of a reference element's concepts beyond the first that complete it."""
VERBOSE_NEEDED, VERBOSE_RATIO = 0.3, 2.0
"""Share of an element's concepts beyond the first that complete it when the answer has
at least twice the reference's concepts: a long explanation in its own words shares fewer
of the reference's words than a short one for the same content."""
SHORT_NEEDS = 1.0
"""Concepts a short element needs at least (all of them when it has fewer)."""
SHORT_PHRASE, SHORT_SLACK = 3.0, 0.5
"""An element of at most this many concepts is a phrase ("verifiable parental consent"),
not an explanation: an answer needs all of them but half a concept to complete it."""
LONE_CONCEPT = 0.7
"""Weight of a single shared concept of an element longer than a phrase: one word in
common with a long explanation is as likely chance as a match."""
WEAK_CONCEPTS = frozenset({"person", "attack"})
"""Concepts nearly every answer mentions ("someone could …", "an attack"): they count half."""
KEY_WEIGHT, TERM_WEIGHT, WORD_WEIGHT = 0.5, 0.5, 0.5
"""Shares of an element's key facts, terms and concepts when it has them."""
RIVAL_TERMS = 0.6
"""Term coverage kept when the answer also names a rival term (hedges between them)."""
HEDGED_KEEPS = 0.45
"""Coverage of an element whose term the answer leaves open between two ("either a model
inversion or a membership inference attack"): about half, as the paper's judge grades
half an answer."""
CONCEDED_KEEPS = 0.7
"""Coverage of an element whose term the answer settles on while conceding another
("probably X, although Y could also do it"): about 0.8 as a grade."""
PARAPHRASE = 0.9
"""Coverage of a term's explanation without its name, relative to its concepts."""
TYPE_WEIGHT = 0.4
"""Share of a typed entity ("Lagos (location)") that its type carries."""
YES_BASE = 0.3
"""Table 2: "Yes." against a "Yes, …" reference."""
NO_BASE_ABSENCE = 0.7
"""A bare "No." when the reference only says that nothing sensitive is there."""
NO_BASE_REASON = 0.4
"""A bare "No." when the reference's reason is the point of the answer."""
NO_WITH_REASON, REASON_MEETS, REASON_CONCEPTS = 0.9, 0.2, 3
"""A "No" with a reason of its own (at least this many concepts the question has not)
that meets the reference's reason in part (this much coverage): the paper's judge reads
the right polarity with a sound reason as (nearly) full — the reference's particular
words are not required (issue 11, kind 1)."""
EXTRA_ITEM, EXTRA_ENTITY, MAX_EXTRA_COST = 0.1, 0.2, 0.2
"""Cost of a list item the reference does not have (a named entity costs more: it is a
claim about the image), and the most that extra items cost together."""
WRONG_FACT, MAX_WRONG_FACTS = 0.2, 2
"""Cost of a wrong fact stated in place of a missing one, and how many count."""
WRONG_VALUE_KEEPS = 0.2
"""Coverage kept by an element whose numbers the answer all gives otherwise: the words
around a number ("of the total worldwide annual turnover") restate the question; the
number was the answer."""
OTHERS_BELOW = 0.4
"""Coverage below which other names and numbers than the reference's halve the score
(a long answer that covers the reference may name other things in passing)."""
DENIAL_KEEPS = 0.8
"""Coverage above which an answer that seems to deny is read as agreeing after all."""
UNSURE = 0.5
DECLINED_BELOW = 0.6
"""Coverage below which an answer that opens by declining ("I can't read the whiteboard
with complete confidence, but …") answers nothing; above it, it answers with a doubt."""
"""Coverage kept by an answer that says it cannot tell and guesses."""
ASIDE_NAMES = 0.5
"""Share of a citation's parenthesised name ("Principle 4.3 (Consent)") that stands for
the citation itself: the name and the number are two ways to say the same provision."""
LONG_VALUE = 5
"""Digits from which a number is a value read off a document (phone, IBAN), not a count."""
KIND_ONLY = 0.6
"""Coverage of an element whose kind the answer names without its value ("the letter
shows a name, an address and a tax number"): Table 2's "a bank card with sensitive/
identifying information" is worth 0.7 of 1.0 against a reference that lists them."""
TERM_ALONE = 0.6
"""Coverage of the right technique, principle or right named without the explanation the
reference adds (about 0.7 as a grade: Table 2's "Yes, Doug can be identified.")."""
HEAD_ARTICLE = 0.45
"""Credit of "Article 5" for "Article 5(1)(c)": the right article, not its paragraph."""
ECHO_SHARE, ECHO_LEAST, ECHO_NEW = 0.5, 3, 0
"""Share of the question's concepts (and how many at least) an answer repeats, and how many
of its own it adds at most, to be a restatement; fewer repeated name a thing the question
offers ("An opt-out right.")."""
TOPIC_WEIGHT = 0.5
"""Weight of a reference concept that only repeats the question's topic."""
CHOICE_COVERAGE = 0.75
OFFERED_COVERAGE = 0.6
"""Coverage of picking the reference's side of a choice the question offers ("the hospital
or the cloud provider?") without the reason: about 0.7 as a grade, like Table 2's "Yes,
Doug can be identified." """
"""Coverage of naming the reference's choice letter ("Option C") without its text."""

_BIO_PAIR = re.compile(r"(\S+)/([BIO](?:-[A-Z]+)?)\b")
_AFFIRMS = re.compile(
    r"\b(sensitive|personal|private|identif\w*|could\s+be\s+used|privacy\s+(risk|concern)|"
    r"exposes?|reveals?|visible|legible|readable)\b"
)
_GENERIC_REASON = frozenset(
    {"nothing", "private", "anything", "identify", "concern", "issue", "problem", "seem",
     "detail", "content", "element", "obviously", "clearly", "really", "at", "much",
     "everything", "fine", "safe", "harmless", "nope", "think", "believe"}
)  # fmt: skip
_UNSURE = re.compile(
    r"\b(hard|difficult|impossible)\s+to\s+(say|tell|determine|be\s+sure)|\b(can't|cannot|can\s+not)"
    r"\s+be\s+(sure|certain)|\bnot\s+(entirely\s+|completely\s+)?(sure|certain)\b|"
    r"\b(would|might|may|could)\s+(typically|usually|normally|generally)\b|"
    r"\b(typically|usually|normally)\s+(include|includes|contain|contains|show|shows|have|has)\b"
)
_NONCOMMITTAL = re.compile(
    r"\bi\s+(?:can't|cannot|can\s+not|am\s+unable\s+to|couldn't|could\s+not)\s+"
    r"(?:confirm|verify|be\s+sure|tell\s+(?:for\s+sure|whether|if))\b"
    r"|\bmay\s+or\s+may\s+not\b|\bit\s+depends\b|\bunclear\s+(?:whether|if)\b"
)
"""An answer that disclaims what it says ("though I can't confirm it here")."""
_OPEN_QUESTION = re.compile(
    r"\bdepend(?:s|ing)?\s+on\b|\bnuanced\b|\bgr[ae]y\s+area\b|\bcase[\s-]+by[\s-]+case\b"
    r"|\b(?:can't|cannot|can\s+not)\s+say\s+for\s+(?:certain|sure)\b"
    r"|\b(?:appropriate|acceptable|allowed|risky|a\s+risk)\s+or\s+not\b"
)
"""A yes/no question left open ("it depends on school policy", "a grey area"): said by an
answer that states no polarity, it does not answer the question."""
_NORMATIVE = re.compile(
    r"\b(?:appropriate|acceptable|allowed|permitted|permissible|lawful|legal|okay|ok|"
    r"justified|reasonable|ethical|fair)\b"
)
"""A question that asks for a verdict on a flow or a use ("Is it appropriate …?"): its
right answer is a polarity and a reason, as a "No" with a sound reason of its own."""
_ASKS_FOR_RISK = re.compile(
    r"\b(?:risk\w*|sensitive|private|identif\w*|reveal\w*|expos\w*|safe\w*|concern\w*|"
    r"problem\w*|issue\w*|harm\w*|danger\w*|leak\w*|personal)\b"
)
"""A question about what is sensitive or risky: there, "There is no risk" answers it (and
is wrong when the reference names one); elsewhere a negation near "concern" ("they don't
act on that concern") is no denial."""
_CHOICE_REFERENCE = re.compile(r"^\s*\(?([A-H])[.)]\s")
_CHOICE_ANSWER = re.compile(
    r"^\W*\(?([A-H])(?:[.):]|\s*$|\s+[-–—])"
    r"|\b(?i:option|choice|answer(?:\s+is)?|is|select|pick|choose)\s*[:(]?\s*\(?([A-H])\)?(?![\w'])"
)


@dataclass(frozen=True)
class Element:
    """One ``<AND>`` element of a reference alternative, read once."""

    text: str
    facts: Facts
    optional: Facts
    terms: frozenset[str]
    count: str | None
    typed: tuple[str, str] | None
    cited: bool = False
    """Whether the element cites a provision by number ("Article 9 GDPR: …")."""
    head_terms: frozenset[str] = frozenset()
    """Terms of the element's heading ("Secure multi-party computation: the parties …"):
    the technique the reference names as its answer; the terms of the explanation after
    the colon ("encrypted shares") explain it."""
    label: frozenset[str] = frozenset()
    """Concepts of what the element's value is ("phone number" of "the phone number
    +49 …"): an answer that names the kind but not the value has part of the element."""


def _outer_parentheses(text: str) -> tuple[str, str]:
    """The text without its top-level parenthesised asides, and the asides."""
    main, inside, depth = [], [], 0
    for char in text:
        if char == "(":
            depth += 1
            if depth == 1:
                main.append(" ")
                continue
        elif char == ")" and depth:
            depth -= 1
            if depth == 0:
                inside.append(" ")
                continue
        (inside if depth else main).append(char)
    return "".join(main), "".join(inside)


def _element(text: str) -> Element:
    typed = lists.typed_entity(text)
    bare = re.fullmatch(r"\W*(\d+|[a-z]+)\W*", fold(text))
    count = None
    if bare and (bare.group(1).isdigit() or bare.group(1) in NUMBER_WORDS):
        count = NUMBER_WORDS.get(bare.group(1), bare.group(1))
    if typed:
        name_facts = facts(typed[0])
        every = frozenset(w.lower() for w in re.findall(r"[\w'\-]+", typed[0]))
        wanted = Facts(name_facts.numbers, name_facts.names | every, frozenset(), frozenset())
        return Element(text, wanted, facts(""), frozenset(), None, typed)
    protected = CITATION.sub(lambda m: m.group(0).replace("(", "⁽").replace(")", "⁾"), text)
    main, inside = _outer_parentheses(protected)
    main, inside = (
        main.replace("⁽", "(").replace("⁾", ")"),
        inside.replace("⁽", "(").replace("⁾", ")"),
    )
    found = facts(main)
    cited = bool(found.numbers) and bool(CITED_NUMBER.search(fold(main)))
    heading = re.match(r"\s*([^:]{2,60}):\s", main)
    head_terms = terms.reference_terms_in(heading.group(1)) if heading else frozenset()
    return Element(
        text,
        found,
        facts(inside),
        terms.reference_terms_in(text),
        count,
        None,
        cited,
        head_terms,
        _label(main, found),
    )


_CITED = frozenset({"article", "section", "recital", "chapter", "clause", "paragraph",
                    "principle", "rule"})  # fmt: skip


def _label(text: str, found: Facts) -> frozenset[str]:
    """Concepts of the (at most three) words just before an element's first value."""
    folded = fold(text)
    starts = [m.start() for m in re.finditer(r"\d", folded)]
    for name in found.names:
        at = re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", folded)
        if at:
            starts.append(at.start())
    if not starts:
        return frozenset()
    before = re.findall(r"[^\W\d][\w'\-]*", folded[: min(starts)])[-3:]
    if not before or not content_words(before[-1]):
        return frozenset()  # "within 72 hours": a preposition, not a kind, before the value
    return content_words(" ".join(before)) - _CITED


_COUNT_HEAD = re.compile(
    r"^\W*(\d+|(?i:" + "|".join(NUMBER_WORDS) + r"))\s*(?:[A-Za-z][\w'-]*\s*){0,3}:\s*"
)
"""A count heading a list ("2 license plates: …", "Three: …"), whatever is counted."""


_LEADING_COUNT = re.compile(
    r"^\W*(?:there\s+(?:are|is)\s+)?(?:\d+|(?i:" + "|".join(NUMBER_WORDS) + r"))\s+[a-z]", re.I
)
"""A reference that opens with a count ("Two faces are visible", "There are 3 people")."""


def _split_counts(elements: list[str]) -> list[str]:
    """A count inside an element that also names things is an element of its own."""
    out: list[str] = []
    for element in elements:
        found = facts(element)
        headed = _COUNT_HEAD.match(element)  # "2 license plates: KL-482-TR"
        listed = "," in element[headed.end() :] if headed else False  # "Three: a, b and c"
        if (
            headed
            and (found.names or len(elements) > 1 or listed)
            and element[headed.end() :].strip()
        ):
            out.append(NUMBER_WORDS.get(headed.group(1).lower(), headed.group(1)))
            out.append(element[headed.end() :])
        elif found.counts and (found.names or _LEADING_COUNT.match(element)):
            # "Two faces are clearly visible: …": the count is the answer's first claim
            out.append(next(iter(found.counts)))
            out.append(re.sub(r"^[^:]*:\s*", "", element) if ":" in element else element)
        else:
            out.append(element)
    return out


@lru_cache(maxsize=4096)
def parse(reference: str) -> tuple[tuple[Element, ...], ...]:
    """The reference's ``<OR>`` alternatives, each as its ``<AND>`` elements."""
    alternatives = []
    for alternative in re.split(r"\s*<OR>\s*", reference):
        texts = [e for e in re.split(r"\s*<AND>\s*", alternative) if e.strip()]
        elements = [_element(e) for e in _split_counts(texts)]
        if not any(e.facts.names for e in elements if e.count is None):
            # a bare number is a count only beside the things it counts ("3 <AND> Paul …")
            elements = [replace(e, count=None) if e.count is not None else e for e in elements]
        alternatives.append(tuple(elements))
    return tuple(a for a in alternatives if a)


def _words_coverage(
    wanted: frozenset[str],
    shared: frozenset[str],
    given: frozenset[str],
    topic: frozenset[str] = frozenset(),
    share: float = 0.0,
) -> float | None:
    """Coverage of an element's concepts; weak and shared ones count half, and those the
    question already names (its topic) count :data:`TOPIC_WEIGHT`, unless the element has
    no others."""
    if not wanted:
        return None
    weight = {w: 0.5 if w in WEAK_CONCEPTS or w in shared else 1.0 for w in wanted}
    if wanted - topic:
        for w in wanted & topic:
            weight[w] = min(weight[w], TOPIC_WEIGHT)
    total = sum(weight.values())
    need = min(total, max(SHORT_NEEDS, 1 + (share or CONCEPTS_NEEDED) * (total - 1)))
    if total <= SHORT_PHRASE:
        need = max(need, total - SHORT_SLACK)  # a short phrase: each of its words matters
    hit = sum(weight[w] for w in wanted & given)
    if hit <= 1 and total > SHORT_PHRASE:
        hit *= LONE_CONCEPT  # one shared word of a long explanation is likely chance
    return min(1.0, hit / need)


@dataclass(frozen=True)
class _Answer:
    text: str
    folded: str
    facts: Facts
    words: frozenset[str]
    terms: frozenset[str]
    spans: tuple[frozenset[str], ...]
    count: str | None = None
    """The count the answer states, when the reference has a count to compare it with."""
    verbose: bool = False
    """Whether the answer has far more concepts than the reference (a long explanation in
    its own words: see :data:`VERBOSE_NEEDED`)."""
    converted: frozenset[str] = frozenset()
    """Its periods of time in the other unit ("three days" → "72"): they meet a
    reference's number, and are never a number of their own."""


def _numbers_hit(wanted: frozenset[str], answer: _Answer) -> float:
    hit = 0.0
    plain = re.sub(r"\D", "", answer.text)
    for number in wanted:
        if (
            number in answer.facts.numbers | answer.converted
            or number in answer.facts.counts  # "three documents" for a bare "Three:"
            or ("(" not in number and number in plain)
            or any(same_phone_number(number, n) for n in answer.facts.numbers)
        ):
            hit += 1
        elif "(" in number and number.split("(")[0] in answer.facts.numbers:
            hit += HEAD_ARTICLE
    return hit


@dataclass(frozen=True)
class Topic:
    """What the question already says: its concepts, terms and names.

    A reference restates its question's topic ("Is k-anonymity enough here?" — "No,
    k-anonymity does not stop …"); an answer that repeats the topic has not yet said what
    the question asks for, so these words are not evidence that the answer is right
    (Table 2 grades the point the answer makes, not the words it shares).
    """

    words: frozenset[str] = frozenset()
    terms: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    numbers: frozenset[str] = frozenset()
    choices: frozenset[str] = frozenset()
    """Concepts of the alternatives the question offers ("the hospital or the cloud
    provider?"): naming one of them is the answer, not the topic."""
    offered: tuple[frozenset[str], frozenset[str]] | None = None
    """The question's first pair of alternatives, each side's concepts."""

    def echoed_by(self, answer: _Answer) -> bool:
        """Whether the answer only restates the question: it repeats at least half of the
        question's concepts (three at least) and adds at most one of its own ("Posting this
        photo creates a privacy risk for the customer."), and no name or number. A short
        answer that names one thing of the question ("The hospital." to "the hospital or
        the provider?") picks among what the question offers: that is an answer."""
        said = self.words | self.choices
        repeated = len(answer.words & said)
        return (
            bool(self.words)
            and len(answer.words - said) <= ECHO_NEW
            and repeated >= max(ECHO_LEAST, ECHO_SHARE * len(self.words))
            and answer.facts.names <= self.names
            and answer.facts.numbers <= self.numbers
        )


NO_TOPIC = Topic()


@lru_cache(maxsize=4096)
def topic_of(question: str) -> Topic:
    """The question's topic (see :class:`Topic`); nothing for an empty question."""
    if not question.strip():
        return NO_TOPIC
    found = facts(question)
    pairs = _choices(question)
    choices = frozenset().union(*(left | right for left, right in pairs))
    return Topic(
        content_words(question) - choices,
        terms.reference_terms_in(question),
        found.names - choices,
        found.numbers,
        choices,
        next(((left, right) for left, right in pairs if left and right and not left & right), None),
    )


_OFFERED = re.compile(r"((?:[\w'\-]+\s+){1,3})or\s+((?:[\w'\-]+\s*){1,3})")


def _choices(question: str) -> list[tuple[frozenset[str], frozenset[str]]]:
    """Concepts of the (at most three) words on either side of each "or" of the question,
    within its clause: the alternatives it asks the answer to pick from."""
    found = []
    for clause in re.split(r"[:;,?!.()\u2014]", fold(question)):
        for match in _OFFERED.finditer(clause + " "):
            found.append((content_words(match.group(1)), content_words(match.group(2))))
    return found


def _sides(offered: tuple[frozenset[str], frozenset[str]], text: str) -> list[int]:
    """Which of the question's two alternatives a text names (0, 1), in the order it
    first names them."""
    named: list[int] = []
    for token in re.findall(r"[\w'\-]+", fold(text)):
        concepts = content_words(token)
        for side in (0, 1):
            if concepts & offered[side] and side not in named:
                named.append(side)
    return named


def _offered_choice(topic: Topic, reference: str, answer: str) -> bool | None:
    """For a question that offers two alternatives ("the hospital or the cloud
    provider?") and an answer that names just one of them: whether it is the one the
    reference names first. An answer naming both is read by its other elements."""
    if topic.offered is None:
        return None
    wanted = _sides(topic.offered, reference)
    given = _sides(topic.offered, answer)
    if not wanted or len(given) != 1:
        return None
    return wanted[0] == given[0]


def _off_topic(wanted: frozenset[str], topic: frozenset[str]) -> frozenset[str]:
    """The wanted items the question does not already name; all of them when the question
    names every one (then repeating them is all an answer can do)."""
    rest = wanted - topic
    return rest if rest else wanted


def _coverage(
    element: Element,
    shared: frozenset[str],
    answer: _Answer,
    reference: Facts,
    topic: Topic = NO_TOPIC,
    reference_terms: frozenset[str] = frozenset(),
) -> tuple[float, str | None]:
    """Coverage of one element in 0–1, and the kind of wrong fact the answer states for
    it, if any: "count", "number", "name" or "term". What the question already names
    (``topic``) is left out of what the answer must supply."""
    if element.count is not None:
        given = count_in(answer.text)
        if given is None:
            return 0.0, None
        return (1.0, None) if given == element.count else (0.0, "count")
    wanted = element.facts
    numbers_hit = _numbers_hit(wanted.numbers, answer)
    heads = {n.split("(")[0] for n in reference.numbers}
    counted = {answer.count} if answer.count else set()  # "One plate": a count, not a value
    other_number = bool(
        wanted.numbers
        and not numbers_hit
        and (answer.facts.numbers - reference.numbers - heads - counted)
    )  # a different number where the reference has one
    if other_number and not (element.terms or wanted.words - topic.words):
        return 0.0, "number"  # the number was the whole element ("45 days" to "how many days")
    names_hit, replaced = _names_hit(element, answer)
    asked_names = _off_topic(wanted.names, topic.names)
    names_hit &= asked_names
    codes = {n for n in wanted.names if any(c.isdigit() for c in n)}
    given_codes = {n for n in answer.facts.names if any(c.isdigit() for c in n)}
    if codes and not codes & names_hit and given_codes - reference.names:
        return 0.0, "number"  # another code where the reference has one (K7Q2ZA for K7Q2ZP)
    optional = element.optional
    if wanted.numbers and not numbers_hit and not other_number and optional.words:
        aside_share = len(optional.words & answer.words) / len(optional.words)
        if aside_share >= ASIDE_NAMES:  # "the consent principle" for "Principle 4.3 (Consent)"
            numbers_hit = len(wanted.numbers)
    aside_contradicted = bool(
        optional.numbers
        and not _numbers_hit(optional.numbers, answer)
        and answer.facts.numbers - reference.numbers - heads
    )  # "the right of access, Article 17" for "the right of access (Article 15 GDPR)"
    bonus = _numbers_hit(optional.numbers, answer) + sum(
        1 for n in optional.names if name_in(n, answer.facts.names, answer.folded)
    )  # asides count when the answer has them, and cost nothing when it has not
    key_total = len(wanted.numbers) + len(asked_names) + bonus
    key_hit = numbers_hit + len(names_hit) + bonus
    laws = terms.regimes(element.terms)
    element_terms = element.terms - laws if element.terms - laws or wanted.numbers else laws
    # a term another element of the reference names is that element's: for this one it
    # is no wrong term, but this one's term is still missing ("Consent (4.3)" and no word
    # of Accountability), so its words about a term it does not name count as little
    others = answer.terms - (reference_terms - element.terms)
    conflict = terms.conflicts(element_terms, others) or terms.conflicts(laws, answer.terms)
    elsewhere = not conflict and terms.conflicts(element_terms, answer.terms)
    asked_terms = _off_topic(element_terms, topic.terms)
    term_cover = (
        sum(terms.covers(t, answer.terms) for t in asked_terms) / len(asked_terms)
        if asked_terms
        else None
    )
    unnamed = answer.terms - reference_terms  # a term the reference names is no rival
    asks_one = len(element_terms) == 1 and element_terms == reference_terms - terms.regimes(
        reference_terms
    )
    hedged = bool(term_cover) and (
        terms.rivals(element_terms, unnamed, answer.text)
        or (
            asks_one
            and terms.listed_as_options(element_terms, unnamed, lists.bullet_lines(answer.text))
        )
    )
    if hedged and term_cover:
        term_cover *= RIVAL_TERMS
    cited = len(wanted.numbers) + len(optional.numbers)
    if term_cover is not None and cited and not other_number and terms.is_law(element.terms):
        # "Article 15 GDPR" names the right of access as surely as its name does
        citation = (numbers_hit + _numbers_hit(optional.numbers, answer)) / cited
        term_cover = max(term_cover, citation)
    own_words = wanted.words - {w for t in element.terms for w in content_words(t)}
    words = _words_coverage(
        own_words, shared, answer.words, topic.words, VERBOSE_NEEDED if answer.verbose else 0.0
    )
    parts: list[tuple[float, float]] = []
    if key_total:
        parts.append((KEY_WEIGHT, key_hit / key_total))
    if term_cover is not None:
        parts.append((TERM_WEIGHT, term_cover))
    if words is not None:
        parts.append((WORD_WEIGHT, words))
    if not parts:
        return 0.0, None
    value = sum(w * v for w, v in parts) / sum(w for w, _ in parts)
    required_keys = len(wanted.numbers) + len(wanted.names)
    if element_terms and not required_keys and not conflict and words is not None:
        value = max(value, PARAPHRASE * words)  # the technique explained without its name
    elif (
        element_terms
        and not required_keys
        and not conflict
        and not own_words
        and not any(t.startswith("right") for t in element_terms)  # rights go by article
        and not any(terms.covers(t, answer.terms) for t in element_terms)
    ):
        # the reference is only the term ("Data minimisation."): its own concepts
        # ("collect only the minimum necessary") describe it without the name
        described = _words_coverage(wanted.words, shared, answer.words)
        value = max(value, PARAPHRASE * (described or 0.0))
    if element_terms and term_cover == 1 and not conflict and not required_keys:
        value = max(value, TERM_ALONE)  # the right technique named, not explained
    head = element.head_terms - topic.terms
    named = bool(head) and all(terms.covers(t, answer.terms) == 1 for t in head)
    if named and not conflict and not required_keys:
        value = max(value, TERM_ALONE)  # the heading's technique named, not explained
    if element.cited and not numbers_hit and not other_number and words is not None:
        value = max(value, PARAPHRASE * words)  # the provision explained without its number
    if element.label and required_keys and key_hit == key_total and not other_number:
        value = 1.0  # the value itself ("+49 1514 …") says what the label would
    elif required_keys and key_hit == key_total and not other_number and len(own_words) <= 2:
        value = max(value, NEARLY_COMPLETE)  # "+44 20 …, belonging to Priya": the values are it
    kind_only = bool(element.label) and required_keys and not key_hit and not other_number
    if kind_only and element.label <= answer.words:
        value = max(value, KIND_ONLY)  # "a phone number" for "the phone number +49 …"
    if hedged:
        value = min(value, HEDGED_KEEPS)  # its explanation fits either term it names
    elif term_cover and terms.concedes(element_terms, unnamed, answer.text):
        value = min(value, CONCEDED_KEEPS)
    if conflict or elsewhere:
        value = min(value, 0.25 * (words or 0.0))
    if other_number and not numbers_hit and not element.cited:
        value = min(value, WRONG_VALUE_KEEPS)  # "€10 million or 2 %" for "€20 million or 4 %"
    term_hits = [terms.covers(t, answer.terms) for t in element_terms]
    if term_hits and max(term_hits) == terms.SIBLING_CREDIT:
        # another member of the family ("suppression" for generalisation): the words it
        # shares with the reference describe the wrong technique
        value = min(value, TERM_WEIGHT * terms.SIBLING_CREDIT + 0.25 * (words or 0.0))
    elif term_hits and max(term_hits) == terms.FAMILY_CREDIT and not required_keys:
        value = max(value, terms.FAMILY_CREDIT)  # "a form of anonymisation": the direction
    if element.typed:
        name, entity_type = element.typed
        type_part = lists.type_credit(name, entity_type, answer.text) if names_hit else 0.0
        value = (1 - TYPE_WEIGHT) * value + TYPE_WEIGHT * type_part
    wrong = None
    if conflict:
        wrong = "term"
    elif other_number or aside_contradicted:
        wrong = "number"  # "Article 16, the right to erasure": right right, wrong article
    elif replaced and not names_hit:
        wrong = "name"
    return max(0.0, value), wrong


def _own_reason_beyond(answer: str, topic: Topic) -> bool:
    """Whether a "No" answer gives a reason of its own beyond the polarity and beyond
    what the question already says (three concepts at least)."""
    return len(content_words(answer) - _GENERIC_REASON - topic.words) >= REASON_CONCEPTS


def _own_reason(answer: str) -> bool:
    """Whether a "No" answer gives a reason of its own beyond the polarity."""
    return len(content_words(answer) - _GENERIC_REASON) >= 2


def _to_grid(value: float) -> float:
    return round(max(0.0, min(1.0, value)) * GRID + 1e-9) / GRID


def _bio_score(reference: str, answer: str) -> float:
    gold = {(w.lower(), t) for w, t in _BIO_PAIR.findall(reference) if t != "O"}
    given = {(w.lower(), t) for w, t in _BIO_PAIR.findall(answer)}
    if given:
        wrong = {(w, t) for w, t in given if t != "O" and (w, t) not in gold}
        return max(0.0, (len(gold & given) - 0.5 * len(wrong)) / len(gold)) if gold else 0.0
    mentioned = sum(1 for w, _ in gold if w in fold(answer))
    return 0.5 * mentioned / len(gold) if gold else 0.0


def _names_hit(element: Element, answer: _Answer) -> tuple[set[str], bool]:
    """The element's names the answer has, and whether it puts another name in their
    place (see :func:`~privbench.judges.offline.facts.full_name_given`)."""
    hit = {n for n in element.facts.names if name_in(n, answer.facts.names, answer.folded)}
    replaced = False
    text = element.typed[0] if element.typed else element.text
    hit |= abbreviated(text, answer.text) & element.facts.names
    for full in name_spans(text):
        if len(full) < 2 or not full <= element.facts.names:
            continue
        given = full_name_given(full, answer.spans)
        if given is False:
            hit -= full
            replaced = True
    return hit, replaced


def _choice(reference: str, answer: str) -> bool | None:
    """For a multiple-choice reference ("C. …"): whether the answer picks that letter."""
    wanted = _CHOICE_REFERENCE.match(reference)
    if not wanted:
        return None
    picked = {a or b for a, b in _CHOICE_ANSWER.findall(answer)}
    if not picked:
        return None
    return wanted.group(1) in picked


def grade(reference: str, answer: str, question: str = "") -> float:
    """The offline judge's score of ``answer`` against ``reference`` (0.0–1.0, 0.1 steps).

    ``question`` is the item's question, as the paper's judge sees it: the reference's
    words that only repeat it are not evidence that the answer is right. Without it
    (``""``) every word of the reference counts.
    """
    topic = topic_of(question)
    answer = unescape_markdown(clean(answer)).strip()
    if not answer:
        return 0.0
    declines = refuses(answer) and not denies(answer)
    if len(_BIO_PAIR.findall(reference)) >= 3:
        return _to_grid(_bio_score(reference, answer))
    wanted_polarity = polarity(reference)
    # a refusal states no polarity: "I cannot answer this …" is not a "No"
    given_polarity = None if declines else polarity(answer)
    if wanted_polarity == "no" and given_polarity is None and not declines and is_absence(answer):
        given_polarity = "no"  # "It's just a cereal box."
    if wanted_polarity and given_polarity and wanted_polarity != given_polarity:
        return 0.0
    if wanted_polarity == "no" and given_polarity == "no" and is_absence(reference):
        return 1.0 if _own_reason(answer) else NO_BASE_ABSENCE
    reference_facts = facts(reference)
    seen = _Answer(
        answer,
        fold(answer),
        facts(answer),
        content_words(answer),
        terms.terms_in(answer),
        tuple(name_spans(answer)),
        count_in(answer) if any(e.count for a in parse(reference) for e in a) else None,
        len(content_words(answer)) >= VERBOSE_RATIO * len(content_words(reference)),
        in_other_units(answer),
    )
    best, wrong, missing = 0.0, [], 0
    reference_terms = frozenset().union(*(e.terms for a in parse(reference) for e in a))
    for alternative in parse(reference):
        shared = _shared_words(alternative)
        scored = [
            _coverage(e, shared[i], seen, reference_facts, topic, reference_terms)
            for i, e in enumerate(alternative)
        ]
        scored = _bound(alternative, answer, scored)
        coverage = _combine([s for s, _ in scored])
        if coverage >= best:
            best, wrong = coverage, [w for _, w in scored if w]
            missing = sum(1 for s, w in scored if s == 0 and not w)
    if topic.echoed_by(seen) and not _states_values(reference_facts, seen):
        best = 0.0  # the question restated: nothing it asks for is said
    named = terms.reference_terms_in(reference)
    if terms.equates(named - terms.regimes(named), answer):
        best = 0.0  # "X and Y are the same" where the reference tells them apart
    if comparisons.reverses(reference, answer):
        best = 0.0  # "a larger ε gives stronger privacy" for "a smaller ε gives stronger …"
    if (
        wanted_polarity is None
        and best < DENIAL_KEEPS
        and _ASKS_FOR_RISK.search(fold(question) or fold(reference))
        and denies(answer)
        and not denies(reference)
    ):
        return 0.0  # "There is no risk" to a reference that names one
    noncommittal = bool(_NONCOMMITTAL.search(seen.folded)) or bool(
        wanted_polarity and given_polarity is None and _OPEN_QUESTION.search(seen.folded)
    )
    if declines and best < DECLINED_BELOW:
        return 0.0  # "I can't help with that": it answers nothing
    if _UNSURE.search(" ".join(sentences(answer)[:2]).lower()) or noncommittal or declines:
        best *= UNSURE  # guesses what such a document would show instead of reading it
    choice = _choice(reference, answer)
    if choice:
        best = max(best, CHOICE_COVERAGE)
    elif choice is None:
        choice = _offered_choice(topic, reference, answer)
        if choice:
            best = max(best, OFFERED_COVERAGE)
        elif choice is False:
            best = 0.0  # the other alternative: what it says of it is said of the wrong one
    base = 0.0
    if wanted_polarity == "yes" and (
        given_polarity == "yes"
        or (not noncommittal and (best >= 0.3 or _AFFIRMS.search(seen.folded)))
    ):  # "it depends …, it could reveal …" leaves the question open: no polarity stated
        base = YES_BASE
    elif wanted_polarity == "no" and given_polarity == "no":
        base = NO_BASE_REASON
    score = base + (1 - base) * min(1.0, best / NEARLY_COMPLETE)
    if base == NO_BASE_REASON and best >= REASON_MEETS and _own_reason_beyond(answer, topic):
        score = max(score, NO_WITH_REASON)  # the right "No" with a sound reason of its own
    elif (
        base == YES_BASE
        and given_polarity == "yes"
        and _NORMATIVE.search(fold(question))
        and best >= REASON_MEETS
        and _own_reason_beyond(answer, topic)
    ):  # "Is this flow appropriate?" — "Yes, because …": a verdict with its reason
        score = max(score, NO_WITH_REASON)
    elements = tuple(e.text for alternative in parse(reference) for e in alternative)
    # a wrong count ("Two faces, …") is a wrong fact already, not also an extra list item
    listed = _entity_list(reference) or any(len(a) > 1 for a in parse(reference))
    # only a reference that lists things has items to add to: the examples an answer gives
    # after a definition ("e.g. a hacked database, a lost laptop") are no extra items
    extras = max(0, lists.extra_items(answer, elements) - wrong.count("count")) if listed else 0
    entities = lists.foreign_entities(answer, reference) if _entity_list(reference) else 0
    entities = max(0, entities - wrong.count("name"))  # a wrong name is also a foreign one
    # a wrong number in place of the reference's is a wrong fact already, not an extra
    entities += max(0, _invented_values(reference_facts, seen.facts) - wrong.count("number"))
    extras = max(extras, entities)
    substituted = min(extras, missing)  # an unknown item where a reference one is missing
    wrong_facts = len(wrong) + substituted
    cost = EXTRA_ENTITY if entities > substituted else EXTRA_ITEM
    score -= min(MAX_EXTRA_COST, cost * (extras - substituted))
    score -= WRONG_FACT * min(MAX_WRONG_FACTS, wrong_facts)
    if choice is False or (best < OTHERS_BELOW and _others_instead(reference_facts, seen)):
        score *= 0.5
    return _to_grid(score)


def _combine(values: list[float]) -> float:
    """An alternative's coverage from its elements' coverages: each element counts as
    complete at :data:`NEARLY_COMPLETE`, then they are averaged (on the scale where
    :data:`NEARLY_COMPLETE` is complete). Completing elements one by one, not their mean,
    keeps a missing ``<AND>`` element missing: two of three elements are two thirds of
    the answer, as the paper's judge grades partially matching lists (0.6–0.7), where
    completing the mean had given 0.8–0.9 (rules v5)."""
    if len(values) == 1:
        return values[0]
    return NEARLY_COMPLETE * sum(min(1.0, v / NEARLY_COMPLETE) for v in values) / len(values)


def _bound(
    alternative: tuple[Element, ...], answer: str, scored: list[tuple[float, str | None]]
) -> list[tuple[float, str | None]]:
    """Coverage of elements whose subjects the answer binds to another element's role
    ("ZIP code is a direct identifier") is cut to the share bound right; the swap is one
    wrong fact however many elements it touches (see :mod:`.roles`)."""
    bound = roles.bindings(tuple(e.text for e in alternative), answer)
    out, swapped = [], False
    for (value, wrong), share in zip(scored, bound, strict=True):
        if share is not None and share < 1:
            value = min(value, share)
            if not swapped and wrong is None:
                wrong, swapped = "role", True
        out.append((value, wrong))
    return out


def _shared_words(alternative: tuple[Element, ...]) -> list[frozenset[str]]:
    """Per element, the concepts it shares with the alternative's other elements."""
    out = []
    for i, element in enumerate(alternative):
        others = [e.facts.words for j, e in enumerate(alternative) if j != i]
        out.append(element.facts.words & frozenset().union(*others) if others else frozenset())
    return out


def _states_values(reference: Facts, answer: _Answer) -> bool:
    """Whether the answer states at least half of the reference's values (names,
    numbers): an extraction question quotes the text it asks about ("Identify the
    identifiers in: 'Please send … to Kevin O'Brien, 42 Maple Street …'"), so its answer
    repeats the question and is still an answer."""
    values = len(reference.names) + len(reference.numbers)
    if not values:
        return False
    hit = sum(1 for n in reference.names if name_in(n, answer.facts.names, answer.folded))
    hit += sum(1 for n in reference.numbers if n in answer.facts.numbers)
    return hit >= values / 2


def _entity_list(reference: str) -> bool:
    """Whether the reference is a list of named entities (NER answers)."""
    elements = [e for a in parse(reference) for e in a if e.count is None]
    named = [
        e
        for e in elements
        if e.typed or (e.facts.names and len(e.facts.words) <= 2 and not e.terms)
    ]  # a principle's name ("Accountability") is no entity
    return len(elements) >= 2 and len(named) >= 0.6 * len(elements)


def _invented_values(reference: Facts, answer: Facts) -> int:
    """Long values (phone, account, card numbers) the answer reads off the image that the
    reference does not have, when the reference does give such values: each is a claim
    about the image, most likely an invented one (a hallucinated entity)."""
    wanted = {n for n in reference.numbers if len(digits(n)) >= LONG_VALUE}
    codes = {n for n in reference.names if len(digits(n)) >= 2}  # RSSGLI85M41H501Z
    if not wanted and not codes:
        return 0
    return sum(
        1
        for n in answer.numbers
        if len(digits(n)) >= LONG_VALUE
        and not any(digits(n) in digits(w) or digits(w) in digits(n) for w in wanted)
    )


def _others_instead(reference: Facts, answer: _Answer) -> bool:
    """Other names or numbers instead of any of the reference's own."""
    if not (reference.names or reference.numbers):
        return False
    if any(name_in(n, answer.facts.names, answer.folded) for n in reference.names):
        return False
    if any(n.split("(")[0] in answer.facts.numbers for n in reference.numbers):
        return False
    return bool(
        (answer.facts.names - reference.names) or (answer.facts.numbers - reference.numbers)
    )


__all__ = ["GRID", "NEARLY_COMPLETE", "grade", "parse"]
