"""Drafts are never mistaken for a benchmark: review status in ``validate``, the gate of
``eval``/``grade spatialtrust``, and the draft line in everything a run on drafts shows.

The data is a few captures of the shipped suite with ``annotation`` objects of mixed review
statuses added, as ``privbench build spatialtrust`` writes them.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers import (
    MODEL,
    one_line_error,
    privbench,
    write_predictions,
)
from helpers.loopback_server import LoopbackServer

from privbench.runtime.records.task import TaskRecord
from privbench.shipped import SPATIALTRUST_SUITE
from privbench.suites.spatialtrust.annotation import REVIEW_STATUSES
from privbench.suites.spatialtrust.dataset import (
    DATASET_FILE,
    load_spatialtrust,
    validate_spatialtrust,
)
from privbench.suites.spatialtrust.task import spatialtrust, spatialtrust_grade
from privbench.validation import validate_directory

STATUSES = ("accepted", "draft", "needs_work", "accepted", "draft", "discarded")
"""One per copied capture: two reviewed, four not."""
UNREVIEWED = sum(1 for s in STATUSES if s != "accepted")


def suite_records(count: int) -> list[dict[str, Any]]:
    lines = (SPATIALTRUST_SUITE / DATASET_FILE).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[:count]]


def annotation(record: dict[str, Any], status: str) -> dict[str, Any]:
    """An ``annotation`` object as ``build`` writes it: the record's factors as elements."""
    questions = {q["qid"]: q for q in record["questions"]}
    elements = [
        {"name": f["name"], "category": category, "why": f["why"], "box": f["box"]}
        for qid, category in (("q4", "direct"), ("q5", "indirect"))
        for f in questions[qid]["factors"]
    ]
    elements.append(
        {"name": "a switched-off screen", "category": "near_miss", "why": "shows nothing",
         "box": [0, 0, 40, 30]}
    )  # fmt: skip
    annotators = ["reviewer-a"] if status == "accepted" else []
    return {"status": status, "annotators": annotators, "elements": elements}


