"""The SpatialTrust-format generator: shares, answer-free options, geometry, pixels, files.

Most checks run on the *plan* (records and boxes computed without drawing), so suites of
hundreds of captures are checked in seconds; a few captures are rendered to check pixels
against evidence boxes and that generation is byte-identical.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from privbench.shipped import SPATIALTRUST_SUITE
from privbench.suites.spatialtrust.audit import option_name_leakage
from privbench.suites.spatialtrust.dataset import load_spatialtrust
from privbench.tooling.spatialtrust_scenes.layout import WIDTH, intersects
from privbench.tooling.spatialtrust_scenes.plan import (
    CATEGORY,
    PAPER_IMAGES,
    PAPER_MULTIPLE,
    PAPER_SHARES,
    ScenePlan,
    categories,
    plan_suite,
    record,
    spatial_items,
    suite_records,
)
from privbench.tooling.spatialtrust_scenes.render import drawing_order, element_layer
from privbench.tooling.spatialtrust_scenes.suite import generate_spatialtrust
from privbench.tooling.spatialtrust_scenes.vocabulary import (
    BENIGN,
    DIRECT,
    INDIRECT,
    KINDS,
    NEAR_MISSES,
    ROOMS,
)
from privbench.validation import validate_directory


@pytest.fixture(scope="module")
def plans() -> list[ScenePlan]:
    return plan_suite(400, 0)


def _digest(directory: Path) -> dict[str, str]:
    return {
        str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def test_generation_is_byte_identical_and_valid(tmp_path: Path) -> None:
    generate_spatialtrust(3, 3, tmp_path / "a")
    generate_spatialtrust(3, 3, tmp_path / "b")
    assert _digest(tmp_path / "a") == _digest(tmp_path / "b")
    assert validate_directory(tmp_path / "a").problems == []
    images = load_spatialtrust(tmp_path / "a")
    assert [i.image.suffix for i in images] == [".jpg"] * 3
    assert json.loads((tmp_path / "a" / "suite.json").read_text())["n"] == 3


def test_plans_are_deterministic_and_seeded() -> None:
    assert suite_records(30, 4) == suite_records(30, 4)
    assert suite_records(30, 4) != suite_records(30, 5)


def test_paper_shares_and_multiple_answers_exactly_at_577() -> None:
    assert Counter(categories(577, random.Random(0))) == Counter(PAPER_SHARES)
    items = spatial_items(suite_records(PAPER_IMAGES, 0))
    kinds = Counter((bool(i.q4.factors), bool(i.q5.factors)) for i in items)
    assert kinds == {(True, False): 111, (False, True): 171, (True, True): 109, (False, False): 186}
    assert sum(i.q2.type == "multiple" for i in items) == PAPER_MULTIPLE["q2"]
    assert sum(i.q3.type == "multiple" for i in items) == PAPER_MULTIPLE["q3"]  # 119 in all


@pytest.mark.parametrize("seed", [0, 1])
def test_option_texts_do_not_give_the_answer_away(seed: int) -> None:
    """The target is ≤ 3 points on 400-capture suites; ≤ 5 keeps noise out."""
    leakage = option_name_leakage(spatial_items(suite_records(400, seed)))
    assert leakage["q2"] <= 5 and leakage["q3"] <= 5, leakage


def test_every_factor_type_is_offered_absent_about_as_often_as_present(
    plans: list[ScenePlan],
) -> None:
    for qid in ("q2", "q3"):
        present: Counter[str] = Counter()
        absent: Counter[str] = Counter()
        other: Counter[bool] = Counter()
        for plan in plans:
            here = {e.key for e in plan.elements}
            for key in plan.options[qid]:
                role = KINDS[key].role
                if role == CATEGORY[qid]:
                    (present if key in here else absent)[key] += 1
                elif role in ("direct", "indirect"):
                    other[key in here] += 1  # the other category: a distractor
        assert set(present) == set(DIRECT if qid == "q2" else INDIRECT)
        for key in present:
            assert 0.8 <= absent[key] / present[key] <= 1.6, (qid, key, present[key], absent[key])
        assert other[True] > 0 and 0.8 <= other[False] / other[True] <= 1.25


def test_benign_objects_are_options_and_clutter(plans: list[ScenePlan]) -> None:
    offered = Counter(k for p in plans for q in ("q2", "q3") for k in p.options[q])
    drawn = Counter(e.key for p in plans for e in p.elements)
    for key in (*BENIGN, *NEAR_MISSES):
        assert offered[key] > 0, key
        assert drawn[key] > 0, key


def test_vocabulary_rooms_and_hard_cases(plans: list[ScenePlan]) -> None:
    assert len(DIRECT) + len(INDIRECT) >= 20
    drawn = Counter(e.key for p in plans for e in p.elements)
    assert all(drawn[k] for k in (*DIRECT, *INDIRECT))
    assert Counter(p.room.kind for p in plans).keys() == set(ROOMS)
    assert 0.15 < sum(p.room.night for p in plans) / len(plans) < 0.5
    factors = [e for p in plans for e in p.elements if e.kind.sensitive]
    occluded = sum(e.occluder is not None and e.visible != e.box for e in factors)
    small = sum(
        (e.visible[2] - e.visible[0]) * (e.visible[3] - e.visible[1]) < 0.005 * WIDTH * 960
        for e in factors
    )
    assert occluded > 0.1 * len(factors) and small > 0.1 * len(factors)
    looks = {(p.look.blur, p.look.quality) for p in plans}
    assert len(looks) > 50  # camera set-ups vary


def test_scale_and_height_follow_depth(plans: list[ScenePlan]) -> None:
    """Farther is smaller and higher in the frame: boxes are the camera's projection."""
    for plan in plans[:150]:
        cam = plan.camera
        standing = [
            e for e in plan.elements
            if e.surface == "floor" and e.kind.person and e.attrs.get("pose") != "seated"
        ]  # fmt: skip
        for e in standing:
            assert abs(e.box[3] - cam.project(e.x, 0, e.z)[1]) <= 1.5
            assert abs((e.box[3] - e.box[1]) - cam.focal * e.height / e.z) <= 2.5
        for a in standing:
            for b in standing:
                if a.z < b.z - 0.5:
                    assert a.box[3] > b.box[3] and a.box[3] - a.box[1] > 0.8 * (b.box[3] - b.box[1])


