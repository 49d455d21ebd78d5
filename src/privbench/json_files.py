"""Reading JSON and JSONL input files into values plus problems, never raising on bad input.

Why: every input file privbench reads (datasets, predictions, grade files) must report
all of its problems with file, line and column in one pass, so the reading is shared.
Besides invalid JSON, three things Python's ``json`` accepts or fails on are problems
here, named by line and item, because they otherwise surface later as a traceback:

* nesting deeper than Python's parser recurses (``RecursionError``), and in JSONL lines
  deeper than :data:`MAX_DEPTH` (later steps recurse too);
* an integer longer than Python converts (``sys.get_int_max_str_digits()``, 4,300
  digits): ``json`` raises a bare ``ValueError``;
* a lone surrogate (``"\\ud800"``): ``json`` accepts it, and writing the text as UTF-8
  (a log, an export, a hash) fails much later.

Keys given twice in one object are recorded (:class:`JsonObject` for JSON files, a
problem per key for JSONL lines): JSON silently keeps the last one.

What is read is typed :data:`JsonValue` (pydantic's recursive JSON type), imported from here
by every module that handles JSON whose shape is not fixed.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar, cast

from pydantic import JsonValue as JsonValue  # re-exported: the one type of arbitrary JSON

from privbench.runtime.errors import DatasetError, Problem, UsageError
from privbench.runtime.gc_tuning import bulk_reading

T = TypeVar("T")

ENCODING = "utf-8-sig"
"""UTF-8, with or without a leading byte-order mark: Windows tools (Notepad, PowerShell's
``Out-File``, Python's ``utf-8-sig``) write one, and it is no reason to reject a file."""

MAX_FILE_BYTES = 1 << 30
"""Largest input file read (1 GiB): a dataset of 100,000 SpatialTrust records is about a
fifth of it; a larger file (or a device such as ``/dev/zero``) is refused in one line."""

MAX_LINE_BYTES = 16 << 20
"""Longest JSONL line read (16 MiB): one record, with a long model answer, is a few
kilobytes; a longer line is a broken or hostile writer."""

_BLOCK = 1 << 20

MAX_DEPTH = 64
"""Deepest nesting a JSONL line may have. Datasets and predictions need fewer than ten
levels; a deeper line is a broken writer, and scoring steps that recurse would fail on it."""

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


class JsonObject(dict[str, Any]):
    """A JSON object that remembers which keys appeared more than once.

    Its values stay ``Any`` until ``priviq/predictions.py`` narrows them (they are
    :data:`JsonValue`).
    """

    def __init__(self, pairs: list[tuple[str, JsonValue]]) -> None:
        super().__init__(pairs)
        self.duplicates: list[str] = []
        if len(self) != len(pairs):
            counts = Counter(key for key, _ in pairs)
            self.duplicates = [key for key, n in counts.items() if n > 1]


class _Unparsable(Exception):
    """Why a JSON text cannot be read, with the position (1-based) when it is known."""

    def __init__(self, message: str, line: int | None, column: int | None, item: str | None):
        super().__init__(message)
        self.message, self.line, self.column, self.item = message, line, column, item


def printable(text: str) -> str:
    """``text`` safe to print as UTF-8: a lone surrogate becomes its ``\\udXXX`` escape."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


_KEY_END = re.compile(r"\s*:")


def _nesting(text: str) -> tuple[int, int, str | None]:
    """Deepest bracket nesting of a JSON text (strings skipped), where it is first reached,
    and the last top-level key before that point (the item, in a JSON object of items)."""
    depth = deepest = where = 0
    key = deepest_key = None
    for token in _TOKENS.finditer(text):
        kind = token.group()[0]
        if kind in "[{":
            depth += 1
            if depth > deepest:
                deepest, where, deepest_key = depth, token.start(), key
        elif kind in "]}":
            depth -= 1
        elif depth == 1 and _KEY_END.match(text, token.end()):
            key = token.group()
    if deepest_key is not None:
        try:
            deepest_key = printable(json.loads(deepest_key))
        except ValueError:
            deepest_key = None
    return deepest, where, deepest_key


def _too_deep(text: str, line_offset: int, keyed: bool, limit: str) -> _Unparsable:
    deepest, where, key = _nesting(text)
    line, column = _position(text, where)
    message = f"nested {deepest:,} levels deep; {limit}"
    return _Unparsable(message, line + line_offset, column, key if keyed else None)


def _record_id(value: object) -> str | None:
    item = value.get("id") if isinstance(value, dict) else None
    return printable(item) if isinstance(item, str) else None


class _TooLong:
    """What an integer past the digit limit is read as, only to find the item it is in."""


_TOO_LONG = _TooLong()


def _walk(value: object) -> Iterator[tuple[str, object]]:
    """Every value and key inside ``value`` with its path (``q4.factors[0].box``).

    Iterative, so that a value nested as deep as the parser allows is walked too. A key
    is yielded with its object's path and ``(a key)``.
    """
    stack: list[tuple[str, object]] = [("", value)]
    while stack:
        path, node = stack.pop()
        yield path, node
        if isinstance(node, dict):
            for key, inner in reversed(node.items()):
                yield f"{path or 'its value'} (a key)", key
                name = printable(key)
                stack.append((f"{path}.{name}" if path else name, inner))
        elif isinstance(node, list):
            stack.extend(
                (f"{path}[{index}]", inner) for index, inner in reversed(list(enumerate(node)))
            )


def _too_long_number(text: str, line_offset: int, keyed: bool) -> _Unparsable:
    """The integer past Python's digit limit: where it is, how long, and its item."""
    limit = sys.get_int_max_str_digits()
    found = re.search(rf"-?\d{{{limit + 1},}}", text)
    digits = f"{len(found.group().lstrip('-')):,} digits" if found else "too many digits"
    line, column = _position(text, found.start()) if found else (None, None)

    def lenient(number: str) -> int | _TooLong:
        return _TOO_LONG if len(number.lstrip("-")) > limit else int(number)

    item = None
    try:  # parse again with the long integers as markers, only to name the item
        value = json.loads(text, parse_int=lenient)
    except (ValueError, RecursionError):
        value = None
    if isinstance(value, dict):
        item = None if keyed else _record_id(value)
        if keyed:  # a JSON object of items: the key holding the number
            item = next(
                (
                    printable(key)
                    for key, inner in value.items()
                    if any(node is _TOO_LONG for _, node in _walk(inner))
                ),
                None,
            )
    return _Unparsable(
        f"a number with {digits}; at most {limit:,} digits can be read",
        None if line is None else line + line_offset,
        column,
        item,
    )


def _loads(
    text: str,
    hook: Callable[[list[tuple[str, JsonValue]]], JsonValue],
    line_offset: int,
    keyed: bool,
) -> JsonValue:
    """``json.loads`` with every failure raised as :class:`_Unparsable`.

    ``line_offset`` is added to line numbers (a JSONL line's number less one); ``keyed``
    says the top-level keys are item ids, so a problem can name its item.
    """
    try:
        value: JsonValue = json.loads(text, object_pairs_hook=hook)
        return value
    except json.JSONDecodeError as error:
        message = f"invalid JSON: {error.msg}"
        raise _Unparsable(message, error.lineno + line_offset, error.colno, None) from None
    except RecursionError:
        limit = f"Python's JSON parser reads about {sys.getrecursionlimit():,}"
        raise _too_deep(text, line_offset, keyed, limit) from None
    except ValueError:  # an integer past sys.get_int_max_str_digits()
        raise _too_long_number(text, line_offset, keyed) from None


def _surrogates(value: object) -> Iterator[str]:
    """Each lone surrogate in ``value``'s strings and keys, in words with where it is."""
    for path, node in _walk(value):
        if isinstance(node, str):
            try:
                node.encode("utf-8")
            except UnicodeEncodeError as error:
                code = ord(node[error.start])
                where = path or "its value"
                yield f"lone surrogate \\u{code:04x} in {where} at character {error.start + 1}"


def _surrogate_message(found: str) -> str:
    return f"{found}: half of a UTF-16 pair, not valid Unicode; replace it (e.g. with U+FFFD)"


def _too_large(limit: int) -> str:
    return f"larger than {limit:,} bytes, the most privbench reads from one file"


def _read_text(
    path: Path, display: str, max_bytes: int | None = None
) -> tuple[str | None, list[Problem]]:
    """The whole text of a JSON file, or the one problem that stops it being read.

    Read in blocks up to ``max_bytes`` (default :data:`MAX_FILE_BYTES`): a device such as
    ``/dev/zero`` or an endless pipe is refused, not read until memory runs out.
    """
    limit = MAX_FILE_BYTES if max_bytes is None else max_bytes
    blocks: list[bytes] = []
    size = 0
    try:
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(_BLOCK), b""):
                size += len(block)
                if size > limit:
                    return None, [Problem(display, None, _too_large(limit))]
                blocks.append(block)
    except FileNotFoundError:
        return None, [Problem(display, None, "file not found")]
    except OSError as error:
        return None, [Problem(display, None, f"unreadable ({error.strerror})")]
    try:
        return b"".join(blocks).decode(ENCODING), []
    except UnicodeDecodeError as error:
        return None, [Problem(display, None, f"not UTF-8 text (byte {error.start})")]


