"""Scoring SpatialTrust predictions made elsewhere, through the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import JUDGE, spatial_record, write_spatial
from loopback_server import LoopbackServer
from test_cli import one_line_error, privbench
from test_spatial_strategies import JUDGE_MARK, VERDICT

from privbench.spatialtrust.task import default_data_dir

PERFECT = {
    "q1": "A",
    "q2": {"choices": ["A"], "boxes": {"A": [[10, 10, 50, 50]]}},
    "q3": {"choices": ["B", "C"], "boxes": {"B": [[100, 10, 150, 60]]}},
    "q4": {
        "text": "A person.",
        "factors": [{"name": "person", "why": "watches", "box": [10, 10, 50, 50]}],
    },
    "q5": {
        "text": "Door.",
        "factors": [{"name": "door", "why": "passers-by", "box": [100, 10, 150, 60]}],
    },
}


def write_predictions(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


def test_grade_json_document(server: LoopbackServer, tmp_path: Path) -> None:
    data = write_spatial(tmp_path / "st", [spatial_record("st-1"), spatial_record("st-2")])
    server.script(JUDGE_MARK, VERDICT)
    wrong = {
        **PERFECT,
        "q1": "(B) No",
        "q3": {"choices": ["B"], "boxes": {"B": [[100, 10, 150, 35]]}},
    }
    predictions = write_predictions(
        tmp_path / "preds.jsonl", [{"id": "st-1", **PERFECT}, {"id": "st-2", **wrong}]
    )
    result = privbench(
        "grade", "spatialtrust", "--data", data, "--predictions", predictions, "--judge", JUDGE,
        "--log-dir", tmp_path / "logs", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["items"] == {
        "st-1": {"q1": 1.0, "q2": 1.0, "q3": 1.0, "q4": 1.0, "q5": 1.0},
        # q1 wrong; q3: B's box has IoU 0.5 exactly → not credited, C not chosen → 0
        "st-2": {"q1": 0.0, "q2": 1.0, "q3": 0.0, "q4": 1.0, "q5": 1.0},
    }
    assert document["detection"] == pytest.approx(50.0)
    assert document["indirect_identification"] == pytest.approx(50.0)
    assert document["overall"] == pytest.approx((50 + 100 + 50 + 100 + 100) / 5)
    assert document["model"] == "preds" and document["strategy"] == "predictions"
    assert document["judge"] == JUDGE


def test_grade_table(server: LoopbackServer, tmp_path: Path) -> None:
    data = write_spatial(tmp_path / "st", [spatial_record("st-1")])
    server.script(JUDGE_MARK, VERDICT)
    predictions = write_predictions(tmp_path / "preds.jsonl", [{"id": "st-1", **PERFECT}])
    result = privbench(
        "grade", "spatialtrust", "--data", data, "--predictions", predictions, "--judge", JUDGE,
        "--log-dir", tmp_path / "logs",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "100.0" in result.stdout and "parse failures: none" in result.stdout


def test_missing_and_broken_predictions(server: LoopbackServer, tmp_path: Path) -> None:
    data = write_spatial(tmp_path / "st", [spatial_record("st-1"), spatial_record("st-2")])
    partial = write_predictions(tmp_path / "preds.jsonl", [{"id": "st-1", **PERFECT}])
    result = privbench(
        "grade", "spatialtrust", "--data", data, "--predictions", partial, "--judge", JUDGE
    )
    assert result.returncode == 1
    assert one_line_error(result).endswith("no prediction for 1 item(s): st-2")
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"id": "st-1"}\n{"id": "st-2", "q1": \n')
    result = privbench(
        "grade", "spatialtrust", "--data", data, "--predictions", broken, "--judge", JUDGE
    )
    assert result.returncode == 1
    assert f"{broken}:2:" in one_line_error(result) and "invalid JSON" in result.stderr
    assert server.count() == 0


def test_eval_on_the_shipped_sample_through_inspect_registry(
    server: LoopbackServer, tmp_path: Path
) -> None:
    server.script(JUDGE_MARK, '{"factors": [], "unsupported": false, "states_none": true}')
    server.default_reply = "{}"
    result = privbench(
        "eval", "spatialtrust", "--model", "openai-api/loopmodel/vlm", "--judge", JUDGE,
        "--strategy", "guard", "--limit", "2", "--log-dir", tmp_path / "logs", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert set(document["items"]) == {"st-0001", "st-0002"}
    assert document["strategy"] == "guard"
    assert default_data_dir().name == "spatialtrust-suite"


def test_bad_strategy_and_box_format_are_usage_errors(tmp_path: Path) -> None:
    for option, value in (("--strategy", "vote"), ("--box-format", "cxcywh")):
        result = privbench("eval", "spatialtrust", "--model", "openai/gpt-4o", option, value)
        assert result.returncode == 2
        assert option in one_line_error(result)
