"""The judge card a run records in its log is checked again whenever the log is read: an
edited card is named in one line (log file and field), its judge counts as not checked in
``show``, ``--json`` and the report, and the log's scores are read as before."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from helpers import FOUR_ITEMS, privbench, write_json, write_priviq
from inspect_ai.log import read_eval_log, write_eval_log

from privbench.runtime.records.judge_agreement import NOT_CHECKED, NOT_CHECKED_SHORT

FORGERIES: dict[str, tuple[str, object, str]] = {
    # name: (dotted path in the card, forged value, the field the problem names)
    "rho": ("grades.spearman", 7.5, "grades.spearman"),
    "mae": ("grades.mae", -0.5, "grades.mae"),
    "within": ("grades.within_0_1", 3.0, "grades.within_0_1"),
    "interval": ("grades.ci.spearman", [0.9, 0.2], "grades: ci.spearman"),
    "judge": ("judge", "openai-api/other/judge", "judge"),
}
FORGED_TEXT = ("ρ 7.50", "MAE -0.50", "within ±0.1 300 %")
GENUINE_LINE = "judge agreement with reference grades"
SCORE_KEYS = ("overall", "competencies", "combinations", "std", "runs", "counts", "items")


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of the module's commands (the autouse fixture is per test)."""
    return os.environ | {
        "INSPECT_DISPLAY": "none",
        "PRIVBENCH_CACHE_DIR": str(tmp_path_factory.mktemp("cache")),
        "INSPECT_CACHE_DIR": str(tmp_path_factory.mktemp("inspect-cache")),
    }


@pytest.fixture(scope="module")
def genuine(tmp_path_factory: pytest.TempPathFactory, env: dict[str, str]) -> Path:
    """A real run graded by the offline judge, whose log records the shipped card."""
    root = tmp_path_factory.mktemp("run")
    data = write_priviq(root / "data", FOUR_ITEMS)
    answers = write_json(root / "results.json", {key: f"answer-{key}" for key in FOUR_ITEMS})
    result = privbench(
        "grade", "priviq", "--data", data, "--predictions", answers, "--judge", "offline",
        "--log-dir", root / "logs", "--json", env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return Path(json.loads(result.stdout)["log"])


def _forge(genuine: Path, out: Path, dotted: str, value: object) -> Path:
    """A copy of the log whose recorded card has ``dotted`` set to ``value``."""
    log = read_eval_log(str(genuine))
    metadata: dict[str, Any] = log.eval.metadata or {}
    card = metadata["judge_card"]
    target = card.get("content", card)  # the card; a log of an older privbench: its figures
    *parents, last = dotted.split(".")
    for part in parents:
        target = target.get(part, target)
    target[last] = value
    write_eval_log(log, str(out))
    return out


@pytest.fixture(scope="module")
def forged(genuine: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("forged")
    return {
        name: _forge(genuine, folder / f"forged-{name}.eval", dotted, value)
        for name, (dotted, value, _field) in FORGERIES.items()
    }


def _scores(document: dict[str, Any]) -> dict[str, Any]:
    return {key: document[key] for key in SCORE_KEYS}


def test_show_names_a_forged_card_and_keeps_the_scores(
    genuine: Path, forged: dict[str, Path], env: dict[str, str]
) -> None:
    reference = privbench("show", "--json", genuine, env=env)
    assert reference.returncode == 0, reference.stderr
    expected = json.loads(reference.stdout)
    assert expected["judge_agreement"].startswith(GENUINE_LINE)  # the genuine card passes
    result = privbench("show", "--json", *forged.values(), env=env)
    assert result.returncode == 0, result.stderr
    documents = json.loads(result.stdout)["logs"]
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == len(FORGERIES), result.stderr
    for (name, path), document, warning in zip(forged.items(), documents, warnings, strict=True):
        field = FORGERIES[name][2]
        assert document["judge_card"] is None, name
        agreement = document["judge_agreement"]
        assert agreement.startswith(NOT_CHECKED), agreement
        assert str(path) in agreement and field in agreement, agreement
        assert str(path) in warning and field in warning, warning
        assert not any(text in agreement for text in FORGED_TEXT), agreement
        assert _scores(document) == _scores(expected), name
    assert not any(text in result.stdout for text in FORGED_TEXT)
    plain = privbench("show", forged["rho"], env=env)
    assert plain.returncode == 0, plain.stderr
    assert "ρ 7.50" not in plain.stdout and NOT_CHECKED in plain.stdout
    assert "grades.spearman" in plain.stdout


def test_the_report_says_a_forged_card_was_ignored(
    forged: dict[str, Path], env: dict[str, str], tmp_path: Path
) -> None:
    html = tmp_path / "report.html"
    result = privbench("report", *forged.values(), "-o", html, env=env)
    assert result.returncode == 0, result.stderr
    page = html.read_text(encoding="utf-8")
    assert not any(text in page for text in FORGED_TEXT)
    assert GENUINE_LINE not in page
    assert f"{NOT_CHECKED_SHORT} (its card was ignored)" in page
    notes = [line for line in result.stderr.splitlines() if "judge card was ignored" in line]
    assert len(notes) == len(FORGERIES), result.stderr
    for name, path in forged.items():
        field = FORGERIES[name][2]
        assert any(path.name in note and field in note for note in notes), name
        assert f"{path.name}: its judge card was ignored: {field}" in page, name
