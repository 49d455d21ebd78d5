"""The plan of a SpatialTrust-format suite: what each capture shows and asks — no pixels.

:func:`plan_suite` decides everything a record needs (room, camera, elements with their
boxes, options, answers, explanations), so a suite's records — and the leakage check on
them — come in a fraction of a second; :mod:`.render` then draws each plan.

**Shares.** Captures with direct only / indirect only / both / neither factors follow the
counts of the paper's section 3.4 (111 / 171 / 109 / 186 of 577), and the multiple-answer
questions its 119 of 1,154 (split 52 q2 / 67 q3 in proportion to the 220 direct and 280
indirect captures); both by largest-remainder rounding, so a 577-capture suite matches
exactly.

**Options that do not give the answer away** (docs/audit.md). A question's four options are
``k`` factor types of its own category (the present ones plus types offered absent),
present factors of the *other* category as distractors (and as many other-category
types offered absent), and benign or near-miss texts drawn at random from the whole
vocabulary, independent of room and answer (half of them are also drawn into the scene
as clutter). ``k`` given the number of present types is allocated so that, at every
``k``, answering "None of the above" scores at least as well as picking any offered
option; the absent types are assigned suite-wide so that every factor type is offered
absent about as often as present. A reader of the option texts alone therefore cannot
beat the constant "None of the above" — only the image tells. These rules, the question
texts and the record shapes live in :mod:`privbench.suites.spatialtrust.question_design`, shared
with the builder of a team's own annotated captures.

**Hard cases.** When a type is offered absent, its near-miss twin (a mirror that shows
only the wall for "a wall mirror reflecting the laptop screen", a switched-off TV, a
blank whiteboard, a camera turned away, a far person facing away) is often drawn; some
factors are partly hidden behind a shelf, divider or table, or far away and small.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from privbench.apportion import largest_remainder
from privbench.suites.spatialtrust.dataset import (
    ChoiceQuestion,
    ExplanationQuestion,
    Factor,
    SpatialItem,
)
from privbench.suites.spatialtrust.question_design import (
    CATEGORY as CATEGORY,
)
from privbench.suites.spatialtrust.question_design import (
    SLOTS,
    CaptureRecord,
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
from privbench.tooling.spatialtrust_scenes.layout import (
    Camera,
    Layout,
    Placed,
    Room,
    UserPose,
    make_camera,
    make_room,
    make_user,
)
from privbench.tooling.spatialtrust_scenes.vocabulary import (
    BENIGN,
    DIRECT,
    GARMENTS,
    HAIRS,
    INDIRECT,
    KINDS,
    NEAR_MISSES,
    ROOM_STYLES,
    ROOMS,
    SECRETS,
    SITES,
    SKINS,
    TROUSERS,
    RoomKind,
)

PAPER_SHARES = {"direct only": 111, "indirect only": 171, "both": 109, "neither": 186}
PAPER_IMAGES = 577
PAPER_MULTIPLE = {"q2": 52, "q3": 67}
"""Multiple-answer questions per 577 captures: the paper's 119, split by 220 : 280."""

TYPES = {"q2": DIRECT, "q3": INDIRECT}

TWIN_IF_ABSENT = 0.45
TWIN_IF_PRESENT = 0.15
CLUTTER_DRAWN = 0.5
OCCLUDED = 0.3
ROOM_SHARES: dict[RoomKind, float] = {"office": 0.3, "home": 0.28, "cafe": 0.21, "library": 0.21}

CONFLICTS: tuple[frozenset[str], ...] = (
    frozenset({"watcher", "seated_watcher", "peeker"}),
    frozenset({"bystander", "passerby", "reader"}),
    frozenset({"open_door", "door_ajar"}),
    frozenset({"cctv_on_user", "home_camera"}),
    frozenset({"password_sheet", "credentials_board"}),
    frozenset({"tv_reflection", "cast_display"}),
)
"""Types whose option texts could describe one another: never one present and another
offered absent in the same capture (the absent option could then be argued true)."""

