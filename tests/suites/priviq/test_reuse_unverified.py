"""Reusing a grade file that records no answers (the reference evaluator's): only when asked.

The reference evaluator's grade file keeps, per item, the judge's reported model name, its
reply and the score: no answer hash, judge or protocol. ``--reuse-unverified-grades`` lets
such runs stand where the judge is the same; every reader then says how many grades were
reused without an answer check. Runs whose answer hash differs are graded again anyway.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import (
    FOUR_ITEMS,
    JUDGE,
    JUDGE_PROMPT,
    one_line_error,
    privbench,
    run_options,
    write_json,
)
from helpers.loopback_server import LoopbackServer

from privbench.report.html import ReportSettings, build_report
from privbench.runtime.errors import UsageError
from privbench.suites.priviq.api import grade_priviq, read_priviq_log
from privbench.suites.priviq.predictions import GradeRecord, answer_hash
from privbench.suites.priviq.scoring import judged_by, reusable_runs, unverified

PAPER_HASH = "ec6e50f55a79df43"


def reference_entry(score: float, judge_model: str = "judge") -> dict[str, list[object]]:
    """One item of a reference-format grade file: one judge run, nothing else."""
    return {"model": [judge_model], "content": [f"{score}"], "score": [score]}


def script_scores(server: LoopbackServer) -> None:
    for key, score in zip(FOUR_ITEMS, ("1.0", "0.4", "0.7", "0.0"), strict=True):
        server.script(f"answer-{key}", score)


# --- the rule, on hand-made records ------------------------------------------------------


def test_a_reference_record_matches_the_judge_by_its_reported_model_name() -> None:
    reference = GradeRecord(0.9, "0.9", "gpt-4o-2024-08-06")
    assert judged_by(reference, "openai/gpt-4o-2024-08-06")
    assert not judged_by(reference, "openai/gpt-4o")  # an alias may have moved since
    assert not judged_by(GradeRecord(0.9, "0.9", ""), "openai/gpt-4o")
    recorded = GradeRecord(0.9, "0.9", "gpt-4o-2024-08-06", judge="openai/gpt-4o")
    assert judged_by(recorded, "openai/gpt-4o")  # privbench's own: the judge as given
    assert not judged_by(recorded, "openai/gpt-4o-2024-08-06")


def test_what_a_record_without_answer_hash_must_match() -> None:
    same = {"judge": "openai-api/x/judge", "protocol": "paper", "prompt_hash": PAPER_HASH}
    reference = GradeRecord(0.5, "0.5", "judge")
    assert unverified(reference, **same)
    # a file without protocol was made with the reference's prompt: the paper protocol
    assert not unverified(reference, **{**same, "protocol": "hardened"})
    with_hash = GradeRecord(0.5, "0.5", "judge", prompt_hash="0000000000000000")
    assert not unverified(with_hash, **same)  # a prompt hash the file has must match
    hashed = GradeRecord(0.5, "0.5", "judge", answer_hash="ffffffffffffffff")
    assert not unverified(hashed, **same)  # an answer hash is checked, never skipped


def test_reusable_runs_take_unverified_ones_only_when_asked() -> None:
    def reused(runs: list[GradeRecord], flag: bool) -> list[GradeRecord]:
        return reusable_runs(runs, answer="x", judge="j/judge", protocol="paper",
                             prompt_hash=PAPER_HASH, reuse_unverified=flag)  # fmt: skip

    runs = [GradeRecord(0.3, "0.3", "judge"), GradeRecord(None, "?", "judge")]
    assert reused(runs, False) == []
    assert reused(runs, True) == runs[:1]  # scored runs only
    stale = [GradeRecord(0.3, "0.3", "judge", "0123456789abcdef", "j/judge", "paper", PAPER_HASH)]
    assert reused(stale, True) == []  # an answer hash that differs: graded again
    same = [GradeRecord(0.3, "0.3", "judge", answer_hash("x"), "j/judge", "paper", PAPER_HASH)]
    assert reused(same, False) == same


# --- with the loopback judge ---------------------------------------------------------------


@pytest.fixture
def reference_grades(tmp_path: Path) -> Path:
    """A reference-format file grading a and b (0.2, 0.3) by the judge's model name."""
    return write_json(
        tmp_path / "gpt_judge-grade-1runs.json",
        {"a": reference_entry(0.2), "b": reference_entry(0.3)},
    )


