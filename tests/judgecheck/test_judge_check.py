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
from helpers import JUDGE, command, error_line, privbench, wait_for
from helpers.loopback_server import LoopbackServer, message_text

from privbench.judges.cards import card_path, read_card
from privbench.judges.choice import parse_judge
from privbench.suites.priviq.scorer import protocol_identity

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
    protocol, prompt_hash = protocol_identity("paper", parse_judge(JUDGE))
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
        return min(1.0, float(grades.get(prediction, 1.0)) + bump)

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
    _judge_by(server, lambda p: None if p == gibberish else grades.get(p, 1.0))
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


@pytest.mark.e2e
def test_ctrl_c_stops_the_check_and_a_cached_rerun_pays_only_for_the_rest(
    server: LoopbackServer, tmp_path: Path
) -> None:
    rows = _items(40)
    grades = {row["prediction"]: row["score"] for row in rows}
    _judge_by(server, lambda p: grades.get(p, 1.0))  # the sanity probe's references: 1.0
    server.latency = 0.2
    reference = _write(tmp_path / "ref.jsonl", rows)
    args: list[str | Path] = ["judge", "check", "--judge", JUDGE, "--against", reference,
            "--no-probes", "--no-verdicts", "--cache", "--judge-connections", "4",
            "--log-dir", tmp_path / "logs"]  # fmt: skip
    process = subprocess.Popen(
        command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=os.environ.copy(),
    )  # fmt: skip
    wait_for(server, r"answer-\d\d", 8)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted: partial log" in stderr
    sent = server.count(r"answer-\d\d")
    assert sent < 40
    result = privbench(*args, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["n"] == 40
    # the answered calls come from the cache; at most the ones in flight are paid twice
    assert server.count(r"answer-\d\d") <= 40 + 4


def _labelled_progress(stderr: str) -> set[str]:
    return set(re.findall(r"^progress \[judge check: ([^\]]+)\]", stderr, re.MULTILINE))


def test_limit_grades_a_sample_spread_over_the_grade_strata(
    server: LoopbackServer, tmp_path: Path
) -> None:
    rows = _items(33)
    for row in rows[:25]:
        row["score"] = 0.0  # most of the set is 0.0, as a weak model's answers are
    grades = {row["prediction"]: row["score"] for row in rows}
    _judge_by(server, lambda p: grades.get(p, 1.0))
    reference = _write(tmp_path / "ref.jsonl", rows)
    document = _check(tmp_path, "--against", reference, "--no-probes", "--limit", "8")
    assert document["n"] == 8
    assert document["reference_set"] == "ref.jsonl, sample of 8 of 33 (seed 0)"
    assert server.count(r"answer-\d\d") == 8  # only the sample is sent
    sampled = {d["id"] for d in document["disagreements"]} | set(document["unscored_items"])
    assert len(sampled) <= 8
    levels = {row["score"] for row in rows}
    assert len(levels) > 4
    # a plain random 8 of 33 holds about 6 zeros; the sample spreads over the strata
    protocol, prompt_hash = protocol_identity("paper", parse_judge(JUDGE))
    card = read_card(card_path("priviq", JUDGE, protocol, prompt_hash))
    assert card.reference_set == document["reference_set"]
    assert card.grades is not None and card.grades.n == 8


def test_the_dry_run_of_a_limited_check_shows_its_calls_and_cost(tmp_path: Path) -> None:
    def dry(*extra: str) -> Any:
        result = privbench(
            "judge", "check", "--judge", "openai/gpt-4o-2024-08-06", "--dry-run", "--json",
            "--log-dir", tmp_path / "logs", *extra,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    whole, limited = dry(), dry("--limit", "50", "--no-probes", "--no-verdicts")
    assert limited["calls"]["judge"] == 50 + 10  # the sample and the sanity probe
    assert whole["calls"]["judge"] > 10 * limited["calls"]["judge"]
    assert 0 < limited["cost_usd"] < whole["cost_usd"] / 10
    steps = [note for note in limited["notes"] if note.startswith("expected judge calls")]
    assert steps == ["expected judge calls per step: reference answers (50 × 1 run(s)) 50; "
                     "sanity probe 10"]  # fmt: skip


def test_the_dry_run_counts_an_answer_as_cut_for_the_judge(tmp_path: Path) -> None:
    rows = _items(1)
    rows[0]["prediction"] = "word " * 200_000  # a million characters; the judge sees 32,000
    reference = _write(tmp_path / "ref.jsonl", rows)
    result = privbench(
        "judge", "check", "--judge", JUDGE, "--against", reference, "--no-probes",
        "--no-verdicts", "--dry-run", "--json", "--log-dir", tmp_path / "logs",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    tokens = json.loads(result.stdout)["tokens"]["judge"]
    # each of the 3 tries shows the judge 32,000 characters (~8,000 tokens), not 1,000,000
    # (~250,000 tokens): at most ~50,000 with the sanity probe, not ~750,000
    assert tokens["input_at_most"] < 100_000


def test_a_judge_that_fails_the_sanity_probe_is_a_warning_everywhere(
    server: LoopbackServer, tmp_path: Path, priviq_dir: Path, predictions: Path
) -> None:
    """A judge that grades the reference answer, given as the answer, 0.0 (as one that
    misreads the hardened fence does) is flagged on the terminal, in --json, on the card
    and on every run that shows the card."""
    rows = _items(12)
    grades = {row["prediction"]: row["score"] for row in rows}
    _judge_by(server, lambda p: grades.get(p, 0.0))  # the references themselves: 0.0
    reference = _write(tmp_path / "ref.jsonl", rows)
    args = (
        "judge",
        "check",
        "--judge",
        JUDGE,
        "--against",
        reference,
        "--no-probes",
        "--no-verdicts",
        "--judge-protocol",
        "hardened",
        "--log-dir",
        tmp_path / "logs",
    )
    result = privbench(*args, "--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["mae"] == pytest.approx(0.0)  # the agreement figures alone look perfect
    assert document["sanity"]["passed"] is False and document["sanity"]["mean"] == 0.0
    assert document["sanity"]["n"] == 10
    (warning,) = document["warnings"]
    assert warning.startswith("sanity probe failed") and "hardened" in warning
    assert f"warning: {warning}" in result.stderr
    assert {"reference answers", "sanity probe"} <= _labelled_progress(result.stderr)
    terminal = privbench(*args)
    assert terminal.returncode == 0, terminal.stderr
    assert terminal.stdout.startswith(f"WARNING: {warning}")
    assert "sanity probe (FAILED)" in terminal.stdout
    protocol, prompt_hash = protocol_identity("hardened", parse_judge(JUDGE))
    card = read_card(card_path("priviq", JUDGE, protocol, prompt_hash))
    assert card.warnings == [warning]
    assert card.sanity is not None and not card.sanity.passed
    server.script("answer-", '{"score": 0.5, "reason": "r"}')
    graded = privbench(
        "grade", "priviq", "--data", priviq_dir, "--predictions", predictions, "--judge",
        JUDGE, "--judge-protocol", "hardened", "--log-dir", tmp_path / "runs", "--json",
    )  # fmt: skip
    assert graded.returncode == 0, graded.stderr
    assert f"WARNING: {warning}" in json.loads(graded.stdout)["judge_agreement"]
    report = privbench("report", tmp_path / "runs", "-o", tmp_path / "report.html")
    assert report.returncode == 0, report.stderr
    assert "WARNING: sanity probe failed" in (tmp_path / "report.html").read_text("utf-8")


def test_a_sound_judge_passes_the_sanity_probe_and_the_card_records_the_check(
    server: LoopbackServer, tmp_path: Path
) -> None:
    rows = _items(6)
    grades = {row["prediction"]: row["score"] for row in rows}
    _judge_by(server, lambda p: grades.get(p, 1.0))
    reference = _write(tmp_path / "ref.jsonl", rows)
    document = _check(tmp_path, "--against", reference, "--probe-items", "2",
                      "--judge-temperature", "0.3")  # fmt: skip
    assert document["warnings"] == [] and document["sanity"]["passed"] is True
    assert document["judge_temperature"] == 0.3
    protocol, prompt_hash = protocol_identity("paper", parse_judge(JUDGE))
    card = read_card(card_path("priviq", JUDGE, protocol, prompt_hash))
    assert card.judge_temperature == 0.3 and card.warnings == []
    assert {p.protocol for p in card.probes} == {"paper", "hardened"}
    assert {p.probe for p in card.probes} == {"verbosity", "steering", "list_vs_prose",
                                              "refusal"}  # fmt: skip


def test_an_escape_sequence_in_a_reference_id_is_printed_escaped(
    server: LoopbackServer, tmp_path: Path
) -> None:
    rows = _items(4)
    rows[1]["id"] = "r\x1b[2J\x1b[31mred\u202e"
    _judge_by(server, lambda p: 1.0)  # disagrees with every reference grade below 1.0
    reference = _write(tmp_path / "ref.jsonl", rows)
    result = privbench(
        "judge", "check", "--judge", JUDGE, "--against", reference, "--no-probes",
        "--no-verdicts", "--log-dir", tmp_path / "logs",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert "r\\x1b[2J\\x1b[31mred\\u202e" in result.stdout


@pytest.mark.e2e
def test_ctrl_c_without_cache_then_resume_pays_only_for_the_rest(
    server: LoopbackServer, tmp_path: Path
) -> None:
    rows = _items(40)
    grades = {row["prediction"]: row["score"] for row in rows}
    _judge_by(server, lambda p: grades.get(p, 1.0))
    server.latency = 0.2
    reference = _write(tmp_path / "ref.jsonl", rows)
    args: list[str | Path] = ["judge", "check", "--judge", JUDGE, "--against", reference,
            "--no-probes", "--no-verdicts", "--judge-connections", "4",
            "--log-dir", tmp_path / "logs"]  # fmt: skip
    process = subprocess.Popen(
        command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=os.environ.copy(),
    )  # fmt: skip
    wait_for(server, r"answer-\d\d", 8)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert "--resume" in error_line(subprocess.CompletedProcess([], 130, "", stderr))
    first = server.count(r"answer-\d\d")
    assert first < 40
    result = privbench(*args, "--resume", "--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["n"] == 40 and document["sanity"]["n"] == 10
    # what completed is kept; at most the calls in flight at Ctrl-C are paid twice
    assert server.count(r"answer-\d\d") <= 40 + 4
    sanity_calls = server.count(r"correctness score") - server.count(r"answer-\d\d")
    again = privbench(*args, "--resume", "--json")  # every step complete: nothing is sent
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["n"] == 40
    assert server.count(r"correctness score") - server.count(r"answer-\d\d") == sanity_calls
    assert server.count(r"answer-\d\d") <= 40 + 4
    assert "nothing sent" in again.stderr
