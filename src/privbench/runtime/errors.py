"""User-facing errors: one line naming the file and the item, and an exit code.

Why: bad input must end with a clear one-line message and a non-zero exit, never a
traceback. Library code raises :class:`PrivbenchError` (or a subclass); the CLI catches
it at the edge, prints ``error: <message>`` and exits with ``exit_code``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from privbench.runtime.redaction import redact


class PrivbenchError(Exception):
    """An error the user can act on. ``str(error)`` is the one-line message."""

    exit_code: int = 1

    def __init__(self, message: str, *, exit_code: int | None = None) -> None:
        super().__init__(redact(" ".join(message.split())))
        if exit_code is not None:
            self.exit_code = exit_code


class UsageError(PrivbenchError):
    """Wrong arguments or a missing input file (exit code 2)."""

    exit_code = 2


class JudgeUnavailableError(PrivbenchError):
    """The configured judge cannot be reached or authenticated; nothing was graded."""


@dataclass(frozen=True)
class Problem:
    """One defect found in an input file: where it is and what is wrong."""

    file: str
    item: str | None
    message: str

    def __str__(self) -> str:
        where = self.file if self.item is None else f"{self.file}: item {self.item}"
        return f"{where}: {self.message}"


class DatasetError(PrivbenchError):
    """An input file has problems; all of them are in ``problems``, the first in the message.

    Why the hint depends on ``directory``: ``privbench validate`` only takes a dataset
    folder, so only a dataset's error points to it; a predictions, grade or ratings file's
    error names the next few problems itself instead.
    """

    def __init__(self, problems: list[Problem], *, directory: Path | str | None = None) -> None:
        self.problems = problems
        super().__init__(f"{problems[0]}{_more(problems, directory)}")


_MORE_LISTED = 3


def _more(problems: list[Problem], directory: Path | str | None) -> str:
    """`` (and N more …)`` after the first problem, or nothing if it is the only one."""
    rest = problems[1:]
    if not rest:
        return ""
    if directory is not None:
        return f" (and {len(rest)} more; `privbench validate {directory}` lists them all)"
    base = _file_of(problems[0])
    listed = "; ".join(_short(problem, base) for problem in rest[:_MORE_LISTED])
    unlisted = len(rest) - _MORE_LISTED
    others = f"; and {unlisted} other{'s' if unlisted > 1 else ''}" if unlisted > 0 else ""
    return f" (and {len(rest)} more: {listed}{others})"


def _file_of(problem: Problem) -> str:
    """The file of a problem without its ``:LINE[:COL]``."""
    file = problem.file
    while True:
        head, _, tail = file.rpartition(":")
        if not head or not tail.isdigit():
            return file
        file = head


def _short(problem: Problem, base: str) -> str:
    """A further problem of the same file without repeating the file: ``line 3: item x: …``."""
    if not problem.file.startswith(base):
        return str(problem)
    place = problem.file[len(base) :].lstrip(":").split(":")[0]
    parts = [f"line {place}"] if place else []
    if problem.item is not None:
        parts.append(f"item {problem.item}")
    return ": ".join([*parts, problem.message])


def missing_ids_error(file: str, missing: list[str], what: str, limit: int = 20) -> PrivbenchError:
    """One error naming the file and listing (up to ``limit``) ids it has no entry for."""
    listed = ", ".join(missing[:limit])
    more = f" and {len(missing) - limit} more" if len(missing) > limit else ""
    return PrivbenchError(f"{file}: no {what} for {len(missing)} item(s): {listed}{more}")


def extra_ids_warning(file: str, extra: list[str], limit: int = 5) -> str:
    """One warning line: ids of ``file`` that match no item (count and the first few).

    Why a warning and not an error: a predictions file made for a larger version of a
    dataset is legitimate, but a typo'd id would otherwise vanish unseen.
    """
    listed = ", ".join(extra[:limit])
    more = f" and {len(extra) - limit} more" if len(extra) > limit else ""
    return f"warning: {file}: {len(extra)} id(s) match no item and were ignored: {listed}{more}"


_PROVIDER_ERRORS = {
    "InternalServerError": "the endpoint answers with a server error (HTTP 5xx)",
    "APIConnectionError": "cannot connect to the endpoint",
    "APITimeoutError": "the endpoint did not answer in time",
    "RateLimitError": "rate limited (HTTP 429)",
    "AuthenticationError": "authentication failed (HTTP 401)",
    "PermissionDeniedError": "permission denied (HTTP 403)",
    "NotFoundError": "model or endpoint not found (HTTP 404)",
}
_RAISED = re.compile(r"raised (\w+)")
_ATTEMPT_TIMEOUT = re.compile(r"attempt_timeout '([\d.]+)' exceeded")
_TIMEOUTS = ("AttemptTimeoutError", "StreamIdleTimeoutError", "TimeoutError")


def describe_failure(message: str, *, attempt_timeout: float | None = None) -> str:
    """A sample's logged error in words, e.g. from ``RetryError(<Future ... raised X>)``.

    Why: inspect logs a failed sample as the repr of tenacity's ``RetryError`` (a future's
    address and the exception's class) or of the bare exception, repeated for every item;
    the user needs what it means for the endpoint. ``attempt_timeout`` (seconds) is the
    run's per-attempt limit, for a timeout whose message does not carry it.
    """
    raised = _RAISED.search(message)
    kind = raised.group(1) if raised else message.split("(", 1)[0].split(":", 1)[0].strip()
    if kind in _TIMEOUTS:
        found = _ATTEMPT_TIMEOUT.search(message)
        seconds = float(found.group(1)) if found else attempt_timeout
        after = f" after {seconds:g} s per attempt" if seconds else ""
        retried = "retries exhausted; " if raised else ""
        return f"the endpoint timed out{after} ({retried}{kind})"
    if kind == "IndexError" and (raised or "list index out of range" in message):
        return "the endpoint returned no choices (empty reply; IndexError)"
    meaning = _PROVIDER_ERRORS.get(kind)
    return f"{meaning} ({kind})" if meaning else message
