"""The ``privbench`` command as the tests run it, and checks of what it prints.

:func:`privbench` runs a command line and answers as a finished process does (exit status,
stdout, stderr). In a test marked ``e2e`` it starts ``python -m privbench`` in a subprocess,
as a user does: for what needs a real process (signals, ``kill -9``, ``ps``, a fresh
interpreter's imports and environment). In any other test it runs the same command line in
this process with typer's ``CliRunner`` (:func:`run_cli`): the same answer, including an
uncaught exception's traceback on stderr, without the seconds each interpreter start and
its imports cost. :func:`command` (the argv, for ``subprocess.Popen``) refuses to serve a
test that is not marked ``e2e``, so the tests that start processes stay few and marked.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import traceback
import zipfile
from collections.abc import Iterator
from pathlib import Path

from helpers.loopback_server import LoopbackServer

END_TO_END = True
"""Whether the running test is marked ``e2e`` (conftest sets it around each test; outside
pytest every command is a real process)."""


def command(*args: str | Path) -> list[str]:
    """The ``privbench`` command line, run by this interpreter (only in ``e2e`` tests)."""
    assert END_TO_END, "a test that starts a process is marked @pytest.mark.e2e"
    return _argv(*args)


def _argv(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "privbench", *map(str, args)]


def privbench(
    *args: str | Path,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 240,
) -> subprocess.CompletedProcess[str]:
    """Run ``privbench ARGS`` and answer as a finished process: output captured, never raising.

    A subprocess in an ``e2e`` test, this process otherwise (see the module's docstring).
    ``env`` replaces the environment (default: this process's); a subprocess still going
    after ``timeout`` seconds fails the test instead of hanging it (in this process,
    pytest's own timeout does).
    """
    if not END_TO_END:
        return run_cli(*args, cwd=cwd, env=env)
    return subprocess.run(
        _argv(*args),
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env=os.environ.copy() if env is None else env,
        timeout=timeout,
    )


@contextlib.contextmanager
def _working_directory(cwd: Path | None) -> Iterator[None]:
    if cwd is None:
        yield
        return
    before = Path.cwd()
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(before)


@contextlib.contextmanager
def _environment(env: dict[str, str] | None) -> Iterator[None]:
    """``env`` replaces ``os.environ`` for the duration (None: this process's). Whatever
    the command sets is undone after it, as a finished subprocess leaves nothing behind."""
    before = dict(os.environ)
    if env is not None:
        os.environ.clear()
        os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(before)


def run_cli(
    *args: str | Path,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``privbench ARGS`` in this process and answer as a subprocess would.

    An exception the command lets through is what a user would see: its traceback on
    stderr and exit status 1, so :func:`no_traceback` still catches it.
    """
    from typer.testing import CliRunner

    from privbench.cli import app

    with _working_directory(cwd), _environment(env):
        result = CliRunner().invoke(app, [str(arg) for arg in args], prog_name="privbench")
    stderr, code = result.stderr, result.exit_code
    error = result.exception
    if error is not None and not isinstance(error, SystemExit):
        stderr += "".join(traceback.format_exception(error))
        code = 1
    return subprocess.CompletedProcess(_argv(*args), code, result.stdout, stderr)


def run_validate(directory: Path) -> subprocess.CompletedProcess[str]:
    return privbench("validate", directory)


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stdout + result.stderr


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    """The whole of stderr, which must be one ``error: `` line."""
    no_traceback(result)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def error_line(result: subprocess.CompletedProcess[str]) -> str:
    """The one ``error: `` line of stderr (progress and notes may surround it)."""
    no_traceback(result)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, result.stderr
    return errors[0]


def leaks(path: Path, *secrets: str) -> list[str]:
    """Members (or the file) of a log or export whose raw bytes hold a secret."""
    found = []
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            for name in archive.namelist():
                data = archive.read(name)
                found += [f"{name}: {s}" for s in secrets if s.encode() in data]
    else:
        data = path.read_bytes()
        found += [f"{path.name}: {s}" for s in secrets if s.encode() in data]
    return found


def all_leaks(directory: Path, *secrets: str) -> list[str]:
    return [
        leak for path in directory.rglob("*") if path.is_file() for leak in leaks(path, *secrets)
    ]


def wait_for(server: LoopbackServer, pattern: str, count: int, limit_s: float = 60) -> None:
    """Block until ``server`` has received ``count`` requests matching ``pattern``."""
    deadline = time.monotonic() + limit_s
    while server.count(pattern) < count:
        assert time.monotonic() < deadline, f"only {server.count(pattern)} requests"
        time.sleep(0.05)
