"""Fetch one file over HTTP(S): streamed, resumable, with a progress bar on stderr.

Why resumable: a dataset release is large and a connection that breaks near the end must
not cost the whole download again. Bytes go to ``<name>.part``; a rerun asks the server
for the rest (``Range: bytes=N-``, with ``If-Range`` when the server gave an ETag) and
appends if it answers 206, or starts over if it answers 200 (the server ignores ranges,
or the file changed). Beside the ``.part`` a small ``<name>.part.source`` remembers the
address and ETag it came from, so the bytes of one address are never continued with
those of another. Only a complete file is renamed to ``<name>``.

Every network failure — connection refused, an unknown host, a timeout, an HTTP error, a
connection that breaks — is one :class:`~privbench.runtime.errors.PrivbenchError` line
naming the address; the ``.part`` stays for the next try.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import httpx
from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from privbench.runtime.errors import PrivbenchError, UsageError

CHUNK = 1 << 16
PART_SUFFIX = ".part"
SOURCE_SUFFIX = ".part.source"
TIMEOUT_S = 30.0
"""Seconds to connect, and the longest silence while bytes arrive."""

_CONTENT_RANGE = re.compile(r"^\s*bytes\s+(\d+)-(\d+)/(\d+|\*)\s*$")

Outcome = Literal["append", "whole", "retry", "fail"]


@dataclass(frozen=True)
class Fetched:
    """A complete download: where it is, its size and how much an earlier try had kept."""

    path: Path
    size: int
    resumed_from: int
    """Bytes of an earlier try that were kept (0: downloaded from the start)."""


def part_path(target: Path) -> Path:
    """Where the bytes of ``target`` accumulate until the download is complete."""
    return target.with_name(target.name + PART_SUFFIX)


def source_path(target: Path) -> Path:
    """The note of the address (and ETag) the ``.part`` of ``target`` came from."""
    return target.with_name(target.name + SOURCE_SUFFIX)


def parse_content_range(value: str | None) -> tuple[int, int, int | None] | None:
    """``bytes 100-199/200`` → ``(100, 199, 200)``; the total is None for ``/*``."""
    found = _CONTENT_RANGE.match(value or "")
    if found is None:
        return None
    total = found.group(3)
    return int(found.group(1)), int(found.group(2)), None if total == "*" else int(total)


def range_outcome(status: int, offset: int, content_range: str | None) -> Outcome:
    """What to do with the reply to a request for the bytes from ``offset`` on.

    ``append``: a 206 that starts exactly at ``offset``. ``whole``: a 200, the whole file
    (the server ignores ranges, or ``If-Range`` found the file changed): kept bytes are
    dropped. ``retry``: a 416 (the kept bytes do not fit the file) or a 206 of another
    range: drop the kept bytes and ask again for the whole file. ``fail``: anything else.
    """
    if status == 206:
        found = parse_content_range(content_range)
        return "append" if offset > 0 and found is not None and found[0] == offset else "retry"
    if status == 200:
        return "whole"
    if status == 416:
        return "retry"
    return "fail"


def expected_size(status: int, offset: int, headers: httpx.Headers) -> int | None:
    """The complete file's size, when the reply says it."""
    if status == 206:
        found = parse_content_range(headers.get("content-range"))
        if found is not None and found[2] is not None:
            return found[2]
    length = headers.get("content-length")
    if length is None or not length.isdigit():
        return None
    return int(length) + (offset if status == 206 else 0)


def sha256_file(path: Path) -> str:
    """SHA-256 of a file, read in chunks (a release does not fit in memory comfortably)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _read_source(target: Path) -> dict[str, str]:
    try:
        data = json.loads(source_path(target).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {key: value for key, value in data.items() if isinstance(value, str)}


def _write_source(target: Path, url: str, etag: str | None) -> None:
    note = {"url": url} | ({"etag": etag} if etag else {})
    source_path(target).write_text(json.dumps(note) + "\n", encoding="utf-8")


def _kept(part: Path) -> str:
    size = part.stat().st_size if part.is_file() else 0
    return f"; {size:,} bytes kept in {part}, a rerun resumes" if size else ""


def _status_text(response: httpx.Response) -> str:
    phrase = response.reason_phrase
    return f"HTTP {response.status_code}" + (f" {phrase}" if phrase else "")


@contextmanager
def _bar(name: str, shown: bool, total: int | None, done: int) -> Iterator[Progress]:
    console = Console(stderr=True)
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not shown or not console.is_terminal,  # a log or pipe gets no bar lines
    )
    with progress:
        progress.add_task(name, total=total, completed=done)
        yield progress


def fetch(
    url: str,
    target: Path,
    *,
    restart: bool = False,
    timeout: float = TIMEOUT_S,
    progress: bool = True,
) -> Fetched:
    """Download ``url`` to ``target``, continuing a ``.part`` an earlier try left.

    ``restart`` drops the kept bytes first. Raises :class:`PrivbenchError` (one line naming
    ``url``) on any network failure or Ctrl-C (exit code 130), keeping the ``.part``.
    """
    if httpx.URL(url).scheme not in ("http", "https"):
        raise UsageError(f"{url}: not an http(s) address")
    part = part_path(target)
    source = _read_source(target)
    if restart or source.get("url") != url or not part.is_file():
        part.unlink(missing_ok=True)
        source = {}
    offset = part.stat().st_size if part.is_file() else 0
    resumed_from = offset
    try:
        with httpx.Client(timeout=timeout, follow_redirects=True) as client:
            for _ in range(2):  # a second, plain request when the kept bytes are of no use
                # identity: the bytes counted and resumed are the file's, never a re-encoding
                headers = {"Accept-Encoding": "identity"}
                if offset:
                    headers["Range"] = f"bytes={offset}-"
                if offset and source.get("etag"):
                    headers["If-Range"] = source["etag"]
                with client.stream("GET", url, headers=headers) as response:
                    outcome = range_outcome(
                        response.status_code, offset, response.headers.get("content-range")
                    )
                    if outcome == "fail":
                        raise PrivbenchError(f"{url}: {_status_text(response)}{_kept(part)}")
                    if outcome == "retry":
                        offset = resumed_from = 0
                        part.unlink(missing_ok=True)
                        continue
                    if outcome == "whole":
                        offset = resumed_from = 0
                    _write_source(target, url, response.headers.get("etag"))
                    total = expected_size(response.status_code, offset, response.headers)
                    with (
                        part.open("ab" if offset else "wb") as out,
                        _bar(target.name, progress, total, offset) as bar,
                    ):
                        for chunk in response.iter_bytes(CHUNK):
                            out.write(chunk)
                            bar.advance(bar.task_ids[0], len(chunk))
                    size = part.stat().st_size
                    if total is not None and size != total:
                        raise PrivbenchError(
                            f"{url}: the connection ended after {size:,} of {total:,} bytes"
                            f"{_kept(part)}"
                        )
                    break
            else:
                raise PrivbenchError(f"{url}: the server did not send the file from the start")
    except KeyboardInterrupt:
        raise PrivbenchError(f"{url}: interrupted{_kept(part)}", exit_code=130) from None
    except httpx.TimeoutException:
        raise PrivbenchError(
            f"{url}: timed out (nothing received for {timeout:g} s){_kept(part)}"
        ) from None
    except httpx.ConnectError as error:
        raise PrivbenchError(f"{url}: cannot connect ({error}){_kept(part)}") from None
    except httpx.HTTPError as error:  # the connection broke, a malformed reply, too many redirects
        cause = str(error) or type(error).__name__
        raise PrivbenchError(f"{url}: download failed ({cause}){_kept(part)}") from None
    part.replace(target)
    source_path(target).unlink(missing_ok=True)
    return Fetched(target, target.stat().st_size, resumed_from)