TWIN_SOURCES: dict[str, frozenset[str]] = {
    near: frozenset(k for k, e in KINDS.items() if e.twin == near) for near in NEAR_MISSES
}


@dataclass(frozen=True)
class Look:
    """The camera set-up and lighting of one capture (applied when rendering)."""

    brightness: float
    warmth: float
    light_x: float
    vignette: float
    blur: float
    noise: float
    quality: int


@dataclass(frozen=True)
class Words:
    """What q4/q5 say about one factor instance (or, for a near-miss, why it is none)."""

    name: str
    why: str


@dataclass(frozen=True)
class ScenePlan:
    """Everything about one capture: what is drawn, where, and what is asked."""

    index: int
    seed: int
    image_id: str
    category: str
    camera: Camera
    room: Room
    user: UserPose
    user_attrs: Mapping[str, str]
    elements: tuple[Placed, ...]
    options: Mapping[str, tuple[str, ...]]
    site: tuple[str, str]
    look: Look
    words: Mapping[int, Words]

    @property
    def factors(self) -> list[tuple[int, Placed]]:
        return [(i, e) for i, e in enumerate(self.elements) if e.kind.sensitive]

    def present(self, role: str) -> list[str]:
        """Kinds of the given role present in the capture, in order of first appearance."""
        return list(dict.fromkeys(e.key for e in self.elements if e.kind.role == role))


# --- allocation -----------------------------------------------------------------------------


def categories(n: int, rng: random.Random) -> list[str]:
    """``n`` capture categories in the paper's proportions (largest remainder), shuffled."""
    counts = largest_remainder(n, {k: float(v) for k, v in PAPER_SHARES.items()})
    order = [k for k, c in counts.items() for _ in range(c)]
    rng.shuffle(order)
    return order


class _Deck:
    """Types drawn in shuffled rounds, so that every type is present about equally often."""

    def __init__(self, pool: Sequence[str], rng: random.Random) -> None:
        self.pool, self.rng, self.cards = list(pool), rng, list[str]()

    def draw(self, accept: Callable[[str], bool]) -> str | None:
        for _ in range(3):
            for position, key in enumerate(self.cards):
                if accept(key):
                    return self.cards.pop(position)
            fresh = list(self.pool)
            self.rng.shuffle(fresh)
            self.cards.extend(fresh)
        return None


def _conflicts(key: str, others: Iterable[str]) -> bool:
    group = next((g for g in CONFLICTS if key in g), frozenset())
    return any(o != key and o in group for o in others)


def _rooms_for(keys: Iterable[str]) -> list[RoomKind]:
    return [r for r in ROOMS if all(r in KINDS[k].rooms for k in keys)]


def _needs_ok(keys: Iterable[str]) -> bool:
    needs = set().union(*(KINDS[k].needs for k in keys))
    return not {"night", "day"} <= needs


@dataclass
class _Draft:
    """One capture while the suite is being planned."""

    index: int
    category: str
    present: dict[str, list[str]]
    rng: random.Random
    room: RoomKind = "office"
    night: bool = False
    high: bool = False
    k: dict[str, int] = field(default_factory=dict)
    offered: dict[str, list[str]] = field(default_factory=lambda: {"q2": [], "q3": []})
    draw: list[str] = field(default_factory=list)
    layout: Layout | None = None
    layout_rng: random.Random | None = None

    @property
    def all_present(self) -> list[str]:
        return self.present["q2"] + self.present["q3"]

    def compatible(self, key: str) -> bool:
        kind = KINDS[key]
        if self.room not in kind.rooms:
            return False
        if "night" in kind.needs and not self.night:
            return False
        if "day" in kind.needs and self.night:
            return False
        return "high-ceiling" not in kind.needs or self.high


