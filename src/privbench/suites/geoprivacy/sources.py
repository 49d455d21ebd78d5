"""Fetch the benchmark's photos from the collections they came from, one source at a time.

Why per source: the reference repository holds no photo (copyright); its
``data/download_images.py`` assembles them from six collections, each reached its own way.
privbench follows the same sources and matching rules, without the reference's manual
steps::

    Flickr-yfcc4k            zip on MediaFire (lugiavn/revisiting-im2gps): member stem == id
    Flickr-im2gps3k          zip on MediaFire: <id>_<…>_<…>_<…>@N00.jpg, first '_' token
    ShutterStock-GPTGeoChat  zip on MediaFire: human/{train,test,val}/images/<id>.jpg
    Flickr-yfcc26k           one Flickr address per photo, from GeoEstimation's url list
    Flickr-yfcc_openai_*     Hugging Face dalle-mini/YFCC100M_OpenAI_subset, parquet shards

(``<id>`` is the part of the metadata's image id after its first ``-``.) A MediaFire
"file" address is a web page; the direct link (``https://download<N>.mediafire.com/…``) is
read from it. The zips, the url list and the parquet progress are kept under
``ROOT/downloads/`` so a rerun does not fetch them again.

Why each photo is checked and recorded (:class:`ImageStore`): a source can send a web page
instead of a photo, a truncated file, or — years later — other bytes under the same name.
Every photo is written through a temporary file, decoded with Pillow before it is renamed
into ``ROOT/images/``, and its SHA-256 recorded on first download in ``ROOT/images.json``;
bytes that differ from a recorded hash later are refused (``wrong_hash``), never silently
accepted. A dead link is recorded ``gone`` and never fails the set.

Every HTTP transfer goes through :func:`privbench.runtime.download.fetch` (bounded,
resumable, one-line errors); its Ctrl-C error (exit code 130) is passed up untouched so the
caller can save the record and stop.
"""

from __future__ import annotations

import base64
import binascii
import csv
import html
import json
import re
import threading
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, Literal

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from privbench.images import image_problem
from privbench.runtime.archive import is_metadata, member_problem
from privbench.runtime.download import MAX_DOWNLOAD_BYTES, TIMEOUT_S, fetch, part_path
from privbench.runtime.errors import PrivbenchError
from privbench.suites.geoprivacy import layout
from privbench.suites.geoprivacy.census import (
    ImageEntry,
    ImageRecord,
    file_sha256,
    write_image_record,
)

YFCC4K = "Flickr-yfcc4k"
IM2GPS3K = "Flickr-im2gps3k"
GPTGEOCHAT = "ShutterStock-GPTGeoChat"
YFCC26K = "Flickr-yfcc26k"
OPENAI_TRAIN = "Flickr-yfcc_openai_train"
OPENAI_VALID = "Flickr-yfcc_openai_valid"
SOURCES = (YFCC4K, IM2GPS3K, GPTGEOCHAT, YFCC26K, OPENAI_TRAIN, OPENAI_VALID)
"""The ``image_source`` values of ``images_metadata.csv``, in the order they are fetched
(the zips first: three requests bring 234 photos)."""
SPLITS = {OPENAI_TRAIN: "train", OPENAI_VALID: "validation"}
"""The Hugging Face split each YFCC-OpenAI source was drawn from (reference l.332–336)."""

DOWNLOADS_DIR = "downloads"
"""``ROOT/downloads/``: the source zips, the url list and the parquet progress, kept so a
rerun does not fetch them again (delete it to free the space; the photos stay)."""


