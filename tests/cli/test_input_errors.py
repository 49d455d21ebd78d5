"""Hostile or odd input files: each is one line naming the file, the item and the cause.

Why: a decompression bomb, a 5000-digit number, a 100,000-deep nesting or a lone
surrogate used to end ``privbench validate`` (or a run) with a traceback or a bare
exception name, hiding every other problem. Also: images checked once per file, the
"(and N more …)" hint that fits the file, and sample errors in words.
"""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from helpers import FOUR_ITEMS, item, run_validate, spatial_record, write_priviq, write_spatial
from PIL import Image

from privbench.json_files import load_valid, read_jsonl
from privbench.runtime.errors import DatasetError, describe_failure
from privbench.suites.priviq.dataset import validate_priviq
from privbench.suites.priviq.predictions import load_grade_file, load_predictions
from privbench.suites.spatialtrust.dataset import validate_spatialtrust
from privbench.suites.spatialtrust.predictions import load_spatial_predictions


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def png_header(width: int, height: int) -> bytes:
    """A PNG that declares ``width``×``height`` 1-bit pixels in a few dozen bytes."""
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"\x00"))
        + _chunk(b"IEND", b"")
    )


def _lines(result: Any) -> list[str]:
    assert "Traceback" not in result.stdout + result.stderr
    return list(result.stdout.strip().splitlines())


@pytest.mark.parametrize(
    ("size", "pixels"),
    [((30_000, 30_000), "900,000,000 pixels"), ((10_000, 10_000), "100,000,000 pixels")],
    ids=["error", "warning"],
)
def test_decompression_bomb_is_one_line_and_the_rest_is_still_checked(
    tmp_path: Path, size: tuple[int, int], pixels: str
) -> None:
    directory = write_priviq(tmp_path / "data", FOUR_ITEMS)
    (directory / "images" / "b.png").write_bytes(png_header(*size))
    entries = json.loads((directory / "priv-IQ.json").read_text())
    entries["c"]["answer"] = ""
    (directory / "priv-IQ.json").write_text(json.dumps(entries))
    result = run_validate(directory)
    assert result.returncode == 1
    bomb, other = _lines(result)
    assert "priv-IQ.json: item b: image too large to decode safely" in bomb
    assert pixels in bomb and bomb.endswith("images/b.png")
    assert "item c: empty 'answer'" in other


def test_decompression_bomb_in_spatialtrust(tmp_path: Path) -> None:
    directory = write_spatial(tmp_path / "st", [spatial_record("st-0"), spatial_record("st-1")])
    (directory / "images" / "st-0.png").write_bytes(png_header(30_000, 30_000))
    _, problems = validate_spatialtrust(directory)
    assert [(p.item, p.message.split(" (")[0]) for p in problems] == [
        ("st-0", "image too large to decode safely")
    ]


