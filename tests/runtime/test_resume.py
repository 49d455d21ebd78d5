"""``--resume`` after Ctrl-C and ``kill -9``: nothing received is paid for twice, the counts
it prints are what the log holds, and a key an endpoint echoed does not stay in the log.

The judge's calls are held at the loopback server, so the run is stopped at a known
point: the model has answered, the judge has not. Every test drives the real command in a
subprocess and counts what the server received.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import (
    API_KEY,
    FINAL_MARK,
    JUDGE,
    JUDGE_PROMPT,
    MODEL,
    PERFECT,
    QUESTION_PROMPT,
    SELECT_MARK,
    all_leaks,
    command,
    error_line,
    item,
    privbench,
    spatial_record,
    wait_for,
    write_priviq,
    write_spatial,
)
from helpers.loopback_server import LoopbackServer, RecordedRequest, Reply
from inspect_ai.log import read_eval_log_sample_summaries
from inspect_ai.model import ModelOutput

from privbench.runtime import answers


@dataclass
class HoldingServer(LoopbackServer):
    """The loopback server, holding every request whose text matches ``hold`` until
    :meth:`release` (a judge call still going when the run is stopped)."""

    hold: str = "(?!)"
    released: bool = False

    async def _answer(self, recorded: RecordedRequest, reply: Any) -> Any:
        while not self.released and re.search(self.hold, recorded.text, re.DOTALL):
            await asyncio.sleep(0.02)
        return await super()._answer(recorded, reply)

    def release(self) -> None:
        self.released = True

    def __enter__(self) -> HoldingServer:
        self.start()
        return self


@pytest.fixture
def holding(monkeypatch: pytest.MonkeyPatch) -> Iterator[HoldingServer]:
    with HoldingServer(default_reply="0.5") as loopback:
        for name in ("LOOPJUDGE", "LOOPMODEL"):
            monkeypatch.setenv(f"{name}_BASE_URL", loopback.base_url)
            monkeypatch.setenv(f"{name}_API_KEY", API_KEY)
        yield loopback
        loopback.release()


def numbered_items(n: int) -> dict[str, dict[str, Any]]:
    return {f"v1_{i}": item(f"Question number {i}?", f"Reference {i}", ["NER"]) for i in range(n)}


def questions_asked(server: LoopbackServer) -> Counter[str]:
    """How often the model under test was asked each item's question."""
    regex = re.compile(QUESTION_PROMPT, re.DOTALL)
    return Counter(
        match.group(0)
        for r in server.requests
        if regex.search(r.text) and (match := re.search(r"Question number \d+", r.text))
    )


def start_eval(data: Path, logs: Path) -> subprocess.Popen[str]:
    args: list[str | Path] = ["eval", "priviq", "--data", data, "--model", MODEL, "--judge", JUDGE,
            "--max-connections", "4", "--judge-connections", "4", "--log-dir", logs]  # fmt: skip
    return subprocess.Popen(
        command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=os.environ.copy(),
    )  # fmt: skip


def resume_line(stderr: str) -> str:
    return next(line for line in stderr.splitlines() if line.startswith("resuming "))


def kept_answer_files() -> list[Path]:
    return list((Path(os.environ["PRIVBENCH_CACHE_DIR"]) / "answers").glob("*"))


@pytest.mark.e2e
def test_interrupted_mid_judge_resume_never_asks_the_model_again(
    holding: HoldingServer, tmp_path: Path
) -> None:
    data, logs = write_priviq(tmp_path / "data", numbered_items(8)), tmp_path / "logs"
    holding.hold = JUDGE_PROMPT
    process = start_eval(data, logs)
    wait_for(holding, JUDGE_PROMPT, 4)  # four answers received, four judge calls going
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert sum(questions_asked(holding).values()) == 4

    holding.release()
    (log,) = logs.glob("*.eval")
    resumed = privbench("eval", "priviq", "--resume", log, "--log-dir", logs, "--json")
    assert resumed.returncode == 0, resumed.stderr
    asked = questions_asked(holding)
    assert asked == Counter({f"Question number {i}": 1 for i in range(8)})
    document = json.loads(resumed.stdout)
    assert document["status"] == "complete" and document["items"] == {
        f"v1_{i}": 0.5 for i in range(8)
    }
    assert kept_answer_files() == []  # the run is complete: its kept answers are gone
    # the samples cut off are named as such, not as failures
    last_progress = [line for line in stderr.splitlines() if line.startswith("progress")][-1]
    assert "0 failed, 4 interrupted, 4 remaining of 8" in last_progress
    assert resume_line(resumed.stderr).endswith(
        "8 item(s) will be sent (0 failed, 4 interrupted, 4 not run); 0 completed are kept; "
        "4 answer(s) the model already gave are reused"
    )


