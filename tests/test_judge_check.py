"""``privbench judge check`` end to end, against a real loopback judge with known behaviour.

The loopback judge reads the answer out of the very prompt a run sends (the paper
protocol's table row, the hardened protocol's fenced block) and grades it by a rule the
test chose: the reference grade itself, the reference grade plus known noise, or the
answer's length. Every expected figure is computed here from the file the test wrote.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import JUDGE, command, error_line, privbench, wait_for
from loopback_server import LoopbackServer, message_text

from privbench.judges.cards import card_path, read_card
from privbench.priviq.scorer import protocol_identity

COMPETENCIES = ("Law", "VizPriv", "PET+Know")


def _prediction(text: str) -> str:
    """The answer being graded, as the judge's prompt carries it (either protocol)."""
    fenced = re.search(r"<<<PREDICTION \w+>>>\n(.*)\n<<<END PREDICTION \w+>>>", text, re.DOTALL)
    if fenced:
        return _cell(fenced.group(1))
    row = [line for line in text.splitlines() if line.endswith("| ")][-1]
    return row.split(" | ")[2]


def _cell(text: str) -> str:
    """An answer as the paper protocol's table cell holds it (one line, spaces collapsed)."""
    return " ".join(text.split())


def _grade_reply(grade: float, text: str) -> str:
    if "Reply with one JSON object" in text:
        return json.dumps({"score": round(grade, 1), "reason": "scripted"})
    return f"{round(grade, 1):.1f}"


def _items(n: int) -> list[dict[str, Any]]:
    """``n`` reference-graded answers with grades spread over the 11 levels."""
    return [
        {
            "id": f"r{i:02d}",
            "question": f"Question {i}: what does the form reveal?",
            "reference": f"It reveals the name Person{i} and the account {1000 + i}.",
            "prediction": _cell(f"answer-{i:02d} " + "detail " * (i % 5)),
            "score": (i % 11) / 10,
            "competency": COMPETENCIES[i % 3],
        }
        for i in range(n)
    ]


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _judge_by(server: LoopbackServer, grade_of: Any) -> None:
    """Script the loopback judge: ``grade_of(prediction) -> float | None`` (None: gibberish)."""

    def reply(body: dict[str, Any]) -> str:
        text = message_text(body)
        grade = grade_of(_prediction(text))
        return "I cannot say." if grade is None else _grade_reply(grade, text)

    server.script(r"correctness score", reply)


