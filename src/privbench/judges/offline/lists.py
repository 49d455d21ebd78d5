"""Lists in answers: items the reference does not have, and entity types that go with names.

Partially matching lists are the paper's own example of partial credit. An answer that
lists everything the reference lists *and more* ("name, address, phone number and social
media handle" when only the first three are there; an extra entity in a NER answer) is
not fully right: the paper's judge takes off 0.1–0.2. So the answer's
enumerations are read item by item; an item that matches nothing in the reference is an
*extra*. Only lists that are the answer's answer count — those with at least two items
the reference has — so an explanation after the list ("which could be used for fraud")
is never an item, and extra *explanation* costs nothing.

NER references pair each name with a type ("Lagos (location)"). A name with the right
type is a full element, a name without a type most of one, a name with another type
less (the paper's judge reads "Lagos (person)" as mostly wrong).
"""

from __future__ import annotations

import re
from functools import lru_cache

from privbench.judges.offline.facts import LABELS, facts, initials, name_in
from privbench.judges.offline.text import (
    GERMAN_FUNCTION_WORDS,
    STOP,
    content_words,
    fold,
    sentences,
    stem,
    tokens,
)

ENTITY_TYPES = frozenset(
    {"person", "location", "organization", "event", "date", "product", "misc", "time"}
)
"""Concepts of entity-type labels ("(person)", "ORG", "location")."""

MATCHED_ITEMS, MATCHED_ITEMS_OF_A_LIST = 2, 1
"""Items of an answer's list that must match the reference for the list to be the
answer's answer (rather than an explanation that happens to enumerate): two in general,
one when the reference is itself a list of short items ("Full name <AND> date of birth
<AND> …"), so "Name, address and phone number" is read as one right item and two wrong."""
SHORT_ITEM = 4
"""Words of a reference element that is a list item, not a sentence."""

_GENERIC = frozenset(
    {"other", "detail", "more", "etc", "thing", "various", "possibly", "potentially",
     "element", "content", "item", "field"}
)  # fmt: skip
_LEAD_IN = re.compile(
    r".*\b(?:shows?|reveals?|contains?|includes?|lists?|displays?|exposes?|mentions?|are|is|"
    r"such\s+as|like|namely|with|including|of)\b\s*"
)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.*)$")
_NOT_AN_ITEM = re.compile(
    r"^(which|that|so|because|who|as|this|it|these|they|and\s+so|making|allowing|"
    r"potentially|could|would|may|might|if|when|while|but|however|although|though|whereas|"
    r"since|unless|once)\b"
)


def _unmark(text: str) -> str:
    return re.sub(r"[*_`]+", "", text)


def _plain(text: str) -> str:
    text = _unmark(text)
    return re.sub(r"\([^()]*\)|\[[^\[\]]*\]", " ", text)


def _item(part: str) -> str | None:
    part = part.strip(" .:;!?\"'")
    if len(part.split()) > 5:
        part = _LEAD_IN.sub("", fold(part), count=1).strip()
    words = part.split()
    if not words or len(words) > 5 or _NOT_AN_ITEM.match(fold(part)):
        return None
    if fold(words[0]) in {"yes", "no"}:
        return None
    return part


@lru_cache(maxsize=4096)
def enumerations(answer: str) -> tuple[tuple[str, ...], ...]:
    """The answer's lists: its bullet lines as one list, and each "A, B and C" in a sentence."""
    found: list[tuple[str, ...]] = []
    bullets: list[str] = []
    for line in _plain(answer).splitlines():
        bullet = _BULLET.match(line)
        if bullet:
            head = re.split(r"\s+[–—-]\s+|:\s", bullet.group(1), maxsplit=1)[0]
            if (item := _item(head)) is not None:
                bullets.append(item)
            continue
        for sentence in sentences(line):
            body = sentence.rsplit(":", 1)[-1] if ":" in sentence[:-1] else sentence
            parts = [p for p in re.split(r"\s*[,;]\s*", body) if p.strip()]
            while len(parts) > 2 and _NOT_AN_ITEM.match(fold(parts[-1])):
                parts.pop()  # "…, seat number and card number, which could be stolen"
            if len(parts) < 2 or not re.search(r"\b(and|or|&)\b", parts[-1]):
                continue
            parts = parts[:-1] + re.split(r"\s*\b(?:and|or|&)\b\s*", parts[-1])
            items = [i for p in parts if (i := _item(p)) is not None]
            if len(items) >= 2:
                found.append(tuple(items))
    if len(bullets) >= 2:
        found.append(tuple(bullets))
    return tuple(found)