def _choose_present(drafts: list[_Draft], seed: int, rng: random.Random) -> None:
    """Present types from shuffled decks, a room that fits them, and a layout of them;
    types that cannot be laid out together are drawn again."""
    decks = {"q2": _Deck(DIRECT, rng), "q3": _Deck(INDIRECT, rng)}
    used: Counter[str] = Counter()
    wanted = {d.index: {q: len(d.present[q]) for q in ("q2", "q3")} for d in drafts}
    for draft in drafts:
        for attempt in range(60):
            chosen: dict[str, list[str]] = {"q2": [], "q3": []}
            for qid in ("q2", "q3"):
                for _ in range(wanted[draft.index][qid]):
                    taken = chosen["q2"] + chosen["q3"]

                    def accept(key: str, taken: list[str] = taken) -> bool:
                        return (
                            key not in taken
                            and not _conflicts(key, taken)
                            and _needs_ok([*taken, key])
                            and bool(_rooms_for([*taken, key]))
                        )

                    key = decks[qid].draw(accept)
                    if key is not None:
                        chosen[qid].append(key)
            draft.present = chosen
            rooms = _rooms_for(draft.all_present)
            total = sum(used.values()) + 1
            draft.room = max(
                rooms, key=lambda r: ROOM_SHARES[r] * total - used[r] + draft.rng.uniform(0, 1.5)
            )
            needs = set().union(*(KINDS[k].needs for k in draft.all_present))
            draft.night = "night" in needs or ("day" not in needs and draft.rng.random() < 0.25)
            draft.high = "high-ceiling" in needs
            draft.layout = _lay_out_factors(draft, seed, attempt)
            if draft.layout is not None:
                break
            for qid in ("q2", "q3"):  # put the cards back for a later capture
                decks[qid].cards[:0] = chosen[qid]
        else:  # pragma: no cover - single factors always fit
            raise RuntimeError(f"could not lay out capture {draft.index}")
        used[draft.room] += 1


def _assign_absent(
    drafts: list[_Draft], qid: str, pool: Sequence[str], slots: dict[int, int], rng: random.Random
) -> None:
    """Fill ``slots[index]`` absent options of types in ``pool`` for each capture, so
    that every type ends up offered absent in proportion to how often it is present."""
    present = Counter(k for d in drafts for k in d.all_present if k in pool)

    def allowed(index: int, key: str) -> bool:
        draft = drafts[index]
        return (
            key not in draft.all_present
            and draft.room in KINDS[key].rooms
            and not _conflicts(key, draft.all_present)
            and not _conflicts(key, draft.offered[qid])
        )

    assign_absent([d.offered[qid] for d in drafts], slots, pool, present, allowed, rng)


def _fill_options(drafts: list[_Draft], rng: random.Random) -> None:
    for qid, other in (("q2", "q3"), ("q3", "q2")):
        sizes = [len(d.present[qid]) for d in drafts]
        for draft, k in zip(drafts, allocate_k(sizes, rng), strict=True):
            draft.k[qid] = k
            draft.offered[qid] = list(draft.present[qid])
        _assign_absent(
            drafts, qid, TYPES[qid], {d.index: d.k[qid] - len(d.present[qid]) for d in drafts}, rng
        )
        # present factors of the other category as distractors, and as many absent ones
        shown = sum(offer_other_present(d.offered[qid], d.present[other], d.rng) for d in drafts)
        room = [SLOTS - len(d.offered[qid]) for d in drafts]
        _assign_absent(drafts, qid, TYPES[other], other_absent_slots(room, shown, rng), rng)
        for draft in drafts:
            _fill_benign(draft, qid)


def _fill_benign(draft: _Draft, qid: str) -> None:
    """Benign and near-miss texts, drawn at random from the whole vocabulary (not from the
    room, not from the answer); about half are also drawn into the scene."""
    taken = draft.offered[qid]
    pool = [
        k
        for k in (*BENIGN, *NEAR_MISSES)
        if k not in taken
        and not (TWIN_SOURCES.get(k, frozenset()) & set(taken + draft.all_present))
    ]
    draft.rng.shuffle(pool)
    while len(taken) < SLOTS and pool:
        key = pool.pop()
        taken.append(key)
        if draft.compatible(key) and draft.rng.random() < CLUTTER_DRAWN:
            draft.draw.append(key)