def _check(tmp_path: Path, *extra: str | Path) -> Any:
    result = privbench(
        "judge", "check", "--judge", JUDGE, "--log-dir", tmp_path / "logs", "--json",
        "--no-verdicts", *extra,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_judge_that_gives_the_reference_grades_agrees_perfectly_and_its_card_is_shown(
    server: LoopbackServer, tmp_path: Path, priviq_dir: Path, predictions: Path
) -> None:
    rows = _items(33)
    grades = {row["prediction"]: row["score"] for row in rows}
    _judge_by(server, lambda prediction: grades.get(prediction, 0.0))
    server.reported_model = "judge-2026-01-15"
    reference = _write(tmp_path / "ref.jsonl", rows)
    document = _check(tmp_path, "--against", reference, "--no-probes")
    assert document["n"] == 33
    assert document["spearman"] == pytest.approx(1.0)
    assert document["icc"] == pytest.approx(1.0)
    assert document["mae"] == pytest.approx(0.0)
    assert document["within_0_1"] == pytest.approx(1.0)
    assert document["kappa_quadratic"] == pytest.approx(1.0)
    assert document["bias"] == pytest.approx(0.0)
    assert document["unscored"] == 0
    assert document["reported_models"] == ["judge-2026-01-15"]
    law = [row for row in rows if row["competency"] == "Law"]
    assert document["by_competency"]["Law"]["n"] == len(law)
    assert document["by_competency"]["PET"]["n"] == len(rows) // 3  # "PET+Know" counts twice
    assert document["by_competency"]["Know"]["n"] == len(rows) // 3
    assert set(document["ci"]) >= {"spearman", "icc", "mae", "within_0_1", "kappa_quadratic"}
    protocol, prompt_hash = protocol_identity("paper", JUDGE)
    card = read_card(card_path("priviq", JUDGE, protocol, prompt_hash))
    assert card.grades is not None and card.grades.n == 33
    assert card.reported_models == ["judge-2026-01-15"]
    assert card.reference_set == "ref.jsonl"

    # a later grade run with the same judge finds the card and shows it under the tables
    server.script("answer-", "0.5")
    result = privbench(
        "grade", "priviq", "--data", priviq_dir, "--predictions", predictions,
        "--judge", JUDGE, "--log-dir", tmp_path / "logs", "--out", tmp_path / "out",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    expected = (
        "judge agreement with reference grades (ref.jsonl, n = 33): ρ 1.00, MAE 0.00, "
        "within ±0.1 100 %"
    )
    assert expected in result.stdout
    assert "versions reported by the providers: judge judge-2026-01-15" in result.stdout


def test_a_grade_run_without_a_card_says_the_judge_was_not_checked(
    server: LoopbackServer, tmp_path: Path, priviq_dir: Path, predictions: Path
) -> None:
    result = privbench(
        "grade", "priviq", "--data", priviq_dir, "--predictions", predictions,
        "--judge", JUDGE, "--log-dir", tmp_path / "logs", "--out", tmp_path / "out", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["judge_card"] is None
    assert document["judge_agreement"].startswith("judge not checked")


def test_known_noise_gives_the_designed_test_retest_figures(
    server: LoopbackServer, tmp_path: Path
) -> None:
    rows = _items(20)
    grades = {row["prediction"]: row["score"] for row in rows}
    noisy = {row["prediction"] for row in rows[:5]}  # their second grading is 0.2 higher
    seen: dict[str, int] = {}

    def grade_of(prediction: str) -> float:
        seen[prediction] = seen.get(prediction, 0) + 1
        bump = 0.2 if prediction in noisy and seen[prediction] == 2 else 0.0
        return min(1.0, float(grades[prediction]) + bump)

    _judge_by(server, grade_of)
    document = _check(
        tmp_path, "--against", _write(tmp_path / "ref.jsonl", rows), "--runs", "2",
        "--no-probes", "--judge-connections", "1",
    )  # fmt: skip
    changed = [row for row in rows[:5] if row["score"] < 1.0]  # a 1.0 cannot go higher
    retest = document["retest"]
    assert retest["runs"] == 2 and retest["items"] == 20
    assert retest["changed_share"] == pytest.approx(len(changed) / 20)
    expected_delta = sum(min(1.0, r["score"] + 0.2) - r["score"] for r in changed) / 20
    assert retest["mean_abs_change"] == pytest.approx(expected_delta)
    assert 0.9 < retest["icc"] < 1.0


def test_unreadable_replies_are_counted_as_unscored_not_graded(
    server: LoopbackServer, tmp_path: Path
) -> None:
    rows = _items(12)
    grades = {row["prediction"]: row["score"] for row in rows}
    gibberish = rows[3]["prediction"]
    _judge_by(server, lambda p: None if p == gibberish else grades[p])
    document = _check(tmp_path, "--against", _write(tmp_path / "ref.jsonl", rows), "--no-probes")
    assert document["unscored"] == 1
    assert document["unscored_items"] == [rows[3]["id"]]
    assert document["n"] == 11
    assert document["mae"] == pytest.approx(0.0)


def test_the_verbosity_probe_finds_a_length_biased_judge(
    server: LoopbackServer, tmp_path: Path
) -> None:
    rows = _items(6)
    _judge_by(server, lambda p: min(1.0, len(p) / 400))
    document = _check(tmp_path, "--against", _write(tmp_path / "ref.jsonl", rows),
                      "--probe-items", "12")  # fmt: skip
    verbosity = [p for p in document["probes"] if p["probe"] == "verbosity"]
    assert {p["protocol"] for p in verbosity} == {"paper", "hardened"}
    for probe in verbosity:
        assert probe["mean_change"] > 0.05
        assert probe["change_low"] > 0
    refusal = [p for p in document["probes"] if p["probe"] == "refusal"]
    assert refusal


def test_a_judge_that_ignores_length_shows_no_verbosity_effect(
    server: LoopbackServer, tmp_path: Path
) -> None:
    _judge_by(server, lambda p: 0.0)
    document = _check(tmp_path, "--against", _write(tmp_path / "ref.jsonl", _items(4)),
                      "--probe-items", "8")  # fmt: skip
    for probe in document["probes"]:
        assert probe["mean_change"] == pytest.approx(0.0)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"question": "q", "reference": "r", "prediction": "p"}', "score"),
        ('{"question": "q", "reference": "r", "prediction": "p", "score": 1.5}', "score"),
        ("not json", "JSON"),
    ],
)
def test_a_bad_reference_file_is_one_line_and_nothing_is_sent(
    server: LoopbackServer, tmp_path: Path, line: str, message: str
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(_items(1)[0]) + "\n" + line + "\n", encoding="utf-8")
    result = privbench(
        "judge", "check", "--judge", JUDGE, "--against", bad, "--log-dir", tmp_path / "logs"
    )
    assert result.returncode != 0
    error = error_line(result)
    assert "bad.jsonl" in error and ":2" in error and message in error
    assert server.count() == 0


def test_an_undated_alias_is_warned_about_in_one_line(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "PRIVBENCH_CACHE_DIR": str(tmp_path / "cache"),
           "OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}  # fmt: skip
    result = privbench(
        "judge", "check", "--judge", "openai/gpt-4o", "--log-dir", tmp_path / "logs",
        "--max-retries", "0", env=env,
    )  # fmt: skip
    assert result.returncode != 0  # nothing answers there: stopped at the reachability check
    assert "does not answer" in error_line(result)
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1
    assert "openai/gpt-4o is an undated alias" in warnings[0]


def test_ctrl_c_stops_the_check_and_a_cached_rerun_pays_only_for_the_rest(
    server: LoopbackServer, tmp_path: Path
) -> None:
    rows = _items(40)
    grades = {row["prediction"]: row["score"] for row in rows}
    _judge_by(server, lambda p: grades[p])
    server.latency = 0.2
    reference = _write(tmp_path / "ref.jsonl", rows)
    args: list[str | Path] = ["judge", "check", "--judge", JUDGE, "--against", reference,
            "--no-probes", "--no-verdicts", "--cache", "--judge-connections", "4",
            "--log-dir", tmp_path / "logs"]  # fmt: skip
    process = subprocess.Popen(
        command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=os.environ.copy(),
    )  # fmt: skip
    wait_for(server, "correctness score", 8)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted: partial log" in stderr
    sent = server.count("correctness score")
    assert sent < 40
    result = privbench(*args, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["n"] == 40
    # the answered calls come from the cache; at most the ones in flight are paid twice
    assert server.count("correctness score") <= 40 + 4
