"""Every paid call kept: a run with failed items resumes exactly those, a retry repeats
only the call that failed, a full disk or a removed folder loses nothing that was
computed, and a reply with invalid characters is kept. Each test drives the real
``privbench`` command against the loopback server and counts the requests per role."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import (
    API_KEY,
    CHECK_PROMPT,
    FOUR_ITEMS,
    JUDGE,
    JUDGE_PROMPT,
    MODEL,
    QUESTION_PROMPT,
    command,
    error_line,
    item,
    no_traceback,
    privbench,
    wait_for,
    write_priviq,
)
from helpers.loopback_server import Fault, LoopbackServer

CARD_QUESTION = r"^(?!.*(Correctness|Reply with the digit 1)).*Is there a card"
"""The model's request for item ``a`` (not its judge prompt, which quotes the question)."""


def model_calls(server: LoopbackServer) -> int:
    return server.count(QUESTION_PROMPT)


def judge_calls(server: LoopbackServer) -> int:
    return server.count(JUDGE_PROMPT)


def eval_args(data: Path, tmp_path: Path, *extra: str | Path) -> list[str | Path]:
    return ["eval", "priviq", "--data", data, "--model", MODEL, "--judge", JUDGE,
            "--log-dir", tmp_path / "logs", *extra]  # fmt: skip


def log_of(result: subprocess.CompletedProcess[str]) -> str:
    return next(
        line.split(": ", 1)[1] for line in result.stdout.splitlines() if line.startswith("log: ")
    )


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return write_priviq(tmp_path / "data", FOUR_ITEMS)


def test_a_run_with_failed_items_resumes_exactly_those(
    server: LoopbackServer, data: Path, tmp_path: Path
) -> None:
    server.script(CARD_QUESTION, Fault("500"))  # item a fails on every try
    first = privbench(*eval_args(data, tmp_path, "--max-retries", "0"))
    assert first.returncode == 1
    assert "1 item(s) failed after retries" in error_line(first)
    assert judge_calls(server) == 3  # item a was never judged
    server.rules.clear()  # the endpoint answers again
    log = log_of(first)
    before_model, before_judge = model_calls(server), judge_calls(server)
    resumed = privbench("eval", "priviq", "--resume", log, "--log-dir", tmp_path / "logs")
    assert resumed.returncode == 0, resumed.stderr
    no_traceback(resumed)
    assert (
        "1 item(s) will be sent (1 failed, 0 interrupted, 0 not run); 3 completed are kept"
        in resumed.stderr
    )
    # only item a is sent again: one model call, one judge call
    assert (model_calls(server) - before_model, judge_calls(server) - before_judge) == (1, 1)
    again = privbench("eval", "priviq", "--resume", log_of(resumed), "--log-dir", tmp_path / "logs")
    assert again.returncode == 2 and "that run is complete" in error_line(again)


def test_a_judge_fault_never_pays_the_model_twice(
    server: LoopbackServer, data: Path, tmp_path: Path
) -> None:
    server.fail_first_attempts([Fault("malformed")], pattern=JUDGE_PROMPT)
    result = privbench(*eval_args(data, tmp_path, "--json"))
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert (model_calls(server), judge_calls(server)) == (4, 8)  # each judge call twice
    assert document["calls_retried"] == {"model": 0, "judge": 4}
    assert document["errors"] == 0 and document["overall"] == 50.0


def test_malformed_model_replies_are_retried_per_call(
    server: LoopbackServer, data: Path, tmp_path: Path
) -> None:
    server.fail_first_attempts([Fault("malformed")], pattern=QUESTION_PROMPT)
    result = privbench(*eval_args(data, tmp_path))
    assert result.returncode == 0, result.stderr
    assert (model_calls(server), judge_calls(server)) == (8, 4)
    assert (
        "calls retried after a malformed or empty reply (each may have been paid): model 4, judge 0"
        in result.stdout
    )


def test_a_lone_surrogate_in_a_reply_is_replaced_and_counted(
    server: LoopbackServer, data: Path, tmp_path: Path
) -> None:
    server.script(QUESTION_PROMPT, "A bank card \ud800 and a name.")
    out = tmp_path / "out"
    result = privbench(*eval_args(data, tmp_path, "--out", out, "--json"))
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["replaced_characters"] == {"model": 4, "judge": 0}
    assert document["errors"] == 0 and model_calls(server) == 4
    answers = json.loads(Path(document["exports"]["answers"]).read_text(encoding="utf-8"))
    assert answers["a"] == "A bank card \ufffd and a name."