def test_nothing_overlaps_that_could_not_in_a_room(plans: list[ScenePlan]) -> None:
    for plan in plans:
        elements = plan.elements
        for region in plan.user.regions:
            for e in elements:
                if e.kind.role != "benign":
                    assert not intersects(e.box, region), (plan.image_id, e.key)
        for i, a in enumerate(elements):
            for j, b in enumerate(elements[i + 1 :], start=i + 1):
                if a.surface != "floor" and a.surface == b.surface:
                    along = (a.x, b.x) if a.surface == "back" else (a.z, b.z)
                    apart = abs(along[0] - along[1]) >= (a.width + b.width) / 2
                    assert apart or a.y >= b.y + b.height or b.y >= a.y + a.height
                if not intersects(a.box, b.box):
                    continue
                far, near_index = (a, j) if a.distance > b.distance else (b, i)
                designed = far.occluder == near_index
                assert far.kind.role == "benign" or designed, (plan.image_id, a.key, b.key)


def _visible_pixels(plan: ScenePlan, index: int) -> np.ndarray:
    """The element's own pixels minus those hidden by anything drawn after it."""
    mask: np.ndarray = np.asarray(element_layer(plan, index))[..., 3] > 0
    order = drawing_order(plan.elements)
    for later in order[order.index(index) + 1 :]:
        if intersects(plan.elements[later].box, plan.elements[index].box):
            mask &= ~(np.asarray(element_layer(plan, later))[..., 3] > 200)
    return mask


