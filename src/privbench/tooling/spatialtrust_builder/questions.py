"""q1–q5 of a team's own captures, built from their annotations.

:func:`dataset_records` turns annotations into dataset records in the shape the generator
writes (:mod:`privbench.suites.spatialtrust.question_design`), with each record's annotation kept
under ``annotation``. q1 is "Yes" when a capture has a direct or indirect element; q2/q3
offer every present factor of their category (elements whose names differ only in case,
spacing, a leading article or a final period are one *type*, one option with all their
boxes); q4/q5 explain each factor and, for near misses, why they are none.

**Options that do not give the answer away.** The generator's rules, with the annotated
names as the types: the number of own-category options given the number of present types
(:func:`~privbench.suites.spatialtrust.question_design.allocate_k`); own-category types offered
absent suite-wide in proportion to how often each is present
(:func:`~privbench.suites.spatialtrust.question_design.assign_absent`), drawn from the *other*
captures' names of that category, so every annotated name is offered both present and
absent, and from the vocabulary's factor texts once those are used up; present factors of
the other category as distractors, with as many other-category texts offered absent; the
remaining slots filled with the capture's own near misses and then the vocabulary's
benign and near-miss texts. An absent option never describes what the capture shows: a
text that shares its head noun with a factor of the capture, or names a person where the
capture has a person factor, is not offered (:func:`describes_same`).

**Deterministic.** Suite-wide choices use one random stream from ``seed``, each capture's
own choices a stream from ``seed`` and its image id (``random.Random`` seeded with a string
hashes it with SHA-512, independent of ``PYTHONHASHSEED``); captures are balanced in image
id order, so the same annotations in any order give the same records, in their order.
Balancing is suite-wide: adding a capture may change the distractors of others.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from privbench.suites.spatialtrust.annotation import (
    ANNOTATION_KEY,
    Annotation,
    Category,
    SceneElement,
    annotation_record,
)
from privbench.suites.spatialtrust.baseline import option_key
from privbench.suites.spatialtrust.boxes import Box
from privbench.suites.spatialtrust.question_design import (
    CATEGORY,
    SLOTS,
    ChoiceRecord,
    ExplanationRecord,
    QuestionTypes,
    allocate_k,
    assign_absent,
    choice_question,
    explanation_question,
    offer_other_present,
    other_absent_slots,
    q1_question,
)
from privbench.tooling.spatialtrust_scenes.vocabulary import KINDS

CHOICE_CATEGORIES: dict[str, tuple[Category, Category]] = {
    "q2": ("direct", "indirect"),
    "q3": ("indirect", "direct"),
}
"""Each choice question's own category and the other one (whose factors are distractors)."""

VOCABULARY_FACTORS: dict[Category, tuple[str, ...]] = {
    "direct": tuple(k.option for k in KINDS.values() if k.role == "direct"),
    "indirect": tuple(k.option for k in KINDS.values() if k.role == "indirect"),
}
"""Factor texts offered absent once the annotated names of a category are used up (a team's
suite of a few captures has too few names of its own)."""
VOCABULARY_FILLERS: tuple[str, ...] = tuple(
    k.option for k in KINDS.values() if k.role in ("benign", "near-miss")
)
"""Texts that are never a factor (room furniture, look-alikes): safe as distractors even
where the capture shows them, since they are not an answer either way."""

