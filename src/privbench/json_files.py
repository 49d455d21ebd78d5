"""Reading JSON and JSONL input files into values plus problems, never raising on bad input.

Why: every input file privbench reads (datasets, predictions, grade files) must report
all of its problems with file, line and column in one pass, so the reading is shared.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from privbench.runtime.errors import DatasetError, Problem, UsageError

T = TypeVar("T")

ENCODING = "utf-8-sig"
"""UTF-8, with or without a leading byte-order mark: Windows tools (Notepad, PowerShell's
``Out-File``, Python's ``utf-8-sig``) write one, and it is no reason to reject a file."""


class JsonObject(dict[str, Any]):
    """A JSON object that remembers which keys appeared more than once."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        counts = Counter(key for key, _ in pairs)
        self.duplicates = [key for key, n in counts.items() if n > 1]


def read_json_object(path: Path, display: str) -> tuple[JsonObject | None, list[Problem]]:
    """Parse a JSON file whose top level must be an object; problems instead of raising."""
    try:
        text = path.read_text(encoding=ENCODING)
    except FileNotFoundError:
        return None, [Problem(display, None, "file not found")]
    except UnicodeDecodeError as error:
        return None, [Problem(display, None, f"not UTF-8 text (byte {error.start})")]
    except OSError as error:
        return None, [Problem(display, None, f"unreadable ({error.strerror})")]
    try:
        data = json.loads(text, object_pairs_hook=JsonObject)
    except json.JSONDecodeError as error:
        where = f"{display}:{error.lineno}:{error.colno}"
        return None, [Problem(where, None, f"invalid JSON: {error.msg}")]
    if not isinstance(data, JsonObject):
        return None, [Problem(display, None, "top level must be a JSON object of items")]
    return data, []


def read_jsonl(path: Path, display: str) -> tuple[list[tuple[int, Any]], list[Problem]]:
    """``(line number, value)`` for every non-empty line, and a problem per unreadable line."""
    try:
        lines = path.read_text(encoding=ENCODING).splitlines()
    except FileNotFoundError:
        return [], [Problem(display, None, "file not found")]
    except UnicodeDecodeError as error:
        return [], [Problem(display, None, f"not UTF-8 text (byte {error.start})")]
    except OSError as error:
        return [], [Problem(display, None, f"unreadable ({error.strerror})")]
    values: list[tuple[int, Any]] = []
    problems: list[Problem] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            values.append((number, json.loads(line)))
        except json.JSONDecodeError as error:
            where = f"{display}:{number}:{error.colno}"
            problems.append(Problem(where, None, f"invalid JSON: {error.msg}"))
    return values, problems


_LOADED: dict[tuple[Any, ...], list[Any]] = {}
_LOADED_MAX = 8


def _signature(path: Path) -> tuple[tuple[str, int, int], ...]:
    """Name, size and modification time of every file under ``path``: any edit changes it."""
    files = sorted(p for p in path.rglob("*") if p.is_file())
    return tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in files)


def load_valid(
    directory: str | Path, validate: Callable[[Path], tuple[list[T], list[Problem]]]
) -> list[T]:
    """Items of a benchmark directory; :class:`DatasetError` listing its problems if any.

    A run loads its directory in several places (the API checks it before calling a model;
    the task, its solver and its scorer each load it, since inspect can build them on their
    own). Validation decodes every image, so a valid directory is validated once per
    process and reused while no file under it changes (the items are immutable).
    """
    path = Path(directory)
    if not path.is_dir():
        raise UsageError(f"{path}: not a directory")
    key = (validate.__module__, validate.__qualname__, path.resolve(), _signature(path))
    if key in _LOADED:
        return list(_LOADED[key])
    items, problems = validate(path)
    if problems:
        raise DatasetError(problems)
    if len(_LOADED) >= _LOADED_MAX:
        _LOADED.pop(next(iter(_LOADED)))
    _LOADED[key] = list(items)
    return items
