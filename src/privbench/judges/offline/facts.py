"""Facts that must match exactly: numbers, identifiers, names — and counts, which differ.

A phone number, a booking code, an article number or a person's name is right or wrong;
no paraphrase of it is. These *key facts* are compared exactly (digits without
separators, number words read as numbers, names in any script, Cyrillic names also
transliterated).

A *count* ("2 locations", "three people") is a different kind of number: it is one
element of the answer beside the entities it counts. The paper's judge gives an answer
with the right names and the wrong count 0.5–0.7 and one with the right count and a
wrong name about 0.5, so a count is scored as its own element and a
wrong count is not a contradiction of the whole answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from anyascii import anyascii

from privbench.judges.offline.text import (
    CJK,
    STOP,
    cjk_labels,
    content_words,
    fold,
    is_concept,
    stem,
    tokens,
    word_set,
)

NUMBER_WORDS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "thirteen": "13", "fourteen": "14", "fifteen": "15", "sixteen": "16", "seventeen": "17",
    "eighteen": "18", "nineteen": "19", "twenty": "20", "thirty": "30", "forty": "40", "fifty": "50", "sixty": "60",
    "seventy": "70", "eighty": "80", "ninety": "90", "hundred": "100",
}  # fmt: skip
"""Number words read as numbers ("three weeks" states the 3 of "3 weeks")."""
_UNITS = {"hour": 1, "hours": 1, "hrs": 1, "h": 1, "day": 24, "days": 24, "week": 168, "weeks": 168}
"""Hours in a unit of time: "72 hours" and "three days" state one deadline."""

COUNT_NOUNS = word_set(
    """person people persons individual individuals name names location locations place
    places city cities country countries entity entities organization organizations
    organisation organisations company companies face faces child children item items
    object objects document documents card cards field fields identifier identifiers
    attribute attributes address addresses email emails record records row rows
    category categories type types device devices screen screens camera cameras window
    windows factor factors piece pieces date dates number numbers"""
)
"""Nouns whose preceding number is a count of things the answer must also name."""

LABELS = word_set(
    """person per location loc organization organisation org event misc date time name
    names address phone email number type types entity entities here named following
    note overall summary answer yes no none not direct quasi identifier identifiers
    risk risks privacy sensitive information key potential article articles section
    principle recital chapter clause regulation act option choice wi-fi wifi qr pin id
    url ip gps usb nfc sim iban ssn dob cvv pnr bluetooth e-mail email internet app pdf
    ssid wpa"""
)
"""Capitalised words that label rather than name (entity types, headings)."""

_IDENTIFIER = re.compile(r"\b(?=[\w\-]*\d)(?=[\w\-]*[^\W\d_])[\w\-]{4,}\b")
_NUMBER = re.compile(
    r"\d{1,3}(?:,\d{3})+(?![\d,])|\(\d{2,5}\)\s*\d[\d\s\-./]*\d|\+?\d[\d\s\-./:]*\d|\d"
)
"""A number: grouped by thousands ("600,000"), a phone number with its area code in
parentheses ("(416) 555-0193"), or digits joined by spaces, dashes, dots, slashes or
colons (phone numbers, dates, times)."""
_RANGE_DASH = re.compile(r"(?<=\d)\s*[–—]\s*(?=\d)")
"""An en or em dash between numbers ("30–39"): the same range as "30-39"."""
_LIST_MARKER = re.compile(r"^[ \t>*-]*\d{1,2}[.)][ \t]+", re.MULTILINE)
"""The number of a numbered list item ("1. **Consent** …"): an order, not a fact."""
_WORD_NUMBER = re.compile(
    r"\b(" + "|".join(sorted(set(NUMBER_WORDS) - {"one"}, key=len, reverse=True)) + r")\b"
    r"|\b(one)(?=\s+(?:calendar\s+|business\s+|working\s+)?(?:hour|day|week|month|year|"
    r"minute|copy|time|person|name|location|place|city|entity|organi[sz]ation|company|face|"
    r"child|item|object|document|card|field|identifier|attribute|address|record|row|device|"
    r"screen|camera|window|factor|piece|date|number)s?\b)"
)
"""A number word — "one" only before what it counts ("one month", "one card"), not as a
pronoun ("the last one", "one of them", "no one")."""
_TIME = re.compile(
    r"\b(\d+|" + "|".join(NUMBER_WORDS) + r")\s*(?:calendar\s+|business\s+|working\s+)?"
    r"(" + "|".join(_UNITS) + r")\b"
)


def in_other_units(text: str) -> frozenset[str]:
    """An answer's periods of time in the other unit ("three days" → "72", "72 hours" →
    "3"), to meet a reference that writes the same period otherwise. Only answers get
    them: a reference's own numbers stay as written."""
    found = set()
    for number, unit in _TIME.findall(fold(text)):
        value = int(NUMBER_WORDS.get(number, number)) * _UNITS[unit]
        if _UNITS[unit] > 1:
            found.add(str(value))
        elif value % 24 == 0:
            found.add(str(value // 24))
    return frozenset(found)


_INITIAL = re.compile(
    r"(?:^|[.!?]\s+|<(?:AND|OR)>\s*|\n\s*(?:[-*•]|\d+[.)])?\s*[*_\"'(]*)([A-ZА-ЯЁΑ-Ω][\w'\-]*)"
    r"(?![\w'\-]*\s+[A-ZА-ЯЁΑ-Ω])"
)
_DEMONYM = re.compile(r"\b([A-Z][a-z]+(?:ish|ian|ese|an|ch|ic|i))\s+(?=[a-z])")
"""Nationality adjectives ("the German customer card"): a description, not a name."""
_FORMULA = re.compile(r"(?<![\w])[a-zA-Z]\s*[−–+-]\s*\d+\b")
"""Numbers in formulas ("k−1 others"): part of an explanation, not a fact to match."""
_WORKING = re.compile(r"(?:[$€£]?\d[\d,.]*\s*[×*·÷/−–+-]\s*)+[$€£]?\d[\d,.]*\s*=")
"""The operands of a worked sum ("2 × $90,000 − $80,000 = $100,000"): its result is the
fact; the numbers it is worked from are the working."""
CITATION = re.compile(r"\b\d+(?:\s?\([0-9a-z]{1,4}\))+")
_CAPITALISED = re.compile(r"\b[A-ZА-ЯЁΑ-Ω][\w'\-]+")
_COUNT = re.compile(
    r"(?<![\w.])(\d+|" + "|".join(NUMBER_WORDS) + r")"
    r"\s+(?:(?:different|distinct|unique|named|separate|other|real|specific|named)\s+)?"
    r"([a-z]+)\b"
)


CITED_NUMBER = re.compile(r"\b(?:articles?|art\.|sections?|§|recitals?|principles?)\s*\d")
"""A number that cites a provision of a law."""
_UNIT = re.compile(
    r"\b(articles?|sections?|recitals?|chapters?|clauses?|paragraphs?|principles?|rules?)"
    r"\s+\d"
)
"""Words that label a number ("Article 17", "Principle 4.3"): the number is the fact, so
the word alone ("Article 15") must not meet the reference."""

LAWS = word_set("gdpr dsgvo rgpd pipeda hipaa ccpa cpra lgpd pdpa pipl appi coppa ferpa glba eu uk")
"""Names of laws: context the question already gives, never the point of an answer."""


def _acronym(word: str) -> bool:
    """An all-capital word of two or more letters ("WHO", "UN"), not a connective."""
    return word.isupper() and len(word) > 1 and word not in ("AND", "OR", "YES", "NO", "OK")


def digits(token: str) -> str:
    """A number's digits without separators ("+49 1514" → "491514")."""
    return re.sub(r"\D", "", token)


@dataclass(frozen=True)
class Facts:
    """What a text states that must match exactly, its counts and its content words."""

    numbers: frozenset[str]
    names: frozenset[str]
    counts: frozenset[str]
    words: frozenset[str]


_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            "january jan janvier enero januar janeiro",
            "february feb février fevrier febrero februar fevereiro",
            "march mar mars marzo märz marz março",
            "april apr avril abril",
            "may mai mayo maio",
            "june jun juin junio juni junho",
            "july jul juillet julio juli julho",
            "august aug août aout agosto",
            "september sep sept septembre septiembre setembro",
            "october oct octobre octubre oktober outubro",
            "november nov novembre noviembre novembro",
            "december dec décembre decembre diciembre dezember dezembro",
        ),
        start=1,
    )
    for name in names.split()
}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATES = (
    (re.compile(r"\b(\d{1,2})[./-](\d{1,2})[./-](\d{4})\b"), "dmy"),
    (re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"), "ymd"),
    (
        re.compile(
            rf"\b(\d{{1,2}})(?:st|nd|rd|th|er|\.)?\s+(?:de\s+)?({_MONTH})\.?,?\s+(?:de\s+)?(\d{{4}})\b",
            re.I,
        ),
        "dMy",
    ),
    (re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I), "Mdy"),
    (re.compile(rf"\b()({_MONTH})\.?,?\s+(?:de\s+)?(\d{{4}})\b", re.I), "My"),
    (re.compile(r"(?<![\d/.])()(0?[1-9]|1[0-2])/(\d{2}|\d{4})(?![\d/])"), "my"),
)


