"""User-facing errors: one line naming the file and the item, and an exit code.

Why: bad input must end with a clear one-line message and a non-zero exit, never a
traceback. Library code raises :class:`PrivbenchError` (or a subclass); the CLI catches
it at the edge, prints ``error: <message>`` and exits with ``exit_code``.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    """A dataset has problems; all of them are in ``problems``, the first in the message."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        more = (
            f" (and {len(problems) - 1} more; run `privbench validate`)"
            if len(problems) > 1
            else ""
        )
        super().__init__(f"{problems[0]}{more}")


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
