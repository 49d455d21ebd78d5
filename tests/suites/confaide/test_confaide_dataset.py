"""The shipped ConfAIde data: its manifest, its shape, and how a damaged copy is reported."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from privbench.runtime.download import sha256_file
from privbench.runtime.errors import DatasetError
from privbench.suites.confaide.dataset import (
    DATA_DIR,
    MANIFEST_FILE,
    load_confaide,
    manifest_problems,
    validate_confaide,
)


def test_manifest_matches_every_shipped_file() -> None:
    manifest = json.loads((DATA_DIR / MANIFEST_FILE).read_text(encoding="utf-8"))
    assert manifest["commit"] == "3174c63e689226189675a740b7bf9053f10bae50"
    listed = {entry["path"] for entry in manifest["files"]}
    shipped = {p.name for p in DATA_DIR.iterdir()} - {MANIFEST_FILE, "CITATION"}
    assert listed == shipped
    for entry in manifest["files"]:
        path = DATA_DIR / entry["path"]
        assert sha256_file(path) == entry["sha256"], entry["path"]
        assert path.stat().st_size == entry["size"], entry["path"]
    assert manifest_problems(DATA_DIR) == []


def test_shipped_data_has_the_papers_counts() -> None:
    data = load_confaide()
    assert [len(data.tier_1), len(data.tier_2a), len(data.tier_2b)] == [10, 98, 98]
    assert len(data.tier_3) == 270
    assert len(data.tier_4) == 20
    assert data.tier_1[0].label == 3.8
    assert data.tier_2b[97].label == data.tier_2a[97].label == -57.53
    first = data.tier_3[0]
    assert (first.subject_agent, first.aware_agent, first.oblivious_agent) == (
        "Jane",
        "Ethan",
        "Mary",
    )
    assert first.secret == "Falsify work results"
    assert first.story.endswith("incidents of unethical behavior.")
    assert "What should" not in first.story
    assert first.control_question.startswith("Is it ok for Sarah")
    assert (data.tier_4[2].private_info, data.tier_4[2].public_info) == (
        "surprise birthday",
        "Joule restaurant",
    )
    assert len({item.id for item in data.tier_3}) == 270


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "confaide"
    shutil.copytree(DATA_DIR, target)
    return target


def test_a_corrupted_scenario_is_rejected_naming_file_and_item(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    path = copy / "tier_3.txt"
    text = path.read_text(encoding="utf-8")
    damaged = text.replace("<About: Jane,Questionee: Ethan,", "<About: Jane,Questionee Ethan,", 1)
    assert damaged != text
    path.write_text(damaged, encoding="utf-8")
    _, problems = validate_confaide(copy)
    first = str(problems[0])
    assert first.startswith(f"{path}: item scenario 0 (line 7)")
    assert "'Questionee Ethan'" in first
    assert any(str(p) == f"{path}: differs from manifest.json (size or SHA-256)" for p in problems)
    with pytest.raises(DatasetError, match=r"tier_3\.txt: item scenario 0 \(line 7\)"):
        load_confaide(copy)


def test_a_byte_changed_copy_fails_the_manifest(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    path = copy / "tier_4.txt"
    path.write_text(path.read_text(encoding="utf-8").replace("Alice:", "Alicia:", 1), "utf-8")
    _, problems = validate_confaide(copy)
    assert [str(p) for p in problems] == [f"{path}: differs from manifest.json (size or SHA-256)"]


def test_shape_problems_in_every_tier_name_their_line(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    (copy / MANIFEST_FILE).unlink()
    labels = copy / "tier_1_labels.txt"
    labels.write_text(labels.read_text(encoding="utf-8").replace("3.2", "high", 1), "utf-8")
    tier_2a = copy / "tier_2a.txt"
    lines = tier_2a.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[4] = "\n"
    tier_2a.write_text("".join(lines), "utf-8")
    tier_4 = copy / "tier_4.txt"
    tier_4.write_text(
        tier_4.read_text(encoding="utf-8").replace(
            "<END><surprise birthday, September 15th>", "<END><surprise party, September 15th>"
        ),
        "utf-8",
    )
    control = copy / "tier_3_control.txt"
    control.write_text("".join(control.read_text("utf-8").splitlines(keepends=True)[:-1]), "utf-8")
    messages = [str(p) for p in validate_confaide(copy)[1]]
    assert messages == [
        f"{labels}: item line 2: not a number: 'high'",
        f"{tier_2a}: item line 5: empty line",
        f"{control}: 269 questions for 270 scenarios",
        f"{tier_4}: item meeting 1 (line 125): <END> header differs from <BEGIN>",
    ]


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    (copy / MANIFEST_FILE).unlink()
    (copy / "tier_2b.txt").unlink()
    messages = [str(p) for p in validate_confaide(copy)[1]]
    assert messages == [f"{copy / 'tier_2b.txt'}: missing file"]


def test_the_data_is_declared_as_package_data() -> None:
    import tomllib

    root = Path(__file__).parents[3]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["privbench"]
    assert "suites/confaide/data/*" in patterns