def bullet_lines(answer: str) -> tuple[str, ...]:
    """The text of each of the answer's bullet or numbered lines, as written."""
    return tuple(bullet.group(1) for line in answer.splitlines() if (bullet := _BULLET.match(line)))


def _matches(item: str, reference_elements: tuple[str, ...]) -> bool:
    item_facts = facts(item)
    folded = fold(" ".join(reference_elements))
    if any(name_in(n, frozenset(), folded) for n in item_facts.names):
        return True
    words = content_words(item) - _GENERIC
    if not words and not item_facts.names:
        return True  # nothing to judge ("etc.")
    reference_words = frozenset().union(*(content_words(e) for e in reference_elements))
    if words and words <= reference_words:
        return True
    element_words = [content_words(e) for e in reference_elements]
    return any(len(words & e) / len(words | e) > 0.5 for e in element_words if e)


def extra_items(answer: str, reference_elements: tuple[str, ...]) -> int:
    """Items of the answer's lists that match no reference element (lists with ≥ 2 that do)."""
    extra = 0
    is_list = len(reference_elements) >= 2 and all(
        len(e.split()) <= SHORT_ITEM for e in reference_elements
    )
    needed = MATCHED_ITEMS_OF_A_LIST if is_list else MATCHED_ITEMS
    for items in enumerations(answer):
        matched = [_matches(i, reference_elements) for i in items]
        if sum(matched) >= needed:
            extra = max(extra, matched.count(False))
    return extra


_SPAN = re.compile(r"(?<![\w'])[A-Z][\w'\-]+(?:\s+(?:[A-Z][\w'\-]+|&))*")


def foreign_entities(answer: str, reference: str) -> int:
    """Capitalised names in the answer that the reference does not have (entity lists).

    A span opening a sentence counts only when it has more than one word, so a
    sentence's first word is not taken for a name.
    """
    folded_reference = fold(reference)
    reference_names = facts(reference).names
    if reference_names and not any(n.isascii() for n in reference_names):
        return 0  # names in another script ("大谷翔平") cannot be told from their translation
    abbreviations = {
        initials(span.split()) for span in _SPAN.findall(reference) if len(span.split()) >= 2
    }
    count = 0
    aside = False  # under a heading that sets its items apart ("Other entities (not …):")
    for raw in _plain(answer).splitlines():
        if _HEADING_LINE.match(raw):
            aside = bool(_SET_APART.search(raw))
            continue
        if aside:
            continue
        line = _GLOSS.sub(" ", raw)  # "Knicks (the New York Knicks)": a gloss, no item
        for sentence in sentences(line):
            if _SET_APART.search(sentence) and not _starts_with_name(sentence, reference_names):
                continue  # "… are also named entities, but not people": set apart
            sentence = _described(sentence, reference_names, folded_reference)
            german = len(set(tokens(sentence)) & GERMAN_FUNCTION_WORDS) >= 2
            for match in _SPAN.finditer(sentence):
                if german and " " not in match.group(0):
                    continue  # German capitalises every noun: "Umschlag" is no name
                span = match.group(0)
                words = [
                    w.removesuffix("'s")
                    for w in tokens(span)
                    if (w not in STOP or (len(w) > 1 and w.upper() in span)) and w not in LABELS
                ]
                if not words or all(stem(w) in ENTITY_TYPES for w in words):
                    continue
                opening = not sentence[: match.start()].strip(" -*•\"'#>0123456789.)")
                if opening and len(span.split()) == 1:
                    continue
                if span.lower() in abbreviations:
                    continue  # "EU" for the reference's European Union
                if not any(name_in(w, reference_names, folded_reference) for w in words):
                    count += 1
    return count