def _iso(day: int, month: int, year: int) -> str:
    return f" {year:04d}{month:02d}{day:02d} " if 1 <= month <= 12 and 1 <= day <= 31 else ""


def normalise_dates(text: str) -> str:
    """Dates written as the same eight digits whatever their form ("12.03.1990",
    "12 March 1990", "March 12, 1990", "1990-03-12" → "19900312"; a month and year, as
    on a card, six: "09/27", "September 2027" → "202709"): a date is one fact,
    and answers rarely copy the reference's format. Numeric dates are read day first
    (12.03.1990 is 12 March) unless the second number cannot be a month (12/31/2020)."""

    def rewrite(match: re.Match[str], order: str) -> str:
        a, b, c = match.groups()
        if order == "ymd":
            iso = _iso(int(c), int(b), int(a))
        elif order == "dMy":
            iso = _iso(int(a), _MONTHS[b.lower()], int(c))
        elif order == "Mdy":
            iso = _iso(int(b), _MONTHS[a.lower()], int(c))
        elif order in ("My", "my"):  # a card's expiry: month and year only
            month = _MONTHS[b.lower()] if order == "My" else int(b)
            year = int(c) + 2000 if len(c) == 2 else int(c)
            # the year alone stays a fact too ("September 2027" also says 2027), kept
            # apart by a word so that the two are not read as one long number
            iso = f" {year:04d}{month:02d} " + (f"and {year} " if order == "My" else "")
        else:
            day, month = int(a), int(b)
            if month > 12 >= day:  # 12/31/2020: month first
                day, month = month, day
            iso = _iso(day, month, int(c))
        return iso or match.group(0)

    if not any(c.isdigit() for c in text):
        return text  # no date without a number
    for pattern, order in _DATES:
        text = pattern.sub(lambda m, o=order: rewrite(m, o), text)  # type: ignore[misc]
    return text


