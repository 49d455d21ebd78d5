"""Reading JSONL: lines end at ``\\n`` only, and files and lines have a size limit.

privbench writes JSONL with ``ensure_ascii=False``, so a string may hold U+2028, U+2029 or
U+0085 unescaped (a box name typed into the review app); those are not line ends. A file
or line past the limit (``/dev/zero``) is one problem naming the file and line.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import one_line_error, privbench

from privbench import json_files
from privbench.json_files import jsonl_lines, read_json_object, read_jsonl
from privbench.judgecheck.references import read_reference_grades
from privbench.review_store import ReviewStore
from privbench.runtime.errors import DatasetError
from privbench.shipped import SPATIALTRUST_SUITE
from privbench.suites.spatialtrust.dataset import DATASET_FILE, load_spatialtrust
from privbench.tooling.spatialtrust_builder.review_export import export_reviewed

SEPARATORS = "\u2028\u2029\x85\x1c\x1d\x1e\x0b\x0c"
"""Characters ``str.splitlines`` splits at besides ``\\n`` and ``\\r``."""


def _reference_row(index: int, prediction: str) -> dict[str, object]:
    return {
        "id": f"r{index}",
        "question": "What is private here?",
        "reference": "a name badge",
        "prediction": prediction,
        "score": 0.5,
    }


def test_unicode_line_separators_inside_strings_do_not_split_a_line(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    rows = [{"id": "a", "name": f"sticky{SEPARATORS}note"}, {"id": "b", "name": "mirror"}]
    text = "".join(json.dumps(row, ensure_ascii=False) + "\r\n" for row in rows)
    path.write_text(text, encoding="utf-8")
    values, problems = read_jsonl(path, "rows.jsonl")
    assert problems == []
    assert values == [(1, rows[0]), (2, rows[1])]


def test_reference_grades_with_a_line_separator_are_read(tmp_path: Path) -> None:
    path = tmp_path / "ref.jsonl"
    rows = [_reference_row(1, "a badge\u2028on the desk"), _reference_row(2, "x\x85y")]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    found = read_reference_grades([path])
    assert [item.id for item in found.items] == ["r1", "r2"]


def test_review_export_of_a_name_holding_a_line_separator(tmp_path: Path) -> None:
    directory = tmp_path / "built"
    (directory / "images").mkdir(parents=True)
    line = (SPATIALTRUST_SUITE / DATASET_FILE).read_text(encoding="utf-8").split("\n")[0]
    record = json.loads(line)
    shutil.copy2(SPATIALTRUST_SUITE / record["image"], directory / record["image"])
    record["annotation"] = {"status": "draft", "annotators": [], "elements": []}
    (directory / DATASET_FILE).write_text(json.dumps(record) + "\n", encoding="utf-8")
    name = "sticky\u2028note\x85on the wall"
    factor = {"name": name, "category": "direct", "why": "shows a password", "box": [1, 1, 90, 90]}
    store = ReviewStore.of(directory)
    version = store.versions(record["id"], "ann")
    store.save(record["id"], "ann", version, {"status": "accepted", "factors": [factor]})
    out = tmp_path / "out"
    outcome = export_reviewed(directory, out, annotator="ann")
    assert outcome.exported == [record["id"]]
    assert len(load_spatialtrust(out)) == 1
    ((_, written),) = read_jsonl(out / DATASET_FILE, DATASET_FILE)[0]
    assert isinstance(written, dict) and isinstance(written["annotation"], dict)
    elements = written["annotation"]["elements"]
    assert isinstance(elements, list) and isinstance(elements[0], dict)
    assert [elements[0]["name"]] == [name] and len(elements) == 1


def test_a_line_over_the_limit_is_one_problem_and_the_rest_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_text('{"id": "a"}\n{"id": "' + "x" * 200 + '"}\n{"id": "c"}\n', "utf-8")
    problems: list[object] = []
    lines = list(jsonl_lines(path, "rows.jsonl", problems, max_line_bytes=100))  # type: ignore[arg-type]
    assert lines == [(1, '{"id": "a"}')]
    assert [str(p) for p in problems] == [
        "rows.jsonl:2: a line longer than 100 bytes; the rest is not read"
    ]


def test_a_file_over_the_limit_is_one_problem(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_text('{"id": "a"}\n' * 50, "utf-8")
    problems: list[object] = []
    list(jsonl_lines(path, "rows.jsonl", problems, max_bytes=100))  # type: ignore[arg-type]
    assert [str(p) for p in problems] == [
        "rows.jsonl: larger than 100 bytes, the most privbench reads from one file"
    ]


def test_dev_zero_is_refused_after_one_line() -> None:
    values, problems = read_jsonl(Path("/dev/zero"), "/dev/zero")
    assert values == []
    assert [str(p) for p in problems] == [
        "/dev/zero:1: a line longer than 16,777,216 bytes; the rest is not read"
    ]


def test_a_json_file_over_the_limit_is_one_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(json_files, "MAX_FILE_BYTES", 100)
    path = tmp_path / "priv-IQ.json"
    path.write_text(json.dumps({"v1_0": {"question": "q"}}) + " " * 100, encoding="utf-8")
    data, problems = read_json_object(path, "priv-IQ.json")
    assert data is None
    assert [str(p) for p in problems] == [
        "priv-IQ.json: larger than 100 bytes, the most privbench reads from one file"
    ]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_judge_check_against_dev_zero_is_one_line() -> None:
    result = privbench("judge", "check", "--judge", "offline", "--against", "/dev/zero")
    assert result.returncode != 0
    assert "/dev/zero:1: a line longer than 16,777,216 bytes" in one_line_error(result)


def test_a_file_whose_only_line_is_broken_is_not_also_called_empty(tmp_path: Path) -> None:
    path = tmp_path / "ref.jsonl"
    path.write_text('{"id": "r1", "question": \n', encoding="utf-8")
    with pytest.raises(DatasetError) as caught:
        read_reference_grades([path])
    messages = [problem.message for problem in caught.value.problems]
    assert len(messages) == 1 and messages[0].startswith("invalid JSON")
