"""``privbench diff``: two runs on the same data compared item by item.

The runs are real: a loopback model answers, the offline judge grades; each run's own
``--json`` document gives the per-item scores the expected differences are computed from.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import (
    API_KEY,
    FINAL,
    FINAL_MARK,
    FOUR_ITEMS,
    MODEL,
    PERFECT,
    SELECT_MARK,
    item,
    one_line_error,
    privbench,
    run_options,
    spatial_record,
    write_priviq,
    write_spatial,
)
from helpers.loopback_server import LoopbackServer

from privbench.analysis.run_diff import (
    pair_items,
    paired_figure,
    shorten,
    top_changed,
)
from privbench.formatting import signed
from privbench.runtime.cross_run import DiffItem
from privbench.suites.priviq.api import eval_priviq
from privbench.suites.spatialtrust.api import eval_spatialtrust
from privbench.suites.spatialtrust.results import image_score

UNSURE = "I am not sure."
LAW = "GDPR Article 33 applies: the controller must notify the supervisory authority " * 3
"""B's answer to item b: the reference, at length (the terminal shortens it)."""


@dataclass(frozen=True)
class Runs:
    priviq_a: Path
    priviq_b: Path
    priviq_other_data: Path
    spatial_direct: Path
    spatial_staged: Path
    documents: dict[Path, dict[str, Any]]
    """Each log's own ``--json`` document."""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    tmp = tmp_path_factory.mktemp("diff")
    data = write_priviq(tmp / "data", FOUR_ITEMS)
    other = write_priviq(
        tmp / "other", {**FOUR_ITEMS, "b": item("Which law applies?", "CCPA", ["Law"])}
    )
    spatial = write_spatial(tmp / "st", [spatial_record("st-1"), spatial_record("st-2")])
    documents: dict[Path, dict[str, Any]] = {}
    with pytest.MonkeyPatch.context() as patch, LoopbackServer(default_reply=UNSURE) as server:
        patch.setenv("INSPECT_DISPLAY", "none")
        patch.setenv("PRIVBENCH_CACHE_DIR", str(tmp / "cache"))
        patch.delenv("OPENAI_API_KEY", raising=False)
        patch.setenv("LOOPMODEL_BASE_URL", server.base_url)
        patch.setenv("LOOPMODEL_API_KEY", API_KEY)
        options = run_options(tmp, judge="offline")

        def keep(run: Any) -> Path:
            path = Path(run.log_location)
            documents[path] = run.json()
            return path

        priviq_a = keep(eval_priviq(data, MODEL, options=options))
        other_run = keep(eval_priviq(other, MODEL, options=options))
        server.script("Which law applies", LAW)
        server.script("Linkage risk", "Yes")
        priviq_b = keep(eval_priviq(data, MODEL, options=options))
        server.default_reply = json.dumps(PERFECT)
        direct = keep(eval_spatialtrust(spatial, MODEL, strategy="direct", options=options))
        server.script(SELECT_MARK, '{"q1": "A", "q2": ["A", "C"], "q3": ["B"]}')
        server.script(FINAL_MARK, json.dumps(FINAL))
        staged = keep(eval_spatialtrust(spatial, MODEL, strategy="staged", options=options))
    yield Runs(priviq_a, priviq_b, other_run, direct, staged, documents)


def diff_json(a: Path, b: Path, *extra: str) -> dict[str, Any]:
    result = privbench("diff", a, b, "--json", *extra)
    assert result.returncode == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def test_priviq_difference_is_the_mean_of_item_differences(runs: Runs) -> None:
    items_a = runs.documents[runs.priviq_a]["items"]
    items_b = runs.documents[runs.priviq_b]["items"]
    differences = {i: 100 * (items_b[i] - items_a[i]) for i in items_a}
    assert differences["b"] > 0 and differences["a"] == 0  # the runs differ where made to
    document = diff_json(runs.priviq_a, runs.priviq_b)
    assert document["n_paired"] == 4
    assert document["overall"]["n"] == 4
    assert document["overall"]["difference"] == pytest.approx(np.mean(list(differences.values())))
    overall_a = runs.documents[runs.priviq_a]["overall"]
    overall_b = runs.documents[runs.priviq_b]["overall"]
    assert document["overall"]["difference"] == pytest.approx(overall_b - overall_a)
    low, high = document["overall"]["low"], document["overall"]["high"]
    assert low <= document["overall"]["difference"] <= high
    assert 0 <= document["overall"]["p"] <= 1
    law = document["by_competency"]["Law"]
    assert (law["n"], law["difference"]) == (1, pytest.approx(differences["b"]))
    cntx = document["by_competency"]["CntxPriv"]  # items a and d
    assert cntx["n"] == 2
    assert cntx["difference"] == pytest.approx((differences["a"] + differences["d"]) / 2)
    assert document["by_competency"]["PET"] == {
        "n": 0, "difference": None, "low": None, "high": None, "p": None, "p_holm": None
    }  # fmt: skip
    assert document["only_a"] == document["only_b"] == []
    assert document["unscored_a"] == document["unscored_b"] == []
    assert document["changed"] == sum(1 for d in differences.values() if d != 0)
    assert document["notes"] == []


