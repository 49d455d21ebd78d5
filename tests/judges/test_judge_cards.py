"""Judge cards: the offline judge's shipped cards are what the check computes, and runs show
the card of their judge (or say it was not checked), from the log, even after it is gone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import JUDGE, error_line, privbench

from privbench.judgecheck.api import CheckRequest, check_judge
from privbench.judges.cards import OFFLINE_CARDS, card_path, read_card, write_card
from privbench.judges.choice import parse_judge
from privbench.runtime.records.judge_agreement import NOT_CHECKED
from privbench.runtime.running import RunOptions
from privbench.suites.priviq.scorer import protocol_identity


def _without_day(card_json: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(card_json)
    data.pop("checked")
    return data


def test_the_shipped_offline_cards_are_what_the_check_computes(tmp_path: Path) -> None:
    options = RunOptions(
        judge=parse_judge("offline"), log_dir=str(tmp_path / "logs"), display="none"
    )
    result = check_judge(CheckRequest(probes=False, card_dir=tmp_path / "cards"), options)
    for benchmark in ("priviq", "spatialtrust"):
        recomputed = (tmp_path / "cards" / f"{benchmark}.json").read_text(encoding="utf-8")
        shipped = (OFFLINE_CARDS / f"{benchmark}.json").read_text(encoding="utf-8")
        assert _without_day(recomputed) == _without_day(shipped), benchmark
    # the offline judge is measured only on the parts its rules were never tuned on
    assert result.grades is not None
    assert result.grades.figures.n == 320
    assert sum(result.grades.reference.left_out.values()) == 1733


def test_an_offline_run_shows_the_shipped_card_line(
    tmp_path: Path, priviq_dir: Path, predictions: Path
) -> None:
    card = read_card(OFFLINE_CARDS / "priviq.json")
    assert card.grades is not None
    result = privbench(
        "grade", "priviq", "--data", priviq_dir, "--predictions", predictions, "--judge",
        "offline", "--log-dir", tmp_path / "logs", "--out", tmp_path / "out",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    within = 100 * (card.grades.within_0_1 or 0)
    expected = (
        f"judge agreement with reference grades ({card.reference_set}, n = {card.grades.n}, "
        f"{sum(card.left_out.values())} items it was tuned on left out): "
        f"ρ {card.grades.spearman:.2f}, MAE {card.grades.mae:.2f}, within ±0.1 {within:.0f} %"
    )
    assert expected in result.stdout
    assert "an approximation of an LLM judge" in result.stderr


def _card_for_loopback(tmp_path: Path, *, judge: str = JUDGE) -> Path:
    shipped = read_card(OFFLINE_CARDS / "priviq.json")
    protocol, prompt_hash = protocol_identity("paper", parse_judge(judge))
    card = shipped.model_copy(
        update={"judge": judge, "protocol": protocol, "prompt_hash": prompt_hash,
                "reference_set": "my-grades.jsonl", "left_out": {}}
    )  # fmt: skip
    return write_card(card, tmp_path / "card.json")


def test_a_given_card_of_another_judge_is_refused_before_any_call(
    server: object, tmp_path: Path, priviq_dir: Path, predictions: Path
) -> None:
    card = _card_for_loopback(tmp_path, judge="openai-api/other/judge")
    result = privbench(
        "grade", "priviq", "--data", priviq_dir, "--predictions", predictions, "--judge", JUDGE,
        "--judge-card", card, "--log-dir", tmp_path / "logs",
    )  # fmt: skip
    assert result.returncode != 0
    assert "a card for openai-api/other/judge" in error_line(result)
    assert server.count() == 0  # type: ignore[attr-defined]


def test_the_card_is_read_from_the_log_after_it_is_deleted(
    server: object, tmp_path: Path, priviq_dir: Path, predictions: Path
) -> None:
    card = _card_for_loopback(tmp_path)
    result = privbench(
        "grade", "priviq", "--data", priviq_dir, "--predictions", predictions, "--judge", JUDGE,
        "--judge-card", card, "--log-dir", tmp_path / "logs", "--out", tmp_path / "out",
        "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["judge_card"]["card"] == str(card)
    assert document["judge_agreement"].startswith(
        "judge agreement with reference grades (my-grades"
    )
    card.unlink()
    log = document["log"]
    shown = privbench("show", log)
    assert shown.returncode == 0, shown.stderr
    assert document["judge_agreement"] in shown.stdout


def test_a_damaged_cached_card_is_a_judge_not_checked(
    server: object, tmp_path: Path, priviq_dir: Path, predictions: Path
) -> None:
    protocol, prompt_hash = protocol_identity("paper", parse_judge(JUDGE))
    cached = card_path("priviq", JUDGE, protocol, prompt_hash)
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text("{not json", encoding="utf-8")
    result = privbench(
        "grade", "priviq", "--data", priviq_dir, "--predictions", predictions, "--judge", JUDGE,
        "--log-dir", tmp_path / "logs", "--out", tmp_path / "out",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert NOT_CHECKED in result.stdout


@pytest.mark.parametrize("text", ["{not json", '{"format": "privbench-judge-card"}', "[]"])
def test_a_bad_given_card_is_one_line(tmp_path: Path, priviq_dir: Path, text: str) -> None:
    card = tmp_path / "card.json"
    card.write_text(text, encoding="utf-8")
    result = privbench(
        "eval", "priviq", "--model", "openai-api/nowhere/m", "--data", priviq_dir,
        "--judge", JUDGE, "--judge-card", card, "--log-dir", tmp_path / "logs",
    )  # fmt: skip
    assert result.returncode != 0
    assert "card.json" in error_line(result)


def _forged(card: dict[str, object], **changes: object) -> dict[str, object]:
    """``card`` with each ``a__b`` field (``card["a"]["b"]``) set to its value."""
    forged: dict[str, Any] = json.loads(json.dumps(card))
    for dotted, value in changes.items():
        *parents, last = dotted.split("__")
        target = forged
        for part in parents:
            target = target[part]
        target[last] = value
    return forged


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"judge": "openai-api/other/judge"}, "judge"),
        ({"grades__spearman": 7.5}, "grades.spearman"),
        ({"grades__mae": -0.5}, "grades.mae"),
        ({"grades__within_0_1": 3.0}, "grades.within_0_1"),
        ({"grades__n": -4}, "grades.n"),
        ({"grades__n": True}, "grades.n"),
        ({"grades__ci__spearman": [0.9, 0.2]}, "ci.spearman"),
    ],
)
def test_a_forged_cached_card_is_named_and_ignored(
    server: object,
    tmp_path: Path,
    priviq_dir: Path,
    predictions: Path,
    changes: dict[str, object],
    field: str,
) -> None:
    """A card in the cache under this judge's name, claiming figures no check can give, or
    naming another judge, is not shown: one warning line names the file and the field."""
    protocol, prompt_hash = protocol_identity("paper", parse_judge(JUDGE))
    genuine = json.loads(_card_for_loopback(tmp_path).read_text(encoding="utf-8"))
    cached = card_path("priviq", JUDGE, protocol, prompt_hash)
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(_forged(genuine, **changes)), encoding="utf-8")
    server.script("answer", "0.5")  # type: ignore[attr-defined]
    result = privbench(
        "grade", "priviq", "--data", priviq_dir, "--predictions", predictions, "--judge", JUDGE,
        "--log-dir", tmp_path / "logs", "--out", tmp_path / "out", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["judge_card"] is None
    assert document["judge_agreement"] == NOT_CHECKED
    warnings = [line for line in result.stderr.splitlines() if "judge card ignored" in line]
    assert len(warnings) == 1, result.stderr
    assert str(cached) in warnings[0] and field in warnings[0]
    shown = privbench("show", document["log"])
    assert shown.returncode == 0, shown.stderr
    assert "7.50" not in shown.stdout and NOT_CHECKED in shown.stdout


def test_a_genuine_cached_card_is_still_shown(
    server: object, tmp_path: Path, priviq_dir: Path, predictions: Path
) -> None:
    protocol, prompt_hash = protocol_identity("paper", parse_judge(JUDGE))
    card = read_card(_card_for_loopback(tmp_path))
    write_card(card, card_path("priviq", JUDGE, protocol, prompt_hash))
    server.script("answer", "0.5")  # type: ignore[attr-defined]
    result = privbench(
        "grade", "priviq", "--data", priviq_dir, "--predictions", predictions, "--judge", JUDGE,
        "--log-dir", tmp_path / "logs", "--out", tmp_path / "out", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "judge card ignored" not in result.stderr
    assert json.loads(result.stdout)["judge_agreement"].startswith("judge agreement with")