LEADING_ARTICLES = ("a ", "an ", "the ")
FUNCTION_WORDS = frozenset((
    "a", "an", "the", "of", "on", "in", "at", "to", "into", "onto", "from", "by", "for",
    "with", "without", "and", "or", "near", "next", "behind", "above", "below", "under",
    "over", "beside", "between", "through", "toward", "towards", "its", "their", "his",
    "her", "it", "is", "are", "this", "that", "which", "who", "one", "two", "three", "some",
    "user",
))  # fmt: skip
"""Words that say nothing about what a thing is (ignored when comparing texts; every
capture has its user, so two texts naming the user need not name the same thing)."""
HEAD_BREAKS = FUNCTION_WORDS | frozenset(("showing", "reflecting", "pointed", "aimed", "left", "facing"))  # fmt: skip
"""Words after which a noun phrase's head has been said ("note" in "note with a password")."""
PERSON_WORDS = frozenset((
    "person", "persons", "people", "man", "men", "woman", "women", "someone", "somebody",
    "colleague", "colleagues", "coworker", "co-worker", "bystander", "bystanders",
    "passerby", "passer-by", "passers-by", "stranger", "strangers", "customer", "customers",
    "visitor", "visitors", "student", "students", "child", "children", "kid", "kids", "guy",
    "lady", "figure", "individual", "worker", "staff", "waiter", "barista",
))  # fmt: skip
"""Words naming a person: two texts that both name one may describe the same person."""
HEAD_CLASSES: dict[str, str] = {
    "mezzanine": "balcony", "gallery": "balcony",
    "cctv": "camera", "webcam": "camera",
    "monitor": "screen", "display": "screen", "tv": "screen", "television": "screen",
    "smartphone": "phone", "tablet": "phone",
    "post-it": "note",
}  # fmt: skip
"""Words annotators use for one thing (a "mezzanine" is a "balcony"), compared as one."""
SAME_STEM_LENGTH = 4
"""Words this long or longer that start one another ("door", "doorway") count as one."""
PRESENT_ROLES: tuple[Category, ...] = ("direct", "indirect")

_WORD = re.compile(r"[a-z0-9]+(?:['’-][a-z0-9]+)*")


def type_key(name: str) -> str:
    """The key that makes two annotated names one type: the audit's option key (case,
    spacing, final period ignored) without a leading article."""
    key = option_key(name)
    for article in LEADING_ARTICLES:
        if key.startswith(article):
            return key[len(article) :]
    return key


@cache
def _words(key: str) -> tuple[str, ...]:
    words = (w.removesuffix("'s").removesuffix("’s") for w in _WORD.findall(key))
    return tuple(HEAD_CLASSES.get(w, w) for w in words)


@cache
def _content(key: str) -> frozenset[str]:
    return frozenset(w for w in _words(key) if w not in FUNCTION_WORDS)


@cache
def _head(key: str) -> str:
    """The head noun of a text's first noun phrase ("note" in "sticky note with password",
    "person" in "person standing behind the user"), or "" if it has none."""
    head = ""
    for position, word in enumerate(_words(key)):
        if head and (word in HEAD_BREAKS or (position and word.endswith("ing"))):
            break
        if word not in FUNCTION_WORDS:
            head = word
    return head


def _same_word(a: str, b: str) -> bool:
    return a == b or (
        min(len(a), len(b)) >= SAME_STEM_LENGTH and (a.startswith(b) or b.startswith(a))
    )


def describes_same(a: str, b: str) -> bool:
    """Whether two option texts (type keys) could describe the same thing: equal, both name
    a person, or one's head noun is a word of the other ("a note pinned to the wall" and
    "sticky note with password"; "a switched-off TV" and "a dark TV screen reflecting...").

    Why so wide: an absent option that could describe a factor of the image can be argued
    true, and then the "right" answer is wrong. Refusing a few safe distractors costs only
    a choice among many.
    """
    if a == b:
        return True
    if _content(a) & PERSON_WORDS and _content(b) & PERSON_WORDS:
        return True
    head_a, head_b = _head(a), _head(b)
    return any(_same_word(head_a, w) for w in _content(b) if head_a) or any(
        _same_word(head_b, w) for w in _content(a) if head_b
    )


@dataclass
class _Capture:
    """One annotation while the suite's options are chosen."""

    annotation: Annotation
    rng: random.Random
    present: dict[Category, list[str]]
    """Type keys of direct and indirect elements, in order of first appearance."""
    keys: frozenset[str]
    """Type keys of every element (near misses included)."""
    offered: dict[str, list[str]] = field(default_factory=lambda: {"q2": [], "q3": []})

    @property
    def factors(self) -> list[str]:
        return self.present["direct"] + self.present["indirect"]

    def may_offer_absent(self, key: str, qid: str) -> bool:
        """Whether ``key`` may be offered in ``qid`` as something the capture does not show."""
        return (
            key not in self.keys
            and not any(describes_same(key, present) for present in self.factors)
            and not any(describes_same(key, taken) for taken in self.offered[qid])
        )