@dataclass(frozen=True)
class Endpoints:
    """Where each source is fetched from (tests point them at a loopback server)."""

    yfcc4k: str = "https://www.mediafire.com/file/3og8y3o6c9de3ye/yfcc4k.zip"
    """The reference's link (``data/download_images.py`` l.12), from lugiavn/revisiting-im2gps."""
    im2gps3k: str = "https://www.mediafire.com/file/7ht7sn78q27o9we/im2gps3ktest.zip"
    """The reference's link (l.11), asked over https (the reference writes ``http://``)."""
    gptgeochat: str = "https://www.mediafire.com/file/luwlv2p9ofgxdb5/human.zip/file"
    """The reference's link (l.18), from ethanm88/GPTGeoChat."""
    yfcc26k_urls: str = (
        "https://github.com/TIBHannover/GeoEstimation/releases/download/pytorch/yfcc25600_urls.csv"
    )
    """GeoEstimation's url list for its yfcc25600 test set: a release asset (tag
    ``pytorch``, as GeoEstimation's README fetches it), not a file of the repository, so
    no commit pins it; its rows are ``<file name>,<url>`` without a header (GeoEstimation's
    ``download_images.py`` reads it with ``header=None, names=["image_id", "url"]``)."""
    parquet_listing: str = (
        "https://huggingface.co/api/datasets/dalle-mini/YFCC100M_OpenAI_subset/parquet/"
        "default/{split}"
    )
    """The Hub's list of the parquet conversion's shard addresses for a split (JSON)."""


@dataclass(frozen=True)
class SourceLimits:
    """Bounds on what the sources may send (tests make them small)."""

    image_bytes: int = 32 << 20
    """Largest photo (32 MiB); Pillow's pixel bound (``check_image``) applies too."""
    landing_bytes: int = 2 << 20
    """Largest MediaFire landing page read for its link (2 MiB)."""
    list_bytes: int = 16 << 20
    """Largest url list or shard listing (16 MiB; yfcc25600_urls.csv is a few MB)."""
    archive_bytes: int = MAX_DOWNLOAD_BYTES
    """Largest zip (2 GiB)."""
    archive_members: int = 200_000
    """Most members of a zip read (the largest, yfcc4k, has about 4,500)."""
    shard_bytes: int = MAX_DOWNLOAD_BYTES
    """Largest parquet shard (2 GiB; the conversion's shards are about 500 MB)."""
    timeout: float = TIMEOUT_S
    workers: int = 8
    """Photos fetched at once from per-photo addresses."""


PhotoOutcome = Literal["present", "gone", "wrong_hash", "unreadable", "failed"]
"""What fetching one photo came to; ``failed`` (a timeout, a server error) is not
recorded: the photo stays missing and a rerun tries again."""
PHOTO_OUTCOMES: tuple[PhotoOutcome, ...] = ("present", "gone", "wrong_hash", "unreadable", "failed")


def numeric_id(image_id: str) -> str:
    """``yfcc-1008954785`` → ``1008954785``: the id the source collections use."""
    return image_id.split("-", 1)[1] if "-" in image_id else image_id


def interrupted(error: PrivbenchError) -> bool:
    """Whether ``error`` is :func:`fetch`'s Ctrl-C (to pass up, never to record)."""
    return error.exit_code == 130


# -- the photos on disk and their record ----------------------------------------------


