"""No API key and no URL password in anything privbench prints or leaves on disk.

Why these tests drive the real command against the loopback server: a key leaks where an
endpoint echoes it (a 401 or a 500 body), where a provider SDK puts it in an exception,
and where inspect records both in a log; only a real run shows all of those paths. The
log is checked as raw bytes of every zip member, the way anyone who opens it sees it.
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import API_KEY, JUDGE, MODEL, all_leaks, leaks, privbench, write_priviq
from helpers.loopback_server import Fault, LoopbackServer
from inspect_ai.log import EvalError, read_eval_log, write_eval_log

from privbench.runtime import redaction
from privbench.runtime.endpoints import make_model
from privbench.runtime.log_secrets import scrub_log
from privbench.runtime.redaction import redact, redact_url

PASSWORD = "pw-in-url-777"
OTHER_KEY = "loopkey-Q7vX2mZ9pL4t-not-sk-shaped"
"""A key no pattern recognises: only the environment at run time says it is a key."""

ITEMS = {
    "a": {"imagename": "", "question": "Is there a card?", "answer": "Yes", "capability": ["NER"]},
    "b": {"imagename": "", "question": "Which law?", "answer": "GDPR", "capability": ["Law"]},
}


def without_keys() -> dict[str, str]:
    """A shell with no key and no base URL set (as whoever reads a shared log has)."""
    return {
        name: value
        for name, value in os.environ.items()
        if not name.endswith(("_API_KEY", "_BASE_URL"))
    }


@pytest.fixture(autouse=True)
def _forget_secrets() -> Iterator[None]:
    """Secrets a test makes this process remember are forgotten after it."""
    remembered = set(redaction._remembered)
    yield
    redaction._remembered.clear()
    redaction._remembered.update(remembered)


# -- URL user info -------------------------------------------------------------------------


def test_url_password_is_not_in_the_unreachable_endpoint_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = write_priviq(tmp_path / "data", ITEMS)
    answers = tmp_path / "results.json"
    answers.write_text(json.dumps({"a": "x", "b": "y"}), encoding="utf-8")
    monkeypatch.setenv("LOOPJUDGE_BASE_URL", f"http://alice:{PASSWORD}@127.0.0.1:9/v1")
    monkeypatch.setenv("LOOPJUDGE_API_KEY", API_KEY)
    result = privbench("grade", "priviq", "--data", data, "--predictions", answers,
                       "--judge", JUDGE, "--max-retries", "0", "--log-dir", tmp_path / "logs")  # fmt: skip
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    (line,) = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert "at http://***@127.0.0.1:9/v1 does not answer: cannot connect" in line
    assert PASSWORD not in output and "alice" not in output and API_KEY not in output


def test_url_password_is_not_in_a_successful_run_log(
    server: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_password = server.base_url.replace("http://", f"http://alice:{PASSWORD}@")
    monkeypatch.setenv("LOOPJUDGE_BASE_URL", with_password)
    monkeypatch.setenv("LOOPMODEL_BASE_URL", with_password)
    data = write_priviq(tmp_path / "data", ITEMS)
    logs, out = tmp_path / "logs", tmp_path / "out"
    result = privbench("eval", "priviq", "--data", data, "--model", MODEL, "--judge", JUDGE,
                       "--log-dir", logs, "--out", out, "--json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert PASSWORD not in result.stdout + result.stderr
    (log,) = logs.glob("*.eval")
    assert all_leaks(tmp_path / "logs", PASSWORD, "alice:") == []
    assert all_leaks(out, PASSWORD) == []
    header = read_eval_log(str(log), header_only=True)
    assert header.status == "success"
    assert header.eval.model_roles is not None
    grader = header.eval.model_roles["grader"]
    assert not isinstance(grader, list)
    assert grader.base_url == server.base_url.replace("http://", "http://***@")


def test_a_redacted_base_url_falls_back_to_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--resume`` passes the log's (scrubbed) base URL: the real one comes from the env."""
    real = f"http://alice:{PASSWORD}@127.0.0.1:9/v1"
    monkeypatch.setenv("LOOPJUDGE_BASE_URL", real)
    monkeypatch.setenv("LOOPJUDGE_API_KEY", API_KEY)
    model = make_model(JUDGE, role="judge", base_url="http://***@127.0.0.1:9/v1")
    assert model.api.base_url == real
    kept = make_model(JUDGE, role="judge", base_url="http://127.0.0.1:8/v1")
    assert kept.api.base_url == "http://127.0.0.1:8/v1"


# -- keys echoed by the endpoint ------------------------------------------------------------


@pytest.mark.parametrize("key", [API_KEY, OTHER_KEY], ids=["sk-key", "other-key"])
@pytest.mark.parametrize("kind", ["401", "500"])
def test_echoed_key_is_in_no_output_log_or_export(
    server: LoopbackServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
    key: str,
) -> None:
    monkeypatch.setenv("LOOPJUDGE_API_KEY", key)
    monkeypatch.setenv("LOOPMODEL_API_KEY", key)
    server.script(r"Is there a card", Fault(kind, echo_key=True))  # type: ignore[arg-type]
    data = write_priviq(tmp_path / "data", ITEMS)
    logs, out = tmp_path / "logs", tmp_path / "out"
    result = privbench("eval", "priviq", "--data", data, "--model", MODEL, "--judge", JUDGE,
                       "--max-retries", "0", "--log-dir", logs, "--out", out)  # fmt: skip
    assert result.returncode == 1, result.stderr
    echoed = [r for r in server.requests if r.answered_with == f"fault:{kind}"]
    assert echoed and echoed[0].authorization == f"Bearer {key}"  # the server did echo it
    fragment = key[:18]  # also a key cut by a traceback's line wrap or colour codes
    output = result.stdout + result.stderr
    assert key not in output and fragment not in output
    assert "failed" in output
    if kind == "401":  # the error line quotes the server's message, key masked
        assert "Incorrect API key provided: ***" in output
    (log,) = logs.glob("*.eval")
    assert all_leaks(logs, key, fragment) == []
    assert list(out.iterdir()) and all_leaks(out, key, fragment) == []
    sample = next(s for s in read_eval_log(str(log)).samples or [] if s.id == "a")
    assert sample.error is not None and "***" in sample.error.traceback

    shown = privbench("show", log, "--json", env=without_keys())
    shown_text = privbench("show", log, env=without_keys())
    for run in (shown, shown_text):
        assert key not in run.stdout + run.stderr and fragment not in run.stdout + run.stderr
    assert json.loads(shown.stdout)["benchmark"] == "priviq"