def _choose_twins(draft: _Draft) -> None:
    """Near-miss look-alikes of offered types (the hard cases), and for empty captures
    one or two near-misses so that "No" in q1 also needs a careful look."""
    for qid in ("q2", "q3"):
        for key in draft.offered[qid]:
            kind = KINDS[key]
            if kind.role != ("direct" if qid == "q2" else "indirect") or kind.twin is None:
                continue
            chance = TWIN_IF_PRESENT if key in draft.all_present else TWIN_IF_ABSENT
            if draft.compatible(kind.twin) and draft.rng.random() < chance:
                draft.draw.append(kind.twin)
    if draft.category == "neither" and draft.rng.random() < 0.7:
        options = [k for k in NEAR_MISSES if draft.compatible(k) and k not in draft.draw]
        draft.draw += draft.rng.sample(options, min(len(options), draft.rng.choice((1, 1, 2))))
    style = ROOM_STYLES[draft.room]
    furniture = [k for k in style.furniture if k not in draft.draw]
    draft.draw += draft.rng.sample(furniture, min(len(furniture), draft.rng.randrange(3, 7)))
    draft.draw = list(dict.fromkeys(draft.draw))


# --- appearance and words -------------------------------------------------------------------


def _person_attrs(rng: random.Random, params: Mapping[str, str]) -> dict[str, str]:
    garment = rng.randrange(len(GARMENTS))
    attrs = dict(params)
    attrs.update(
        garment=str(garment),
        skin=str(rng.randrange(len(SKINS))),
        hair=str(rng.randrange(len(HAIRS))),
        style=rng.choice(("short", "long", "bun", "cap", "short")),
        trousers=str(rng.randrange(len(TROUSERS))),
        turn=rng.choice(("left", "right")),
        tall=f"{rng.uniform(0.92, 1.08):.3f}",
    )
    return attrs


def _attrs(key: str, rng: random.Random) -> dict[str, str]:
    kind = KINDS[key]
    if kind.person:
        return _person_attrs(rng, kind.params)
    attrs = dict(kind.params)
    attrs["variant"] = str(rng.randrange(1000))
    if kind.painter == "door":
        attrs["beyond"] = rng.choice(
            ("the hallway", "the corridor", "the next room", "the stairwell")
        )
    if kind.painter == "note":
        attrs["secret"] = rng.choice(
            ("Winter2024!", "K7#rain92", "qwerty!88", "Tr0ub4dor&3", "Hunter#42", "Passw0rd99")
        )
    if kind.painter == "whiteboard":
        attrs["secret"] = rng.choice(
            (
                "VPN: jlee / Summer#24",
                "admin / Kx8!mQ2z",
                "Wi-Fi + login: Staff!2024",
                "user: ops  pw: R3d-Fox7",
            )
        )
    return attrs  # fmt: skip


def _where(plan_room: Room, placed: Placed, camera: Camera) -> tuple[str, str]:
    """A phrase for where an element is, and one for how far it is from the user."""
    centre = (placed.visible[0] + placed.visible[2]) / 2
    side = "left" if centre < camera.cx else "right"
    if placed.surface == "floor":
        metres = max(1, round(placed.z - 0.6))
        if placed.z > 0.78 * plan_room.depth:
            where = f"at the back of the room on the {side}"
        elif placed.z < 3.2:
            where = f"just behind the user on the {side}"
        else:
            where = f"on the {side} side of the room"
        return where, f"about {metres} m behind the user"
    wall = placed.surface
    high = placed.y > 1.9
    if placed.key == "balcony":
        where = f"above the {side} part of the back wall"
    elif wall == "back":
        where = f"{'high ' if high else ''}on the back wall, {side} of the user"
    else:
        where = f"{'high ' if high else ''}on the {wall} wall"
    metres = max(1, round(placed.z - 0.6))
    return where, f"about {metres} m away"