def flushed_samples(log: Path) -> int:
    try:
        return len(read_eval_log_sample_summaries(str(log)))
    except Exception:  # being written
        return 0


@dataclass
class KilledRun:
    server: HoldingServer
    log: Path
    logs: Path
    cache: Path
    leaked_before: list[str]
    shown: subprocess.CompletedProcess[str]
    """``privbench show`` of the killed log, before the resume."""
    planned: subprocess.CompletedProcess[str]
    """``--resume --dry-run`` of the killed log."""
    resumed: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module")
def killed_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KilledRun]:
    """An eval of 12 items killed with ``kill -9`` once the log has flushed the first 10
    (item 3's answer echoes the API key) while the last two are being judged, then resumed.
    Run once for the tests that read it."""
    tmp_path = tmp_path_factory.mktemp("killed")
    data, logs = write_priviq(tmp_path / "data", numbered_items(12)), tmp_path / "logs"
    with pytest.MonkeyPatch.context() as monkeypatch, HoldingServer(default_reply="0.5") as server:
        monkeypatch.setenv("INSPECT_DISPLAY", "none")
        monkeypatch.setenv("PRIVBENCH_CACHE_DIR", str(tmp_path / "cache"))
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        for name in ("LOOPJUDGE", "LOOPMODEL"):
            monkeypatch.setenv(f"{name}_BASE_URL", server.base_url)
            monkeypatch.setenv(f"{name}_API_KEY", API_KEY)
        echo: Reply = f"The key you sent is {API_KEY}"
        server.script(r"^(?!.*(Correctness|Reply with the digit 1)).*Question number 3\?", echo)
        server.hold = r"(?=.*Correctness)(?=.*Question number 1[01]\?)"
        process = start_eval(data, logs)
        wait_for(server, server.hold, 2)
        (log,) = logs.glob("*.eval")
        deadline = time.monotonic() + 60
        while flushed_samples(log) < 10:
            assert time.monotonic() < deadline, "the log never flushed 10 samples"
            time.sleep(0.05)
        process.kill()
        process.communicate(timeout=30)
        server.release()
        leaked = all_leaks(logs, API_KEY)
        shown = privbench("show", log)
        planned = privbench("eval", "priviq", "--resume", log, "--dry-run", "--json")
        resumed = privbench("eval", "priviq", "--resume", log, "--log-dir", logs, "--json")
        yield KilledRun(server, log, logs, tmp_path / "cache", leaked, shown, planned, resumed)


@pytest.mark.e2e
def test_killed_run_resume_counts_what_the_log_kept(killed_run: KilledRun) -> None:
    line = error_line(killed_run.shown)
    assert "the run did not finish (it was killed" in line and "failed" not in line
    assert "PARTIAL: 2 item(s) not graded: v1_10, v1_11" in killed_run.shown.stdout
    assert killed_run.planned.returncode == 0, killed_run.planned.stderr
    plan = json.loads(killed_run.planned.stdout)
    assert plan["calls"] == {"model": 0, "judge": 2}  # both answers were kept
    assert "2 answer(s) the model already gave are reused: not sent" in plan["notes"]
    resumed = killed_run.resumed
    assert resumed.returncode == 0, resumed.stderr
    assert resume_line(resumed.stderr).endswith(
        "2 item(s) will be sent (0 failed, 0 interrupted, 2 not run); 10 completed are kept; "
        "2 answer(s) the model already gave are reused"
    )
    assert "(+10 from the resumed log)" in resumed.stderr
    assert json.loads(resumed.stdout)["counts"]["items"] == 12
    assert questions_asked(killed_run.server) == Counter(
        {f"Question number {i}": 1 for i in range(12)}
    )
    assert list((killed_run.cache / "answers").glob("*")) == []


