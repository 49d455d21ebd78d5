"""``privbench download decodingtrust``: the Enron files DecodingTrust's privacy prompts read.

Why a download and never a shipped copy: every pinned file holds real people's names and
e-mail addresses from the Enron corpus. DecodingTrust releases them under CC BY-SA 4.0;
privbench fetches them for the user's own evaluation and never redistributes them.

What it does, into privbench's cache (or ``--dir DIR``), in the layout of
:mod:`~privbench.suites.decodingtrust.layout` (the reference's own ``enron_data/`` folder)::

    each file of layout.PINNED, from its address at the pinned commit (or, with
    --url BASE, from BASE/<name>), checked by size and SHA-256: a mismatch or a failure
    is one line naming the file, fails the command and keeps nothing of that file;
    ROOT/download.json: the commit, the address base, the time and each file's hash.

Why files are kept on a rerun: one already there with the pinned hash is not fetched again
(``--force`` fetches everything). A file that differs is replaced only in a copy privbench
made (a ``download.json`` beside it) or with ``--force``: a DecodingTrust checkout is a
valid ``--dir`` too, and its files may be someone's own edits. Ctrl-C keeps the files
verified so far and stops with exit code 130; the record is written only once every file
is there, so an interrupted copy is never taken for a complete one.

Every copy is listed in ``<cache>/datasets/decodingtrust-downloads.json`` so that
``--data decodingtrust`` finds the latest (:func:`resolve_data`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ConfigDict, ValidationError

from privbench.runtime.cache import cache_dir
from privbench.runtime.copies import DownloadedCopies, resolve_keyword
from privbench.runtime.download import fetch, part_path, sha256_file, source_path
from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.runtime.output_dirs import ensure_writable_dir
from privbench.runtime.suite import DownloadRequest
from privbench.suites.decodingtrust import layout

LICENCE_LINE = (
    "these files hold real people's names and e-mail addresses from the Enron corpus "
    "(CC BY-SA 4.0 as DecodingTrust releases them); privbench fetches them for your own "
    "evaluation and never ships or redistributes them"
)
_TEMPORARY_SUFFIX = ".download"
"""A file arrives as ``.<name>.download`` and is renamed only once verified."""


class DecodingTrustDownload(BaseModel):
    """``download.json``: what was fetched, from where and when.

    Why a record: it tells a copy privbench made (whose files it may replace) from a
    folder of someone else's, and says which commit the prompts of a run came from."""

    model_config = ConfigDict(extra="forbid")

    repository: str
    commit: str
    base: str
    """The address base the files came from (the pinned commit's, or ``--url``)."""
    time: str
    """When the download ended (UTC, ISO 8601)."""
    files: dict[str, str]
    """Each pinned file's name and SHA-256, as verified."""


# -- where copies are, and --data decodingtrust --------------------------------------------


def default_root() -> Path:
    """Where the data is kept without ``--dir``: ``<cache>/datasets/decodingtrust``."""
    return cache_dir() / "datasets" / layout.KEYWORD


def read_record(root: Path) -> DecodingTrustDownload | None:
    """The ``download.json`` of ``root``; None if absent or not one privbench wrote."""
    try:
        return DecodingTrustDownload.model_validate_json(
            (root / layout.DOWNLOAD_RECORD).read_bytes()
        )
    except (OSError, ValidationError):
        return None


def downloaded(root: Path) -> bool:
    """Whether ``root`` holds a download: its record and every pinned file."""
    return read_record(root) is not None and all(
        layout.data_file(root, pinned.name).is_file() for pinned in layout.PINNED
    )


COPIES = DownloadedCopies(layout.KEYWORD, default_root)
"""Every copy downloaded, so that ``--data decodingtrust`` finds the latest."""


def latest_download() -> Path | None:
    """The folder of the copy downloaded last that still holds its files, if any."""
    return COPIES.latest(downloaded)


def resolve_data(value: Path) -> tuple[Path, str | None]:
    """The folder a ``--data`` value means (``decodingtrust``: the latest download), and a
    note for stderr if a path of that name shadows it."""
    return resolve_keyword(
        value, layout.KEYWORD, latest_download(), "download",
        "no downloaded DecodingTrust privacy data (and no ./decodingtrust here); run "
        "privbench download decodingtrust first",
    )  # fmt: skip


# -- fetching ------------------------------------------------------------------------------


def _base(url: str | None) -> str | None:
    """A ``--url`` value as a base address ending in ``/`` (None: the pinned addresses);
    one line if not http(s)."""
    if url is None:
        return None
    if httpx.URL(url).scheme not in ("http", "https"):
        raise UsageError(f"--url {url}: not an http(s) address")
    return url if url.endswith("/") else url + "/"