@lru_cache(maxsize=8192)
def facts(text: str) -> Facts:
    """The key facts of a text: numbers (counts apart), identifiers, names; and its words.

    Capitalised words are names unless they open a sentence, a line or a list item, or
    are labels; words in other scripts than Latin are names; so are identifiers that mix
    letters and digits (booking codes, licence plates).
    """
    text = normalise_dates(_RANGE_DASH.sub("-", text))
    citations = {re.sub(r"\s", "", c) for c in CITATION.findall(text)}
    identifiers = {m.lower() for m in _IDENTIFIER.findall(text)}
    numeric_text = _FORMULA.sub(" ", _IDENTIFIER.sub(" ", CITATION.sub(" ", text)))
    numeric_text = _WORKING.sub(" ", _LIST_MARKER.sub(" ", numeric_text))
    folded = fold(numeric_text)
    counts = _counts(folded)
    numbers = {digits(n) for n in _NUMBER.findall(numeric_text) if digits(n)} | citations
    numbers |= {NUMBER_WORDS[a or b] for a, b in _WORD_NUMBER.findall(folded)}
    # "Porto.", "Acme Corp": a name, not a sentence — but "Parental consent." is a phrase
    short_words = numeric_text.split()
    short = len(short_words) <= 3 and all(
        w[:1].isupper() or not w[:1].isalpha() for w in short_words
    )
    short = short and not (
        len(short_words) == 1 and is_concept(fold(short_words[0].strip(".,;:!?")))
    )
    initial = set() if short else {m.lower() for m in _INITIAL.findall(numeric_text)}
    names = {
        w.lower().removesuffix("'s")
        for w in _CAPITALISED.findall(numeric_text)
        if (w.lower() not in STOP or _acronym(w))
        and w.lower() not in LABELS
        and (w.isascii() or not is_concept(w.lower()))  # "ФИО": a label, in Cyrillic
        and (w.lower() not in initial or _acronym(w))
    }
    names |= {part for n in names if not n.isascii() and "-" in n for part in n.split("-") if part}
    names |= _caseless_names(text)
    names -= {d.lower() for d in _DEMONYM.findall(numeric_text)}
    names |= identifiers
    names -= LAWS
    units = {stem(u) for u in _UNIT.findall(fold(text))}
    words = content_words(numeric_text) - {stem(n) for n in names} - LAWS - units
    return Facts(frozenset(numbers - counts), frozenset(names), counts, words)