def _keys_in_order(elements: Iterable[SceneElement]) -> list[str]:
    return list(dict.fromkeys(type_key(e.name) for e in elements))


def _display_texts(annotations: Sequence[Annotation]) -> dict[str, str]:
    """The option text of every type: its most frequent written form (ties: the first in
    sorted order), then the vocabulary's texts — one text per type across the suite."""
    forms: dict[str, Counter[str]] = {}
    for annotation in annotations:
        for element in annotation.elements:
            written = " ".join(element.name.split())
            forms.setdefault(type_key(written), Counter())[written] += 1
    texts = {
        key: sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] for key, c in forms.items()
    }
    for text in (
        *VOCABULARY_FACTORS["direct"],
        *VOCABULARY_FACTORS["indirect"],
        *VOCABULARY_FILLERS,
    ):
        texts.setdefault(type_key(text), text)
    return texts


def _check(annotations: Sequence[Annotation]) -> None:
    """Refuse what would make an invalid or ambiguous record (with the image id)."""
    seen: set[str] = set()
    for annotation in annotations:
        if annotation.image_id in seen:
            raise ValueError(f"{annotation.image_id}: duplicate image id")
        seen.add(annotation.image_id)
        for element in annotation.elements:
            if not type_key(element.name):
                raise ValueError(f"{annotation.image_id}: an element has no name")
            if element.category != "near_miss" and not element.why.strip():
                raise ValueError(f"{annotation.image_id}: factor {element.name!r} has no why")
            pixel_box(element.box, annotation.width, annotation.height, annotation.image_id)


def pixel_box(box: Box, width: int, height: int, image_id: str = "") -> list[int]:
    """An annotated box as the integer box the dataset stores: widened to whole pixels and
    cut to the image; a box with no area left inside the image is an error."""
    x1, y1 = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
    x2, y2 = min(width, math.ceil(box[2])), min(height, math.ceil(box[3]))
    if x1 >= x2 or y1 >= y2:
        raise ValueError(
            f"{image_id}: box {list(box)} has no area inside the {width}×{height} image"
        )
    return [x1, y1, x2, y2]


def _choose_options(captures: list[_Capture], seed: int) -> None:
    """Every capture's q2/q3 option keys, by the shared balancing rules (module docstring)."""
    rng = random.Random(f"spatialtrust-build:{seed}")
    for qid, (own, other) in CHOICE_CATEGORIES.items():
        sizes = [len(c.present[own]) for c in captures]
        ks = allocate_k(sizes, rng)
        for capture in captures:
            capture.offered[qid] = list(capture.present[own])
        offered = [c.offered[qid] for c in captures]

        def allowed(index: int, key: str, qid: str = qid) -> bool:
            return captures[index].may_offer_absent(key, qid)

        own_slots = {i: k - size for i, (k, size) in enumerate(zip(ks, sizes, strict=True))}
        _assign(captures, own, own_slots, allowed, rng, offered)
        shown = sum(offer_other_present(c.offered[qid], c.present[other], c.rng) for c in captures)
        room = [SLOTS - len(c.offered[qid]) for c in captures]
        _assign(captures, other, other_absent_slots(room, shown, rng), allowed, rng, offered)
        for capture in captures:
            _fill(capture, qid)


def _assign(
    captures: Sequence[_Capture],
    category: Category,
    slots: dict[int, int],
    allowed: Callable[[int, str], bool],
    rng: random.Random,
    offered: Sequence[list[str]],
) -> None:
    """Absent options of ``category``: the annotated names (each targeted in proportion
    to its presence), then, for slots no name could take, the vocabulary's factor texts.

    Why names first: a name offered absent less often than present is the one thing the
    option texts could give away; one offered absent more often gives nothing away.
    """
    present = Counter(k for c in captures for k in c.present[category])
    before = [len(o) for o in offered]
    assign_absent(offered, slots, sorted(present), present, allowed, rng)
    left = {i: n - (len(offered[i]) - before[i]) for i, n in slots.items()}
    vocabulary = [
        k for k in dict.fromkeys(map(type_key, VOCABULARY_FACTORS[category])) if k not in present
    ]
    assign_absent(offered, left, vocabulary, Counter(), allowed, rng)