@pytest.mark.e2e
def test_killed_run_resume_scrubs_the_key_the_old_log_kept(killed_run: KilledRun) -> None:
    assert killed_run.leaked_before  # the killed run left the echoed key in its log
    resumed = killed_run.resumed
    assert resumed.returncode == 0, resumed.stderr
    said = [line for line in resumed.stderr.splitlines() if "redacted" in line]
    assert said == [
        f"resume: {killed_run.log} held an API key or URL password an endpoint echoed; "
        "it was redacted in that log"
    ]
    assert all_leaks(killed_run.logs, API_KEY) == []
    assert API_KEY not in resumed.stdout + resumed.stderr


def test_kept_answers_survive_a_line_cut_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``kill -9`` mid-write leaves a torn last line: the answers before it are found,
    and only the user can read the file."""
    monkeypatch.setenv("PRIVBENCH_CACHE_DIR", str(tmp_path))
    token = answers.new_token()
    store = answers.AnswerStore.open(token)
    first = ModelOutput.from_content(model="vlm", content="first answer")
    store.put("k1", "v1_0:1", answers.KeptAnswer(first, retries=1))
    store.put("k2", "v1_1:1", answers.KeptAnswer(ModelOutput.from_content("vlm", "second")))
    path = answers.store_path(token)
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"key": "k3", "sample": "v1_2:1", "output": {"mod')
    assert path.stat().st_mode & 0o777 == 0o600
    reopened = answers.AnswerStore.open(token)
    assert set(reopened.answers) == {"k1", "k2"}
    kept = reopened.get("k1")
    assert kept is not None and kept.output.completion == "first answer" and kept.retries == 1
    assert reopened.samples_with_answers() == {"v1_0:1", "v1_1:1"}
    answers.discard(token)
    assert not path.exists()


@pytest.mark.e2e
def test_interrupted_staged_run_asks_each_selection_once(
    holding: HoldingServer, tmp_path: Path
) -> None:
    """A SpatialTrust sample makes several calls: a resumed one takes the answers it had
    (the selection) and asks only for the one that never arrived (the final answer)."""
    data = write_spatial(tmp_path / "data", [spatial_record(f"st-{i}") for i in range(4)])
    logs = tmp_path / "logs"
    holding.default_reply = json.dumps(PERFECT)
    holding.script(SELECT_MARK, json.dumps({"q1": "A", "q2": ["A"], "q3": ["B", "C"]}))
    holding.hold = FINAL_MARK
    args: list[str | Path] = ["eval", "spatialtrust", "--data", data, "--model", MODEL,
            "--judge", "offline", "--strategy", "staged", "--max-connections", "4",
            "--log-dir", logs]  # fmt: skip
    process = subprocess.Popen(
        command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=os.environ.copy(),
    )  # fmt: skip
    wait_for(holding, FINAL_MARK, 4)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    holding.release()
    (log,) = logs.glob("*.eval")
    resumed = privbench("eval", "spatialtrust", "--resume", log, "--log-dir", logs, "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert holding.count(SELECT_MARK) == 4  # one selection per image, over both runs
    assert holding.count(FINAL_MARK) == 8  # the four in flight at the signal, asked again
    assert json.loads(resumed.stdout)["status"] == "complete"


def test_any_answer_text_is_kept_and_an_unwritable_store_never_fails_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRIVBENCH_CACHE_DIR", str(tmp_path))
    token = answers.new_token()
    text = "Zoë\u2028next line \ud800 end"
    answers.AnswerStore.open(token).put(
        "k", "a:1", answers.KeptAnswer(ModelOutput.from_content("vlm", text))
    )
    kept = answers.AnswerStore.open(token).get("k")
    assert kept is not None and kept.output.completion == text
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("PRIVBENCH_CACHE_DIR", str(blocker))  # answers/ cannot be made
    store = answers.AnswerStore.open(token)
    store.put("k2", "b:1", answers.KeptAnswer(ModelOutput.from_content("vlm", "kept in memory")))
    assert store.get("k2") is not None
    assert not (blocker / "answers").exists()
