"""Scoring SpatialTrust predictions made elsewhere, through the command line."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import (
    JUDGE,
    JUDGE_MARK,
    PERFECT,
    VERDICT,
    one_line_error,
    privbench,
    run_options,
    spatial_record,
    write_predictions,
    write_spatial,
)
from helpers.loopback_server import LoopbackServer

from privbench.dataset_identity import dataset_hash
from privbench.json_files import JsonValue
from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.suites.spatialtrust.api import grade_spatialtrust
from privbench.suites.spatialtrust.dataset import load_spatialtrust
from privbench.suites.spatialtrust.predictions import (
    SpatialPredictions,
    load_spatial_predictions,
    parse_predictions,
)
from privbench.suites.spatialtrust.tables import invalid_box_lines, summary_line
from privbench.suites.spatialtrust.task import default_data_dir


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
    # "preds" names no model: the folder does
    assert document["model"] == tmp_path.name and document["strategy"] == "predictions"
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


# --- bad predictions are counted and listed, never silent zeros ---------------------

OFFLINE = {"judge": "offline"}
BAD_BOXES = {
    **PERFECT,
    "q2": {"choices": ["A"], "boxes": {"A": [[0.05, 0.1, 0.25, 0.5]]}},  # fractions, pixel file
    "q3": {"choices": ["B", "C"], "boxes": {"B": [[-100, 10, 150, 60]]}},  # negative
    "q4": {"text": "A person.", "factors": [{"name": "p", "why": "w", "box": [10, 10, 5000, 50]}]},
    "q5": {"text": "Door.", "factors": [{"name": "d", "why": "w", "box": [150, 10, 100, 60]}]},
}


def two_images(tmp_path: Path) -> Path:
    return write_spatial(tmp_path / "st", [spatial_record("st-1"), spatial_record("st-2")])


def test_unusable_boxes_are_counted_and_listed(tmp_path: Path) -> None:
    predictions = write_predictions(
        tmp_path / "preds.jsonl", [{"id": "st-1", **BAD_BOXES}, {"id": "st-2", **PERFECT}]
    )
    run = grade_spatialtrust(
        two_images(tmp_path), predictions, options=run_options(tmp_path, **OFFLINE)
    )
    expected = [
        ("st-1", "q2", "A", [0.05, 0.1, 0.25, 0.5]),
        ("st-1", "q3", "B", [-100, 10, 150, 60]),
        ("st-1", "q4", "factor 0", [10, 10, 5000, 50]),
        ("st-1", "q5", "factor 0", [150, 10, 100, 60]),
    ]
    listed = [(b["id"], b["question"], b["option"], b["box"]) for b in run.logged.invalid_boxes]
    assert listed == expected
    reasons = [str(b["reason"]) for b in run.logged.invalid_boxes]
    assert "fractions" in reasons[0] and "negative" in reasons[1]
    assert "outside the 200×100 image" in reasons[2] and "inverted" in reasons[3]
    document = run.json()
    assert document["invalid_boxes"] == 4
    documented = [
        (b["id"], b["question"], b["option"], b["box"]) for b in document["invalid_box_items"]
    ]
    assert documented == expected
    assert document["items"]["st-1"]["q2"] == 0.0 and document["items"]["st-2"]["q2"] == 1.0
    assert "invalid boxes: 4" in summary_line(run.scores, run.logged)
    assert invalid_box_lines(run.logged)[0] == (
        "invalid box: st-1 q2 A [0.05, 0.1, 0.25, 0.5]: "
        "all coordinates within 0–1: fractions (xyxy1), not xyxy"
    )


def test_evidence_is_read_as_the_boxes_key(tmp_path: Path) -> None:
    evidence = {
        **PERFECT,
        "q2": {"choices": ["A"], "evidence": {"A": [[10, 10, 50, 50]]}},
        "q3": {"choices": ["B", "C"], "evidence": {"B": [[100, 10, 150, 60]]}},
    }
    predictions = write_predictions(
        tmp_path / "preds.jsonl", [{"id": "st-1", **evidence}, {"id": "st-2", **PERFECT}]
    )
    run = grade_spatialtrust(
        two_images(tmp_path), predictions, options=run_options(tmp_path, **OFFLINE)
    )
    assert run.scores.items["st-1"]["q2"] == 1.0 and run.scores.items["st-1"]["q3"] == 1.0
    assert run.logged.invalid_boxes == [] and run.logged.failed_questions == {}


def _scaled(box: list[int]) -> list[int]:
    """A box of a 200×100 image on the 0–1000 scale (xyxy1000)."""
    return [box[0] * 5, box[1] * 10, box[2] * 5, box[3] * 10]


def test_box_format_reads_a_model_convention(tmp_path: Path) -> None:
    person, door = [10, 10, 50, 50], [100, 10, 150, 60]
    normalised = {
        **PERFECT,
        "q2": {"choices": ["A"], "boxes": {"A": [_scaled(person)]}},
        "q3": {"choices": ["B", "C"], "boxes": {"B": [_scaled(door)]}},
    }
    predictions = write_predictions(
        tmp_path / "preds.jsonl", [{"id": "st-1", **normalised}, {"id": "st-2", **normalised}]
    )
    data, options = two_images(tmp_path), run_options(tmp_path, **OFFLINE)
    run = grade_spatialtrust(data, predictions, box_format="xyxy1000", options=options)
    assert {i["q2"] for i in run.scores.items.values()} == {1.0}
    assert {i["q3"] for i in run.scores.items.values()} == {1.0}
    assert run.logged.invalid_boxes == []
    # read as pixels, the same boxes overshoot the 200×100 image: invalid, with a hint
    run = grade_spatialtrust(data, predictions, options=options)
    assert {i["q2"] for i in run.scores.items.values()} == {0.0}
    assert len(run.logged.invalid_boxes) == 4
    assert "0–1000 normalised?" in str(run.logged.invalid_boxes[0]["reason"])


def test_out_writes_the_scores_csv_and_the_summary(tmp_path: Path) -> None:
    predictions = write_predictions(
        tmp_path / "preds.jsonl", [{"id": "st-1", **BAD_BOXES}, {"id": "st-2", **PERFECT}]
    )
    run = grade_spatialtrust(
        two_images(tmp_path),
        predictions,
        out_dir=tmp_path / "out",
        options=run_options(tmp_path, **OFFLINE),
    )
    data = f"data-{dataset_hash(tmp_path / 'st')[:8]}"  # the dataset is in the name
    stem = f"{tmp_path.name}_offline-{data}-spatialtrust-predictions-xyxy"  # the folder: model
    assert run.exports == {
        "scores": str(tmp_path / "out" / f"{stem}-scores.csv"),
        "summary": str(tmp_path / "out" / f"{stem}-summary.json"),
    }
    with open(run.exports["scores"], newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["id"] for row in rows] == ["st-1", "st-2"]
    assert rows[0]["q2"] == "0.0" and rows[0]["invalid_boxes"] == "4"
    assert rows[1]["q2"] == "1.0" and rows[1]["invalid_boxes"] == "0"
    summary = json.loads(Path(run.exports["summary"]).read_text(encoding="utf-8"))
    assert summary == json.loads(json.dumps(run.json()))
    assert summary["invalid_boxes"] == 4 and summary["exports"] == run.exports


def test_exports_are_never_replaced_silently(tmp_path: Path) -> None:
    predictions = write_predictions(tmp_path / "preds.jsonl", [{"id": "st-1", **PERFECT}])
    data, out = two_images(tmp_path), tmp_path / "out"
    options = run_options(tmp_path, **OFFLINE)
    (tmp_path / "preds2.jsonl").write_text(
        predictions.read_text() + json.dumps({"id": "st-2", **PERFECT}) + "\n"
    )
    predictions = tmp_path / "preds2.jsonl"
    first = grade_spatialtrust(data, predictions, out_dir=out, options=options)
    before = Path(first.exports["summary"]).read_bytes()
    with pytest.raises(UsageError, match="exists: pass --overwrite"):
        grade_spatialtrust(data, predictions, out_dir=out, options=options)
    assert Path(first.exports["summary"]).read_bytes() == before
    # another box format is another result: its own files, beside the first
    other = grade_spatialtrust(
        data, predictions, out_dir=out, box_format="xyxy1000", options=options
    )
    assert set(other.exports.values()).isdisjoint(first.exports.values())
    again = grade_spatialtrust(data, predictions, out_dir=out, options=options, overwrite=True)
    assert again.exports == first.exports


def test_an_unwritable_out_stops_before_grading(tmp_path: Path) -> None:
    predictions = write_predictions(tmp_path / "preds.jsonl", [{"id": "st-1", **PERFECT}])
    (tmp_path / "afile").write_text("x")
    data = write_spatial(tmp_path / "st", [spatial_record("st-1")])
    with pytest.raises(UsageError, match="--out"):
        grade_spatialtrust(
            data,
            predictions,
            out_dir=tmp_path / "afile" / "sub",
            options=run_options(tmp_path, **OFFLINE),
        )
    assert not (tmp_path / "logs").exists()


def test_a_file_that_mostly_fails_to_parse_exits_with_the_likely_cause(
    server: LoopbackServer, tmp_path: Path
) -> None:
    wrong_keys = {"detection": "A", "direct": ["A"], "indirect": ["B", "C"]}
    predictions = write_predictions(
        tmp_path / "preds.jsonl", [{"id": "st-1", **wrong_keys}, {"id": "st-2", **wrong_keys}]
    )
    result = privbench(
        "grade", "spatialtrust", "--data", two_images(tmp_path), "--predictions", predictions,
        "--judge", JUDGE, "--log-dir", tmp_path / "logs",
    )  # fmt: skip
    assert result.returncode == 1
    assert one_line_error(result) == (
        f"error: {predictions}: 10 of 10 questions failed to parse (q1 2, q2 2, q3 2, q4 2, "
        "q5 2); likely cause: the records have no q1–q5 keys (keys found: detection, direct, "
        "indirect) (format: docs/spatialtrust.md)"
    )
    assert server.count() == 0  # nothing was paid for


@pytest.mark.parametrize(
    ("records", "cause"),
    [
        (  # option texts that are not the options' texts, letters that are no option
            [{"q1": "Definitely", "q2": ["a person"], "q3": "Z", "q4": "x", "q5": "y"}],
            'choices are neither option letters (A, B, …) nor the exact option texts, e.g. q1: "Definitely"',
        ),
        (
            [{"prediction": {"q1": "A", "q2": ["A"]}}],
            "q1–q5 are nested under 'prediction'; put them at the top level of each line",
        ),
        ([spatial_record("st-1")], "this looks like a SpatialTrust dataset file"),
        (
            [{"q1": "A", "q2": 3, "q3": 4, "q4": 5, "q5": 6}],
            "e.g. q2: 3",
        ),
    ],
)
def test_likely_causes(tmp_path: Path, records: list[dict[str, Any]], cause: str) -> None:
    items = load_spatialtrust(write_spatial(tmp_path / "st", [spatial_record("st-1")]))
    loaded = SpatialPredictions(tmp_path / "p.jsonl", {"st-1": records[0]}, [])
    with pytest.raises(PrivbenchError, match="likely cause") as raised:
        parse_predictions(loaded, items)
    assert cause in str(raised.value)


def test_half_the_questions_failing_is_still_scored(tmp_path: Path) -> None:
    items = load_spatialtrust(write_spatial(tmp_path / "st", [spatial_record("st-1")]))
    half: dict[str, JsonValue] = {
        "q1": "A",
        "q2": {"choices": ["A"]},
        "q3": "Z",
        "q4": 5,
        "q5": "none",
    }  # 2 of 5 fail
    answers = parse_predictions(SpatialPredictions(tmp_path, {"st-1": half}, []), items)
    assert set(answers["st-1"].failures) == {"q3", "q4"}


def test_extra_ids_are_reported_and_a_bom_is_accepted(
    server: LoopbackServer, tmp_path: Path
) -> None:
    server.script(JUDGE_MARK, VERDICT)
    predictions = tmp_path / "preds.jsonl"
    lines = [{"id": "st-1", **BAD_BOXES}, {"id": "st-9", **PERFECT}, {"id": "st-2", **PERFECT}]
    text = "\n".join(json.dumps(line) for line in lines) + "\n"
    predictions.write_text("\ufeff" + text, encoding="utf-8")  # a byte-order mark first
    result = privbench(
        "grade", "spatialtrust", "--data", two_images(tmp_path), "--predictions", predictions,
        "--judge", JUDGE, "--log-dir", tmp_path / "logs",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert f"warning: {predictions}: 1 id(s) match no item and were ignored: st-9" in result.stderr
    assert "invalid boxes: 4" in result.stdout
    assert "invalid box: st-1 q3 B [-100, 10, 150, 60]: negative coordinate" in result.stdout
    loaded = load_spatial_predictions(predictions, ["st-1", "st-2"])
    assert loaded.extra_ids == ["st-9"] and list(loaded.records) == ["st-1", "st-2"]


def test_non_finite_boxes_in_predictions_are_invalid_boxes_not_a_crash(tmp_path: Path) -> None:
    predictions = tmp_path / "preds.jsonl"
    line = json.dumps({"id": "st-1", **PERFECT})
    line = line.replace("[10, 10, 50, 50]", "[NaN, 10, 50, Infinity]", 1)
    assert "NaN" in line
    predictions.write_text(line + "\n" + json.dumps({"id": "st-2", **PERFECT}) + "\n")
    out = tmp_path / "out"
    run = grade_spatialtrust(
        two_images(tmp_path), predictions, out_dir=out, options=run_options(tmp_path, **OFFLINE)
    )
    reasons = [box["reason"] for box in run.logged.invalid_boxes]
    assert reasons == ["not finite (NaN or infinity)"]
    json.loads(json.dumps(run.json(), allow_nan=False))  # the document is valid JSON
    summary = json.loads(Path(run.exports["summary"]).read_text(encoding="utf-8"))
    assert summary["invalid_box_items"][0]["box"] == ["nan", 10, 50, "inf"]
    shown = privbench("show", run.log_location, "--json")
    assert shown.returncode == 0 and json.loads(shown.stdout)["invalid_boxes"] == 1
