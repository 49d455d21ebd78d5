"""Coverage: how much of a reference an answer states, element by element.

A reference is read once into its ``<OR>`` alternatives, each a tuple of ``<AND>``
elements (:func:`parse`); an answer is read once into its facts, terms and concepts
(:func:`read_answer`). An element's coverage (0–1, :func:`element_coverage`) mixes what
the answer has of its key facts (numbers, identifiers, names: exact), terms (techniques,
principles, rights: as units) and concepts (content words, paraphrases merged). A long
explanation need not repeat every concept of the reference: about 40 % of them after the
first make it complete, as a reader would judge; a short phrase ("verifiable parental
consent") needs all its concepts but half of one; concepts that several elements share
("card" in "card number" and "payment card"), and those nearly every answer has
("someone", "a person"), say less and count half. Two ways of saying the same thing count
alike: a provision's article number or its name ("Article 15" for "the right of access
(Article 15 GDPR)"), a value or its kind with the value ("the phone number +49 …"); the
kind without the value ("a phone number") is part of it. An alternative's coverage is its
elements' (:func:`combine`); the best alternative counts (:func:`best_alternative`).

The question: the paper's judge sees it, and a reference restates its topic. Concepts the
question already has count half, its terms and names count only where an element has
nothing else, an answer that merely restates the question has said nothing, and the
alternatives a question offers ("the hospital or the cloud provider?") are what the
answer must pick (see :class:`Topic`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from privbench.judges.offline import lists, roles, terms
from privbench.judges.offline.facts import (
    CITATION,
    CITED_NUMBER,
    NUMBER_WORDS,
    Facts,
    abbreviated,
    count_in,
    facts,
    full_name_given,
    in_other_units,
    name_in,
    name_spans,
    same_phone_number,
)
from privbench.judges.offline.text import content_words, fold

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
WRONG_VALUE_KEEPS = 0.2
"""Coverage kept by an element whose numbers the answer all gives otherwise: the words
around a number ("of the total worldwide annual turnover") restate the question; the
number was the answer."""
ASIDE_NAMES = 0.5
"""Share of a citation's parenthesised name ("Principle 4.3 (Consent)") that stands for
the citation itself: the name and the number are two ways to say the same provision."""
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
class Answer:
    """An answer as the coverage rules read it, once (see :func:`read_answer`)."""

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


def _numbers_hit(wanted: frozenset[str], answer: Answer) -> float:
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

    def echoed_by(self, answer: Answer) -> bool:
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


def offered_choice(topic: Topic, reference: str, answer: str) -> bool | None:
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


def element_coverage(
    element: Element,
    shared: frozenset[str],
    answer: Answer,
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


def _names_hit(element: Element, answer: Answer) -> tuple[set[str], bool]:
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


def combine(values: list[float]) -> float:
    """An alternative's coverage from its elements' coverages: each element counts as
    complete at :data:`NEARLY_COMPLETE`, then they are averaged (on the scale where
    :data:`NEARLY_COMPLETE` is complete). Completing elements one by one, not their mean,
    keeps a missing ``<AND>`` element missing: two of three elements are two thirds of
    the answer, as the paper's judge grades partially matching lists (0.6–0.7); a
    completed mean would give such a list 0.8–0.9."""
    if len(values) == 1:
        return values[0]
    return NEARLY_COMPLETE * sum(min(1.0, v / NEARLY_COMPLETE) for v in values) / len(values)


def bound(
    alternative: tuple[Element, ...], answer: str, scored: list[tuple[float, str | None]]
) -> list[tuple[float, str | None]]:
    """Coverage of elements whose subjects the answer binds to another element's role
    ("ZIP code is a direct identifier") is cut to the share bound right; the swap is one
    wrong fact however many elements it touches (see :mod:`.roles`)."""
    shares = roles.bindings(tuple(e.text for e in alternative), answer)
    out, swapped = [], False
    for (value, wrong), share in zip(scored, shares, strict=True):
        if share is not None and share < 1:
            value = min(value, share)
            if not swapped and wrong is None:
                wrong, swapped = "role", True
        out.append((value, wrong))
    return out


def shared_words(alternative: tuple[Element, ...]) -> list[frozenset[str]]:
    """Per element, the concepts it shares with the alternative's other elements."""
    out = []
    for i, element in enumerate(alternative):
        others = [e.facts.words for j, e in enumerate(alternative) if j != i]
        out.append(element.facts.words & frozenset().union(*others) if others else frozenset())
    return out


def read_answer(answer: str, reference: str) -> Answer:
    """The answer (already cleaned of steering text) as the coverage rules read it; its
    count only when the reference has a count to compare it with."""
    return Answer(
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


@dataclass(frozen=True)
class Coverage:
    """The best ``<OR>`` alternative's coverage of the reference by one answer."""

    value: float
    """The alternative's coverage (0–1; complete at :data:`NEARLY_COMPLETE`)."""
    elements: tuple[float, ...]
    """Each of its elements' coverage."""
    wrong: tuple[str, ...]
    """The kinds of wrong fact the answer states for its elements ("count", "number",
    "name", "term", "role"), one per element that has one."""
    missing: int
    """Its elements the answer has nothing of and states nothing wrong for."""


def best_alternative(reference: str, answer: Answer, topic: Topic = NO_TOPIC) -> Coverage:
    """The coverage of the reference's best ``<OR>`` alternative (the last of equals)."""
    reference_facts = facts(reference)
    best, best_scored = 0.0, []
    reference_terms = frozenset().union(*(e.terms for a in parse(reference) for e in a))
    for alternative in parse(reference):
        shared = shared_words(alternative)
        scored = [
            element_coverage(e, shared[i], answer, reference_facts, topic, reference_terms)
            for i, e in enumerate(alternative)
        ]
        scored = bound(alternative, answer.text, scored)
        coverage = combine([s for s, _ in scored])
        if coverage >= best:
            best, best_scored = coverage, scored
    return Coverage(
        best,
        tuple(s for s, _ in best_scored),
        tuple(w for _, w in best_scored if w),
        sum(1 for s, w in best_scored if s == 0 and not w),
    )


__all__ = [
    "NEARLY_COMPLETE",
    "NO_TOPIC",
    "Answer",
    "Coverage",
    "Element",
    "Topic",
    "best_alternative",
    "combine",
    "element_coverage",
    "offered_choice",
    "parse",
    "read_answer",
    "topic_of",
]