def test_every_factor_is_drawn_inside_its_evidence_box() -> None:
    """Each factor type rendered alone: its visible pixels lie in its box and fill it."""
    chosen: dict[str, tuple[ScenePlan, int]] = {}
    for plan in plan_suite(160, 7):
        for index, element in plan.factors:
            occluded = element.occluder is not None
            if element.key not in chosen or (occluded and chosen[element.key][1] >= 0):
                chosen[element.key] = (plan, index if not occluded else -1 - index)
    assert set(chosen) == set(DIRECT) | set(INDIRECT)
    for key, (plan, code) in sorted(chosen.items()):
        index = code if code >= 0 else -1 - code
        box = plan.elements[index].visible
        ys, xs = np.nonzero(_visible_pixels(plan, index))
        assert len(xs), key
        left, top, right, bottom = xs.min(), ys.min(), xs.max() + 1, ys.max() + 1
        assert box[0] - 1 <= left and box[1] - 1 <= top, (key, box, (left, top))
        assert right <= box[2] + 1 and bottom <= box[3] + 1, (key, box, (right, bottom))
        assert right - left >= 0.8 * (box[2] - box[0]), (key, box, (left, right))
        assert bottom - top >= 0.8 * (box[3] - box[1]), (key, box, (top, bottom))


def test_explanations_are_specific_to_the_scene(plans: list[ScenePlan]) -> None:
    whys: dict[str, set[str]] = {}
    for plan in plans:
        entry = record(plan)
        for question in entry["questions"][3:]:
            assert "factors" in question
            for factor, (index, element) in zip(
                question["factors"],
                [(i, e) for i, e in plan.factors if e.kind.role == CATEGORY[question["qid"]]],
                strict=True,
            ):
                assert (
                    factor["box"] == list(element.visible)
                    and plan.words[index].why == factor["why"]
                )
                whys.setdefault(element.key, set()).add(factor["why"])
    all_whys = [w for ws in whys.values() for w in ws]
    assert all(len(ws) >= 5 for ws in whys.values()), {k: len(v) for k, v in whys.items()}
    assert len(all_whys) > 300


def test_shipped_suite_is_this_generator_at_seed_0() -> None:
    images = load_spatialtrust(SPATIALTRUST_SUITE)
    assert len(images) == 100
    manifest = json.loads((SPATIALTRUST_SUITE / "suite.json").read_text())
    assert manifest["n"] == 100 and manifest["seed"] == 0
    records = [
        json.loads(line)
        for line in (SPATIALTRUST_SUITE / "spatialtrust.jsonl").read_text().splitlines()
    ]
    assert records == suite_records(100, 0)
    kinds = Counter((bool(i.q4.factors), bool(i.q5.factors)) for i in images)
    total = sum(PAPER_SHARES.values())
    names = {
        (True, False): "direct only",
        (False, True): "indirect only",
        (True, True): "both",
        (False, False): "neither",
    }
    for key, name in names.items():
        assert abs(kinds[key] - 100 * PAPER_SHARES[name] / total) <= 1, (name, kinds[key])
    assert all((i.width, i.height) == (1440, 960) for i in images)
    for image in images:
        for question in (image.q2, image.q3):
            assert question.none_option == "E" and (question.answer == ("E",)) == (
                not question.evidence
            )
    size = sum(p.stat().st_size for p in (SPATIALTRUST_SUITE / "images").iterdir())
    assert size < 6_000_000


def test_neutral_question_types_change_only_the_type() -> None:
    paper, neutral = suite_records(40, 2), suite_records(40, 2, "neutral")
    retyped = 0
    for before, after in zip(paper, neutral, strict=True):
        for old, new in zip(before["questions"], after["questions"], strict=True):
            if new["qid"] in ("q2", "q3"):
                assert new["type"] == "multiple"
                retyped += old["type"] == "single"
                assert {**new, "type": old["type"]} == old
            else:
                assert new == old
    assert retyped > 40  # most q2/q3 have at most one right option


def test_generate_command_writes_neutral_types(tmp_path: Path) -> None:
    from helpers import one_line_error, privbench

    out = tmp_path / "neutral"
    result = privbench(
        "generate", "spatialtrust", "--out", out, "--n", "2", "--question-types", "neutral"
    )
    assert result.returncode == 0, result.stderr
    assert json.loads((out / "suite.json").read_text())["question_types"] == "neutral"
    items = load_spatialtrust(out)
    assert {q.type for item in items for q in (item.q2, item.q3)} == {"multiple"}
    bad = privbench("generate", "spatialtrust", "--out", tmp_path / "x", "--question-types", "x")
    assert "--question-types: paper or neutral, not 'x'" in one_line_error(bad)
