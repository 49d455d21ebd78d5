"""q1–q5 built from annotations: hand-computed small cases, the rules on whole suites, the
option-name leakage on annotation sets that look like what annotators write, determinism
and validation.

Two kinds of annotation sets: the generator's plans turned into annotations (disciplined
annotators who reuse a fixed vocabulary of names) and a hand-made generator of free-text
names (synonyms, casing, articles, final periods) with the paper's category shares.

**Held out.** The sets in :data:`HELD_OUT` were fixed before the builder was tuned and were
measured once, after tuning on :data:`TUNING` only; their test keeps them measured.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import TESTS
from PIL import Image

from privbench.apportion import largest_remainder
from privbench.suites.spatialtrust.annotation import Annotation, Category, SceneElement
from privbench.suites.spatialtrust.audit import answer_shapes, leakage_details
from privbench.suites.spatialtrust.baseline import trivial_baselines
from privbench.suites.spatialtrust.dataset import DATASET_FILE, validate_spatialtrust
from privbench.suites.spatialtrust.question_design import NONE, SLOTS, allocate_k
from privbench.tooling.spatialtrust_builder.questions import (
    CHOICE_CATEGORIES,
    dataset_records,
    describes_same,
    type_key,
)
from privbench.tooling.spatialtrust_scenes.plan import (
    PAPER_IMAGES,
    PAPER_MULTIPLE,
    categories,
    plan_suite,
    spatial_items,
)

WIDTH, HEIGHT = 1440, 960
SUITE_SIZE = 300
"""Captures per measured annotation set (the leakage target is stated for 200 or more)."""
LEAKAGE_LIMIT = 3.0
"""Points the option texts alone may score above the trivial baseline, q2 and q3."""
TUNING: dict[str, tuple[int, ...]] = {"plans": (0, 1), "free text": (0, 1, 2)}
HELD_OUT: dict[str, tuple[int, ...]] = {"plans": (1000,), "free text": (1000, 1001, 1002)}
"""Annotation seeds fixed before tuning and never tuned on."""
BUILD_SEED = 0

Record = dict[str, object]


# --- annotation sets ------------------------------------------------------------------------


def plan_annotations(n: int, seed: int) -> list[Annotation]:
    """The generator's plans as annotations: each factor and near miss an element named by
    its option text (a disciplined annotator reusing a fixed vocabulary), why from the plan."""
    annotations: list[Annotation] = []
    role_to_category: dict[str, Category] = {
        "direct": "direct",
        "indirect": "indirect",
        "near-miss": "near_miss",
    }
    for plan in plan_suite(n, seed):
        elements = tuple(
            SceneElement(
                placed.kind.option,
                role_to_category[placed.kind.role],
                plan.words[index].why,
                _float_box(placed.visible),
            )
            for index, placed in enumerate(plan.elements)
            if placed.kind.role in role_to_category
        )
        annotations.append(
            Annotation(plan.image_id, f"images/{plan.image_id}.jpg", WIDTH, HEIGHT, elements)
        )
    return annotations


def _float_box(box: Sequence[float]) -> tuple[float, float, float, float]:
    return (float(box[0]), float(box[1]), float(box[2]), float(box[3]))


Concepts = tuple[tuple[tuple[str, ...], str], ...]
"""Things an annotator names: each with several phrasings and the reason it is a factor."""

DIRECT_CONCEPTS: Concepts = (
    (("sticky note with password on monitor", "a sticky note with a password",
      "Post-it note showing a password", "yellow sticky note with the login written on it"),
     "the password on it can be read in this capture"),
    (("Person looking at the laptop screen", "a man watching the user's screen",
      "someone peering over the user's shoulder", "a colleague reading the screen from behind"),
     "they can see the login as it is typed"),
    (("a person filming the user with a phone", "phone held up recording the screen"),
     "the recording captures the login screen"),
    (("mirror reflecting the laptop screen", "a wall mirror showing the login page",
      "reflection of the screen in a mirror"),
     "the reflected screen shows the account details"),
    (("window reflecting the screen", "a dark window showing the screen's reflection"),
     "the login page is visible in the glass"),
    (("a whiteboard with login details", "Whiteboard showing the Wi-Fi password",
      "whiteboard listing usernames and passwords"),
     "credentials are written where the camera sees them"),
    (("security camera pointed at the desk", "a CCTV camera aimed at the user",
      "ceiling camera facing the laptop"),
     "its footage records the login"),
    (("camera on a tripod facing the desk", "a recording camera pointed at the user"),
     "it records the screen and keyboard"),
    (("an ID badge with name and photo", "Employee badge lying on the desk",
      "a lanyard badge showing the user's name"),
     "it discloses the user's name and employer"),
    (("second monitor showing the login page", "a wall TV mirroring the laptop screen"),
     "the account page is shown a second time, large"),
    (("printed bank statement on the desk", "a letter with the user's home address",
      "open passport on the table"),
     "personal details are legible in this capture"),
)  # fmt: skip
INDIRECT_CONCEPTS: Concepts = (
    (("an open door behind the user", "Open doorway to the hallway", "door left ajar",
      "a half-open door"),
     "someone passing could look in at the screen"),
    (("Person standing behind the user", "a man walking past in the background",
      "people chatting at the back of the room", "someone sitting at the next table",
      "a passer-by behind the user"),
     "they could turn and see the screen at any moment"),
    (("a large window facing the street", "window onto a busy corridor",
      "glass wall into the meeting room", "uncovered window behind the user"),
     "people outside could see the screen through it"),
    (("a whiteboard showing a network diagram", "whiteboard with the office floor plan"),
     "it reveals how the workplace is organised"),
    (("a smart speaker on the shelf", "voice assistant device on the desk"),
     "it may be listening while the user speaks a code"),
    (("a convex mirror in the corner", "security mirror near the ceiling"),
     "it gives a view of the screen from elsewhere in the room"),
    (("a wall calendar with the user's schedule", "printed schedule pinned to the board"),
     "it tells when the user is away"),
    (("company logo on the wall", "a branded poster showing the employer's name"),
     "it narrows down where the user works"),
    (("an unlocked phone on the desk", "tablet lying face up next to the laptop"),
     "its notifications could show a login code"),
    (("a balcony overlooking the desk", "mezzanine above the user"),
     "someone up there would look down on the screen"),
    (("a parcel with a shipping label", "delivery box with an address label"),
     "the label could disclose the user's address"),
)  # fmt: skip
NEAR_MISS_NAMES: tuple[tuple[str, str], ...] = (
    ("switched-off TV", "the screen is off and reflects nothing readable"),
    ("a blank whiteboard", "nothing is written on it"),
    ("Framed photo of a family", "a photo cannot see the screen"),
    ("a mirror showing only the wall", "it reflects the wall, not the laptop"),
    ("closed door", "nobody can look in through it"),
    ("a camera pointed at the ceiling", "it is turned away from the desk."),
    ("window with closed blinds", "the blinds are fully closed"),
    ("a poster of a mountain", "it shows no personal information"),
)
MULTIPLE_SHARE = {
    "direct": PAPER_MULTIPLE["q2"] / 220,
    "indirect": PAPER_MULTIPLE["q3"] / 280,
}
"""Share of captures with a factor of the category whose question has several answers (the
paper's 52 of 220 direct and 67 of 280 indirect captures)."""
MORE_THAN_TWO = 0.2
"""Of the multiple-answer questions, how many have three or four types."""
SAME_NAME_TWICE = 0.1
"""Chance that a factor is annotated twice under one name (two notes, two people)."""
NEAR_MISS_SHARE = 0.4


def _written(rng: random.Random, name: str) -> str:
    """How an annotator might write a name: case, a leading article, a final period."""
    if rng.random() < 0.3:
        name = name[0].upper() + name[1:]
    elif rng.random() < 0.2:
        name = name.lower()
    if rng.random() < 0.15 and not name.lower().startswith(("a ", "an ", "the ")):
        name = f"the {name}"
    if rng.random() < 0.1:
        name += "."
    return name


def _box(rng: random.Random) -> tuple[float, float, float, float]:
    w, h = rng.uniform(40, 420), rng.uniform(40, 380)
    x, y = rng.uniform(0, WIDTH - w), rng.uniform(0, HEIGHT - h)
    return (round(x, 1), round(y, 1), round(x + w, 1), round(y + h, 1))


def _factors(
    rng: random.Random, category: Category, many: int, concepts: Concepts
) -> list[SceneElement]:
    elements: list[SceneElement] = []
    for phrasings, why in rng.sample(list(concepts), many):
        name = _written(rng, rng.choice(phrasings))
        why_text = why[0].upper() + why[1:] + ("." if rng.random() < 0.7 else "")
        elements.append(SceneElement(name, category, why_text, _box(rng)))
        if rng.random() < SAME_NAME_TWICE:
            elements.append(SceneElement(name, category, why_text, _box(rng)))
    return elements


def free_text_annotations(n: int, seed: int) -> list[Annotation]:
    """Captures with free-text names in the paper's shares: direct only / indirect only /
    both / neither as 111 / 171 / 109 / 186, about the paper's multiple-answer share, 0–4
    types per category, the same name twice on some, near misses on some."""
    rng = random.Random(f"free-text-annotations:{seed}")
    annotations: list[Annotation] = []
    for index, category in enumerate(categories(n, rng)):
        elements: list[SceneElement] = []
        plan: tuple[tuple[Category, Concepts, tuple[str, ...]], ...] = (
            ("direct", DIRECT_CONCEPTS, ("direct only", "both")),
            ("indirect", INDIRECT_CONCEPTS, ("indirect only", "both")),
        )
        for role, concepts, wanted in plan:
            if category not in wanted:
                continue
            many = 1
            if rng.random() < MULTIPLE_SHARE[role]:
                many = rng.choice((3, 4)) if rng.random() < MORE_THAN_TWO else 2
            elements += _factors(rng, role, many, concepts)
        if rng.random() < NEAR_MISS_SHARE:
            for name, why in rng.sample(NEAR_MISS_NAMES, rng.choice((1, 1, 2))):
                elements.append(SceneElement(_written(rng, name), "near_miss", why, _box(rng)))
        rng.shuffle(elements)
        image_id = f"cap-{seed}-{index + 1:04d}"
        annotations.append(
            Annotation(image_id, f"images/{image_id}.jpg", WIDTH, HEIGHT, tuple(elements))
        )
    return annotations


SETS = {"plans": plan_annotations, "free text": free_text_annotations}


def _questions(record: Mapping[str, object]) -> dict[str, dict[str, Any]]:
    questions = record["questions"]
    assert isinstance(questions, list)
    return {q["qid"]: q for q in questions}


def _one(
    elements: Sequence[SceneElement], image_id: str = "x-0001", others: Sequence[Annotation] = ()
) -> dict[str, dict[str, Any]]:
    annotation = Annotation(image_id, f"images/{image_id}.jpg", WIDTH, HEIGHT, tuple(elements))
    records = dataset_records([annotation, *others])
    return _questions(records[0])


BOX_A = (100.0, 100.0, 300.0, 300.0)
BOX_B = (500.5, 120.2, 700.7, 380.9)


# --- small cases ----------------------------------------------------------------------------


def test_two_present_direct_factors_are_both_options_and_the_answer() -> None:
    q = _one(
        [
            SceneElement(
                "sticky note with password on monitor", "direct", "The password is legible.", BOX_A
            ),
            SceneElement(
                "Person looking at the laptop screen", "direct", "They see the login.", BOX_B
            ),
        ],
        others=free_text_annotations(40, 5),
    )["q2"]
    texts = {q["options"][letter] for letter in q["answer"]}
    assert texts == {"sticky note with password on monitor", "Person looking at the laptop screen"}
    assert q["type"] == "multiple"
    assert list(q["options"].values())[-1] == NONE
    assert len(q["options"]) == SLOTS + 1
    assert sorted(q["evidence"]) == q["answer"]


def test_six_indirect_factors_get_six_options_and_letters_continue() -> None:
    names = [
        "an open door behind the user",
        "a large window facing the street",
        "a smart speaker on the shelf",
        "a balcony overlooking the desk",
        "company logo on the wall",
        "a parcel with a shipping label",
    ]
    q = _one([SceneElement(n, "indirect", "It is a risk.", BOX_A) for n in names])["q3"]
    real = {k: v for k, v in q["options"].items() if v != NONE}
    assert len(real) >= 6
    assert sorted(real[letter] for letter in q["answer"]) == sorted(names)
    assert list(q["options"])[-1] == "ABCDEFG"[len(real)]
    assert q["options"][list(q["options"])[-1]] == NONE
    assert q["type"] == "multiple"


def test_same_name_elements_share_one_option_with_two_boxes() -> None:
    q = _one(
        [
            SceneElement("A sticky note with a password", "direct", "Legible.", BOX_A),
            SceneElement("sticky note with a password.", "direct", "Legible too.", BOX_B),
        ]
    )
    (letter,) = q["q2"]["answer"]
    assert q["q2"]["type"] == "single"
    assert q["q2"]["evidence"][letter] == [[100, 100, 300, 300], [500, 120, 701, 381]]
    assert len(q["q4"]["factors"]) == 2  # q4 explains each element


def test_no_factor_means_no_and_none_of_the_above() -> None:
    q = _one([SceneElement("switched-off TV", "near_miss", "The screen is off.", BOX_A)])
    assert q["q1"]["answer"] == ["B"]
    for qid in ("q2", "q3"):
        assert [q[qid]["options"][a] for a in q[qid]["answer"]] == [NONE]
        assert q[qid]["evidence"] == {}
    assert q["q4"]["answer"] == (
        "No direct sensitive factor is visible in the background or non-primary area."
        " Not a factor: switched-off TV — The screen is off."
    )
    assert q["q4"]["factors"] == []


def test_explanations_say_name_and_why_with_boxes() -> None:
    q = _one([SceneElement("door left ajar", "indirect", "someone could look in", BOX_B)])
    assert q["q1"]["answer"] == ["A"]
    assert q["q5"]["answer"] == "Door left ajar: someone could look in."
    assert q["q5"]["factors"] == [
        {"name": "door left ajar", "why": "someone could look in.", "box": [500, 120, 701, 381]}
    ]
    assert q["q4"]["answer"].startswith("No direct sensitive factor is visible")


def test_a_box_outside_the_image_is_refused() -> None:
    bad = SceneElement("a note", "direct", "Legible.", (1500.0, 10.0, 1600.0, 50.0))
    with pytest.raises(ValueError, match="x-0001"):
        _one([bad])


def test_what_may_describe_the_same_thing() -> None:
    key = type_key
    assert describes_same(key("a note pinned to the wall"), key("sticky note with password"))
    assert describes_same(key("a switched-off TV"), key("a dark TV screen reflecting the laptop"))
    assert describes_same(key("Person standing behind the user"), key("a man watching the screen"))
    assert describes_same(key("an open doorway"), key("a door left ajar"))
    assert describes_same(key("Mezzanine above the user"), key("a balcony overlooking the desk"))
    assert not describes_same(
        key("a wall clock"), key("a wall mirror reflecting the laptop screen")
    )
    assert not describes_same(key("a potted plant"), key("sticky note with password on monitor"))
    assert key("The Sticky note.") == key("sticky  note") == "sticky note"


def test_three_or_more_present_types_offer_just_those() -> None:
    sizes = [3, 4, 0, 1, 2, 0, 0]
    k = allocate_k(sizes, random.Random(0))
    assert k[:2] == [3, 4]
    assert all(k_i >= s for k_i, s in zip(k, sizes, strict=True))


# --- rules on whole suites ------------------------------------------------------------------


@pytest.fixture(scope="module")
def suites() -> dict[str, list[tuple[list[Annotation], list[Record]]]]:
    built: dict[str, list[tuple[list[Annotation], list[Record]]]] = {"tuning": [], "held out": []}
    for part, seeds_of in (("tuning", TUNING), ("held out", HELD_OUT)):
        for name, seeds in seeds_of.items():
            for seed in seeds:
                annotations = SETS[name](SUITE_SIZE, seed)
                built[part].append((annotations, dataset_records(annotations, seed=BUILD_SEED)))
    return built


def _all(
    suites: Mapping[str, list[tuple[list[Annotation], list[Record]]]],
) -> list[tuple[Annotation, Record]]:
    return [pair for sets in suites.values() for a, r in sets for pair in zip(a, r, strict=True)]


def test_every_present_factor_is_an_option_and_near_misses_never_answer(
    suites: Mapping[str, list[tuple[list[Annotation], list[Record]]]],
) -> None:
    for annotation, record in _all(suites):
        q = _questions(record)
        assert q["q1"]["answer"] == (
            ["A"] if annotation.of("direct") + annotation.of("indirect") else ["B"]
        )
        for qid, (category, _) in CHOICE_CATEGORIES.items():
            options, answer = q[qid]["options"], q[qid]["answer"]
            present = {type_key(e.name) for e in annotation.of(category)}
            answered = {type_key(options[a]) for a in answer if options[a] != NONE}
            assert answered == present, annotation.image_id
            assert len(options) == max(SLOTS, len(present)) + 1
            assert list(options.values())[-1] == NONE
            assert q[qid]["type"] == ("multiple" if len(answer) > 1 else "single")
            misses = {type_key(e.name) for e in annotation.of("near_miss")} - present
            assert not misses & answered
            boxes = sum(len(b) for b in q[qid]["evidence"].values())
            assert boxes == len(annotation.of(category))


def test_a_text_the_image_shows_is_never_offered_absent(
    suites: Mapping[str, list[tuple[list[Annotation], list[Record]]]],
) -> None:
    """A wrong option is either an element of the image that is not of the question's
    category (a factor of the other one, a near miss) or describes nothing the image has."""
    for annotation, record in _all(suites):
        q = _questions(record)
        factors = [type_key(e.name) for e in annotation.of("direct") + annotation.of("indirect")]
        keys = {type_key(e.name) for e in annotation.elements}
        for qid, (category, _) in CHOICE_CATEGORIES.items():
            own = {type_key(e.name) for e in annotation.of(category)}
            for letter, text in q[qid]["options"].items():
                if letter in q[qid]["answer"] or text == NONE:
                    continue
                key = type_key(text)
                assert key not in own
                if key not in keys:
                    assert not any(describes_same(key, f) for f in factors), (
                        annotation.image_id,
                        text,
                    )


def test_boxes_are_integers_inside_the_image(
    suites: Mapping[str, list[tuple[list[Annotation], list[Record]]]],
) -> None:
    for _, record in _all(suites):
        q = _questions(record)
        boxes = [b for qid in ("q2", "q3") for bs in q[qid]["evidence"].values() for b in bs]
        boxes += [f["box"] for qid in ("q4", "q5") for f in q[qid]["factors"]]
        for x1, y1, x2, y2 in boxes:
            assert all(type(v) is int for v in (x1, y1, x2, y2))
            assert 0 <= x1 < x2 <= WIDTH and 0 <= y1 < y2 <= HEIGHT


def test_free_text_sets_have_the_paper_shapes() -> None:
    """The hand-made sets are what the leakage is measured on, so check they are shaped
    like the paper: its category shares (exact by largest remainder) and about its
    multiple-answer questions."""
    n = PAPER_IMAGES
    annotations = free_text_annotations(n, 0)
    shares = answer_shapes(spatial_items(dataset_records(annotations)))
    multiple = shares["q2"]["multiple_type"] + shares["q3"]["multiple_type"]
    expected = sum(PAPER_MULTIPLE.values())
    assert abs(multiple - expected) <= 0.3 * expected
    kinds = [(bool(a.of("direct")), bool(a.of("indirect"))) for a in annotations]
    paper = largest_remainder(n, {"d": 111.0, "i": 171.0, "b": 109.0, "n": 186.0})
    assert kinds.count((True, False)) == paper["d"] and kinds.count((False, False)) == paper["n"]


# --- leakage --------------------------------------------------------------------------------


def _leakage_report(records: Sequence[Record]) -> dict[str, float]:
    items = spatial_items(records)
    details = leakage_details(items)
    trivial = trivial_baselines(items)
    shapes = answer_shapes(items)
    print(  # reported, not asserted: the floor and the shape of what was measured
        f"  {len(items)} captures: gain q2 {details['q2'].gain:+.2f} (sd {details['q2'].gain_sd:.2f}),"
        f" q3 {details['q3'].gain:+.2f} (sd {details['q3'].gain_sd:.2f});"
        f" trivial q1 {trivial['q1']:.1f} q2 {trivial['q2']:.1f} q3 {trivial['q3']:.1f}"
        f" overall {trivial['overall']:.1f};"
        f" answer sizes q2 {shapes['q2']['answer_sizes']} q3 {shapes['q3']['answer_sizes']}"
    )
    return {qid: details[qid].gain for qid in ("q2", "q3")}


@pytest.mark.parametrize("part", ["tuning", "held out"])
def test_option_names_do_not_give_the_answer_away(
    part: str, suites: Mapping[str, list[tuple[list[Annotation], list[Record]]]]
) -> None:
    for _, records in suites[part]:
        gains = _leakage_report(records)
        assert gains["q2"] <= LEAKAGE_LIMIT and gains["q3"] <= LEAKAGE_LIMIT, gains


# --- determinism and validation -------------------------------------------------------------


def _dump(records: Sequence[Record]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode()


def test_same_bytes_in_any_order_and_a_seed_changes_only_the_options() -> None:
    annotations = free_text_annotations(60, 7)
    first = _dump(dataset_records(annotations, seed=3))
    assert first == _dump(dataset_records(annotations, seed=3))
    reordered = dataset_records(list(reversed(annotations)), seed=3)
    assert _dump(list(reversed(reordered))) == first
    other = dataset_records(annotations, seed=4)
    assert _dump(other) != first
    for a, b in zip(dataset_records(annotations, seed=3), other, strict=True):
        qa, qb = _questions(a), _questions(b)
        assert qa["q1"] == qb["q1"] and qa["q4"] == qb["q4"] and qa["q5"] == qb["q5"]


SCRIPT = """
import hashlib, json, sys
sys.path[:0] = [{here!r}, {tests!r}]
from test_build_questions import free_text_annotations, plan_annotations
from privbench.tooling.spatialtrust_builder.questions import dataset_records
records = dataset_records(free_text_annotations(80, 11) + plan_annotations(30, 2), seed=5)
print(hashlib.sha256(json.dumps(records, ensure_ascii=False).encode()).hexdigest())
"""


@pytest.mark.e2e
def test_same_bytes_under_any_hash_seed() -> None:
    digests = set()
    for hash_seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        script = SCRIPT.format(here=str(Path(__file__).parent), tests=str(TESTS))
        done = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        digests.add(done.stdout.strip())
    assert len(digests) == 1


def test_built_records_validate(tmp_path: Path) -> None:
    annotations = free_text_annotations(6, 21) + plan_annotations(4, 3)
    records = dataset_records(annotations)
    (tmp_path / "images").mkdir()
    for record in records:
        Image.new("RGB", (WIDTH, HEIGHT), (90, 110, 130)).save(tmp_path / str(record["image"]))
    (tmp_path / DATASET_FILE).write_bytes(_dump(records))
    items, problems = validate_spatialtrust(tmp_path)
    assert problems == []
    assert len(items) == len(records) == 10
    assert all("annotation" in r for r in records)