def _words(
    placed: Placed,
    room: Room,
    camera: Camera,
    site: tuple[str, str],
    secret: str,
    rng: random.Random,
) -> Words:
    kind = placed.kind
    where, dist = _where(room, placed, camera)
    if kind.person:
        desc = f"the person in {GARMENTS[int(placed.attrs['garment'])][0]}"
    else:
        desc = kind.noun or kind.option
    fields = {
        "desc": desc,
        "Desc": desc[0].upper() + desc[1:],
        "where": where,
        "dist": dist,
        "site": site[0],
        "secret": secret,
        "beyond": placed.attrs.get("beyond", "the next room"),
        "room": ROOM_STYLES[room.kind].noun,
        "note": placed.attrs.get("secret", ""),
    }
    template = rng.choice(kind.why) if kind.why else ""
    return Words(f"{desc} {where}", template.format(**fields))


def _look(rng: random.Random, night: bool) -> Look:
    return Look(
        brightness=rng.uniform(0.62, 0.82) if night else rng.uniform(0.84, 1.1),
        warmth=rng.uniform(0.2, 1.0) if night else rng.uniform(-0.8, 0.8),
        light_x=rng.uniform(0.0, 1.0),
        vignette=rng.uniform(0.05, 0.4),
        blur=rng.choice((0.0, 0.5, 0.8, 1.0, 1.3)),
        noise=rng.uniform(0.5, 1.6) * (1.4 if night else 1.0),
        quality=rng.randrange(48, 77),
    )


# --- layout ---------------------------------------------------------------------------------


def _lay_out_factors(draft: _Draft, seed: int, attempt: int) -> Layout | None:
    """Camera, room and user, with the capture's factors (and designed occlusions) placed."""
    rng = random.Random(f"spatialtrust-layout:{seed}:{draft.index}:{attempt}")
    factors: list[tuple[str, str | None, dict[str, str], float]] = []
    for key in draft.all_present:
        kind = KINDS[key]
        copies = 2 if kind.second and rng.random() < kind.second else 1
        for _ in range(copies):
            attrs = _attrs(key, rng)
            occluder: str | None = None
            if kind.params.get("pose") == "seated":
                occluder = "table"
            elif key == "peeker" or (kind.occluders and rng.random() < OCCLUDED):
                occluder = rng.choice(kind.occluders)
            scale = float(attrs.get("tall", "1")) if kind.person else rng.uniform(0.9, 1.1)
            factors.append((key, occluder, attrs, scale))
    # the widest wall items first: they have the fewest places to go
    factors.sort(key=lambda f: -(KINDS[f[0]].size[0] * (KINDS[f[0]].mount == "wall")))
    for tries in range(40):
        relaxed = tries >= 25  # last resort: drop optional occlusions and second copies
        todo = factors
        if relaxed:
            todo = [f for i, f in enumerate(factors) if f[0] not in [g[0] for g in factors[:i]]]
        room = make_room(draft.room, rng, draft.night, draft.high)
        layout = Layout(make_camera(rng), room, make_user(rng))
        if all(
            _place(layout, key, occ, attrs, scale, rng, relaxed) for key, occ, attrs, scale in todo
        ):
            draft.layout_rng = rng
            return layout
    return None


def _lay_out_clutter(draft: _Draft) -> list[Placed]:
    """Add the near-misses and clutter to the factor layout where they fit."""
    assert draft.layout is not None and draft.layout_rng is not None
    layout, rng = draft.layout, draft.layout_rng
    for key in draft.draw:
        kind = KINDS[key]
        attrs = _attrs(key, rng)
        scale = float(attrs.get("tall", "1")) if kind.person else rng.uniform(0.9, 1.1)
        occluder = "table" if kind.params.get("pose") == "seated" else None
        _place(layout, key, occluder, attrs, scale, rng, False, tries=30)
    return layout.elements