@pytest.mark.e2e  # run in the tests' process, the resumed model call still went to the old port
def test_resume_sends_to_the_endpoints_configured_now(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with LoopbackServer(default_reply="0.5") as old:
        for name in ("LOOPJUDGE", "LOOPMODEL"):
            monkeypatch.setenv(f"{name}_BASE_URL", old.base_url)
            monkeypatch.setenv(f"{name}_API_KEY", API_KEY)
        old.script(CARD_QUESTION, Fault("500"))
        first = privbench(*eval_args(data, tmp_path, "--max-retries", "0"))
        old_calls = len(old.requests)
        assert first.returncode == 1
    with LoopbackServer(default_reply="0.5") as new:  # the server moved to another port
        for name in ("LOOPJUDGE", "LOOPMODEL"):
            monkeypatch.setenv(f"{name}_BASE_URL", new.base_url)
        resumed = privbench(
            "eval", "priviq", "--resume", log_of(first), "--log-dir", tmp_path / "logs"
        )
        assert resumed.returncode == 0, resumed.stderr
        assert (model_calls(new), judge_calls(new)) == (1, 1)
        assert new.count(CHECK_PROMPT) == 2
    assert len(old.requests) == old_calls  # nothing went to the old port


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 kB tmpfs: the place to fill up (skipped where mounting is not allowed)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root and mount(8)")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"this machine does not allow mounting a tmpfs: {mounted.stderr.decode()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def fill(disk: Path, leave: int) -> None:
    (disk / "filler").write_bytes(b"x" * (shutil.disk_usage(disk).free - leave))


@pytest.mark.e2e
def test_a_full_disk_under_out_keeps_the_scores_and_says_how_to_export(
    server: LoopbackServer, data: Path, tmp_path: Path, small_disk: Path
) -> None:
    fill(small_disk, 6 * 1024)  # enough for the check before paying, not for the exports
    result = privbench(*eval_args(data, tmp_path, "--out", small_disk / "out"))
    assert result.returncode == 1
    line = error_line(result)
    assert "could not be written (No space left on device)" in line
    assert "privbench show" in line and "--out DIR" in line
    assert "Total" in result.stdout  # the tables were printed
    assert not list(small_disk.rglob("*.partial"))  # no truncated file left behind
    for export in (small_disk / "out").iterdir():
        if export.suffix == ".json":
            json.loads(export.read_text(encoding="utf-8"))  # whatever was written is whole
    shown = privbench("show", log_of(result), "--out", tmp_path / "exports")
    assert shown.returncode == 0 and model_calls(server) == 4  # nothing paid again


@pytest.mark.e2e
def test_a_full_log_disk_is_named_as_the_cause(
    server: LoopbackServer, data: Path, tmp_path: Path, small_disk: Path
) -> None:
    fill(small_disk, 6 * 1024)
    result = privbench("eval", "priviq", "--data", data, "--model", MODEL, "--judge", JUDGE,
                       "--log-dir", small_disk / "logs")  # fmt: skip
    assert result.returncode == 1
    line = error_line(result)
    assert "is full (No space left on device)" in line and "once there is space" in line
    assert "endpoint" not in line


@pytest.mark.e2e
def test_a_log_folder_removed_during_the_run_is_never_a_silent_success(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    items = {f"v{i}": item(f"Question {i}?", "Reference", ["Law"]) for i in range(20)}
    data = write_priviq(tmp_path / "many", items)
    with LoopbackServer(default_reply="0.5", latency=0.2) as slow:
        for name in ("LOOPJUDGE", "LOOPMODEL"):
            monkeypatch.setenv(f"{name}_BASE_URL", slow.base_url)
            monkeypatch.setenv(f"{name}_API_KEY", API_KEY)
        logs = tmp_path / "logs"
        running = subprocess.Popen(
            command(*eval_args(data, tmp_path, "--max-connections", "2", "--judge-connections", "2")),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy(),
        )  # fmt: skip
        wait_for(slow, JUDGE_PROMPT, 4)
        shutil.rmtree(logs)
        stdout, stderr = running.communicate(timeout=240)
    assert "Traceback" not in stdout + stderr
    printed = [line.split(": ", 1)[1] for line in stdout.splitlines() if line.startswith("log: ")]
    if running.returncode == 0:  # inspect wrote the log again: it must be there, and whole
        (log,) = printed
        shown = privbench("show", log, "--json")
        assert shown.returncode == 0 and json.loads(shown.stdout)["counts"]["items"] == 20
    else:
        assert "no longer exists" in stderr