_BEYOND_LATIN = re.compile(r"[^\x00-\u02ff]")
"""A character of a script other than Latin."""
_CASED_SCRIPT = re.compile(r"[\u0370-\u03ff\u0400-\u04ff\u0530-\u058f]")
"""Greek, Cyrillic, Armenian: scripts with capitals, whose names are capitalised."""
_CJK_NUMERAL = {"一": "1", "二": "2", "两": "2", "兩": "2", "三": "3", "四": "4", "五": "5",
                "六": "6", "七": "7", "八": "8", "九": "9", "十": "10"}  # fmt: skip
_CJK_COUNT = re.compile(r"([一二两兩三四五六七八九十]|\d+)\s*[个個位名人つ件条項项]")
"""A count in Chinese or Japanese: a numeral and its classifier ("两个", "三位", "2人")."""


def _caseless_names(text: str) -> set[str]:
    """Names in scripts without capitals (Chinese, Japanese, Korean, Arabic, Hindi…): every
    word but the labels of personal data ("姓名", "الاسم") and counts ("两个"); a Chinese or
    Japanese run loses its labels and counts and keeps the rest ("姓名张伟" → "张伟")."""
    found: set[str] = set()
    if not _BEYOND_LATIN.search(text):
        return found
    for token in tokens(text):
        if not _BEYOND_LATIN.search(token) or _CASED_SCRIPT.search(token):
            continue
        if is_concept(token) or token in STOP:
            continue
        labels, rest = cjk_labels(token) if CJK.search(token) else ([], token)
        parts = _CJK_COUNT.sub(" ", rest).split()
        if labels and len(rest.split()) > 1:
            continue  # labels inside a clause ("采取严格保护措施"): its pieces are no names
        found |= {part for part in parts if not _PARTICLES.search(part)}
    return found


_PARTICLES = re.compile(r"[的了是并且及或在有把被のはをがにでと는은을를이가에서와과]")
"""Particles of Chinese, Japanese and Korean sentences: a run that holds one is a clause
("需要取得个人的单独同意"), not a name ("张伟", "北京市朝阳区建国路88号")."""


def cjk_count(text: str) -> str | None:
    """The first count of a Chinese or Japanese text ("两个：王芳" → "2"), or None."""
    match = _CJK_COUNT.search(text)
    if not match:
        return None
    return _CJK_NUMERAL.get(match.group(1), match.group(1))


def _plural(noun: str) -> bool:
    return noun.endswith("s") or noun in ("people", "children")


def _counts_in_order(folded: str) -> list[str]:
    found = []
    for number, noun in _COUNT.findall(folded):
        value = NUMBER_WORDS.get(number, number)
        if noun in COUNT_NOUNS and (_plural(noun) != (value == "1")):
            found.append(value)
    return found


def _counts(folded: str) -> frozenset[str]:
    found = _counts_in_order(folded)
    cjk = cjk_count(folded)
    return frozenset(found + ([cjk] if cjk else []))


def count_in(text: str) -> str | None:
    """The count an answer states ("Two people: …" → "2"), or None."""
    found = _counts_in_order(fold(text))
    if found:
        return found[0]
    if cjk := cjk_count(text):
        return cjk
    lead = re.match(r"\W*(\d+|" + "|".join(NUMBER_WORDS) + r")\b", fold(text))
    return NUMBER_WORDS.get(lead.group(1), lead.group(1)) if lead else None