def jsonl_lines(
    path: Path,
    display: str,
    problems: list[Problem],
    *,
    max_bytes: int | None = None,
    max_line_bytes: int | None = None,
) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of every line of a JSONL file: the one way JSONL is split.

    Lines end at ``\n`` only (a ``\r`` before it is JSON whitespace). Why not
    ``str.splitlines``: it also splits at U+2028, U+2029, U+0085 and other characters
    that JSON strings may hold unescaped (``json.dumps(..., ensure_ascii=False)`` writes
    them so), which cut a valid line in two. The file is read in blocks: a line longer
    than ``max_line_bytes`` (default :data:`MAX_LINE_BYTES`) or a file longer than
    ``max_bytes`` (:data:`MAX_FILE_BYTES`) is one problem (file and line) and the rest is
    not read, so ``/dev/zero`` is refused after a few megabytes. A line that is not UTF-8
    is a problem too, and ends the reading.
    """
    file_limit = MAX_FILE_BYTES if max_bytes is None else max_bytes
    line_limit = MAX_LINE_BYTES if max_line_bytes is None else max_line_bytes
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        problems.append(Problem(display, None, "file not found"))
        return
    except OSError as error:
        problems.append(Problem(display, None, f"unreadable ({error.strerror})"))
        return
    with handle:
        number, start, pending = 0, 0, b""
        while True:
            try:
                block = handle.read(_BLOCK)
            except OSError as error:
                problems.append(Problem(display, None, f"unreadable ({error.strerror})"))
                return
            if start + len(pending) + len(block) > file_limit:
                problems.append(Problem(display, None, _too_large(file_limit)))
                return
            if block:
                pieces = (pending + block).split(b"\n")
                pending = pieces.pop()
            else:  # the end: a last line without its newline
                pieces = [pending] if pending else []
            if len(pending) > line_limit:
                where = f"{display}:{number + len(pieces) + 1}"
                message = f"a line longer than {line_limit:,} bytes; the rest is not read"
                problems.append(Problem(where, None, message))
                return
            for raw in pieces:
                number += 1
                if len(raw) > line_limit:
                    message = f"a line longer than {line_limit:,} bytes; the rest is not read"
                    problems.append(Problem(f"{display}:{number}", None, message))
                    return
                try:
                    line = raw.decode(ENCODING if number == 1 else "utf-8")
                except UnicodeDecodeError as error:
                    message = f"not UTF-8 text (byte {start + error.start})"
                    problems.append(Problem(f"{display}:{number}", None, message))
                    return
                start += len(raw) + 1
                yield number, line
            if not block:
                return


def read_json_object(path: Path, display: str) -> tuple[JsonObject | None, list[Problem]]:
    """Parse a JSON file whose top level must be an object; problems instead of raising.

    An item holding a lone surrogate is reported and left out of the object.
    """
    text, problems = _read_text(path, display)
    if text is None:
        return None, problems
    try:
        with bulk_reading():
            data = _loads(text, JsonObject, 0, keyed=True)
    except _Unparsable as error:
        where = display if error.line is None else f"{display}:{error.line}:{error.column}"
        return None, [Problem(where, error.item, error.message)]
    if not isinstance(data, JsonObject):
        return None, [Problem(display, None, "top level must be a JSON object of items")]
    if _SURROGATE_ESCAPE.search(text):
        for key in list(data):
            if printable(key) != key:
                problems.append(
                    Problem(display, printable(key), _surrogate_message("lone surrogate in its id"))
                )
                del data[key]
                continue
            found = next(_surrogates(data[key]), None)
            if found is not None:
                problems.append(Problem(display, key, _surrogate_message(found)))
                del data[key]
    return data, problems


def read_json_value(
    path: Path, display: str, max_bytes: int | None = None
) -> tuple[JsonValue | None, list[Problem]]:
    """Parse a JSON file of any top-level shape (a list of records, say); problems instead
    of raising. Bounded like every read here: at most ``max_bytes`` (default
    :data:`MAX_FILE_BYTES`) and :data:`MAX_DEPTH`-deep nesting is read."""
    text, problems = _read_text(path, display, max_bytes)
    if text is None:
        return None, problems
    try:
        with bulk_reading():
            return _loads(text, JsonObject, 0, keyed=False), []
    except _Unparsable as error:
        where = display if error.line is None else f"{display}:{error.line}:{error.column}"
        return None, [Problem(where, error.item, error.message)]


class _DuplicateKeys:
    """``object_pairs_hook`` that builds plain dicts and notes keys given twice.

    Each note is the key and the ``qid`` of the object it is in (if any), so that a
    SpatialTrust problem can name the question.
    """

    def __init__(self) -> None:
        self.found: list[tuple[str, str | None]] = []

    def __call__(self, pairs: list[tuple[str, JsonValue]]) -> dict[str, JsonValue]:
        value = dict(pairs)
        if len(value) != len(pairs):
            qid = value.get("qid")
            where = qid if isinstance(qid, str) else None
            counts = Counter(key for key, _ in pairs)
            self.found.extend((key, where) for key, n in counts.items() if n > 1)
        return value


def read_jsonl(path: Path, display: str) -> tuple[list[tuple[int, JsonValue]], list[Problem]]:
    """``(line number, value)`` for every non-empty line, and a problem per unreadable line.

    A line nested too deeply or holding a lone surrogate is a problem and left out; keys
    given twice in one object are a problem too, and the line is kept (checked further).
    """
    problems: list[Problem] = []
    with bulk_reading():
        values = list(iter_jsonl(path, display, problems))
    return values, problems


def iter_jsonl(
    path: Path, display: str, problems: list[Problem]
) -> Iterator[tuple[int, JsonValue]]:
    """:func:`read_jsonl` one line at a time, adding each problem to ``problems`` as found.

    Why: a caller that checks each line and keeps only what it builds from it (a dataset
    loader) then never holds every parsed line at once — for 100,000 lines that halves
    the memory and the work of the next cycle collection.
    """
    duplicates = _DuplicateKeys()
    for number, line in jsonl_lines(path, display, problems):
        if not line.strip():
            continue
        duplicates.found.clear()
        try:
            value = _loads(line, duplicates, number - 1, keyed=False)
            # only a line with more opening brackets than MAX_DEPTH can nest deeper: ordinary
            # lines cost two str.count calls, not a scan
            brackets = line.count("[") + line.count("{")
            if brackets > MAX_DEPTH and _nesting(line)[0] > MAX_DEPTH:
                limit = f"privbench reads at most {MAX_DEPTH} levels"
                raise _too_deep(line, number - 1, False, limit)
        except _Unparsable as error:
            column = "" if error.column is None else f":{error.column}"
            problems.append(Problem(f"{display}:{number}{column}", error.item, error.message))
            continue
        item = _record_id(value)
        for key, qid in duplicates.found:
            where = item if qid is None or item is None else f"{item} {qid}"
            message = f"key '{printable(key)}' given twice in one object (JSON keeps the last)"
            problems.append(Problem(f"{display}:{number}", where, message))
        if _SURROGATE_ESCAPE.search(line):
            surrogate = next(_surrogates(value), None)
            if surrogate is not None:
                problems.append(Problem(f"{display}:{number}", item, _surrogate_message(surrogate)))
                continue
        yield number, value


_Signature = tuple[tuple[str, int, int], ...]

_LOADED: dict[tuple[str, str, Path, _Signature], list[object]] = {}
_LOADED_MAX = 8


def _signature(path: Path) -> _Signature:
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
        # the key names ``validate``, so the cached items are the ``T`` it returned
        return cast("list[T]", list(_LOADED[key]))
    items, problems = validate(path)
    if problems:
        raise DatasetError(problems, directory=path)
    if len(_LOADED) >= _LOADED_MAX:
        _LOADED.pop(next(iter(_LOADED)))
    _LOADED[key] = list(items)
    return items


def dump_json(data: object, path: Path) -> None:
    """``data`` as indented UTF-8 JSON with a final newline: one fixed layout, so the same
    data always gives the same bytes (generated suites, rating sheets)."""
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
