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

Why limits: the server decides what it sends. Nothing larger than ``max_bytes``
(:data:`MAX_DOWNLOAD_BYTES` unless the caller says less) is written: a reply that announces
more is refused before a byte is written, and a body that goes past what it announced, or
past the maximum when it announces nothing (an endless body), is cut off there. The
request asks for ``Accept-Encoding: identity``; a server that compresses anyway is read as
sent (the ``.part`` holds those bytes, so ranges still fit) and decoded at the end with a
decoder bounded by the same maximum (a "gzip bomb" stops there). A failure that a rerun
cannot repair (too large, an encoding that does not decode) deletes what it wrote; only a
broken connection keeps the ``.part``.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
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
MAX_DOWNLOAD_BYTES = 2 << 30
"""Largest file downloaded (2 GiB), before and after any decoding: the release is far
smaller; an endless or inflated body stops here."""
DECODED_SUFFIX = ".decoding"
_PIECE = 1 << 24
"""Most bytes decoded at once (16 MiB): memory stays bounded whatever the ratio."""
_DECODERS = {"gzip": 47, "x-gzip": 47, "deflate": 47}
"""``Content-Encoding`` values decoded (zlib window bits: 47 reads gzip and zlib)."""

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


def _write_source(target: Path, url: str, etag: str | None, encoding: str | None) -> None:
    note = (
        {"url": url}
        | ({"etag": etag} if etag else {})
        | ({"encoding": encoding} if encoding else {})
    )
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
    max_bytes: int = MAX_DOWNLOAD_BYTES,
) -> Fetched:
    """Download ``url`` to ``target``, continuing a ``.part`` an earlier try left.

    ``restart`` drops the kept bytes first. Raises :class:`PrivbenchError` (one line naming
    ``url``) on any network failure or Ctrl-C (exit code 130), keeping the ``.part``; and
    on a file larger than ``max_bytes`` (as sent or decoded), deleting what it wrote.
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
                    encoding = _encoding(response.headers, url)
                    if outcome == "append" and encoding != source.get("encoding"):
                        offset = resumed_from = 0  # kept bytes of another coding: start over
                        part.unlink(missing_ok=True)
                        continue
                    _write_source(target, url, response.headers.get("etag"), encoding)
                    total = expected_size(response.status_code, offset, response.headers)
                    if total is not None and total > max_bytes:
                        _discard(target)
                        raise PrivbenchError(
                            f"{url}: the server announces {total:,} bytes, more than the "
                            f"{max_bytes:,} privbench downloads; nothing was kept"
                        )
                    bar = _bar(target.name, progress, total, offset)
                    _receive(response, part, offset, total, max_bytes, bar, url)
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
    encoding = _read_source(target).get("encoding")
    if encoding:
        _decode(part, target, encoding, max_bytes, url)
    else:
        part.replace(target)
    source_path(target).unlink(missing_ok=True)
    return Fetched(target, target.stat().st_size, resumed_from)


def _encoding(headers: httpx.Headers, url: str) -> str | None:
    """The reply's content coding (None: the bytes are the file's); one line if unknown."""
    value = str(headers.get("content-encoding", "")).strip().lower()
    if value in ("", "identity"):
        return None
    if value not in _DECODERS:
        raise PrivbenchError(
            f"{url}: the server sent the file {value}-encoded although privbench asked for "
            f"it unencoded (Accept-Encoding: identity); privbench decodes only "
            f"{', '.join(sorted(set(_DECODERS)))}"
        )
    return value


def _discard(target: Path) -> None:
    """Delete everything a download of ``target`` wrote: the ``.part``, its note, a decoding."""
    for path in (part_path(target), source_path(target), _decoding_path(target)):
        path.unlink(missing_ok=True)


def _decoding_path(target: Path) -> Path:
    return target.with_name(target.name + DECODED_SUFFIX)


def _receive(
    response: httpx.Response,
    part: Path,
    offset: int,
    total: int | None,
    max_bytes: int,
    bar: AbstractContextManager[Progress],
    url: str,
) -> None:
    """Append the reply's bytes, as sent, to ``part`` (kept from ``offset`` on).

    More bytes in all than the reply announced (``total``), or than ``max_bytes`` when it
    announced nothing, is a body that does not end where it should: the ``.part`` is
    deleted (its bytes are not the file's) and the error says so.
    """
    limit = max_bytes if total is None else total
    written = offset
    with part.open("ab" if offset else "wb") as out, bar as shown:
        for chunk in response.iter_raw(CHUNK):
            written += len(chunk)
            if written > limit:
                out.close()
                _discard(part.with_name(part.name.removesuffix(PART_SUFFIX)))
                said = (
                    "the size it announced" if total is not None else "the most privbench downloads"
                )
                raise PrivbenchError(
                    f"{url}: the server sent more than {limit:,} bytes ({said}); stopped "
                    "there, nothing was kept"
                )
            out.write(chunk)
            shown.advance(shown.task_ids[0], len(chunk))


def _decode(part: Path, target: Path, encoding: str, max_bytes: int, url: str) -> None:
    """Decode the complete ``.part`` into ``target``, writing at most ``max_bytes``.

    Why bounded: a few megabytes of gzip can inflate to gigabytes. The decoder is asked
    for at most the bytes still allowed each time, so memory and disk stay bounded.
    """
    decoding = _decoding_path(target)
    written = 0
    try:
        with part.open("rb") as source, decoding.open("wb") as out:
            decoder = zlib.decompressobj(_DECODERS[encoding])
            for block in iter(lambda: source.read(CHUNK), b""):
                data = block
                while True:  # until this block is consumed and no output is pending
                    ask = min(max_bytes - written + 1, _PIECE)
                    piece = decoder.decompress(data, ask)
                    written += len(piece)
                    if written > max_bytes:
                        raise PrivbenchError(
                            f"{url}: the server's {encoding} body decodes to more than "
                            f"{max_bytes:,} bytes, the most privbench downloads; stopped "
                            "there, nothing was kept"
                        )
                    out.write(piece)
                    data = decoder.unconsumed_tail
                    if decoder.eof and decoder.unused_data:  # another gzip member follows
                        data = decoder.unused_data
                        decoder = zlib.decompressobj(_DECODERS[encoding])
                    if not data and len(piece) < ask:
                        break
            if not decoder.eof:
                raise PrivbenchError(f"{url}: the server's {encoding} body ends early")
    except zlib.error as error:
        _discard(target)
        raise PrivbenchError(
            f"{url}: the server's {encoding} body does not decode ({error}); nothing was kept"
        ) from None
    except PrivbenchError:
        _discard(target)
        raise
    decoding.replace(target)
    part.unlink()