class ImageStore:
    """The photos of ``ROOT/images/`` and their record ``ROOT/images.json``.

    Thread-safe: photos fetched in parallel are checked in their worker and recorded under
    a lock; :meth:`save` writes the record atomically.
    """

    def __init__(self, root: Path, record: ImageRecord, limits: SourceLimits, force: bool) -> None:
        self.root = root
        self.record = record
        self.limits = limits
        self.force = force
        self.directory = root / layout.IMAGES_DIR
        self.directory.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._unsaved = 0

    def path(self, image_id: str) -> Path:
        return layout.image_path(self.root, image_id)

    def temporary(self, image_id: str, suffix: str) -> Path:
        """A hidden file beside the photo that bytes go to before they are checked."""
        return self.directory / f".{image_id}.jpg.{suffix}"

    def wanted(self, image_id: str, source: str) -> bool:
        """Whether ``image_id`` must be fetched (False: its file is there and good).

        A file with the recorded hash is kept (resumable); a file without a record (from
        the reference's own script) is checked, hashed and recorded, and kept; a file
        with other bytes than the recorded ones is removed and fetched again.
        """
        path = self.path(image_id)
        if self.force or not path.is_file():
            return True
        entry = self.record.get(image_id)
        if entry is None or entry.sha256 is None:
            problem = image_problem(path)
            if problem is not None:
                return True
            size = path.stat().st_size
            self._put(
                image_id,
                ImageEntry(source=source, sha256=file_sha256(path), bytes=size, status="present"),
            )
            return False
        if file_sha256(path) == entry.sha256:
            if entry.status != "present":
                self._put(image_id, entry.model_copy(update={"status": "present", "detail": ""}))
            return False
        path.unlink()
        return True

    def store(self, image_id: str, source: str, candidate: Path) -> tuple[PhotoOutcome, str]:
        """Check ``candidate`` (a temporary file) and make it the photo, or record why not.

        A web page is a dead link (``gone``); a file over the size bound or one Pillow
        cannot decode is ``unreadable``; bytes whose SHA-256 differs from the recorded one
        are ``wrong_hash`` (the recorded hash is kept). Only a good photo is renamed into
        place; every other candidate is deleted, and a good photo already in place (a
        ``--force`` rerun) stays.
        """
        try:
            size = candidate.stat().st_size
            if size > self.limits.image_bytes:
                return self.mark(
                    image_id,
                    source,
                    "unreadable",
                    f"{size:,} bytes, more than the {self.limits.image_bytes:,} privbench keeps",
                )
            if _is_web_page(candidate):
                return self.mark(image_id, source, "gone", "the address answers with a web page")
            problem = image_problem(candidate)
            if problem is not None:
                return self.mark(image_id, source, "unreadable", problem)
            digest = file_sha256(candidate)
            entry = self.record.get(image_id)
            if entry is not None and entry.sha256 is not None and entry.sha256 != digest:
                return self.mark(
                    image_id,
                    source,
                    "wrong_hash",
                    f"downloaded bytes have SHA-256 {digest}, recorded {entry.sha256}",
                )
            candidate.replace(self.path(image_id))
            self._put(
                image_id, ImageEntry(source=source, sha256=digest, bytes=size, status="present")
            )
            return "present", ""
        finally:
            candidate.unlink(missing_ok=True)

    def mark(
        self, image_id: str, source: str, outcome: PhotoOutcome, detail: str
    ) -> tuple[PhotoOutcome, str]:
        """Record ``outcome`` for ``image_id``, keeping a hash recorded before; ``failed``
        (and ``present``, recorded by :meth:`store`) are not recorded here."""
        if outcome == "gone" or outcome == "wrong_hash" or outcome == "unreadable":
            entry = self.record.get(image_id)
            self._put(
                image_id,
                ImageEntry(
                    source=source,
                    sha256=None if entry is None else entry.sha256,
                    bytes=None if entry is None else entry.bytes,
                    status=outcome,
                    detail=detail,
                ),
            )
        return outcome, detail

    def _put(self, image_id: str, entry: ImageEntry) -> None:
        with self._lock:
            self.record[image_id] = entry
            self._unsaved += 1
            if self._unsaved >= 50:  # a killed process loses at most this many records
                self._save_locked()

    def save(self) -> None:
        """Write ``images.json`` now (after each source and on Ctrl-C)."""
        with self._lock:
            self._save_locked()

    def _save_locked(self) -> None:
        write_image_record(self.root, self.record)
        self._unsaved = 0


def _is_web_page(path: Path) -> bool:
    """Whether a file starts as HTML: what a dead image address often answers with 200."""
    with path.open("rb") as handle:
        head = handle.read(1024).lstrip().lower()
    return head.startswith((b"<!doctype html", b"<html", b"<head", b"<body")) or (
        head.startswith(b"<") and b"<html" in head
    )


# -- what a source came to -------------------------------------------------------------