def _write_lines(path: Path, lines: list[str]) -> None:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_five_thousand_digit_numbers_in_spatialtrust(tmp_path: Path) -> None:
    records = [spatial_record(f"st-{n}") for n in range(4)]
    directory = write_spatial(tmp_path / "st", records)
    huge = "9" * 5000
    width = json.dumps(records[1]).replace('"width": 200', f'"width": {huge}')
    box = json.dumps(records[2]).replace("[10, 10, 50, 50]", f"[10, 10, {huge}, 50]", 1)
    records[3]["questions"][0]["answer"] = ["Z"]
    _write_lines(
        directory / "spatialtrust.jsonl",
        [json.dumps(records[0]), width, box, json.dumps(records[3])],
    )
    result = run_validate(directory)
    assert result.returncode == 1
    lines = _lines(result)
    assert len(lines) == 3, lines
    for number, line in ((2, lines[0]), (3, lines[1])):
        assert f"spatialtrust.jsonl:{number}:" in line
        assert f"item st-{number - 1}: a number with 5,000 digits; at most 4,300" in line
    assert "spatialtrust.jsonl:4: item st-3 q1: answer option 'Z'" in lines[2]


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def test_deeply_nested_priviq_predictions(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    path.write_text(f'{{"a": "fine",\n "b": {_deep(100_000)},\n "c": "fine"}}')
    with pytest.raises(DatasetError) as raised:
        load_predictions(path, ["a", "b", "c"])
    message = str(raised.value)
    assert message.startswith(f"{path}:2:")
    assert "item b: nested 100,001 levels deep" in message
    assert "privbench validate" not in message


def test_deeply_nested_spatial_predictions_report_every_line(tmp_path: Path) -> None:
    path = tmp_path / "preds.jsonl"
    lines = [
        json.dumps({"id": "st-0", "q1": "A"}),
        f'{{"id": "st-1", "q4": {_deep(100_000)}}}',
        f'{{"id": "st-2", "q4": {_deep(65)}}}',  # one level more than privbench reads
        json.dumps({"q1": "A"}),
    ]
    _write_lines(path, lines)
    with pytest.raises(DatasetError) as raised:
        load_spatial_predictions(path, ["st-0", "st-1", "st-2"])
    problems = [str(p) for p in raised.value.problems]
    assert problems[0].startswith(f"{path}:2:") and "nested 100,001 levels deep" in problems[0]
    assert f"{path}:3:" in problems[1] and "at most 64 levels" in problems[1]
    assert problems[2] == f"{path}:4: a prediction needs a string 'id'"
    message = str(raised.value)
    assert "(and 2 more: line 3: nested" in message
    assert "privbench validate" not in message


def test_lone_surrogate_in_predictions_is_reported_at_load(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    path.write_text('{"a": "fine", "b": "half an emoji \\ud83d", "c": "fine"}')
    with pytest.raises(DatasetError) as raised:
        load_predictions(path, ["a", "b", "c"])
    message = str(raised.value)
    message.encode("utf-8")  # the message itself can be printed
    assert message.startswith(f"{path}: item b: lone surrogate \\ud83d in its value")
    assert "at character 15" in message and "U+FFFD" in message


def test_lone_surrogate_in_spatial_predictions_names_item_and_field(tmp_path: Path) -> None:
    path = tmp_path / "preds.jsonl"
    record = '{"id": "st-0", "q4": {"text": "ok \\udc00", "factors": []}}'
    _write_lines(path, [record, json.dumps({"id": "st-1"})])
    with pytest.raises(DatasetError, match=r":1: item st-0: lone surrogate \\udc00 in q4\.text"):
        load_spatial_predictions(path, ["st-0", "st-1"])


def test_lone_surrogate_in_a_dataset_is_a_validate_line(tmp_path: Path) -> None:
    directory = write_priviq(tmp_path / "data", FOUR_ITEMS)
    text = (directory / "priv-IQ.json").read_text()
    (directory / "priv-IQ.json").write_text(text.replace("Which law applies?", "Which \\ud800?"))
    result = run_validate(directory)
    assert result.returncode == 1
    (line,) = _lines(result)
    assert "item b: lone surrogate \\ud800 in question at character 7" in line


def test_duplicate_keys_in_spatialtrust_dataset(tmp_path: Path) -> None:
    directory = write_spatial(tmp_path / "st", [spatial_record("st-0"), spatial_record("st-1")])
    lines = (directory / "spatialtrust.jsonl").read_text().splitlines()
    lines[0] = lines[0].replace('{"id": "st-0",', '{"id": "st-x", "id": "st-0",', 1)
    lines[1] = lines[1].replace(
        '"answer": ["A"], "evidence"', '"answer": ["B"], "answer": ["A"], "evidence"', 1
    )
    _write_lines(directory / "spatialtrust.jsonl", lines)
    result = run_validate(directory)
    assert result.returncode == 1
    assert _lines(result) == [
        f"{directory}/spatialtrust.jsonl:1: item st-0: key 'id' given twice in one object (JSON keeps the last)",
        f"{directory}/spatialtrust.jsonl:2: item st-1 q2: key 'answer' given twice in one object (JSON keeps the last)",
    ]  # fmt: skip


def test_duplicate_keys_in_spatial_predictions(tmp_path: Path) -> None:
    path = tmp_path / "preds.jsonl"
    _write_lines(path, ['{"id": "st-0", "q1": "A", "q1": "B"}'])
    with pytest.raises(DatasetError, match=r":1: item st-0: key 'q1' given twice"):
        load_spatial_predictions(path, ["st-0"])


def test_read_jsonl_keeps_plain_values(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    _write_lines(path, ['{"id": "a", "q4": {"text": "caf\\u00e9 \\ud83d\\ude00"}}'])
    assert read_jsonl(path, "x.jsonl") == ([(1, {"id": "a", "q4": {"text": "café 😀"}})], [])


def test_hint_fits_the_file(tmp_path: Path) -> None:
    grades = tmp_path / "grades.json"
    grades.write_text(json.dumps({key: {"model": [1]} for key in "abcdef"}))
    with pytest.raises(DatasetError) as raised:
        load_grade_file(grades)
    message = str(raised.value)
    assert "privbench validate" not in message
    assert message.startswith(f"{grades}: item a: 'model', 'content' and 'score'")
    assert "(and 5 more: item b: " in message and "; and 2 others)" in message
    directory = write_priviq(tmp_path / "data", FOUR_ITEMS)
    (directory / "images" / "a.png").unlink()
    (directory / "images" / "b.png").unlink()
    with pytest.raises(DatasetError, match=rf"\(and 1 more; `privbench validate {directory}`"):
        load_valid(directory, validate_priviq)


@pytest.mark.parametrize(
    ("logged", "attempt_timeout", "words"),
    [
        ("RetryError(<Future at 0x7f3a2c1d state=finished raised AttemptTimeoutError>)", 120,
         "the endpoint timed out after 120 s per attempt (retries exhausted; AttemptTimeoutError)"),
        ("RetryError(<Future at 0x7f3a2c1d state=finished raised AttemptTimeoutError>)", None,
         "the endpoint timed out (retries exhausted; AttemptTimeoutError)"),
        ("AttemptTimeoutError: attempt_timeout '30' exceeded.", None,
         "the endpoint timed out after 30 s per attempt (AttemptTimeoutError)"),
        ("IndexError('list index out of range')", None,
         "the endpoint returned no choices (empty reply; IndexError)"),
        ("IndexError: list index out of range", None,
         "the endpoint returned no choices (empty reply; IndexError)"),
        ("RetryError(<Future at 0x1 state=finished raised RateLimitError>)", None,
         "rate limited (HTTP 429) (RateLimitError)"),
        ("KeyError('x')", None, "KeyError('x')"),
    ],
)  # fmt: skip
def test_sample_errors_in_words(logged: str, attempt_timeout: int | None, words: str) -> None:
    assert describe_failure(logged, attempt_timeout=attempt_timeout) == words


def _count_opens(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    opened: list[str] = []
    real_open = Image.open

    def counting(path: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(Path(path).name)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(Image, "open", counting)
    return opened


def test_shared_images_are_checked_once_per_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = {f"v{n}": item("q", "a", ["Law"], image=f"shared-{n % 2}.png") for n in range(50)}
    directory = write_priviq(tmp_path / "data", shared)
    opened = _count_opens(monkeypatch)
    items, problems = validate_priviq(directory)
    assert problems == [] and len(items) == 50
    assert sorted(opened) == ["shared-0.png"] * 2 + ["shared-1.png"] * 2  # verify + decode
    opened.clear()
    validate_priviq(directory)  # unchanged files: nothing decoded again
    assert opened == []
    Image.new("RGB", (16, 16), (1, 2, 3)).save(directory / "images" / "shared-1.png")
    validate_priviq(directory)  # a rewritten file is checked again
    assert opened == ["shared-1.png"] * 2


def test_shared_spatial_image_is_checked_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = [spatial_record(f"st-{n}") | {"image": "images/one.png"} for n in range(30)]
    directory = write_spatial(tmp_path / "st", records)
    opened = _count_opens(monkeypatch)
    items, problems = validate_spatialtrust(directory)
    assert problems == [] and len(items) == 30
    assert opened == ["one.png"] * 2