def _place(
    layout: Layout,
    key: str,
    occluder: str | None,
    attrs: dict[str, str],
    scale: float,
    rng: random.Random,
    relaxed: bool,
    tries: int = 40,
) -> bool:
    """Try ``tries`` random positions for one element (with its occluder, if any) and
    keep the first that obeys the placement rules; whether one was found.

    A designed occlusion places the pair together: the hidden element first (with its
    evidence box cut to the visible part), then the occluder, which may overlap it.
    """
    mandatory = occluder == "table" or key == "peeker"
    if relaxed and not mandatory:
        occluder = None
    for _ in range(tries):
        target = layout.propose(key, rng, attrs, scale)
        if target is None:
            continue
        if occluder is None:
            if layout.fits(target):
                layout.elements.append(target)
                return True
            continue
        pair = (
            layout.seat_behind_table(target, rng, rng.uniform(0.95, 1.2))
            if occluder == "table"
            else layout.occlude_side(target, occluder, rng, rng.uniform(0.95, 1.05))
        )
        if pair is None:
            continue
        hidden, front = pair
        if not layout.fits(hidden):
            continue
        layout.elements.append(hidden)
        if layout.fits(front, designed=(len(layout.elements) - 1,)):
            front_index = len(layout.elements)
            layout.elements[-1] = _with_occluder(hidden, front_index)
            layout.elements.append(front)
            return True
        layout.elements.pop()
    return False


def _with_occluder(placed: Placed, index: int) -> Placed:
    return replace(placed, occluder=index)


# --- the suite ------------------------------------------------------------------------------


def plan_suite(n: int, seed: int) -> list[ScenePlan]:
    """The plans of an ``n``-capture suite from ``seed`` (deterministic, no rendering)."""
    if n < 1:
        raise ValueError("a suite needs at least one image")
    rng = random.Random(f"spatialtrust-plan:{seed}")
    order = categories(n, rng)
    drafts: list[_Draft] = []
    for index, category in enumerate(order):
        drafts.append(
            _Draft(
                index, category, {"q2": [], "q3": []}, random.Random(f"spatialtrust:{seed}:{index}")
            )
        )
    multiple = {
        qid: largest_remainder(
            n, {"m": PAPER_MULTIPLE[qid], "rest": PAPER_IMAGES - PAPER_MULTIPLE[qid]}
        )["m"]
        for qid in ("q2", "q3")
    }
    for qid, wanted in (("q2", ("direct only", "both")), ("q3", ("indirect only", "both"))):
        members = [d for d in drafts if d.category in wanted]
        rng.shuffle(members)
        for position, draft in enumerate(members):
            draft.present[qid] = ["?", "?"] if position < multiple[qid] else ["?"]
    _choose_present(drafts, seed, rng)
    _fill_options(drafts, rng)
    plans: list[ScenePlan] = []
    for draft in drafts:
        _choose_twins(draft)
        plans.append(_finish(draft, seed))
    return plans


def _finish(draft: _Draft, seed: int) -> ScenePlan:
    elements = _lay_out_clutter(draft)
    assert draft.layout is not None
    layout = draft.layout
    rng = draft.rng
    site = rng.choice(SITES)
    secret = rng.choice(SECRETS)
    words = {
        index: _words(element, layout.room, layout.camera, site, secret, rng)
        for index, element in enumerate(elements)
        if element.kind.role != "benign"
    }
    options: dict[str, tuple[str, ...]] = {}
    for qid in ("q2", "q3"):
        keys = list(draft.offered[qid])
        rng.shuffle(keys)
        options[qid] = tuple(keys)
    user_attrs = _person_attrs(rng, {})
    user_attrs["style"] = rng.choice(("short", "short", "long", "bun"))
    user_attrs["glasses"] = "yes" if rng.random() < 0.3 else "no"
    return ScenePlan(
        index=draft.index,
        seed=seed,
        image_id=f"st-{draft.index + 1:04d}",
        category=draft.category,
        camera=layout.camera,
        room=layout.room,
        user=layout.user,
        user_attrs=user_attrs,
        elements=tuple(elements),
        options=options,
        site=site,
        look=_look(rng, draft.night),
        words=words,
    )