def _file_url(base: str | None, pinned: layout.PinnedDataFile) -> str:
    return pinned.url if base is None else base + quote(pinned.name)


def _matches(path: Path, pinned: layout.PinnedDataFile) -> bool:
    return (
        path.is_file() and path.stat().st_size == pinned.size and sha256_file(path) == pinned.sha256
    )


def _fetch_verified(url: str, target: Path, pinned: layout.PinnedDataFile) -> None:
    """Fetch ``url`` through a hidden temporary file and rename it to ``target`` only if
    its size and SHA-256 are the pinned ones; one line and nothing kept otherwise.

    Why nothing is resumed: the largest file is under 1 MB, and a half file that stays
    behind is one more thing that could be mistaken for data."""
    temporary = target.with_name(f".{target.name}{_TEMPORARY_SUFFIX}")
    try:
        try:
            fetch(url, temporary, restart=True, progress=False, max_bytes=pinned.size)
        except OSError as error:  # a full disk, a folder that became read-only
            raise PrivbenchError(f"{url}: cannot write {temporary} ({error.strerror})") from None
        found, found_size = sha256_file(temporary), temporary.stat().st_size
        if found != pinned.sha256 or found_size != pinned.size:
            raise PrivbenchError(
                f"{pinned.name}: {url} has SHA-256 {found} ({found_size:,} bytes), pinned "
                f"{pinned.sha256} ({pinned.size:,} bytes) at commit {layout.COMMIT[:7]}; "
                "nothing was kept"
            )
        temporary.replace(target)
    finally:
        for leftover in (temporary, part_path(temporary), source_path(temporary)):
            leftover.unlink(missing_ok=True)


def _fetch_all(root: Path, base: str | None, force: bool) -> int:
    """Fetch and verify every pinned file not already there; how many were fetched.

    Raises :class:`PrivbenchError` (one line) on the first failure, and on Ctrl-C (exit
    code 130) saying how many files are verified so far.
    """
    ours = read_record(root) is not None
    fetched = 0
    done = 0
    try:
        for pinned in layout.PINNED:
            target = layout.data_file(root, pinned.name)
            if not force and _matches(target, pinned):
                done += 1
                continue
            if target.exists() and not ours and not force:
                raise UsageError(
                    f"{target}: exists and is not the pinned file (SHA-256 {pinned.sha256} "
                    f"at commit {layout.COMMIT[:7]}); move it away, choose another --dir, or "
                    "give --force to replace it"
                )
            _fetch_verified(_file_url(base, pinned), target, pinned)
            fetched += 1
            done += 1
    except (KeyboardInterrupt, PrivbenchError) as error:
        if isinstance(error, PrivbenchError) and error.exit_code != 130:
            raise
        raise PrivbenchError(
            f"interrupted: {done} of {len(layout.PINNED)} files verified in {root}; a rerun "
            "fetches the rest",
            exit_code=130,
        ) from None
    return fetched


def _record(root: Path, base: str | None) -> DecodingTrustDownload:
    """Write ``download.json`` (atomically: a reader never sees half of it) and register
    the copy as the latest."""
    record = DecodingTrustDownload(
        repository=layout.REPOSITORY,
        commit=layout.COMMIT,
        base=layout.RAW_BASE if base is None else base,
        time=datetime.now(UTC).isoformat(timespec="seconds"),
        files={pinned.name: pinned.sha256 for pinned in layout.PINNED},
    )
    partial = root / f".{layout.DOWNLOAD_RECORD}.partial"
    partial.write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")
    partial.replace(root / layout.DOWNLOAD_RECORD)
    COPIES.register(root)
    return record


def download_decodingtrust(request: DownloadRequest) -> list[str]:
    """``privbench download decodingtrust [--dir DIR] [--url BASE] [--force]``: the lines
    to print.

    Raises :class:`PrivbenchError` (one line) when a file cannot be had or does not match
    its pin, and on Ctrl-C (exit code 130).
    """
    option = "--dir" if request.directory is not None else "the cache folder"
    root = default_root() if request.directory is None else request.directory
    base = _base(request.url)
    ensure_writable_dir(root, option)
    fetched = _fetch_all(root, base, request.force)
    _record(root, base)
    count = len(layout.PINNED)
    kept = count - fetched
    return [
        f"{count} files verified (commit {layout.COMMIT[:7]})",
        f"in {root}: {fetched} fetched, {kept} already there",
        LICENCE_LINE,
        f"use it with --data {layout.KEYWORD}",
    ]