def _fill(capture: _Capture, qid: str) -> None:
    """The free slots: the capture's own near misses, then benign and near-miss texts of
    the vocabulary in random order (never a factor, so safe wherever they are offered)."""
    taken = capture.offered[qid]
    near_misses = _keys_in_order(capture.annotation.of("near_miss"))
    for key in near_misses:
        if len(taken) < SLOTS and key not in taken:
            taken.append(key)
    fillers = [type_key(t) for t in VOCABULARY_FILLERS]
    capture.rng.shuffle(fillers)
    for key in fillers:
        if len(taken) >= SLOTS:
            break
        if capture.may_offer_absent(key, qid):
            taken.append(key)


def _choice(
    capture: _Capture, qid: str, texts: dict[str, str], types: QuestionTypes
) -> ChoiceRecord:
    annotation = capture.annotation
    own = CHOICE_CATEGORIES[qid][0]
    keys = list(capture.offered[qid])
    capture.rng.shuffle(keys)
    evidence = {
        index: [
            pixel_box(e.box, annotation.width, annotation.height, annotation.image_id)
            for e in annotation.of(own)
            if type_key(e.name) == key
        ]
        for index, key in enumerate(keys)
        if key in capture.present[own]
    }
    return choice_question(qid, [texts[k] for k in keys], evidence, types)


def _explanation(annotation: Annotation, qid: str) -> ExplanationRecord:
    category = CATEGORY[qid]
    factors = [
        (
            " ".join(e.name.split()),
            _sentence(e.why),
            pixel_box(e.box, annotation.width, annotation.height, annotation.image_id),
        )
        for e in annotation.elements
        if e.category == category
    ]
    # the annotation does not say which category a near miss resembles, and "not a factor"
    # is true of both questions; its name leads, since an annotator's why may not say it
    not_factors = [
        f"{' '.join(e.name.split())} — {_clause(e.why)}"
        if _clause(e.why)
        else " ".join(e.name.split())
        for e in annotation.of("near_miss")
    ]
    return explanation_question(qid, factors, not_factors)


def _sentence(text: str) -> str:
    """A why as a sentence of its own: trimmed, ending in a full stop."""
    text = " ".join(text.split())
    return text if text.endswith((".", "!", "?")) else f"{text}."


def _clause(text: str) -> str:
    """A why as the end of "Not a factor: …." (no final stop of its own)."""
    return " ".join(text.split()).rstrip(".")


def _capture(annotation: Annotation, seed: int) -> _Capture:
    return _Capture(
        annotation,
        random.Random(f"spatialtrust-build:{seed}:{annotation.image_id}"),
        {role: _keys_in_order(annotation.of(role)) for role in PRESENT_ROLES},
        frozenset(type_key(e.name) for e in annotation.elements),
    )


def dataset_records(
    annotations: Sequence[Annotation], *, seed: int = 0, question_types: QuestionTypes = "paper"
) -> list[dict[str, object]]:
    """One dataset record per annotation, in their order: ``id``, ``image``, ``width``,
    ``height``, ``questions`` (q1–q5, as the generator writes them) and ``annotation``.

    The same annotations and ``seed`` give the same records on any machine; a different
    ``seed`` draws other distractors and option orders (the answers stay the same).
    ``question_types`` types q2/q3 (:data:`~privbench.suites.spatialtrust.question_design.QUESTION_TYPES`).
    """
    _check(annotations)
    ordered = sorted(annotations, key=lambda a: a.image_id)
    captures = [_capture(a, seed) for a in ordered]
    _choose_options(captures, seed)
    texts = _display_texts(ordered)
    by_id: dict[str, dict[str, object]] = {}
    for capture in captures:
        annotation = capture.annotation
        by_id[annotation.image_id] = {
            "id": annotation.image_id,
            "image": annotation.image,
            "width": annotation.width,
            "height": annotation.height,
            "questions": [
                q1_question(bool(capture.factors)),
                _choice(capture, "q2", texts, question_types),
                _choice(capture, "q3", texts, question_types),
                _explanation(annotation, "q4"),
                _explanation(annotation, "q5"),
            ],
            ANNOTATION_KEY: annotation_record(annotation),
        }
    return [by_id[a.image_id] for a in annotations]
