"""What an item family is: question templates plus a generator of image and answer.

A :class:`Family` is data: its name, the competency combinations it serves, a tuple of
question templates (``str.format`` fields filled from the draft's ``slots``) and a
``make`` function that draws the image from fictitious data and writes the reference
answer *from what it drew*. :func:`build` runs a family under a text log, so every
string drawn is kept with the item (the tests check each against its font).

Reference answers follow the paper: ``<AND>`` joins elements that must all be present,
``<OR>`` alternatives of which one suffices.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from PIL import Image

from privbench.suites.priviq.competencies import Combination, combination_of
from privbench.tooling.drawing.draw import text_log
from privbench.tooling.drawing.identities import faker, person


@dataclass
class GeneratedItem:
    """One item before it is written: image, question, reference answer, competencies."""

    image: Image.Image
    question: str
    answer: str
    family: str
    facts: list[str] = field(default_factory=list)
    language: str = "en"
    texts: list[str] = field(default_factory=list)
    photo: bool = False


@dataclass
class Draft:
    """What a family's generator returns: the image, the answer and the question's slots.

    ``facts`` are strings printed in the image that the answer rests on (the legibility
    test reads them back with OCR); ``photo`` marks camera-degraded images.
    """

    image: Image.Image
    answer: str
    slots: dict[str, str] = field(default_factory=dict)
    facts: list[str] = field(default_factory=list)
    photo: bool = False


Maker = Callable[[random.Random, str], Draft]


@dataclass(frozen=True)
class Family:
    name: str
    combinations: tuple[Combination, ...]
    questions: tuple[str, ...]
    make: Maker


def family(name: str, combos: list[tuple[str, ...]], questions: list[str], make: Maker) -> Family:
    return Family(name, tuple(combination_of(c) for c in combos), tuple(questions), make)


def build(fam: Family, rng: random.Random, language: str = "en") -> GeneratedItem:
    """Draw one item of ``fam`` (question template chosen by ``rng``)."""
    with text_log() as log:
        draft = fam.make(rng, language)
    question = rng.choice(fam.questions).format(**draft.slots)
    return GeneratedItem(
        draft.image,
        question,
        fit_polarity(question, draft.answer),
        fam.name,
        draft.facts,
        language,
        [t for t in log if t],
        draft.photo,
    )


_YES_NO = re.compile(r"(^|[.,] )(does|do|is|are|would|can|could|did|should|was)\b", re.IGNORECASE)


def fit_polarity(question: str, answer: str) -> str:
    """Drop a leading "Yes, " when the question is not a yes/no question ("What could…")."""
    if answer.startswith("Yes, ") and not _YES_NO.search(question):
        return answer[5].upper() + answer[6:]
    return answer


def conj(parts: list[str], op: str = "AND") -> str:
    return f" <{op}> ".join(parts)


def listing(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def article(noun: str) -> str:
    """``a`` or ``an`` for a noun phrase, by the sound of its first word."""
    word = noun.split()[0]
    if word.isupper() and len(word) <= 5:  # an acronym read letter by letter: an SSN, an HIV
        vowel = word[0] in "AEFHILMNORSX"
    else:
        lower = word.lower()
        vowel = lower.startswith(("hour", "honest", "heir")) or (
            lower[0] in "aeiou" and not lower.startswith(("uni", "use", "usu", "eu", "one"))
        )
    return f"{'an' if vowel else 'a'} {noun}"


_COMPANY_SUFFIX = re.compile(r",? (Inc|LLC|Ltd|PLC|Group|and Sons)\.?$")


def company(rng: random.Random, language: str = "en", kind: str = "") -> str:
    """A fictitious organisation name in the locale (legal suffixes trimmed for English);
    ``kind`` (English only) fixes the line of business, e.g. "Clinic"."""
    if language == "en":
        fake = faker(rng, "en")
        stem = fake.last_name()
        business = rng.choice(["Health", "Bank", "Retail", "Insurance", "Telecom", "Clinic", "Travel",
                           "Analytics", "Pharmacy", "Fitness", "Energy", "Books"])  # fmt: skip
        return f"{stem} {kind or business}"
    if language == "ru":
        return f"{rng.choice(['ООО', 'АО'])} «{faker(rng, language).last_name()}»"
    name = person(rng, language).company
    return _COMPANY_SUFFIX.sub("", name.split(",")[0])


def first_name(full: str) -> str:
    return full.split()[0] if " " in full else full
