"""``privbench validate`` on a corpus of broken Priv-IQ directories, one defect per case."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import FOUR_ITEMS, item, run_validate, write_priviq
from PIL import Image

from privbench.json_files import load_valid
from privbench.runtime.errors import DatasetError
from privbench.suites.priviq.dataset import load_priviq, validate_priviq


def test_valid_directory_summary_and_exit_0(priviq_dir: Path) -> None:
    result = run_validate(priviq_dir)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    assert "4 items" in lines[0] and "VizPriv 1" in lines[0] and "CntxPriv 2" in lines[0]
    assert "4 combinations" in lines[0]


def _rewrite(directory: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = directory / "priv-IQ.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _invalid_json(d: Path) -> None:
    (d / "priv-IQ.json").write_text(
        '{\n  "a": {"imagename": "a.png",\n  "question": "x" "answer": "y"}\n}'
    )


def _missing_image(d: Path) -> None:
    (d / "images" / "b.png").unlink()


def _corrupt_image(d: Path) -> None:
    (d / "images" / "b.png").write_bytes(b"this is not a png at all")


def _truncated_image(d: Path) -> None:
    path = d / "images" / "b.png"
    path.write_bytes(path.read_bytes()[:40])


def _image_is_a_directory(d: Path) -> None:
    path = d / "images" / "b.png"
    path.unlink()
    path.mkdir()


def _empty_question(d: Path) -> None:
    _rewrite(d, lambda data: data["b"].update(question="   "))


def _empty_answer(d: Path) -> None:
    _rewrite(d, lambda data: data["b"].update(answer=""))


def _unknown_competency(d: Path) -> None:
    _rewrite(d, lambda data: data["b"].update(capability=["Law", "Astrology"]))


def _missing_capability(d: Path) -> None:
    _rewrite(d, lambda data: data["b"].pop("capability"))


def _duplicate_id(d: Path) -> None:
    text = (d / "priv-IQ.json").read_text()
    entry = json.dumps(FOUR_ITEMS["b"] | {"imagename": "b.png"})
    (d / "priv-IQ.json").write_text(text.rstrip().rstrip("}") + f', "b": {entry}}}')


def _image_outside(d: Path) -> None:
    _rewrite(d, lambda data: data["b"].update(imagename="../../etc/passwd"))


def _not_an_object(d: Path) -> None:
    (d / "priv-IQ.json").write_text("[1, 2, 3]")


def _item_not_an_object(d: Path) -> None:
    _rewrite(d, lambda data: data.update(b="just text"))


CASES: dict[str, tuple[Callable[[Path], None], str | None, str]] = {
    "invalid JSON": (_invalid_json, None, r"priv-IQ\.json:3:\d+: invalid JSON"),
    "missing image": (_missing_image, "b", "missing image: images/b.png"),
    "corrupt image": (_corrupt_image, "b", "corrupt image"),
    "truncated image": (_truncated_image, "b", "corrupt image"),
    "image is a directory": (_image_is_a_directory, "b", "not a file"),
    "empty question": (_empty_question, "b", "empty 'question'"),
    "empty answer": (_empty_answer, "b", "empty 'answer'"),
    "unknown competency": (_unknown_competency, "b", "unknown competency 'Astrology'"),
    "missing capability": (_missing_capability, "b", "missing 'capability'"),
    "duplicate id": (_duplicate_id, "b", "duplicate id"),
    "image outside images/": (_image_outside, "b", "leaves images/"),
    "top level not an object": (_not_an_object, None, "top level must be a JSON object"),
    "item not an object": (_item_not_an_object, "b", "item must be a JSON object"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_defect_is_one_line_naming_the_item(tmp_path: Path, case: str) -> None:
    breaker, item_id, pattern = CASES[case]
    directory = write_priviq(tmp_path / "data", FOUR_ITEMS)
    breaker(directory)
    result = run_validate(directory)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, lines
    assert re.search(pattern, lines[0]), lines[0]
    assert "priv-IQ.json" in lines[0]
    if item_id is not None:
        assert f"item {item_id}:" in lines[0]


def test_unreadable_image(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # tests may run as root, for whom file permissions do not bite: make the read fail
    directory = write_priviq(tmp_path / "data", FOUR_ITEMS)
    real_open = Image.open

    def deny(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path).endswith("b.png"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(Image, "open", deny)
    _, problems = validate_priviq(directory)
    assert [str(p).split(": ", 1)[1] for p in problems] == [
        "item b: unreadable image (permission denied): images/b.png"
    ]


def test_all_problems_in_one_pass(tmp_path: Path) -> None:
    directory = write_priviq(tmp_path / "data", FOUR_ITEMS)
    _missing_image(directory)
    _rewrite(directory, lambda data: data["c"].update(answer="", capability=["Nope"]))
    _, problems = validate_priviq(directory)
    assert [(p.item, p.message.split(":")[0]) for p in problems] == [
        ("b", "missing image"),
        ("c", "empty 'answer'"),
        ("c", "unknown competency 'Nope' (known"),
    ]
    with pytest.raises(DatasetError, match=r"and 2 more"):
        load_priviq(directory)


def test_long_names_are_accepted(tmp_path: Path) -> None:
    directory = write_priviq(
        tmp_path / "data",
        {"x": item("q", "a", ["Visual Privacy (Recognition)", "contextual privacy understanding"])},
    )
    (loaded,) = load_priviq(directory)
    assert loaded.competencies == ("VizPriv", "CntxPriv")


def test_not_a_benchmark_directory(tmp_path: Path) -> None:
    result = run_validate(tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().startswith("error: ")
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_valid_directory_is_validated_once_until_a_file_changes(tmp_path: Path) -> None:
    directory = write_priviq(tmp_path / "data", FOUR_ITEMS)
    calls: list[Path] = []

    def counting(path: Path) -> Any:
        calls.append(path)
        return validate_priviq(path)

    first = load_valid(directory, counting)
    assert load_valid(directory, counting) == first
    assert len(calls) == 1
    (directory / "images" / "b.png").write_bytes(b"broken now")  # any edit invalidates
    with pytest.raises(DatasetError, match="item b: corrupt image"):
        load_valid(directory, counting)
    assert len(calls) == 2