_GLOSS = re.compile(r"\([^()]*\)")
"""A parenthesised gloss ("JFK (John F. Kennedy International Airport)")."""
_HEADING_LINE = re.compile(r"^\s*(?:#+\s*.*|\*\*[^*]+\*\*:?\s*|[^\w]*[\w][^:.]{0,60}:)\s*$")
"""A line that only heads what follows ("## Other identifiers", "**Entities:**")."""
_SET_APART = re.compile(
    r"\b(?:other|additional|not|rather\s+than|also|non-?\w+|excluded?|besides)\b", re.IGNORECASE
)
"""Words that set entities apart from the answer's list ("Other entities (not locations)")."""
_DESCRIPTION = re.compile(r"\s+(?:[-–—:]|→)\s+")


def _starts_with_name(sentence: str, reference_names: frozenset[str]) -> bool:
    """Whether the sentence's first name is one of the reference's ("Heathrow, also …")."""
    first = _SPAN.search(sentence)
    return first is not None and any(w.lower() in reference_names for w in tokens(first.group(0)))


def _described(sentence: str, reference_names: frozenset[str], folded_reference: str) -> str:
    """A list line that names a reference entity, without the description after it
    ("**Heathrow** – Location (airport, London)"): what describes a right item is no item
    of its own."""
    parts = _DESCRIPTION.split(sentence, maxsplit=1)
    if len(parts) == 2 and any(
        name_in(w, reference_names, folded_reference) for w in tokens(parts[0])
    ):
        return parts[0]
    return sentence


def _types(text: str) -> frozenset[str]:
    return frozenset(stem(t) for t in tokens(text)) & ENTITY_TYPES


TYPE_WORDS, NAME_WORDS = 3, 8
"""Longest type label ("a person", "EVENT/MISC") and entity name ("Banco Itaú de São
Paulo") of a typed reference element; longer is a sentence with an aside."""


def typed_entity(element: str) -> tuple[str, str] | None:
    """("Lagos", "location") for a reference element "Lagos (location)", else None."""
    match = re.fullmatch(r"\s*(.+?)\s*\(\s*([\w\s-]+?)\s*\)\s*\.?\s*", element)
    if (
        not match
        or len(match.group(2).split()) > TYPE_WORDS
        or len(match.group(1).split()) > NAME_WORDS
    ):
        return None  # "… (unless the breach is unlikely to harm individuals)": an aside
    kinds = _types(match.group(2))
    return (match.group(1), next(iter(kinds))) if len(kinds) == 1 else None


def type_credit(name: str, entity_type: str, answer: str) -> float:
    """1 when the answer gives the name this type, 0 without a type, −½ with another type.

    The type must sit in the same list item (line, or part between commas or semicolons)
    as the name, written in any script.
    """
    parts = [fold(p) for p in re.findall(r"[\w'\-]+", name)]
    if len(parts) >= 2:
        parts.append(initials(parts))  # "EU" for European Union

    def has_name(segment: str) -> bool:
        return any(name_in(p, frozenset(), segment) for p in parts)

    pieces = re.split(r"[\n;,]|\s+(?:and)\s+", fold(_unmark(answer)))
    segments = [s for s in pieces if has_name(s)]
    if segments and not any(_types(s) for s in segments):
        # '"Lucía Fernández," a person; …': the type may follow the name's own piece
        segments += [
            pieces[i + 1]
            for i, s in enumerate(pieces[:-1])
            if has_name(s) and not has_name(pieces[i + 1])
        ]
    if not segments:
        segments = [line for line in fold(answer).splitlines() if has_name(line)]
    given = frozenset().union(
        *(_types(" ".join(t for t in tokens(s) if t not in parts)) for s in segments)
    )
    if entity_type in given:
        return 1.0
    return -0.5 if given else 0.0