@dataclass
class SourceReport:
    """What fetching one source came to: outcomes per photo, or why it failed as a whole."""

    source: str
    total: int
    outcomes: Counter[str] = field(default_factory=Counter)
    kept: int = 0
    """Photos already there with their recorded hash (not fetched again)."""
    error: str | None = None
    """Why the whole source failed (one line naming the address), if it did."""
    notes: list[str] = field(default_factory=list)
    """Further lines (the parquet scan's finding, a shard that failed)."""

    def add(self, outcome: PhotoOutcome) -> None:
        self.outcomes[outcome] += 1

    @property
    def present(self) -> int:
        return self.kept + self.outcomes["present"]

    def counts(self) -> dict[str, int]:
        """For ``download.json``: photos per outcome, those kept and those not fetched."""
        done = self.present + sum(self.outcomes[o] for o in PHOTO_OUTCOMES if o != "present")
        return {
            "total": self.total,
            "present": self.present,
            "kept": self.kept,
            **{o: self.outcomes[o] for o in PHOTO_OUTCOMES if o != "present"},
            "not_fetched": self.total - done,
        }

    def lines(self) -> list[str]:
        """``Flickr-yfcc4k: 130 of 134 images (2 gone, 1 wrong hash, 1 unreadable)``."""
        if self.error is not None:
            return [f"{self.source}: no images fetched: {self.error}", *self.notes]
        counts = self.counts()
        words = (
            ("gone", "gone"),
            ("wrong_hash", "wrong hash"),
            ("unreadable", "unreadable"),
            ("failed", "failed, a rerun retries them"),
            ("not_fetched", "not fetched"),
            ("kept", "already there"),
        )
        shown = [f"{counts[key]:,} {text}" for key, text in words if counts[key]]
        tail = f" ({', '.join(shown)})" if shown else ""
        return [f"{self.source}: {self.present:,} of {self.total:,} images{tail}", *self.notes]


def _failure(error: PrivbenchError) -> tuple[PhotoOutcome, str]:
    """What a failed photo download means: a dead link (gone), too large, or a retry.

    Read from :func:`fetch`'s one-line message: 404/410 and a refused connection are dead
    links (as the reference's own downloaders treat them); a file over the bound is
    unreadable; anything else (a timeout, a 5xx, a 429) may pass and is not recorded.
    """
    message = str(error)
    if re.search(r"HTTP (404|410)\b", message) or "cannot connect" in message:
        return "gone", message
    if "more than" in message and "privbench downloads" in message:
        return "unreadable", message
    return "failed", message


# -- progress on stderr ------------------------------------------------------------------


@contextmanager
def _bar(description: str, total: int, shown: bool) -> Iterator[Callable[[], None]]:
    """A bar on a terminal's stderr (none in a log or a pipe); yields "one more done"."""
    console = Console(stderr=True)
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=console,
        disable=not shown or not console.is_terminal,
    )
    with progress:
        task = progress.add_task(description, total=total)
        yield lambda: progress.advance(task)


# -- photos at their own addresses (yfcc26k, a mirror) ----------------------------------


def fetch_photo(
    store: ImageStore, image_id: str, source: str, url: str
) -> tuple[PhotoOutcome, str]:
    """Fetch one photo from ``url`` and store it; a dead link is ``gone``, never raised."""
    candidate = store.temporary(image_id, "download")
    try:
        fetch(
            url,
            candidate,
            restart=True,  # photos are small; resuming could splice two versions
            timeout=store.limits.timeout,
            progress=False,
            max_bytes=store.limits.image_bytes,
        )
    except PrivbenchError as error:
        if interrupted(error):
            raise
        part_path(candidate).unlink(missing_ok=True)
        candidate.unlink(missing_ok=True)
        outcome, detail = _failure(error)
        return store.mark(image_id, source, outcome, detail)
    try:
        return store.store(image_id, source, candidate)
    except OSError as error:  # a full disk, a folder made read-only meanwhile
        return store.mark(image_id, source, "failed", f"{url}: cannot store it ({error})")


def fetch_photos(
    store: ImageStore, report: SourceReport, jobs: dict[str, str], progress: bool
) -> None:
    """Fetch ``jobs`` (image id → address) with a few workers, recording each outcome.

    Why the pending work is cancelled on Ctrl-C: the photos fetched so far are recorded
    and kept; the caller saves the record and a rerun fetches the rest.
    """
    if not jobs:
        return
    pool = ThreadPoolExecutor(max_workers=store.limits.workers, thread_name_prefix="photo")
    futures: dict[Future[tuple[PhotoOutcome, str]], str] = {}
    try:
        with _bar(report.source, len(jobs), progress) as advance:
            for image_id, url in jobs.items():
                futures[pool.submit(fetch_photo, store, image_id, report.source, url)] = image_id
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    outcome, _ = future.result()
                    report.add(outcome)
                    advance()
    finally:  # on Ctrl-C: the photos under way are finished and recorded, the rest dropped
        pool.shutdown(wait=True, cancel_futures=True)