def test_the_item_made_to_change_tops_the_list_with_both_answers_whole(runs: Runs) -> None:
    document = diff_json(runs.priviq_a, runs.priviq_b, "--top", "1")
    (top,) = document["top"]
    assert top["id"] == "b"
    assert top["competencies"] == ["Law"]
    assert top["a"]["answer"] == UNSURE
    assert top["b"]["answer"] == LAW  # whole in --json
    items_a = runs.documents[runs.priviq_a]["items"]
    items_b = runs.documents[runs.priviq_b]["items"]
    assert top["a"]["score"] == items_a["b"] and top["b"]["score"] == items_b["b"]
    assert top["difference"] == pytest.approx(100 * (items_b["b"] - items_a["b"]))
    assert top["b"]["grades"] == [items_b["b"]]  # one judge run


def test_terminal_shows_shortened_answers(runs: Runs) -> None:
    result = privbench("diff", runs.priviq_a, runs.priviq_b, "--top", "3")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "overall: +" in out and "paired over 4 items both scored" in out
    assert "GDPR Article 33 applies" in out
    assert LAW.strip() not in out  # shortened
    assert "…" in out
    assert str(runs.priviq_a) in out or runs.priviq_a.name[:20] in out


def test_runs_on_other_data_are_refused_in_one_line(runs: Runs) -> None:
    result = privbench("diff", runs.priviq_a, runs.priviq_other_data)
    assert result.returncode == 1
    assert result.stdout == ""
    line = one_line_error(result)
    hash_a = runs.documents[runs.priviq_a]["dataset_hash"][:12]
    hash_b = runs.documents[runs.priviq_other_data]["dataset_hash"][:12]
    assert hash_a != hash_b
    for part in (str(runs.priviq_a), str(runs.priviq_other_data), hash_a, hash_b):
        assert part in line
    assert "different data" in line


def test_runs_of_two_benchmarks_are_refused_in_one_line(runs: Runs) -> None:
    result = privbench("diff", runs.priviq_a, runs.spatial_direct, "--json")
    assert result.returncode == 1 and result.stdout == ""
    line = one_line_error(result)
    assert "different benchmarks" in line and "SpatialTrust" in line


def test_a_strategy_ablation_is_compared_per_question(runs: Runs) -> None:
    items_a = runs.documents[runs.spatial_direct]["items"]
    items_b = runs.documents[runs.spatial_staged]["items"]
    document = diff_json(runs.spatial_direct, runs.spatial_staged)
    assert document["strategy_ablation"] is True
    assert document["a"]["strategy"] == "direct" and document["b"]["strategy"] == "staged"
    assert document["notes"][0] == "strategy ablation: A ran direct, B ran staged (same model)"
    assert document["n_paired"] == 2
    for qid in ("q1", "q2", "q3", "q4", "q5"):
        expected = np.mean([100 * (items_b[i][qid] - items_a[i][qid]) for i in items_a])
        assert document["by_question"][qid]["difference"] == pytest.approx(expected)
    per_image = [
        100 * (np.mean(list(items_b[i].values())) - np.mean(list(items_a[i].values())))
        for i in items_a
    ]
    assert document["overall"]["difference"] == pytest.approx(np.mean(per_image))
    overall_a = runs.documents[runs.spatial_direct]["overall"]
    overall_b = runs.documents[runs.spatial_staged]["overall"]
    assert document["overall"]["difference"] == pytest.approx(overall_b - overall_a)
    assert document["overall"]["difference"] < 0  # FINAL departs from the ground truth
    top = document["top"][0]
    assert top["a"]["scores"] == items_a[top["id"]]
    assert json.loads(top["a"]["answer"]) == PERFECT
    text = privbench("diff", runs.spatial_direct, runs.spatial_staged)
    assert "strategy ablation: A ran direct, B ran staged" in text.stdout
    assert "q4 direct explanation" in text.stdout