def transliterate(text: str) -> str:
    """Any script in Latin letters, lower case (names are often written either way:
    "Анна Смирнова" / "Anna Smirnova", "张伟" / "Zhang Wei"); :mod:`anyascii` holds the
    tables, for every script."""
    return anyascii(text).lower()


SUBSCRIBER_DIGITS = 8
"""Digits a phone number keeps in any format: "+44 20 7946 0958" and "020 7946 0958"
share "2079460958" once the country code and the trunk 0 are set aside."""


def same_phone_number(a: str, b: str) -> bool:
    """Whether two numbers (digits only) are one phone number written with and without
    its country code or trunk prefix: the shorter, without leading zeros, ends the longer
    and has at least :data:`SUBSCRIBER_DIGITS` digits."""
    short, long = sorted((a.lstrip("0"), b.lstrip("0")), key=len)
    return len(short) >= SUBSCRIBER_DIGITS and short != long and long.endswith(short)


def same_name(a: str, b: str) -> bool:
    """The same name word, allowing one slip in a long Latin one (Vargas / Varga)."""
    if a == b:
        return True
    return (
        len(a) >= 5
        and a.isalpha()
        and a.isascii()
        and abs(len(a) - len(b)) <= 1
        and SequenceMatcher(None, a, b).ratio() >= 0.85
    )


def name_in(name: str, answer_names: frozenset[str], folded_answer: str) -> bool:
    """A name matches as written or inside the answer's text (any script); a name in
    another script also matches its transliteration, spelled slightly differently
    (Roskosmos / Roscosmos), and a Chinese one its syllables written apart."""
    if name in answer_names:
        return True
    if name.isascii():
        if re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", folded_answer):
            return True
    elif name in folded_answer:
        return True
    latin = transliterate(name)
    if latin == name:  # Latin names: exact, or one slip in a long name (Vargas / Varga)
        return len(name) >= 5 and any(
            same_name(name, t) for t in set(tokens(folded_answer)) | answer_names
        )
    answer_latin = transliterate(folded_answer)
    if latin in answer_latin:
        return True
    if CJK.search(name) and len(name) >= 2:  # "张伟" is "Zhang Wei": syllables apart
        return re.sub(r"[\W_]", "", latin) in re.sub(r"[\W_]", "", answer_latin)
    candidates = {transliterate(n) for n in answer_names} | set(
        tokens(transliterate(folded_answer))
    )
    return len(latin) >= 4 and any(
        SequenceMatcher(None, latin, c).ratio() >= 0.8 for c in candidates
    )


_NAME_SPAN = re.compile(r"(?<![\w'])[A-ZÀ-ÖØ-Þ][\w'\-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w'\-]*)*")


def name_spans(text: str) -> list[frozenset[str]]:
    """The capitalised name spans of a text ("David Chen"), each as its lower-case words."""
    return [
        frozenset(w.lower().removesuffix("'s") for w in span.split())
        for span in _NAME_SPAN.findall(text)
    ]


def initials(words: Sequence[str]) -> str:
    """The first letters of a name's words, lower case: its abbreviation ("EU")."""
    return "".join(w[0] for w in words).lower()


def abbreviated(text: str, answer: str) -> set[str]:
    """Words of the text's names that the answer writes as their initials ("EU" for
    European Union, "MSF" for Médecins Sans Frontières): an abbreviation names the same
    thing."""
    capitals = set(re.findall(r"\b[A-Z]{2,6}\b", answer))
    found: set[str] = set()
    for span in _NAME_SPAN.findall(text):
        words = span.split()
        if len(words) >= 2 and initials(words).upper() in capitals:
            found |= {w.lower().removesuffix("'s") for w in words}
    return found


def _within(small: frozenset[str], large: frozenset[str]) -> bool:
    return all(any(same_name(w, v) for v in large) for w in small)


def full_name_given(full: frozenset[str], answer_spans: Sequence[frozenset[str]]) -> bool | None:
    """Whether an answer names a reference's full name: True when a name in the answer
    contains it or is part of it ("Tom" for "Tom Baker"); False when the answer only
    has names that share a word with it ("Michael Chen" for "David Chen", "Anna Berg"
    for "Tomas Berg": another person); None when no name of the answer touches it."""
    near = [span for span in answer_spans if any(same_name(w, v) for w in full for v in span)]
    if not near:
        return None
    return any(_within(full, span) or _within(span, full) for span in near)