# -- zips on MediaFire -------------------------------------------------------------------

_MEDIAFIRE_LINK = re.compile(r"https?://download\d+\.mediafire\.com/[^\s\"'<>]+")
_SCRAMBLED = re.compile(r"data-scrambled-url\s*=\s*[\"']([A-Za-z0-9+/=]+)[\"']")
_ANCHOR = re.compile(r"<a\b[^>]*>", re.IGNORECASE)
_BUTTON = re.compile(r"\bid\s*=\s*[\"']downloadButton[\"']", re.IGNORECASE)
_HREF = re.compile(r"\bhref\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


def download_link(page: str) -> str | None:
    """The direct download address on a MediaFire landing page, or None.

    Looked for in turn: a ``https://download<N>.mediafire.com/…`` address anywhere; the
    base64 ``data-scrambled-url`` that newer pages carry instead; the ``href`` of the
    ``downloadButton`` anchor.
    """
    found = _MEDIAFIRE_LINK.search(page)
    if found is not None:
        return html.unescape(found.group(0))
    for scrambled in _SCRAMBLED.findall(page):
        try:
            decoded = base64.b64decode(scrambled, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            continue
        if decoded.startswith(("https://", "http://")):
            return decoded
    for anchor in _ANCHOR.findall(page):
        href = _HREF.search(anchor)
        if _BUTTON.search(anchor) and href is not None:
            link = html.unescape(href.group(1))
            if link.startswith(("https://", "http://")):
                return link
    return None


def _refused_for_size(error: PrivbenchError, limit: int) -> bool:
    """Whether :func:`fetch` refused a reply for passing ``limit`` (its two messages)."""
    return f"{limit:,}" in str(error) and "more than" in str(error)


def fetch_zip(url: str, archive: Path, limits: SourceLimits, force: bool, progress: bool) -> Path:
    """The source zip at ``archive``: kept from an earlier run, or fetched from ``url``.

    ``url`` is a MediaFire landing page (read, at most ``limits.landing_bytes``, for its
    direct link) or the zip itself (a small one is read whole in that first request; a
    larger one, refused by the page's bound, is then fetched as the zip).
    """
    if archive.is_file() and not force:
        return archive
    archive.unlink(missing_ok=True)
    page = archive.with_name(archive.name + ".landing")
    direct = url
    try:
        fetch(
            url,
            page,
            restart=True,
            timeout=limits.timeout,
            progress=False,
            max_bytes=limits.landing_bytes,
        )
    except PrivbenchError as error:
        if interrupted(error) or not _refused_for_size(error, limits.landing_bytes):
            raise
    else:
        with page.open("rb") as handle:
            head = handle.read(4)
        if head in _ZIP_MAGIC:
            page.replace(archive)
            return archive
        text = page.read_text(encoding="utf-8", errors="replace")
        page.unlink()
        link = download_link(text)
        if link is None:
            raise PrivbenchError(
                f"{url}: the page has no download link (the file may have been removed, or "
                "the page changed); nothing was fetched"
            )
        direct = link
    fetch(
        direct,
        archive,
        restart=force,
        timeout=limits.timeout,
        progress=progress,
        max_bytes=limits.archive_bytes,
    )
    return archive


Matcher = Callable[[str], str | None]
"""A member name of a source zip → the numeric id of the photo it holds, or None."""
_PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")
_GPTGEOCHAT = re.compile(r"(?:^|/)human/(?:train|test|val)/images/([^/]+)$")


def match_yfcc4k(name: str) -> str | None:
    """``yfcc4k/10003206806.jpg`` → ``10003206806`` (reference l.166–187: stem == id)."""
    path = PurePosixPath(name)
    return path.stem if path.suffix.lower() in _PHOTO_SUFFIXES else None


def match_im2gps3k(name: str) -> str | None:
    """``…/31700873_d7c4159106_22_25159586@N00.jpg`` → ``31700873`` (reference l.141–163:
    names of the form ``*_*_*_*@N00.jpg``, first ``_`` token)."""
    path = PurePosixPath(name)
    if not path.match("*_*_*_*@N00.jpg"):
        return None
    return path.name.split("_", 1)[0]


def match_gptgeochat(name: str) -> str | None:
    """``human/train/images/2378186027.jpg`` → ``2378186027`` (reference l.216–241)."""
    found = _GPTGEOCHAT.search(name)
    if found is None:
        return None
    path = PurePosixPath(found.group(1))
    return path.stem if path.suffix.lower() in _PHOTO_SUFFIXES else None


MATCHERS: dict[str, Matcher] = {
    YFCC4K: match_yfcc4k,
    IM2GPS3K: match_im2gps3k,
    GPTGEOCHAT: match_gptgeochat,
}


def _copy_member(source: IO[bytes], out: Path, limit: int) -> bool:
    """Copy one zip member to ``out``, at most ``limit`` bytes; False if it held more."""
    written = 0
    with out.open("wb") as handle:
        for block in iter(lambda: source.read(1 << 20), b""):
            written += len(block)
            if written > limit:
                return False
            handle.write(block)
    return True


def _zip_members(archive: Path, limits: SourceLimits, label: str) -> list[zipfile.ZipInfo]:
    """The members of ``archive``; one line if it is not a zip or has too many."""
    try:
        with zipfile.ZipFile(archive) as handle:
            members = handle.infolist()
    except (zipfile.BadZipFile, OSError) as error:
        archive.unlink(missing_ok=True)
        raise PrivbenchError(
            f"{label}: not a zip archive ({error}); deleted, a rerun fetches it again"
        ) from None
    if len(members) > limits.archive_members:
        raise PrivbenchError(
            f"{label}: {len(members):,} members, more than the {limits.archive_members:,} "
            "privbench reads from one archive; nothing was unpacked"
        )
    return members


def extract_photos(
    store: ImageStore,
    report: SourceReport,
    archive: Path,
    label: str,
    wanted: dict[str, str],
    match: Matcher,
) -> None:
    """Copy the members of ``archive`` that hold a wanted photo (numeric id → image id).

    Only matching members are read, each at most ``limits.image_bytes`` (a member that
    declares or holds more is ``unreadable``); names are never used as paths (the photo's
    own path is), and unsafe or metadata names are skipped. A wanted photo the archive
    does not hold is ``gone``.
    """
    members = _zip_members(archive, store.limits, label)
    left = dict(wanted)
    try:
        with zipfile.ZipFile(archive) as handle:
            for member in members:
                name = member.filename.replace("\\", "/")
                if member.is_dir() or is_metadata(name) or member_problem(name) is not None:
                    continue
                number = match(name)
                image_id = left.pop(number, None) if number is not None else None
                if image_id is None:
                    continue
                report.add(_extract(store, report.source, handle, member, image_id))
    except zipfile.BadZipFile as error:
        raise PrivbenchError(f"{label}: corrupt zip archive ({error})") from None
    for image_id in left.values():
        report.add(store.mark(image_id, report.source, "gone", f"not in {archive.name}")[0])


def _extract(
    store: ImageStore,
    source: str,
    handle: zipfile.ZipFile,
    member: zipfile.ZipInfo,
    image_id: str,
) -> PhotoOutcome:
    """One photo out of the zip, through a temporary file and :meth:`ImageStore.store`."""
    limit = store.limits.image_bytes
    too_large = f"{member.filename}: more than the {limit:,} bytes privbench keeps"
    if member.file_size > limit:
        return store.mark(image_id, source, "unreadable", too_large)[0]
    candidate = store.temporary(image_id, "partial")
    try:
        with handle.open(member) as data:
            complete = _copy_member(data, candidate, limit)
    except (zipfile.BadZipFile, OSError, EOFError) as error:
        candidate.unlink(missing_ok=True)
        return store.mark(image_id, source, "unreadable", f"{member.filename}: {error}")[0]
    if not complete:
        candidate.unlink(missing_ok=True)
        return store.mark(image_id, source, "unreadable", too_large)[0]
    return store.store(image_id, source, candidate)[0]


# -- GeoEstimation's url list (yfcc26k) --------------------------------------------------

_URL_COLUMNS = ("url", "image_url", "photo_url", "download_url", "flickr_url")


def _is_url(text: str) -> bool:
    return text.startswith(("https://", "http://"))


def photo_number(name: str) -> str:
    """``00/4c/2283161368.jpg`` or ``00_4c_2283161368`` → ``2283161368`` (reference
    l.190–213: the last ``_`` token of the file stem)."""
    return PurePosixPath(name.replace("\\", "/")).stem.split("_")[-1]


def parse_url_list(path: Path, label: str) -> dict[str, str]:
    """Numeric photo id → address, from ``<file name>,<url>`` rows.

    Tolerant: a header row naming a url column (``url``, ``image_url``, …) is read as one;
    rows without an address are skipped. A first row that is neither a data row nor such
    a header is one line: the file is not the list privbench expects.
    """
    with path.open(newline="", encoding="utf-8", errors="replace") as handle:
        rows = csv.reader(handle)
        first = next(rows, None)
        if first is None:
            raise PrivbenchError(f"{label}: empty; expected '<file name>,<url>' rows")
        name_at, url_at = 0, 1
        found: dict[str, str] = {}
        if len(first) >= 2 and _is_url(first[1].strip()):
            found[photo_number(first[0].strip())] = first[1].strip()
        else:
            header = [cell.strip().lower() for cell in first]
            columns = [i for i, cell in enumerate(header) if cell in _URL_COLUMNS]
            if not columns or len(header) < 2:
                raise PrivbenchError(
                    f"{label}: unexpected first row {','.join(first)[:80]!r}; expected "
                    "'<file name>,<url>' rows (GeoEstimation's yfcc25600_urls.csv)"
                )
            url_at = columns[0]
            name_at = 1 if url_at == 0 else 0
        for row in rows:
            if len(row) > max(name_at, url_at) and _is_url(row[url_at].strip()):
                found[photo_number(row[name_at].strip())] = row[url_at].strip()
    return found


def url_list_jobs(
    store: ImageStore, report: SourceReport, wanted: dict[str, str], csv_path: Path, label: str
) -> dict[str, str]:
    """Image id → address for the wanted photos; those not in the list are ``gone``."""
    addresses = parse_url_list(csv_path, label)
    jobs: dict[str, str] = {}
    for number, image_id in wanted.items():
        url = addresses.get(number)
        if url is None:
            report.add(store.mark(image_id, report.source, "gone", f"not in {csv_path.name}")[0])
        else:
            jobs[image_id] = url
    return jobs


# -- the Hugging Face parquet conversion (YFCC-OpenAI) ----------------------------------


def parse_listing(path: Path, label: str) -> list[str]:
    """The shard addresses of a parquet listing (a JSON list of http(s) URLs)."""
    try:
        listing = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise PrivbenchError(f"{label}: not JSON ({error})") from None
    if not isinstance(listing, list) or not all(
        isinstance(url, str) and _is_url(url) for url in listing
    ):
        raise PrivbenchError(f"{label}: not a list of parquet shard addresses")
    if not listing:
        raise PrivbenchError(f"{label}: lists no parquet shard")
    return list(listing)


def _photo_bytes(value: object) -> bytes | None:
    """The bytes of an ``img`` cell: raw bytes, or the Hub's ``{"bytes": …, "path": …}``."""
    if isinstance(value, dict):
        value = value.get("bytes")
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    if isinstance(value, list) and all(isinstance(b, int) for b in value):
        return bytes(value)
    return None


def scan_shard(path: Path, wanted: set[str], label: str) -> Iterator[tuple[str, bytes | None]]:
    """``(photoid, img bytes)`` of the rows whose ``photoid`` is wanted.

    Row group by row group: the ``photoid`` column first, the (large) ``img`` column only
    of a group that holds a wanted row, so memory stays about one row group's photos.
    """
    import pyarrow.parquet as pq  # type: ignore[import-untyped]  # only this source needs it

    try:
        shard = pq.ParquetFile(path)
        names = set(shard.schema_arrow.names)
        if not {"photoid", "img"} <= names:
            raise PrivbenchError(f"{label}: no photoid and img columns ({sorted(names)[:6]})")
        for group in range(shard.num_row_groups):
            ids = [
                str(v)
                for v in shard.read_row_group(group, columns=["photoid"])
                .column("photoid")
                .to_pylist()
            ]
            rows = [i for i, photo in enumerate(ids) if photo in wanted]
            if not rows:
                continue
            images = shard.read_row_group(group, columns=["img"]).column("img")
            for row in rows:
                yield ids[row], _photo_bytes(images[row].as_py())
    except PrivbenchError:
        raise
    except (OSError, ValueError) as error:  # pyarrow's ArrowInvalid is a ValueError
        raise PrivbenchError(f"{label}: not a readable parquet file ({error})") from None


def scanned_shards(path: Path, listing: str) -> list[str]:
    """The shard addresses already scanned for ``listing`` (empty for another listing)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(document, dict) or document.get("listing") != listing:
        return []
    scanned = document.get("scanned")
    return [url for url in scanned if isinstance(url, str)] if isinstance(scanned, list) else []


def _save_state(path: Path, listing: str, scanned: list[str]) -> None:
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(
        json.dumps({"listing": listing, "scanned": scanned}, indent=1) + "\n", encoding="utf-8"
    )
    partial.replace(path)


@dataclass
class ParquetScan:
    """One split's scan: the shard addresses and which were scanned (kept across runs)."""

    split: str
    listing: str
    shards: list[str]
    scanned: list[str]
    state: Path

    def done(self, url: str) -> None:
        self.scanned.append(url)
        _save_state(self.state, self.listing, self.scanned)


def scan_parquet(
    store: ImageStore,
    report: SourceReport,
    scan: ParquetScan,
    wanted: dict[str, str],
    downloads: Path,
    progress: bool,
) -> None:
    """Fetch the shards not yet scanned, one at a time, keeping the wanted photos.

    Each shard is deleted once scanned and its address recorded, so a rerun skips it
    (``--force`` scans again). A shard that cannot be fetched or read is a note and is
    not recorded as scanned; the photos not found once every shard is scanned are
    ``gone`` (not in the conversion).
    """
    left = dict(wanted)
    for index, url in enumerate(scan.shards):
        if not left:
            break
        if url in scan.scanned:
            continue
        shard = downloads / f"parquet-{scan.split}-{index:04d}.parquet"
        try:
            fetch(
                url,
                shard,
                timeout=store.limits.timeout,
                progress=progress,
                max_bytes=store.limits.shard_bytes,
            )
            for photo, data in scan_shard(shard, set(left), url):
                image_id = left.pop(photo, None)
                if image_id is None:
                    continue
                report.add(_store_bytes(store, report.source, image_id, data))
        except PrivbenchError as error:
            if interrupted(error):
                raise
            report.notes.append(f"{report.source}: shard skipped, a rerun retries it: {error}")
            continue
        shard.unlink(missing_ok=True)
        scan.done(url)
    scanned = sum(1 for url in scan.shards if url in scan.scanned)
    if scanned == len(scan.shards):
        for image_id in left.values():
            detail = f"not in the {len(scan.shards)} parquet shards of split {scan.split}"
            report.add(store.mark(image_id, report.source, "gone", detail)[0])
    partial = any("/partial-" in url for url in scan.shards)
    report.notes.append(
        f"{report.source}: {report.present:,} of {report.total:,} found after scanning "
        f"{scanned} of {len(scan.shards)} parquet shards of split {scan.split}"
        + (" (the Hub converted only the first part of this split)" if partial else "")
    )


def _store_bytes(store: ImageStore, source: str, image_id: str, data: bytes | None) -> PhotoOutcome:
    """Write a parquet cell's photo through a temporary file and store it."""
    if data is None:
        return store.mark(image_id, source, "unreadable", "the parquet row has no image bytes")[0]
    candidate = store.temporary(image_id, "partial")
    candidate.write_bytes(data)
    return store.store(image_id, source, candidate)[0]