def test_the_same_seed_gives_the_same_document(runs: Runs) -> None:
    first = diff_json(runs.priviq_a, runs.priviq_b, "--seed", "3")
    assert first == diff_json(runs.priviq_a, runs.priviq_b, "--seed", "3")
    assert first["seed"] == 3


def test_a_missing_log_is_one_line(runs: Runs, tmp_path: Path) -> None:
    result = privbench("diff", runs.priviq_a, tmp_path / "nope.eval")
    assert result.returncode == 2
    assert "nope.eval: no such log file" in one_line_error(result)


# --- pure parts, on hand-computed cases ------------------------------------------------


def _item(item_id: str, score: float | None, **parts: float | None) -> DiffItem:
    return DiffItem(item_id, score, dict(parts))


def test_pairing_counts_items_of_one_run_and_unscored_items() -> None:
    a = {"x": _item("x", 0.5), "y": _item("y", None), "z": _item("z", 1.0)}
    b = {"z": _item("z", 0.0), "y": _item("y", 0.2), "w": _item("w", 1.0), "x": _item("x", 1.0)}
    pairing = pair_items(a, b)
    assert pairing.paired == ["x", "z"]
    assert pairing.only_a == [] and pairing.only_b == ["w"]
    assert pairing.unscored_a == ["y"] and pairing.unscored_b == []


def test_paired_figure_by_hand() -> None:
    figure = paired_figure(
        "overall", {"x": 0.0, "y": 0.0, "z": 0.25}, {"x": 1.0, "y": 0.5, "z": 0.25}, 0
    )
    # differences B − A: +1, +0.5, 0 → mean 0.5 → 50 points
    assert figure.n == 3 and figure.difference == pytest.approx(50.0)
    # the zero is the same under either sign; of the 4 sign patterns of (1, 0.5), two have
    # |mean| ≥ 0.75 (the observed one and its negative)
    assert figure.p == pytest.approx(0.5)
    assert figure.low is not None and figure.high is not None
    assert 0 <= figure.low <= 50 <= figure.high <= 100  # every resample's mean is in 0–1
    empty = paired_figure("PET", {}, {}, 0)
    assert (empty.n, empty.difference, empty.p) == (0, None, None)


def test_top_changed_orders_by_size_then_by_a_s_order_and_skips_unchanged() -> None:
    a = {i: _item(i, s) for i, s in (("p", 0.0), ("q", 0.5), ("r", 1.0), ("s", 0.2))}
    b = {i: _item(i, s) for i, s in (("p", 0.5), ("q", 0.0), ("r", 1.0), ("s", 1.0))}
    top = top_changed(a, b, ["p", "q", "r", "s"], 10)
    assert [(c.id, c.difference) for c in top] == [
        ("s", pytest.approx(80.0)), ("p", 50.0), ("q", -50.0)
    ]  # fmt: skip
    assert [c.id for c in top_changed(a, b, ["p", "q", "r", "s"], 2)] == ["s", "p"]


def test_image_score_is_unscored_when_any_question_is() -> None:
    assert image_score({"q1": 1.0, "q2": 0.5, "q3": 0.0, "q4": 1.0, "q5": 0.0}) == 0.5
    assert image_score({"q1": 1.0, "q2": 0.5, "q3": 0.0, "q4": None, "q5": 0.0}) is None


def test_shorten_and_signed() -> None:
    assert shorten("a  b\n c") == "a b c"
    assert shorten("x" * 70, 10) == "x" * 9 + "…"
    assert shorten("red\x1b[31m alert") == "red?[31m alert"  # no escape reaches the terminal
    assert signed(None) == "–" and signed(-0.04) == "0.0" and signed(2.25) == "+2.2"
    assert os.linesep not in shorten("one\r\ntwo")