# --- records --------------------------------------------------------------------------------

IMAGE_SUFFIX = ".jpg"


def _choice_question(plan: ScenePlan, qid: str, types: QuestionTypes) -> ChoiceRecord:
    keys = plan.options[qid]
    role = CATEGORY[qid]
    evidence: dict[int, list[list[int]]] = {}
    for i, key in enumerate(keys):
        boxes = [list(e.visible) for e in plan.elements if e.key == key and e.kind.role == role]
        if boxes:
            evidence[i] = boxes
    return choice_question(qid, [KINDS[k].option for k in keys], evidence, types)


def _explanation(plan: ScenePlan, qid: str) -> ExplanationRecord:
    role = CATEGORY[qid]
    lookalikes = [
        plan.words[i].why
        for i, e in enumerate(plan.elements)
        if e.kind.role == "near-miss"
        and any(KINDS[s].role == role for s in TWIN_SOURCES.get(e.key, frozenset()))
    ]
    factors = [
        (plan.words[i].name, plan.words[i].why, list(e.visible))
        for i, e in enumerate(plan.elements)
        if e.kind.role == role
    ]
    return explanation_question(qid, factors, lookalikes)


def record(plan: ScenePlan, question_types: QuestionTypes = "paper") -> CaptureRecord:
    """The dataset-file record of one capture (q2/q3 typed as ``question_types`` says)."""
    return {
        "id": plan.image_id,
        "image": f"images/{plan.image_id}{IMAGE_SUFFIX}",
        "width": 1440,
        "height": 960,
        "questions": [
            q1_question(bool(plan.factors)),
            _choice_question(plan, "q2", question_types),
            _choice_question(plan, "q3", question_types),
            _explanation(plan, "q4"),
            _explanation(plan, "q5"),
        ],
    }


def suite_records(
    n: int, seed: int, question_types: QuestionTypes = "paper"
) -> list[CaptureRecord]:
    """The records of ``privbench generate spatialtrust --n n --seed seed``, without images."""
    return [record(plan, question_types) for plan in plan_suite(n, seed)]


def spatial_items(records: Sequence[Mapping[str, Any]]) -> list[SpatialItem]:
    """Records as :class:`SpatialItem` objects without reading images (image paths are
    left relative): what the audit and the tests need to study a plan in seconds."""
    items: list[SpatialItem] = []
    for entry in records:
        questions = {q["qid"]: q for q in entry["questions"]}
        choices = {
            qid: ChoiceQuestion(
                qid,
                questions[qid]["type"],
                questions[qid]["text"],
                dict(questions[qid]["options"]),
                tuple(questions[qid]["answer"]),
                {
                    k: tuple(_box(b) for b in v)
                    for k, v in questions[qid].get("evidence", {}).items()
                },
            )
            for qid in ("q1", "q2", "q3")
        }
        explanations = {
            qid: ExplanationQuestion(
                qid,
                questions[qid]["text"],
                questions[qid]["answer"],
                tuple(
                    Factor(f["name"], f["why"], _box(f["box"])) for f in questions[qid]["factors"]
                ),
            )
            for qid in ("q4", "q5")
        }
        items.append(
            SpatialItem(
                entry["id"], Path(entry["image"]), entry["width"], entry["height"],
                choices["q1"], choices["q2"], choices["q3"], explanations["q4"], explanations["q5"],
            )
        )  # fmt: skip
    return items


def _box(values: Sequence[float]) -> tuple[float, float, float, float]:
    return (float(values[0]), float(values[1]), float(values[2]), float(values[3]))
