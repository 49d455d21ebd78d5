"""Output directories are checked before anything is paid for.

Why: a run that finds out at the end that it cannot write its exports has already paid
for every model and judge call. Every command that writes (``--out``, ``--log-dir``,
``generate --out``) creates and test-writes its directories first, and a bad one is one
line naming the option and the path.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from privbench.runtime.errors import UsageError


def _reason(error: OSError) -> str:
    if isinstance(error, NotADirectoryError | FileExistsError):
        return "a file is in the way"
    if isinstance(error, PermissionError):
        return "permission denied"
    return error.strerror or type(error).__name__


def ensure_writable_dir(path: str | Path, option: str) -> Path:
    """Create ``path`` (and its parents) and prove a file can be written in it."""
    directory = Path(path)
    try:
        if directory.exists() and not directory.is_dir():
            raise NotADirectoryError(str(directory))
        directory.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(prefix=".privbench-write-check-", dir=directory)
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        raise UsageError(f"{option} {directory}: cannot write there ({_reason(error)})") from None
    return directory
