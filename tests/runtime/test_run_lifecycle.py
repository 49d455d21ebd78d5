"""A run as a user lives it: Ctrl-C, SIGTERM, kill -9, --resume, stale grades, judge runs,
unreachable and failing endpoints, unusable output directories, partial runs, the cache.

Every test drives the real ``privbench`` command in a subprocess against the loopback
OpenAI-compatible server and counts the requests that server received, so "nothing is
paid twice" is measured, not assumed.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import (
    API_KEY,
    FOUR_ITEMS,
    JUDGE,
    JUDGE_PROMPT,
    MODEL,
    QUESTION_PROMPT,
    command,
    error_line,
    item,
    privbench,
    wait_for,
    write_json,
    write_priviq,
)
from helpers.loopback_server import Fault, LoopbackServer
from inspect_ai.log import read_eval_log

from privbench.dataset_identity import dataset_hash


def many_items(n: int) -> dict[str, dict[str, Any]]:
    codes = ["VizPriv", "NER", "Law", "PET"]
    return {
        f"v1_{i}": item(f"Question number {i}?", f"Reference {i}", [codes[i % 4]]) for i in range(n)
    }


@pytest.fixture
def slow_server(monkeypatch: pytest.MonkeyPatch) -> Any:
    with LoopbackServer(default_reply="0.5", latency=0.25) as loopback:
        for name in ("LOOPJUDGE", "LOOPMODEL"):
            monkeypatch.setenv(f"{name}_BASE_URL", loopback.base_url)
            monkeypatch.setenv(f"{name}_API_KEY", API_KEY)
        yield loopback


def read_csv(path: Path) -> dict[str, str]:
    with path.open(encoding="utf-8") as handle:
        return next(csv.DictReader(handle))


@pytest.mark.e2e
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_grade_resumes_without_paying_twice(
    slow_server: LoopbackServer, tmp_path: Path, signum: int
) -> None:
    data = write_priviq(tmp_path / "data", many_items(60))
    answers = write_json(tmp_path / "results.json", {f"v1_{i}": f"answer {i}" for i in range(60)})
    out, logs = tmp_path / "out", tmp_path / "logs"
    args: list[str | Path] = ["grade", "priviq", "--data", data, "--predictions", answers, "--judge", JUDGE,
            "--judge-connections", "4", "--out", out, "--log-dir", logs]  # fmt: skip
    process = subprocess.Popen(
        command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=os.environ.copy(),
    )  # fmt: skip
    wait_for(slow_server, JUDGE_PROMPT, 12)
    sent_at_signal = slow_server.count(JUDGE_PROMPT)
    process.send_signal(signum)
    # the promised bound, as a timeout: a run still going 10 s after the signal fails here
    stdout, stderr = process.communicate(timeout=10)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stdout + stderr
    assert "interrupted: partial log" in stderr
    resume_line = next(line for line in stderr.splitlines() if line.startswith("resume"))
    assert "--resume" in resume_line
    partial = read_csv(next(out.glob("*-cap-score-1runs.csv")))
    assert partial["status"] == "partial"
    assert int(partial["missing"]) > 0
    judged_before = slow_server.count(JUDGE_PROMPT)
    assert judged_before < 60

    log = Path(resume_line.split("--resume ", 1)[1].split(" --out")[0])
    resumed = privbench("grade", "priviq", "--resume", log, "--out", out, "--log-dir", logs)
    assert resumed.returncode == 0, resumed.stderr
    judged_after = slow_server.count(JUDGE_PROMPT)
    resent = judged_after - 60
    # at most the calls that were in flight when the signal came are paid twice
    assert 0 <= resent <= 4 + (judged_before - sent_at_signal)
    grades = json.loads(next(out.glob("*-grade-1runs.json")).read_text(encoding="utf-8"))
    assert list(grades) == [f"v1_{i}" for i in range(60)]  # dataset order, all present
    final = read_csv(next(out.glob("*-cap-score-1runs.csv")))
    assert final["status"] == "complete" and final["missing"] == "0"


@pytest.mark.e2e
def test_killed_eval_resumes_from_what_the_log_flushed(
    slow_server: LoopbackServer, tmp_path: Path
) -> None:
    data = write_priviq(tmp_path / "data", many_items(40))
    logs = tmp_path / "logs"
    args: list[str | Path] = ["eval", "priviq", "--data", data, "--model", MODEL, "--judge", JUDGE,
            "--max-connections", "4", "--judge-connections", "4", "--log-dir", logs]  # fmt: skip
    process = subprocess.Popen(
        command(*args), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env=os.environ.copy(),
    )  # fmt: skip
    wait_for(slow_server, JUDGE_PROMPT, 25)
    process.kill()
    process.wait(timeout=10)
    asked_before = slow_server.count(QUESTION_PROMPT)
    (log,) = logs.glob("*.eval")
    resumed = privbench("eval", "priviq", "--resume", log, "--log-dir", logs, "--json")
    assert resumed.returncode == 0, resumed.stderr
    document = json.loads(resumed.stdout)
    assert document["status"] == "complete"
    assert document["counts"]["items"] == 40
    asked_again = slow_server.count(QUESTION_PROMPT) - 40
    # samples the log had flushed (every 10) are not asked again; the rest may be
    assert 0 <= asked_again <= asked_before - 20 + 4


def test_stale_grades_are_never_reused(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    base: list[str | Path] = ["grade", "priviq", "--data", priviq_dir, "--judge", JUDGE, "--out", out,
            "--log-dir", tmp_path / "logs", "--json"]  # fmt: skip
    first = privbench(*base, "--predictions", predictions)
    assert first.returncode == 0, first.stderr
    (grade_file,) = out.glob("*-grade-1runs.json")
    stored = json.loads(grade_file.read_text(encoding="utf-8"))
    assert all(len(entry["answer_hash"]) == 16 for entry in stored.values())
    old = tmp_path / "old-grades.json"
    old.write_text(grade_file.read_text(encoding="utf-8"), encoding="utf-8")
    judged = server.count(JUDGE_PROMPT)

    same = privbench(*base, "--predictions", predictions, "--grades", old)
    assert same.returncode == 0, same.stderr
    assert json.loads(same.stdout)["reused_runs"] == 4
    assert server.count(JUDGE_PROMPT) == judged  # nothing sent for unchanged answers

    empty = write_json(tmp_path / "empty.json", {key: "" for key in FOUR_ITEMS})
    changed = privbench(*base, "--predictions", empty, "--grades", old)
    document = json.loads(changed.stdout)
    assert document["reused_runs"] == 0
    assert server.count(JUDGE_PROMPT) == judged + 4  # every changed answer graded again
    assert document["no_answer"] == 4

    other_judge = privbench(*base, "--predictions", predictions, "--grades", old,
                            "--judge", "openai-api/loopjudge/other")  # fmt: skip
    assert json.loads(other_judge.stdout)["reused_runs"] == 0


def test_grade_file_matching_no_item_is_an_error(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    foreign = write_json(
        tmp_path / "foreign.json", {"zz": {"model": ["j"], "content": ["1.0"], "score": [1.0]}}
    )
    result = privbench("grade", "priviq", "--data", priviq_dir, "--predictions", predictions,
                       "--grades", foreign, "--judge", JUDGE, "--log-dir", tmp_path / "logs")  # fmt: skip
    assert result.returncode != 0
    assert "no entry matches" in error_line(result)
    assert server.count() == 0


def test_judge_runs_grade_one_answer_n_times(
    server: LoopbackServer, priviq_dir: Path, tmp_path: Path
) -> None:
    server.script(JUDGE_PROMPT, "0.5", "1.0", "0.0")
    out = tmp_path / "out"
    result = privbench("eval", "priviq", "--data", priviq_dir, "--model", MODEL, "--judge", JUDGE,
                       "--judge-runs", "3", "--out", out, "--log-dir", tmp_path / "logs", "--json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert server.count(QUESTION_PROMPT) == 4 + 0  # one answer per item
    assert server.count(JUDGE_PROMPT) == 12  # judged three times each
    temperatures = {r.body.get("temperature") for r in server.requests if "Question" not in r.text}
    assert 0 in temperatures or 0.0 in temperatures
    document = json.loads(result.stdout)
    assert document["counts"]["runs"] == 3
    assert document["tokens"]["model"]["total"] > 0 and document["tokens"]["judge"]["total"] > 0
    answers = json.loads(next(out.glob("*-results.json")).read_text(encoding="utf-8"))
    assert set(answers) == set(FOUR_ITEMS)
    assert next(out.glob("*-grade-3runs.json"))
    assert next(out.glob("*-cap-score-3runs.csv"))
    # another judge grades the saved answers without running the model again
    asked = server.count(QUESTION_PROMPT)
    regrade = privbench("grade", "priviq", "--data", priviq_dir, "--predictions",
                        next(out.glob("*-results.json")), "--judge", "offline", "--log-dir",
                        tmp_path / "logs", "--out", tmp_path / "regrade")  # fmt: skip
    assert regrade.returncode == 0, regrade.stderr
    assert server.count(QUESTION_PROMPT) == asked


def test_epochs_is_renamed(priviq_dir: Path, predictions: Path, tmp_path: Path) -> None:
    result = privbench("grade", "priviq", "--data", priviq_dir, "--predictions", predictions,
                       "--judge", "offline", "--epochs", "3")  # fmt: skip
    assert result.returncode == 2
    assert "--judge-runs" in error_line(result)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_unreachable_model_fails_fast_naming_model_and_url(
    monkeypatch: pytest.MonkeyPatch, priviq_dir: Path, tmp_path: Path
) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    monkeypatch.setenv("GONE_BASE_URL", url)
    monkeypatch.setenv("GONE_API_KEY", API_KEY)
    # the check is bounded to 60 s; a run that hangs instead fails here as a timeout
    result = privbench("eval", "priviq", "--data", priviq_dir, "--model", "openai-api/gone/m",
                       "--judge", "offline", "--log-dir", tmp_path / "logs", "--max-retries", "1",
                       timeout=90)  # fmt: skip
    assert result.returncode == 1
    line = error_line(result)
    assert "openai-api/gone/m" in line and url in line and "connect" in line
    assert API_KEY not in result.stderr


def test_judge_that_always_fails_stops_before_grading(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    server.script(".", Fault("500"))
    result = privbench("grade", "priviq", "--data", priviq_dir, "--predictions", predictions,
                       "--judge", JUDGE, "--max-retries", "1", "--log-dir", tmp_path / "logs")  # fmt: skip
    assert result.returncode == 1
    assert "judge openai-api/loopjudge/judge" in error_line(result)
    assert server.count(JUDGE_PROMPT) == 0


def test_endpoint_failing_every_call_ends_the_run(server: LoopbackServer, tmp_path: Path) -> None:
    data = write_priviq(tmp_path / "data", many_items(30))
    server.script(r"Question number", Fault("500"))
    result = privbench("eval", "priviq", "--data", data, "--model", MODEL, "--judge", "offline",
                       "--max-retries", "0", "--max-connections", "2",
                       "--log-dir", tmp_path / "logs")  # fmt: skip
    assert result.returncode == 1
    line = error_line(result)
    assert "run stopped" in line and "server error (HTTP 5xx)" in line and "--resume" in line
    assert "failed" in result.stderr.splitlines()[-2]  # the last progress line counts them
    # bounded: each item at most two sample attempts of at most three HTTP requests each
    assert server.count("Question number") <= 30 * 2 * 3


@pytest.mark.parametrize(
    "option",
    ["--out", "--log-dir"],
)
def test_unusable_output_directory_costs_nothing(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path, option: str
) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("x", encoding="utf-8")
    args = {"--out": tmp_path / "logs", "--log-dir": tmp_path / "logs"}
    args[option] = blocker / "sub"
    result = privbench("grade", "priviq", "--data", priviq_dir, "--predictions", predictions,
                       "--judge", JUDGE, "--out", args["--out"], "--log-dir", args["--log-dir"])  # fmt: skip
    assert result.returncode == 2
    line = error_line(result)
    assert option in line and "cannot write there" in line
    assert server.count() == 0


def test_generate_out_that_is_a_file(tmp_path: Path) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("x", encoding="utf-8")
    result = privbench("generate", "priviq", "--n", "2", "--out", blocker)
    assert result.returncode == 2
    assert f"--out {blocker}: cannot write there (a file is in the way)" in error_line(result)


def test_partial_run_exports_say_so(server: LoopbackServer, tmp_path: Path) -> None:
    data = write_priviq(tmp_path / "data", many_items(8))
    server.script(r"Question number [35]\?", Fault("malformed"))
    out = tmp_path / "out"
    result = privbench("eval", "priviq", "--data", data, "--model", MODEL, "--judge", "offline",
                       "--max-retries", "0", "--out", out, "--log-dir", tmp_path / "logs")  # fmt: skip
    assert result.returncode == 1
    assert "PARTIAL: 2 item(s) failed: v1_3, v1_5" in result.stdout
    row = read_csv(next(out.glob("*-cap-score-1runs.csv")))
    assert row["status"] == "partial" and row["failed"] == "2"
    assert row["failed_ids"] == "v1_3;v1_5"
    # every competency column is there with its n, even those with no graded item
    for code in ("VizPriv", "NER", "Law", "PET", "PrivRisk", "Know", "CntxPriv", "MultLing"):
        assert code in row and f"n_{code}" in row
    assert row["n_Law"] == "2"  # v1_2 and v1_6; the failed v1_3 is PET's, v1_5 NER's


def test_unscored_metric_in_the_log_is_the_real_count(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    server.script("answer-b", "I cannot grade this.")
    result = privbench("grade", "priviq", "--data", priviq_dir, "--predictions", predictions,
                       "--judge", JUDGE, "--judge-runs", "2", "--log-dir", tmp_path / "logs",
                       "--json")  # fmt: skip
    document = json.loads(result.stdout)
    assert document["unscored"] == 2 and document["unscored_items"] == ["b"]
    (log,) = (tmp_path / "logs").glob("*.eval")
    header = read_eval_log(str(log), header_only=True)
    assert header.results is not None
    metrics = {name: m.value for s in header.results.scores for name, m in s.metrics.items()}
    assert metrics["unscored"] == 2


def test_cache_makes_a_rerun_free(
    server: LoopbackServer, priviq_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    args: list[str | Path] = ["eval", "priviq", "--data", priviq_dir, "--model", MODEL, "--judge", JUDGE,
            "--cache", "--log-dir", tmp_path / "logs", "--json"]  # fmt: skip
    first = privbench(*args)
    assert first.returncode == 0, first.stderr
    before = server.count()
    second = privbench(*args)
    assert second.returncode == 0, second.stderr
    assert server.count() - before == 2  # the two reachability checks, nothing else
    # every judge reply is the server's default "0.5", first run and cached rerun alike
    assert json.loads(first.stdout)["items"] == {key: 0.5 for key in FOUR_ITEMS}
    assert json.loads(second.stdout)["items"] == {key: 0.5 for key in FOUR_ITEMS}


def test_show_prints_any_log(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    logs = tmp_path / "logs"
    privbench("grade", "priviq", "--data", priviq_dir, "--predictions", predictions,
              "--judge", JUDGE, "--log-dir", logs)  # fmt: skip
    (log,) = logs.glob("*.eval")
    shown = privbench("show", log, "--json", "--out", tmp_path / "shown")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["overall"] == pytest.approx(50.0)
    assert list((tmp_path / "shown").glob("*-cap-score-1runs.csv"))
    table = privbench("show", log)
    assert "Priv-IQ scores" in table.stdout
    folder = privbench("show", logs)  # a folder stands for the logs in it
    assert folder.returncode == 0, folder.stderr
    assert folder.stdout == table.stdout
    (tmp_path / "empty").mkdir()
    empty = privbench("show", tmp_path / "empty")
    assert empty.returncode == 2 and "no inspect logs found" in error_line(empty)
    missing = privbench("show", tmp_path / "nope.eval")
    assert missing.returncode == 2 and "no such log" in error_line(missing)


@pytest.mark.e2e
def test_interrupted_spatialtrust_eval_resumes(slow_server: LoopbackServer, tmp_path: Path) -> None:
    logs, out = tmp_path / "logs", tmp_path / "out"
    args: list[str | Path] = ["eval", "spatialtrust", "--model", MODEL, "--judge", "offline", "--limit", "40",
            "--max-connections", "4", "--log-dir", logs, "--out", out]  # fmt: skip
    process = subprocess.Popen(
        command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=os.environ.copy(),
    )  # fmt: skip
    wait_for(slow_server, QUESTION_PROMPT, 12)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    asked_before = slow_server.count(QUESTION_PROMPT)
    partial = json.loads(next(out.glob("*-summary.json")).read_text(encoding="utf-8"))
    assert partial["status"] == "partial", partial
    assert partial["missing"] > 0 and partial["errors"] == 0, partial  # cut off, not failed
    (log,) = logs.glob("*.eval")
    resumed = privbench("eval", "spatialtrust", "--resume", log, "--log-dir", logs, "--json")
    assert resumed.returncode == 0, resumed.stderr
    document = json.loads(resumed.stdout)
    assert document["status"] == "complete" and document["counts"]["images"] == 40
    resent = slow_server.count(QUESTION_PROMPT) - 40
    assert 0 <= resent <= 4 + (asked_before - 12)
    assert list(document["items"]) == sorted(document["items"])  # dataset order


def test_identical_runs_write_identical_exports(
    priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    """Grade files and CSVs list items in dataset order: the same run twice, the same bytes."""
    outputs = []
    for name in ("one", "two"):
        out = tmp_path / name
        result = privbench("grade", "priviq", "--data", priviq_dir, "--predictions", predictions,
                           "--judge", "offline", "--out", out, "--log-dir", tmp_path / "logs")  # fmt: skip
        assert result.returncode == 0, result.stderr
        outputs.append({p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert outputs[0] == outputs[1]
    data = f"data-{dataset_hash(priviq_dir)[:8]}"
    grades = json.loads(outputs[0][f"{tmp_path.name}_offline-{data}-grade-1runs.json"])
    assert list(grades) == list(FOUR_ITEMS)


def test_judge_name_is_stable_when_grades_are_reused(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    base: list[str | Path] = ["grade", "priviq", "--data", priviq_dir, "--predictions", predictions, "--judge", JUDGE,
            "--log-dir", tmp_path / "logs"]  # fmt: skip
    assert privbench(*base, "--out", first).returncode == 0
    (grade_file,) = first.glob("*-grade-1runs.json")
    reused = privbench(*base, "--out", second, "--grades", grade_file)
    assert reused.returncode == 0, reused.stderr
    stem = f"{tmp_path.name}_openai-api_loopjudge_judge-data-{dataset_hash(priviq_dir)[:8]}"
    names = [  # results.json names no model: its folder does; the dataset is in the name
        f"{stem}-cap-int-score-1runs.csv",
        f"{stem}-cap-score-1runs.csv",
        f"{stem}-grade-1runs.json",
    ]
    assert sorted(p.name for p in first.iterdir()) == names
    assert sorted(p.name for p in second.iterdir()) == names
    entry = json.loads(next(second.glob("*-grade-1runs.json")).read_text(encoding="utf-8"))["a"]
    assert entry["judge"] == JUDGE
