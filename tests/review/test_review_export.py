"""``privbench review export`` and the agreement between annotators, checked by hand.

The fixture is six shipped captures made into a draft dataset (as ``build`` leaves it)
and a review store two annotators filled:

======  ==========================================  ==========================================
image   ann                                         bob
======  ==========================================  ==========================================
st-01   accepted: direct A1, near miss A2           accepted: direct B1, near miss B2
st-02   accepted: near miss N                       accepted: near miss N (same box)
st-03   accepted: indirect C                        accepted: direct C (same box)
st-04   accepted: direct D, near miss E             accepted: nothing
st-05   accepted: direct F                          needs_work
st-06   discarded                                   (no save)
======  ==========================================  ==========================================

A1 = [100,100,300,300] and B1 = [100,100,300,340]: IoU = 200·200 / (200·240) = 5/6.
A2 = [1000,500,1200,700] and B2 = [1100,500,1300,700]: IoU = 100·200 / (2·40000 − 20000)
= 1/3 < 0.5, so they stay unmatched.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from helpers import one_line_error, privbench

from privbench.agreement_measures import cohen_kappa
from privbench.review_store import STORE_FILE, ReviewStore
from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.shipped import SPATIALTRUST_SUITE
from privbench.suites.spatialtrust.annotation import Category, SceneElement
from privbench.suites.spatialtrust.boxes import Box
from privbench.suites.spatialtrust.dataset import DATASET_FILE, load_spatialtrust
from privbench.suites.spatialtrust.scoring import iou
from privbench.tooling.spatialtrust_builder.review_agreement import (
    ALL_PAIRS,
    agreement,
    contingency,
    match_boxes,
)
from privbench.tooling.spatialtrust_builder.review_export import export_reviewed
from privbench.tooling.spatialtrust_builder.review_merge import merge_image

IMAGES = [f"st-000{i}" for i in range(1, 7)]
A1, B1 = [100, 100, 300, 300], [100, 100, 300, 340]
A2, B2 = [1000, 500, 1200, 700], [1100, 500, 1300, 700]
N = [600, 100, 800, 300]
C = [500, 500, 700, 700]
D, E = [0, 0, 100, 100], [800, 100, 1000, 300]
F = [200, 600, 400, 800]

Factor = tuple[str, Category, list[int]]


def _factor(name: str, category: Category, box: list[int]) -> dict[str, object]:
    return {"name": name, "category": category, "why": f"why {name}", "box": box}


SAVES: dict[tuple[str, str], tuple[str, list[Factor]]] = {
    ("st-0001", "ann"): ("accepted", [("sticky note", "direct", A1), ("dark tv", "near_miss", A2)]),
    ("st-0001", "bob"): ("accepted", [("note", "direct", B1), ("black tv", "near_miss", B2)]),
    ("st-0002", "ann"): ("accepted", [("mirror", "near_miss", N)]),
    ("st-0002", "bob"): ("accepted", [("mirror", "near_miss", N)]),
    ("st-0003", "ann"): ("accepted", [("window", "indirect", C)]),
    ("st-0003", "bob"): ("accepted", [("window", "direct", C)]),
    ("st-0004", "ann"): ("accepted", [("badge", "direct", D), ("poster", "near_miss", E)]),
    ("st-0004", "bob"): ("accepted", []),
    ("st-0005", "ann"): ("accepted", [("screen", "direct", F)]),
    ("st-0005", "bob"): ("needs_work", []),
    ("st-0006", "ann"): ("discarded", []),
}


def _save(directory: Path, image: str, annotator: str, status: str, factors: list[Factor]) -> None:
    store = ReviewStore.of(directory)
    version = store.versions(image, annotator)
    annotation: dict[str, object] = {"status": status, "factors": [_factor(*f) for f in factors]}
    store.save(image, annotator, version, annotation)


def _draft_dataset(directory: Path) -> Path:
    """Six shipped captures as a build leaves them: every annotation an empty draft."""
    (directory / "images").mkdir(parents=True)
    lines = (SPATIALTRUST_SUITE / DATASET_FILE).read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines[: len(IMAGES)]]
    assert [r["id"] for r in records] == IMAGES
    for record in records:
        shutil.copy2(SPATIALTRUST_SUITE / record["image"], directory / record["image"])
        record["annotation"] = {"status": "draft", "annotators": [], "elements": []}
    text = "".join(json.dumps(r) + "\n" for r in records)
    (directory / DATASET_FILE).write_text(text, encoding="utf-8")
    return directory


@pytest.fixture
def built(tmp_path: Path) -> Path:
    return _draft_dataset(tmp_path / "built")


@pytest.fixture
def reviewed(built: Path) -> Path:
    # an earlier version that the latest replaces: only the latest counts
    _save(built, "st-0003", "ann", "needs_work", [("window", "direct", D)])
    for (image, annotator), (status, factors) in SAVES.items():
        _save(built, image, annotator, status, factors)
    return built


def _elements(factors: list[Factor]) -> tuple[SceneElement, ...]:
    return tuple(
        SceneElement(n, c, f"why {n}", (float(b[0]), float(b[1]), float(b[2]), float(b[3])))
        for n, c, b in factors
    )


def _records(directory: Path) -> dict[str, dict[str, object]]:
    lines = (directory / DATASET_FILE).read_text(encoding="utf-8").splitlines()
    return {r["id"]: r for r in map(json.loads, lines)}


def _box(values: list[int]) -> Box:
    return (float(values[0]), float(values[1]), float(values[2]), float(values[3]))


# --- the arithmetic ---------------------------------------------------------------------


def test_kappa_of_a_textbook_table() -> None:
    # 50 items; rater 1 yes 25, rater 2 yes 30:  | yes  no
    #                                        yes |  20   5
    #                                         no |  10  15
    # p_o = 35/50 = 0.7; p_e = 0.5·0.6 + 0.5·0.4 = 0.5; κ = (0.7 − 0.5) / 0.5 = 0.4
    kappa = cohen_kappa(np.array([[20, 5], [10, 15]]))
    assert kappa.value == pytest.approx(0.4)
    assert kappa.units == 50 and kappa.reason is None


def test_undefined_kappa_is_null_with_a_reason_never_zero() -> None:
    one_label = cohen_kappa(np.array([[4, 0], [0, 0]]))  # p_e = 1
    assert one_label.value is None and one_label.units == 4
    assert one_label.reason is not None and "same single label" in one_label.reason
    empty = cohen_kappa(np.zeros((3, 3), dtype=np.int64))
    assert empty.value is None and empty.reason == "nothing to compare"
    # a defined κ of 0 stays 0: rater 1 always yes, rater 2 half yes (p_o = p_e = 0.5)
    assert cohen_kappa(np.array([[2, 2], [0, 0]])).value == pytest.approx(0.0)


def test_contingency_counts_first_rater_by_row() -> None:
    table = contingency([("yes", "no"), ("yes", "yes"), ("yes", "no")], ("yes", "no"))
    assert table.tolist() == [[1, 2], [0, 0]]


def test_iou_and_hungarian_matching() -> None:
    assert iou(_box(A1), _box(B1)) == pytest.approx(5 / 6)
    assert iou(_box(A2), _box(B2)) == pytest.approx(1 / 3)
    assert iou(_box(D), _box(E)) == 0.0
    match = match_boxes([_box(A1), _box(A2)], [_box(B2), _box(B1)])
    assert [(i, j) for i, j, _ in match.pairs] == [(0, 1)]  # A2–B2 is assigned but < 0.5
    assert match.unmatched_a == (1,) and match.unmatched_b == (0,)
    # one box between two: the assignment gives it to one of them only.
    # X = [0,0,100,100] with Y = [0,0,100,90] (IoU 0.9) and Z = [0,10,100,100] (IoU 0.9)
    one = match_boxes([(0, 0, 100, 100)], [(0, 0, 100, 90), (0, 10, 100, 100)])
    assert len(one.pairs) == 1 and len(one.unmatched_b) == 1


def test_agreement_of_two_annotators_by_hand() -> None:
    reviews = {
        image: {a: _elements(SAVES[(image, a)][1]) for a in ("ann", "bob")}
        for image in ("st-0001", "st-0002", "st-0003", "st-0004")
    }
    reviews["st-0005"] = {"ann": _elements(SAVES[("st-0005", "ann")][1])}  # one annotator
    figures = agreement(reviews)
    assert figures.images == 4
    (pair,) = figures.pairs
    assert pair.annotators == "ann / bob"
    # presence on st-01..04: ann Y N Y Y, bob Y N Y N   | bob Y  N
    #                                             ann Y |   2  1
    #                                                 N |   0  1
    # p_o = 3/4; p_e = (3/4)(2/4) + (1/4)(2/4) = 1/2; κ = (3/4 − 1/2) / (1/2) = 1/2
    assert pair.presence_agreement == pytest.approx(3 / 4)
    assert pair.presence_kappa.value == pytest.approx(0.5)
    # boxes: st-01 2+2 (A1–B1 matched, 5/6), st-02 1+1 (N–N, 1), st-03 1+1 (C–C, 1),
    # st-04 2+0: 10 boxes, 3 matched pairs; share 6/10; mean IoU (5/6 + 1 + 1)/3 = 17/18
    assert pair.boxes == 10 and pair.matched_pairs == 3
    assert pair.matched_share == pytest.approx(0.6)
    assert pair.mean_iou == pytest.approx(17 / 18)
    # categories of the matched pairs: (d,d) (n,n) (i,d)   | bob d  i  n
    #                                                ann d |     1  0  0
    #                                                    i |     1  0  0
    #                                                    n |     0  0  1
    # p_o = 2/3; p_e = (1/3)(2/3) + (1/3)(0) + (1/3)(1/3) = 1/3; κ = (1/3) / (2/3) = 1/2
    assert pair.category_agreement == pytest.approx(2 / 3)
    assert pair.category_kappa.value == pytest.approx(0.5)
    # score = 2·presence + unmatched + category: st-04 2+2 = 4, st-01 0+2 = 2, st-03 1
    ranked = [(d.image, d.score) for d in figures.most_disagreeing]
    assert ranked == [("st-0004", 4), ("st-0001", 2), ("st-0003", 1)]
    assert figures.pooled is not None and figures.pooled.matched_pairs == 3


def test_three_annotators_use_every_pair() -> None:
    box = [0, 0, 100, 100]
    reviews: dict[str, dict[str, tuple[SceneElement, ...]]] = {
        "x": {
            "ann": _elements([("badge", "direct", box)]),
            "bob": _elements([("badge", "direct", box)]),
            "cy": _elements([("badge", "indirect", box)]),
        },
        "y": {"ann": (), "bob": (), "cy": ()},
    }
    figures = agreement(reviews)
    assert [p.annotators for p in figures.pairs] == ["ann / bob", "ann / cy", "bob / cy"]
    ann_bob = figures.pairs[0]
    # ann / bob: categories (d,d) only: p_e = 1, κ undefined (not 0)
    assert ann_bob.category_kappa.value is None and ann_bob.category_agreement == 1.0
    pooled = figures.pooled
    assert pooled is not None and pooled.annotators == ALL_PAIRS
    # pooled presence: 3 pairs × (x: Y,Y; y: N,N): table [[3,0],[0,3]], p_e = 1/2, κ = 1
    assert pooled.images == 6 and pooled.presence_kappa.value == pytest.approx(1.0)
    # pooled boxes: 3 pairs × 2 boxes = 6, 3 matched pairs: share 1, mean IoU 1
    assert pooled.boxes == 6 and pooled.matched_share == 1.0 and pooled.mean_iou == 1.0
    # pooled categories (d,d) (d,i) (d,i): p_o = 1/3, p_e = 1·(1/3) = 1/3, κ = 0 (defined)
    assert pooled.category_kappa.value == pytest.approx(0.0)
    assert [(d.image, d.score) for d in figures.most_disagreeing] == [("x", 2)]
    decision = merge_image("x", {}, reviews["x"])
    assert not decision.exported
    assert "categories differ: ann direct, bob direct, cy indirect" in decision.unsettled[0]


def test_merge_keeps_the_mean_box_and_drops_a_contested_near_miss() -> None:
    accepted = {a: _elements(SAVES[("st-0001", a)][1]) for a in ("ann", "bob")}
    decision = merge_image("st-0001", {"ann": "accepted", "bob": "accepted"}, accepted)
    assert decision.elements is not None
    (kept,) = decision.elements
    # mean of A1 and B1: [100, 100, 300, (300 + 340)/2 = 320]; the name is ann's (first)
    assert kept.box == (100, 100, 300, 320) and kept.name == "sticky note"
    assert len(decision.unsettled) == 2
    assert all(n.startswith("dropped") and "near_miss" in n for n in decision.unsettled)


def test_merge_leaves_out_what_it_cannot_settle() -> None:
    def merged(image: str) -> tuple[str, ...]:
        accepted = {
            a: _elements(SAVES[(image, a)][1])
            for a in ("ann", "bob")
            if (image, a) in SAVES and SAVES[(image, a)][0] == "accepted"
        }
        statuses = {a: SAVES[(image, a)][0] for a in ("ann", "bob") if (image, a) in SAVES}
        decision = merge_image(image, statuses, accepted)
        assert decision.elements is None
        return decision.unsettled

    assert merged("st-0003") == (
        "ann's 'window' (indirect): categories differ: ann indirect, bob direct",
    )
    assert merged("st-0004") == ("presence disagrees: ann yes, bob no",)
    assert merged("st-0005") == ("accepted by ann only (others: bob needs_work)",)
    # an unmatched factor leaves the image out (dropping it would change an answer)
    lone = {
        "ann": _elements([("badge", "direct", D)]),
        "bob": _elements([("badge", "direct", D), ("card", "indirect", F)]),
    }
    decision = merge_image("z", {}, lone)
    assert decision.elements is None
    assert decision.unsettled == ("bob's 'card' (indirect): no match in ann's boxes (IoU ≥ 0.5)",)


def test_merge_of_three_needs_every_box_and_a_factor_is_never_dropped() -> None:
    # all three draw badge D; at N ann sees a near miss, bob a direct factor, cy nothing
    accepted = {
        "ann": _elements([("badge", "direct", D), ("mirror", "near_miss", N)]),
        "bob": _elements([("badge", "direct", D), ("mirror", "direct", N)]),
        "cy": _elements([("badge", "direct", D)]),
    }
    decision = merge_image("w", {}, accepted)
    assert decision.elements is None  # bob's factor at N would be dropped otherwise
    assert decision.unsettled == ("ann's 'mirror' (near_miss): no match in cy's boxes (IoU ≥ 0.5)",)
    # without bob's factor, the near miss only cy lacks is dropped and badge D kept
    accepted["bob"] = _elements([("badge", "direct", D), ("mirror", "near_miss", N)])
    decision = merge_image("w", {}, accepted)
    assert decision.elements is not None
    assert [e.name for e in decision.elements] == ["badge"]
    assert decision.unsettled[0].startswith("dropped ann's 'mirror'")


# --- the export -------------------------------------------------------------------------


def test_export_one_annotator(reviewed: Path, tmp_path: Path) -> None:
    out = tmp_path / "ann"
    outcome = export_reviewed(reviewed, out, annotator="ann")
    assert outcome.exported == ["st-0001", "st-0002", "st-0003", "st-0004", "st-0005"]
    assert outcome.statuses["ann"] == {
        "accepted": 5, "needs_work": 0, "discarded": 1, "unreviewed": 0, "unreadable": 0,
    }  # fmt: skip
    assert outcome.statuses["bob"] == {
        "accepted": 4, "needs_work": 1, "discarded": 0, "unreviewed": 1, "unreadable": 0,
    }  # fmt: skip
    records = _records(out)
    assert list(records) == outcome.exported
    assert sorted(p.name for p in (out / "images").iterdir()) == [f"{i}.jpg" for i in IMAGES[:5]]
    # ann's latest of st-03 (accepted, indirect C), not her earlier needs_work save
    annotation = records["st-0003"]["annotation"]
    assert isinstance(annotation, dict)
    assert annotation["status"] == "accepted" and annotation["annotators"] == ["ann"]
    assert annotation["elements"] == [_factor("window", "indirect", C)]
    items = load_spatialtrust(out)
    assert all(item.review_status == "accepted" for item in items)
    assert [item.q1.options[item.q1.answer[0]] for item in items] == [
        "Yes",
        "No",
        "Yes",
        "Yes",
        "Yes",
    ]
    document = json.loads((out / "review.json").read_text(encoding="utf-8"))
    assert document["mode"] == "annotator" and document["exported_from"] == ["ann"]
    assert document["store"] == str(reviewed.absolute() / STORE_FILE)
    assert document["agreement"]["pairs"][0]["presence_kappa"]["value"] == pytest.approx(0.5)
    assert document["merge"] is None
    assert outcome.validation.endswith("5 of 5 images reviewed by a person")
    assert not list(tmp_path.glob(".ann.*"))  # the temporary folder is gone


def test_export_merged(reviewed: Path, tmp_path: Path) -> None:
    out = tmp_path / "merged"
    outcome = export_reviewed(reviewed, out, merge=True)
    assert outcome.exported == ["st-0001", "st-0002"]
    assert [image for image, _ in outcome.left_out] == ["st-0003", "st-0004", "st-0005"]
    assert outcome.exported_from == ("ann", "bob")
    records = _records(out)
    first = records["st-0001"]["annotation"]
    assert isinstance(first, dict)
    assert first["annotators"] == ["ann", "bob"]
    assert first["elements"] == [
        {
            "name": "sticky note",
            "category": "direct",
            "why": "why sticky note",
            "box": [100, 100, 300, 320],
        }
    ]
    document = json.loads((out / "review.json").read_text(encoding="utf-8"))
    decisions = {d["image"]: d for d in document["merge"]["decisions"]}
    assert sorted(decisions) == [
        "st-0001",
        "st-0002",
        "st-0003",
        "st-0004",
        "st-0005",
    ]  # st-06: nobody accepted
    assert decisions["st-0001"]["exported"] and len(decisions["st-0001"]["unsettled"]) == 2
    assert decisions["st-0002"]["unsettled"] == []
    assert document["left_out"][1] == {
        "image": "st-0004",
        "reason": "presence disagrees: ann yes, bob no",
    }
    assert outcome.validation.endswith("2 of 2 images reviewed by a person")


def test_one_annotator_needs_no_choice_and_bad_saves_are_left_out(
    built: Path, tmp_path: Path
) -> None:
    _save(built, "st-0001", "cy", "accepted", [("badge", "direct", D)])
    _save(built, "st-0002", "cy", "accepted", [])
    ReviewStore.of(built).save(
        "st-0003", "cy", 0, {"status": "accepted", "factors": [_factor("", "direct", D)]}
    )
    ReviewStore.of(built).save("st-0004", "cy", 0, {"status": "maybe", "factors": []})
    ReviewStore.of(built).save("elsewhere", "cy", 0, {"status": "accepted", "factors": []})
    outcome = export_reviewed(built, tmp_path / "cy")
    assert outcome.exported == ["st-0001", "st-0002"]
    assert outcome.left_out == [
        ("st-0003", "element 0 (no name) has no name"),
        ("st-0004", "unreadable save: unknown status 'maybe'"),
    ]
    assert outcome.statuses["cy"]["unreadable"] == 1 and outcome.ignored_saves == 1
    assert outcome.agreement.pooled is None


def test_an_unreadable_row_is_counted_and_the_rest_exported(built: Path, tmp_path: Path) -> None:
    """One damaged row (not JSON) leaves its image out; every other image is exported."""
    _save(built, "st-0001", "cy", "accepted", [("badge", "direct", D)])
    _save(built, "st-0002", "cy", "needs_work", [])
    ReviewStore.of(built).save(  # drawn, not categorised yet: still a needs-work verdict
        "st-0005",
        "cy",
        0,
        {"status": "needs_work", "factors": [{"name": "x", "category": None, "box": D}]},
    )
    connection = sqlite3.connect(built / STORE_FILE)
    connection.execute(
        "INSERT INTO annotations VALUES ('st-0003', 'cy', 1, '2026-01-01T00:00:00+00:00', ?)",
        ("{broken",),
    )
    connection.commit()
    connection.close()
    outcome = export_reviewed(built, tmp_path / "cy")
    assert outcome.exported == ["st-0001"]
    assert outcome.left_out == [("st-0003", "unreadable save: not a JSON object")]
    assert outcome.statuses["cy"] == {
        "accepted": 1,
        "needs_work": 2,
        "discarded": 0,
        "unreadable": 1,
        "unreviewed": 2,
    }
    result = privbench("review", "export", built, "--out", tmp_path / "cli")
    assert result.returncode == 0, result.stderr
    assert "unreadable 1" in result.stdout


def test_bad_requests_are_one_line(reviewed: Path, built: Path, tmp_path: Path) -> None:
    full = tmp_path / "full"
    full.mkdir()
    (full / "x").write_text("x")
    with pytest.raises(UsageError, match="exists and is not empty"):
        export_reviewed(reviewed, full, annotator="ann")
    with pytest.raises(
        UsageError, match="2 annotators \\(ann, bob\\); choose one with --annotator NAME"
    ):
        export_reviewed(reviewed, tmp_path / "o")
    with pytest.raises(UsageError, match="--annotator zed: no saves"):
        export_reviewed(reviewed, tmp_path / "o", annotator="zed")
    with pytest.raises(UsageError, match="give one of them"):
        export_reviewed(reviewed, tmp_path / "o", annotator="ann", merge=True)
    fresh = _draft_dataset(tmp_path / "fresh")
    with pytest.raises(UsageError, match="nothing reviewed yet"):
        export_reviewed(fresh, tmp_path / "o")
    assert not (fresh / STORE_FILE).exists()  # asking created no store
    empty = tmp_path / "empty"
    empty.mkdir()
    outcome = export_reviewed(reviewed, empty, annotator="bob")  # an empty folder is fine
    assert outcome.exported == IMAGES[:4]
    assert not (tmp_path / "o").exists()


def test_foreign_store_is_one_line(built: Path, tmp_path: Path) -> None:
    connection = sqlite3.connect(built / STORE_FILE)
    connection.execute("CREATE TABLE notes (text TEXT)")
    connection.execute("INSERT INTO notes VALUES ('mine')")
    connection.commit()
    connection.close()
    with pytest.raises(PrivbenchError, match="not a privbench review store"):
        export_reviewed(built, tmp_path / "o")


# --- the command ------------------------------------------------------------------------


def test_command_exports_validates_and_eval_accepts_it(reviewed: Path, tmp_path: Path) -> None:
    out = tmp_path / "ann"
    result = privbench("review", "export", reviewed, "--out", out, "--annotator", "ann")
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "exported: 5 of 6 images (annotator ann)" in text
    assert "ann: accepted 5, needs work 0, discarded 1" in text
    assert "Presence Cohen's κ" in text and "ann / bob" in text
    assert "st-0004: 4 (presence differs 1, unmatched boxes 2, category changes 0)" in text
    validated = privbench("validate", out)
    assert validated.returncode == 0
    assert "5 of 5 images reviewed by a person" in validated.stdout
    evaluated = privbench(
        "eval", "spatialtrust", "--data", out, "--model", "privbench/ocr-pii",
        "--judge", "offline", "--limit", "1", "--log-dir", tmp_path / "logs",
    )  # fmt: skip
    assert evaluated.returncode == 0, evaluated.stderr
    assert "draft" not in evaluated.stderr
    # the draft dataset itself is still refused
    refused = privbench(
        "eval", "spatialtrust", "--data", reviewed, "--model", "privbench/ocr-pii",
        "--judge", "offline", "--limit", "1", "--log-dir", tmp_path / "logs2",
    )  # fmt: skip
    assert "--allow-drafts" in one_line_error(refused)


def test_command_json_and_errors(reviewed: Path, tmp_path: Path) -> None:
    result = privbench("review", "export", reviewed, "--out", tmp_path / "m", "--merge", "--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["mode"] == "merge" and document["exported"] == 2
    assert document["agreement"]["pairs"][0]["matched_share"] == pytest.approx(0.6)
    both = privbench("review", "export", reviewed, "--out", tmp_path / "x")
    assert "--annotator NAME or combine them with --merge" in one_line_error(both)
    again = privbench("review", "export", reviewed, "--out", tmp_path / "m", "--merge")
    assert "exists and is not empty" in one_line_error(again)
    fresh = _draft_dataset(tmp_path / "fresh")
    nothing = privbench("review", "export", fresh, "--out", tmp_path / "y")
    assert "nothing reviewed yet" in one_line_error(nothing)