def write_records(directory: Path, records: list[dict[str, Any]]) -> Path:
    lines = [json.dumps(record, ensure_ascii=False) for record in records]
    (directory / DATASET_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return directory


def annotated_copy(directory: Path, statuses: tuple[str | None, ...] = STATUSES) -> Path:
    """The first captures of the shipped suite, one per status (None: no annotation)."""
    (directory / "images").mkdir(parents=True)
    records = suite_records(len(statuses))
    for record, status in zip(records, statuses, strict=True):
        shutil.copy(SPATIALTRUST_SUITE / record["image"], directory / record["image"])
        if status is not None:
            record["annotation"] = annotation(record, status)
    return write_records(directory, records)


@pytest.fixture
def drafts(tmp_path: Path) -> Path:
    return annotated_copy(tmp_path / "drafts")


def expected_review(statuses: tuple[str | None, ...]) -> str:
    counts = Counter(statuses)
    without = counts.pop(None, 0)
    reviewed = counts.pop("accepted", 0)
    parts = []
    if counts:
        listed = ", ".join(f"{s} {counts[s]}" for s in REVIEW_STATUSES if counts[s])
        parts.append(f"{sum(counts.values())} not reviewed: {listed}")
    if without:
        parts.append(f"{without} without an annotation")
    return f"{reviewed} of {len(statuses)} images reviewed by a person ({'; '.join(parts)})"


def draft_line(unreviewed: int, images: int) -> str:
    return f"draft annotations: {unreviewed} of {images} images not reviewed by a person"


def refusal(directory: Path, allow: str) -> str:
    return (
        f"{directory}: {UNREVIEWED} of {len(STATUSES)} images have draft annotations, not "
        f"reviewed by a person; review them (privbench review {directory}) or pass {allow} "
        "to run on drafts"
    )


# --- validate --------------------------------------------------------------------------


def test_items_carry_their_review_status(drafts: Path) -> None:
    items = load_spatialtrust(drafts)
    assert [item.review_status for item in items] == list(STATUSES)
    assert [item.is_unreviewed for item in items] == [s != "accepted" for s in STATUSES]


def test_validate_counts_reviewed_images(drafts: Path) -> None:
    report = validate_directory(drafts)
    assert report.problems == []
    assert report.summary.endswith("; " + expected_review(STATUSES))
    assert expected_review(STATUSES) == (
        "2 of 6 images reviewed by a person (4 not reviewed: draft 2, needs_work 1, discarded 1)"
    )
    shown = privbench("validate", drafts)
    assert shown.returncode == 0, shown.stderr
    assert expected_review(STATUSES) in shown.stdout


def test_validate_counts_images_without_an_annotation(tmp_path: Path) -> None:
    statuses = ("accepted", None, "draft")
    report = validate_directory(annotated_copy(tmp_path / "mixed", statuses))
    assert report.summary.endswith("; " + expected_review(statuses))
    assert "1 without an annotation" in report.summary


def test_records_without_annotation_have_no_review_status(tmp_path: Path) -> None:
    directory = annotated_copy(tmp_path / "plain", (None, None))
    assert [item.review_status for item in load_spatialtrust(directory)] == [None, None]
    summary = validate_directory(directory).summary
    assert "reviewed" not in summary and summary.endswith("factor boxes")


def _break(annotation: dict[str, Any], fault: str) -> None:
    element = annotation["elements"][-1]
    if fault == "status":
        annotation["status"] = "approved"
    elif fault == "category":
        element["category"] = "risky"
    elif fault == "outside":
        element["box"] = [1400, 900, 1500, 960]
    elif fault == "improper":
        element["box"] = [40, 30, 0, 0]
    elif fault == "why":
        element["why"] = " "
    elif fault == "annotators":
        annotation["annotators"] = "reviewer-a"


FAULTS = {
    "status": "annotation: 'status' must be one of draft, accepted, needs_work, discarded, "
    "not 'approved'",
    "category": "'category' must be one of direct, indirect, near_miss, not 'risky'",
    "outside": "box [1400.0, 900.0, 1500.0, 960.0] is outside the 1440×960 image",
    "improper": "box [40.0, 30.0, 0.0, 0.0] needs x1 < x2 and y1 < y2",
    "why": "missing or empty 'why'",
    "annotators": "'annotators' must be a list of names",
}


@pytest.mark.parametrize("fault", FAULTS)
def test_validate_reports_a_bad_annotation_with_its_line_and_id(drafts: Path, fault: str) -> None:
    records = [json.loads(line) for line in (drafts / DATASET_FILE).read_text().splitlines()]
    _break(records[2]["annotation"], fault)
    write_records(drafts, records)
    items, problems = validate_spatialtrust(drafts)
    assert len(problems) == 1 and len(items) == len(STATUSES) - 1
    line = str(problems[0])
    assert line.startswith(f"{drafts / DATASET_FILE}:3: item {records[2]['id']}: ")
    assert FAULTS[fault] in line
    if fault not in ("status", "annotators"):
        assert f"annotation element {len(records[2]['annotation']['elements']) - 1}" in line


def test_an_annotation_that_is_not_an_object_is_a_problem(drafts: Path) -> None:
    records = [json.loads(line) for line in (drafts / DATASET_FILE).read_text().splitlines()]
    records[0]["annotation"] = None
    write_records(drafts, records)
    (problem,) = validate_spatialtrust(drafts)[1]
    assert str(problem).endswith(f":1: item {records[0]['id']}: 'annotation' must be an object")


# --- the gate --------------------------------------------------------------------------


def perfect_predictions(path: Path, directory: Path) -> Path:
    """Every capture's ground truth as a prediction (pixel boxes)."""
    predictions = []
    for item in load_spatialtrust(directory):
        prediction: dict[str, Any] = {"id": item.id, "q1": item.q1.answer[0]}
        for question in (item.q2, item.q3):
            boxes = {k: [list(b) for b in v] for k, v in question.evidence.items()}
            prediction[question.qid] = {"choices": list(question.answer), "boxes": boxes}
        for explanation in (item.q4, item.q5):
            factors = [
                {"name": f.name, "why": f.why, "box": list(f.box)} for f in explanation.factors
            ]
            prediction[explanation.qid] = {"text": explanation.answer, "factors": factors}
        predictions.append(prediction)
    return write_predictions(path, predictions)


def test_eval_stops_on_drafts_before_any_call(
    server: LoopbackServer, drafts: Path, tmp_path: Path
) -> None:
    result = privbench(
        "eval", "spatialtrust", "--model", MODEL, "--judge", "offline", "--data", drafts,
        "--log-dir", tmp_path / "logs", "--out", tmp_path / "out",
    )  # fmt: skip
    assert result.returncode == 2
    assert one_line_error(result) == f"error: {refusal(drafts, '--allow-drafts')}"
    assert server.count() == 0
    assert not (tmp_path / "logs").exists() or not list((tmp_path / "logs").iterdir())


def test_grade_stops_on_drafts_before_the_judge(
    server: LoopbackServer, drafts: Path, tmp_path: Path
) -> None:
    predictions = perfect_predictions(tmp_path / "preds.jsonl", drafts)
    result = privbench(
        "grade", "spatialtrust", "--data", drafts, "--predictions", predictions,
        "--judge", "openai-api/loopjudge/judge", "--log-dir", tmp_path / "logs",
    )  # fmt: skip
    assert result.returncode == 2
    assert one_line_error(result) == f"error: {refusal(drafts, '--allow-drafts')}"
    assert server.count() == 0


def test_the_inspect_tasks_refuse_drafts_without_allow_drafts(drafts: Path, tmp_path: Path) -> None:
    """``inspect eval privbench/spatialtrust`` passes through the tasks, not privbench's CLI."""
    allow = "allow_drafts=True (inspect: -T allow_drafts=true)"
    with pytest.raises(ValueError) as refused:
        spatialtrust(data=str(drafts))
    assert str(refused.value) == refusal(drafts, allow)
    predictions = perfect_predictions(tmp_path / "preds.jsonl", drafts)
    with pytest.raises(ValueError, match="draft annotations"):
        spatialtrust_grade(predictions=str(predictions), data=str(drafts))
    task = spatialtrust(data=str(drafts), allow_drafts=True)
    assert task.metadata is not None
    assert task.metadata["draft_annotations"] == {"unreviewed": UNREVIEWED, "images": 6}


def test_reviewed_and_unannotated_data_records_no_drafts(tmp_path: Path) -> None:
    reviewed = annotated_copy(tmp_path / "reviewed", ("accepted", "accepted"))
    plain = annotated_copy(tmp_path / "plain", (None, None))
    for directory in (reviewed, plain):
        task = spatialtrust(data=str(directory))
        assert task.metadata is not None and "draft_annotations" not in task.metadata


# --- a run on drafts says so everywhere ------------------------------------------------


def test_a_run_on_drafts_says_so_everywhere(
    server: LoopbackServer, drafts: Path, tmp_path: Path
) -> None:
    server.default_reply = "{}"  # every answer unreadable: scores do not matter here
    logs, out = tmp_path / "logs", tmp_path / "out"
    line = draft_line(UNREVIEWED, len(STATUSES))
    result = privbench(
        "eval", "spatialtrust", "--model", MODEL, "--judge", "offline", "--data", drafts,
        "--allow-drafts", "--log-dir", logs, "--out", out, "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["draft_annotations"] == {"unreviewed": UNREVIEWED, "images": len(STATUSES)}
    assert line in document["warnings"]
    summary = json.loads(next(out.glob("*-summary.json")).read_text(encoding="utf-8"))
    assert summary["draft_annotations"] == document["draft_annotations"]
    assert line in summary["warnings"]
    (log,) = logs.glob("*.eval")

    # read back from the log, not the dataset: reviewing the data later changes nothing
    annotated_copy(tmp_path / "later", ("accepted",) * len(STATUSES))
    shutil.copy(tmp_path / "later" / DATASET_FILE, drafts / DATASET_FILE)
    shown = privbench("show", log, "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["draft_annotations"] == document["draft_annotations"]
    table = privbench("show", log)
    assert table.returncode == 0, table.stderr
    assert "SpatialTrust scores" in table.stdout and line in table.stdout

    report = tmp_path / "report.html"
    made = privbench("report", log, "-o", report, "--bootstrap", "100", "--browse", "1")
    assert made.returncode == 0, made.stderr
    assert report.read_text(encoding="utf-8").count(line) >= 1
    assert line in made.stdout + made.stderr


def test_grade_on_drafts_prints_the_line_under_the_table(drafts: Path, tmp_path: Path) -> None:
    predictions = perfect_predictions(tmp_path / "preds.jsonl", drafts)
    result = privbench(
        "grade", "spatialtrust", "--data", drafts, "--predictions", predictions,
        "--judge", "offline", "--allow-drafts", "--log-dir", tmp_path / "logs",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    line = draft_line(UNREVIEWED, len(STATUSES))
    assert line in lines
    assert lines.index(line) < next(
        i for i, x in enumerate(lines) if x.startswith("parse failures")
    )


def test_a_task_record_without_the_figure_has_no_drafts() -> None:
    """Logs written before drafts existed (and runs on reviewed data) say nothing."""
    assert TaskRecord.model_validate({"benchmark": "spatialtrust"}).draft_annotations is None
    record = TaskRecord.model_validate({"draft_annotations": {"unreviewed": 1, "images": 2}})
    assert record.draft_annotations is not None
    assert record.draft_annotations.line() == draft_line(1, 2)