def test_unverified_runs_are_reused_only_with_the_flag(
    server: LoopbackServer,
    priviq_dir: Path,
    predictions: Path,
    reference_grades: Path,
    tmp_path: Path,
) -> None:
    script_scores(server)
    options = run_options(tmp_path)
    plain = grade_priviq(priviq_dir, predictions, grades=reference_grades, options=options)
    assert server.stats()["judge"] == 4  # all regraded
    assert plain.logged.reused_runs == 0 and plain.json()["reused_unverified_runs"] == 0
    assert plain.scores.items == pytest.approx({"a": 1.0, "b": 0.4, "c": 0.7, "d": 0.0})

    reused = grade_priviq(
        priviq_dir, predictions, grades=reference_grades, options=options, reuse_unverified=True
    )
    assert server.stats()["judge"] == 4 + (4 - 2)  # items − reused
    assert reused.scores.items == pytest.approx({"a": 0.2, "b": 0.3, "c": 0.7, "d": 0.0})
    document = reused.json()
    assert document["reused_runs"] == 2 and document["reused_unverified_runs"] == 2
    line = "--grades: 2 run(s) reused (2 grade(s) reused without an answer check"
    assert any(isinstance(p, str) and p.startswith(line) for p in reused.terminal())

    # the count is in the log's records: show and the report say it too
    shown = read_priviq_log(reused.log_location)
    assert shown.json()["reused_unverified_runs"] == 2
    assert any("2 grade(s) reused without an answer check" in str(p) for p in shown.terminal())
    html = build_report(
        [Path(reused.log_location)], tmp_path / "r.html", ReportSettings(n_boot=100)
    ).read_text(encoding="utf-8")
    assert "2 grade(s) reused without an answer check (--reuse-unverified-grades)" in html


def test_another_judge_or_a_changed_answer_is_graded_again(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    script_scores(server)
    options = run_options(tmp_path)
    other = write_json(
        tmp_path / "other.json", {k: reference_entry(0.2, "gpt-4o-2024-08-06") for k in "ab"}
    )
    run = grade_priviq(
        priviq_dir, predictions, grades=other, options=options, reuse_unverified=True
    )
    assert server.stats()["judge"] == 4 and run.logged.reused_runs == 0

    # privbench's own file records the answers: a changed answer is never reused
    changed = write_json(tmp_path / "changed.json", {k: f"new answer {k}" for k in FOUR_ITEMS})
    again = grade_priviq(
        priviq_dir,
        changed,
        grades=run.exports["grades"] if run.exports else None,
        options=options,
        reuse_unverified=True,
    )
    assert server.stats()["judge"] == 8
    assert again.logged.reused_runs == 0 and again.logged.unverified_runs == 0


def test_the_flag_needs_a_grade_file(priviq_dir: Path, predictions: Path, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="--reuse-unverified-grades: only with --grades"):
        grade_priviq(priviq_dir, predictions, options=run_options(tmp_path), reuse_unverified=True)


def test_cli_prints_how_many_were_reused_without_an_answer_check(
    server: LoopbackServer,
    priviq_dir: Path,
    predictions: Path,
    reference_grades: Path,
    tmp_path: Path,
) -> None:
    base: list[str | Path] = ["grade", "priviq", "--data", priviq_dir, "--predictions", predictions,
            "--judge", JUDGE, "--log-dir", tmp_path / "logs", "--grades", reference_grades]  # fmt: skip
    result = privbench(*base, "--reuse-unverified-grades")
    assert result.returncode == 0, result.stderr
    assert "2 grade(s) reused without an answer check" in result.stdout
    assert server.count(JUDGE_PROMPT) == 2
    as_json = privbench(*base, "--reuse-unverified-grades", "--json")
    assert json.loads(as_json.stdout)["reused_unverified_runs"] == 2
    alone = privbench(*base[:-2], "--reuse-unverified-grades")
    assert alone.returncode == 2
    assert "--reuse-unverified-grades: only with --grades" in one_line_error(alone)
