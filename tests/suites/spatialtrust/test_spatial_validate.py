"""``privbench validate`` on broken SpatialTrust directories, one defect per case."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import run_validate, spatial_record, write_spatial
from PIL import Image


def _question(record: dict[str, Any], qid: str) -> dict[str, Any]:
    return next(q for q in record["questions"] if q["qid"] == qid)


def _box_outside(record: dict[str, Any]) -> None:
    _question(record, "q2")["evidence"]["A"] = [[10, 10, 250, 50]]


def _box_inverted(record: dict[str, Any]) -> None:
    _question(record, "q4")["factors"][0]["box"] = [50, 10, 10, 50]


def _answer_not_an_option(record: dict[str, Any]) -> None:
    _question(record, "q1")["answer"] = ["D"]


def _evidence_not_in_answer(record: dict[str, Any]) -> None:
    _question(record, "q3")["evidence"]["D"] = [[0, 0, 10, 10]]


def _missing_q3(record: dict[str, Any]) -> None:
    record["questions"] = [q for q in record["questions"] if q["qid"] != "q3"]


def _duplicated_q2(record: dict[str, Any]) -> None:
    record["questions"].append(dict(_question(record, "q2")))


def _none_with_another(record: dict[str, Any]) -> None:
    _question(record, "q3")["answer"] = ["B", "E"]


def _single_with_two_answers(record: dict[str, Any]) -> None:
    _question(record, "q2")["type"] = "single"
    _question(record, "q2")["answer"] = ["A", "C"]


def _size_mismatch(record: dict[str, Any]) -> None:
    record["width"] = 300


RECORD_CASES: dict[str, tuple[Callable[[dict[str, Any]], None], str, str]] = {
    "box outside image": (_box_outside, "st-1 q2", r"box \[10\.0, 10\.0, 250\.0, 50\.0\] is outside the 200×100 image"),
    "box without area": (_box_inverted, "st-1 q4", r"factor 0: box .* needs x1 < x2 and y1 < y2"),
    "answer not an option": (_answer_not_an_option, "st-1 q1", "answer option 'D' is not among the options"),
    "evidence for non-answer": (_evidence_not_in_answer, "st-1 q3", "evidence for option 'D', which is not in the answer"),
    "q3 missing": (_missing_q3, "st-1 q3", "missing question"),
    "q2 duplicated": (_duplicated_q2, "st-1 q2", "duplicated question"),
    "None with another answer": (_none_with_another, "st-1 q3", r"'None of the above' \(E\) combined with another answer"),
    "single with two answers": (_single_with_two_answers, "st-1 q2", "single-choice question with more than one answer"),
    "size mismatch": (_size_mismatch, "st-1", "image is 200×100, not the declared 300×100"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(RECORD_CASES))
def test_each_record_defect_is_one_line(tmp_path: Path, case: str) -> None:
    change, where, pattern = RECORD_CASES[case]
    good, bad = spatial_record("st-0"), spatial_record("st-1")
    directory = write_spatial(tmp_path / "st", [good, bad])
    change(bad)
    lines = (directory / "spatialtrust.jsonl").read_text().splitlines()
    lines[1] = json.dumps(bad)
    (directory / "spatialtrust.jsonl").write_text("\n".join(lines) + "\n")
    result = run_validate(directory)
    assert result.returncode == 1
    problems = result.stdout.strip().splitlines()
    assert len(problems) == 1, problems
    assert f"spatialtrust.jsonl:2: item {where}:" in problems[0]
    assert re.search(pattern, problems[0]), problems[0]


def test_image_defects(tmp_path: Path) -> None:
    records = [spatial_record("st-0"), spatial_record("st-1"), spatial_record("st-2")]
    directory = write_spatial(tmp_path / "st", records)
    (directory / "images" / "st-1.png").unlink()
    (directory / "images" / "st-2.png").write_bytes(b"\x89PNG not really")
    result = run_validate(directory)
    assert result.returncode == 1
    assert result.stdout.strip().splitlines() == [
        f"{directory}/spatialtrust.jsonl:2: item st-1: missing image: images/st-1.png",
        f"{directory}/spatialtrust.jsonl:3: item st-2: corrupt image (not a recognised image format): images/st-2.png",
    ]


def test_invalid_json_line_and_duplicate_id(tmp_path: Path) -> None:
    directory = write_spatial(tmp_path / "st", [spatial_record("st-0"), spatial_record("st-0")])
    path = directory / "spatialtrust.jsonl"
    path.write_text(path.read_text() + '{"id": "st-9", "image": \n')
    result = run_validate(directory)
    assert result.returncode == 1
    lines = result.stdout.strip().splitlines()
    assert lines[0] == f"{path}:2: item st-0: duplicate id"
    assert re.match(rf"{re.escape(str(path))}:3:\d+: invalid JSON", lines[1])


def test_valid_directory_summary(tmp_path: Path) -> None:
    directory = write_spatial(
        tmp_path / "st", [spatial_record("st-0"), spatial_record("st-1", q5_factors=[])]
    )
    Image.open(directory / "images" / "st-0.png").verify()
    result = run_validate(directory)
    assert result.returncode == 0, result.stdout
    assert (
        "SpatialTrust, 2 images, 10 questions; 2 with direct factors, 1 with indirect factors"
        in result.stdout
    )