# -- the redaction rules and the scrubber ---------------------------------------------------


def test_redaction_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    assert redact_url("http://alice:pw@127.0.0.1:9/v1") == "http://***@127.0.0.1:9/v1"
    assert redact_url("https://token123@host/x?y=z@w") == "https://***@host/x?y=z@w"
    assert redact_url("https://p@ss:w@rd@host/v1") == "https://***@host/v1"
    assert redact("see https://example.com/@user and a@b.org") == (
        "see https://example.com/@user and a@b.org"
    )
    assert redact("Authorization: Basic YWxpY2U6cHctaW4tdXJsLTc3Nw==") == (
        "Authorization: Basic ***"
    )
    assert redact("Basic knowledge of privacy law") == "Basic knowledge of privacy law"
    assert redact(f"key {API_KEY}.") == "key ***."
    assert redact("task-0123456789abc") == "task-0123456789abc"
    assert redact("Incorrect API key provided: abcd1234efgh5678") == (
        "Incorrect API key provided: ***"
    )
    assert redact("Never share your API key: it is private") == (
        "Never share your API key: it is private"
    )
    # a key seen once stays redacted after its variable is gone
    monkeypatch.setenv("SOME_SERVICE_TOKEN", "tok-remember-me-42")
    assert redact("x tok-remember-me-42 y") == "x *** y"
    monkeypatch.delenv("SOME_SERVICE_TOKEN")
    assert redact("x tok-remember-me-42 y") == "x *** y"
    # the password of a base URL in the environment is a secret on its own too
    monkeypatch.setenv("SOME_BASE_URL", "http://bob:hunter2-xyz@10.0.0.1/v1")
    assert redact("password hunter2-xyz") == "password ***"


def _tiny_log(tmp_path: Path, name: str) -> Path:
    """A real offline-judged log (no endpoint), with a secret planted in one sample."""
    data = write_priviq(tmp_path / "data", ITEMS)
    answers = tmp_path / "results.json"
    answers.write_text(json.dumps({"a": "x", "b": "y"}), encoding="utf-8")
    logs = tmp_path / name
    result = privbench("grade", "priviq", "--data", data, "--predictions", answers,
                       "--judge", "offline", "--log-dir", logs)  # fmt: skip
    assert result.returncode == 0, result.stderr
    (log,) = logs.glob("*.eval")
    return log


def test_scrub_log_rewrites_only_when_needed_and_keeps_the_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = _tiny_log(tmp_path, "logs")
    before = log.read_bytes()
    assert scrub_log(log) is False and log.read_bytes() == before  # nothing to redact

    full = read_eval_log(str(log))
    assert full.samples
    secret = "zz-planted-secret-0042"
    monkeypatch.setenv("PLANTED_API_KEY", secret)
    sample = full.samples[0]
    sample.metadata["echo"] = f"server said {secret} and Bearer {secret}"
    sample.metadata["url"] = f"http://u:{PASSWORD}@h/v1"
    for suffix in (".eval", ".json"):
        target = tmp_path / f"planted{suffix}"
        write_eval_log(full, str(target))
        assert leaks(target, secret, PASSWORD)
        assert scrub_log(target) is True
        assert leaks(target, secret, PASSWORD) == []
        assert scrub_log(target) is False  # idempotent: a scrubbed log is left alone
        reread = read_eval_log(str(target))
        assert reread.samples is not None and len(reread.samples) == len(full.samples)
        assert reread.samples[0].metadata["echo"] == "server said *** and Bearer ***"
        assert reread.samples[0].metadata["url"] == "http://***@h/v1"
        assert reread.results == full.results
    with zipfile.ZipFile(tmp_path / "planted.eval") as archive, zipfile.ZipFile(log) as original:
        assert archive.namelist() == original.namelist()


def test_traceback_rendering_that_splits_a_key_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = _tiny_log(tmp_path, "logs")
    full = read_eval_log(str(log))
    assert full.samples
    secret = "zz-split-secret-0123456789"
    monkeypatch.setenv("SPLIT_API_KEY", secret)
    full.samples[0].error = EvalError(
        message="boom",
        traceback=f"Error: key {secret}\n",
        traceback_ansi="Error: key zz-split-\n\x1b[1;36msecret-0123456789\x1b[0m\n",
    )
    target = tmp_path / "split.eval"
    write_eval_log(full, str(target))
    assert scrub_log(target) is True
    error = (read_eval_log(str(target)).samples or [])[0].error
    assert error is not None
    assert error.traceback == "Error: key ***\n"
    assert error.traceback_ansi == "Error: key ***\n"  # the colour rendering, rebuilt
    assert leaks(target, "zz-split-", "0123456789") == []
