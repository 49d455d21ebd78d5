"""``privbench download geoprivacy``: the annotations, the released responses and the photos.

Why a command: the reference ships its annotations in a repository without a licence file
and no photo at all; its own script needs four manual steps (two MediaFire zips, a clone
of another project and its downloader, a third zip) before it runs. This command does
what can be done automatically, into privbench's cache (or ``--dir DIR``), in the layout
of :mod:`~privbench.suites.geoprivacy.layout` (the reference's own ``data/`` folder)::

    1. the annotation files pinned in layout.ANNOTATIONS, each checked by SHA-256 and size
       (required: a mismatch or a failure fails the command, nothing of the file is kept);
    2. the released responses pinned in data/release.json (made by
       bench/reference/geoprivacy_release_manifest.py), into ROOT/released/<repo path>;
       a file that fails is one line and does not fail the command;
    3. the photos, source by source (:mod:`~privbench.suites.geoprivacy.sources`), each
       decoded and its SHA-256 recorded in ROOT/images.json on first download.

With ``--url BASE`` (a mirror) every file is fetched from ``BASE/<repo path>`` and every
photo from ``BASE/images/<image_id>.jpg``, checked the same way.

Why resumable: a rerun keeps every verified file and every photo with its recorded hash,
keeps the source zips (``ROOT/downloads/``) and the parquet shards already scanned, and
fetches only what is missing; ``--force`` fetches everything again (a photo's recorded
hash still stands: other bytes are refused). Ctrl-C keeps what was written, records it
and stops with exit code 130.

``ROOT/download.json`` records the commit, the address base, the time and the outcome per
source; every copy is listed in ``<cache>/datasets/geoprivacy-downloads.json`` so that
``--data geoprivacy`` finds the latest (:func:`resolve_data`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ConfigDict, ValidationError

from privbench.runtime.archive import member_problem
from privbench.runtime.cache import cache_dir
from privbench.runtime.copies import DownloadedCopies, resolve_keyword
from privbench.runtime.download import fetch, part_path, sha256_file
from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.runtime.output_dirs import ensure_writable_dir
from privbench.runtime.suite import DownloadRequest
from privbench.suites.geoprivacy import layout, sources
from privbench.suites.geoprivacy.census import (
    image_census,
    metadata_pairs,
    read_image_record,
)
from privbench.suites.geoprivacy.sources import (
    DOWNLOADS_DIR,
    Endpoints,
    ImageStore,
    ParquetScan,
    SourceLimits,
    SourceReport,
)

RELEASE_MANIFEST = Path(__file__).parent / "data" / "release.json"
"""The released responses fetched (repository path, SHA-256, size), pinned at the commit."""
LICENCE_LINE = (
    "annotations: no licence file in the repository; the dataset card says CC BY 4.0 in its "
    "text and CC BY-NC 4.0 in its front matter; images keep their owners' licences; "
    "privbench downloads them for you and never redistributes them"
)
_FAILURES_SHOWN = 5
"""Failed released files named one per line; the rest are counted."""
_ARCHIVES = {
    sources.YFCC4K: "yfcc4k.zip",
    sources.IM2GPS3K: "im2gps3ktest.zip",
    sources.GPTGEOCHAT: "human.zip",
}


class GeoprivacyDownload(BaseModel):
    """``download.json``: what was fetched, from where, when, and what came of it."""

    model_config = ConfigDict(extra="forbid")

    repository: str
    commit: str
    url: str | None
    """The ``--url`` base (a mirror); None: the reference and the photos' own sources."""
    time: str
    """When the download ended (UTC, ISO 8601)."""
    complete: bool
    """False when it was interrupted (Ctrl-C): a rerun resumes."""
    annotations: list[str]
    released: dict[str, int]
    """``files`` in the manifest, ``verified``, ``failed``."""
    sources: dict[str, dict[str, int]]
    """Per source collection: photos ``total``, ``present``, ``kept``, ``gone``,
    ``wrong_hash``, ``unreadable``, ``failed``, ``not_fetched``."""
    source_errors: dict[str, str]
    """The sources that failed as a whole, and why (one line each)."""
    images_present: int
    images_total: int


@dataclass(frozen=True)
class PinnedRelease:
    """One released file of the manifest."""

    path: str
    sha256: str
    size: int


@dataclass
class DownloadResult:
    """A download's result: its record and the lines ``privbench download`` prints."""

    root: Path
    record: GeoprivacyDownload
    lines: list[str] = field(default_factory=list)


# -- where copies are, and --data geoprivacy ----------------------------------------------


def default_root() -> Path:
    """Where the data is kept without ``--dir``: ``<cache>/datasets/geoprivacy``."""
    return cache_dir() / "datasets" / layout.KEYWORD


def read_record(root: Path) -> GeoprivacyDownload | None:
    """The ``download.json`` of ``root``; None if absent or not one privbench wrote."""
    try:
        return GeoprivacyDownload.model_validate_json((root / layout.DOWNLOAD_RECORD).read_bytes())
    except (OSError, ValidationError):
        return None


def downloaded(root: Path) -> bool:
    """Whether ``root`` holds a download: its record and every annotation file."""
    return read_record(root) is not None and all(
        (root / pinned.name).is_file() for pinned in layout.ANNOTATIONS
    )


COPIES = DownloadedCopies(layout.KEYWORD, default_root)
"""Every copy downloaded, so that ``--data geoprivacy`` finds the latest."""


def latest_download() -> Path | None:
    """The folder of the copy downloaded last that still holds its annotations, if any."""
    return COPIES.latest(downloaded)


def resolve_data(value: Path) -> tuple[Path, str | None]:
    """The folder a ``--data`` value means (``geoprivacy``: the latest download), and a
    note for stderr if a path of that name shadows it."""
    return resolve_keyword(
        value, layout.KEYWORD, latest_download(), "download",
        "no downloaded VLM-GeoPrivacyBench data (and no ./geoprivacy here); run privbench "
        "download geoprivacy first",
    )  # fmt: skip


# -- addresses ---------------------------------------------------------------------------


def _base(url: str) -> str:
    """A ``--url`` value as a base address ending in ``/``; one line if not http(s)."""
    if httpx.URL(url).scheme not in ("http", "https"):
        raise UsageError(f"--url {url}: not an http(s) address")
    return url if url.endswith("/") else url + "/"


def _file_url(base: str | None, repo_path: str) -> str:
    return (layout.RAW_BASE if base is None else base) + quote(repo_path)


# -- 1. annotations ---------------------------------------------------------------------


def _matches(path: Path, sha256: str, size: int) -> bool:
    return path.is_file() and path.stat().st_size == size and sha256_file(path) == sha256


def _fetch_verified(url: str, target: Path, sha256: str, size: int, timeout: float) -> None:
    """Fetch ``url`` through a hidden temporary file and rename it to ``target`` only if
    its SHA-256 and size are the pinned ones; one line and nothing kept otherwise."""
    temporary = target.with_name(f".{target.name}.download")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fetch(url, temporary, restart=True, timeout=timeout, progress=False, max_bytes=size)
    except PrivbenchError:
        part_path(temporary).unlink(missing_ok=True)
        raise
    except OSError as error:  # a full disk, a folder that cannot be made
        raise PrivbenchError(f"{url}: cannot write {temporary} ({error.strerror})") from None
    found, found_size = sha256_file(temporary), temporary.stat().st_size
    if found != sha256 or found_size != size:
        temporary.unlink()
        raise PrivbenchError(
            f"{url}: SHA-256 {found} ({found_size:,} bytes), pinned {sha256} ({size:,} "
            f"bytes) at commit {layout.COMMIT[:7]}; nothing was kept"
        )
    temporary.replace(target)


def fetch_annotations(root: Path, base: str | None, force: bool, limits: SourceLimits) -> str:
    """Fetch and verify every pinned annotation file; the line saying so.

    A file already there with the pinned hash is kept (unless ``force``). One that differs
    is replaced only in a copy privbench made (a ``download.json`` beside it) or with
    ``force``: elsewhere it may be someone's own file. Raises on any failure.
    """
    ours = read_record(root) is not None
    for pinned in layout.ANNOTATIONS:
        target = root / pinned.name
        if not force and _matches(target, pinned.sha256, pinned.size):
            continue
        if target.exists() and not ours and not force:
            raise UsageError(
                f"{target}: exists and is not the pinned file (SHA-256 {pinned.sha256} at "
                f"commit {layout.COMMIT[:7]}); move it away, choose another --dir, or give "
                "--force to replace it"
            )
        try:
            _fetch_verified(
                _file_url(base, pinned.repo_path),
                target,
                pinned.sha256,
                pinned.size,
                limits.timeout,
            )
        except PrivbenchError as error:
            raise PrivbenchError(f"annotations: {error}", exit_code=error.exit_code) from None
    count = len(layout.ANNOTATIONS)
    return f"annotations: {count} files verified (commit {layout.COMMIT[:7]})"


# -- 2. released responses ---------------------------------------------------------------


def read_manifest(path: Path | None = None) -> list[PinnedRelease]:
    """The released files of the manifest (default :data:`RELEASE_MANIFEST`); one line if
    it is not one."""
    path = RELEASE_MANIFEST if path is None else path
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        files = [
            PinnedRelease(str(entry["path"]), str(entry["sha256"]), int(entry["size"]))
            for entry in document["files"]
        ]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise PrivbenchError(f"{path}: not a release manifest ({error})") from None
    for pinned in files:
        if member_problem(pinned.path) is not None:
            raise PrivbenchError(f"{path}: unsafe path {pinned.path!r}")
    return files


def fetch_released(
    root: Path, base: str | None, force: bool, limits: SourceLimits
) -> tuple[list[str], dict[str, int]]:
    """Fetch and verify the released responses; the lines and counts for the record.

    A failed file (network, hash) is a line and is not kept; the others still come. Only
    Ctrl-C stops here.
    """
    manifest = read_manifest()
    folder = root / layout.RELEASED_DIR
    failures: list[str] = []
    for pinned in manifest:
        target = folder / pinned.path
        if not force and _matches(target, pinned.sha256, pinned.size):
            continue
        try:
            url = _file_url(base, pinned.path)
            _fetch_verified(url, target, pinned.sha256, pinned.size, limits.timeout)
        except PrivbenchError as error:
            if sources.interrupted(error):
                raise
            failures.append(f"released: {pinned.path}: {error}")
    verified = len(manifest) - len(failures)
    lines = [f"released responses: {verified} of {len(manifest)} files verified in {folder}"]
    lines += failures[:_FAILURES_SHOWN]
    if len(failures) > _FAILURES_SHOWN:
        lines.append(f"released: and {len(failures) - _FAILURES_SHOWN} more failed")
    counts = {"files": len(manifest), "verified": verified, "failed": len(failures)}
    return lines, counts


# -- 3. photos ---------------------------------------------------------------------------


def _by_source(metadata: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Image ids per source, the known sources first in fetching order."""
    grouped: dict[str, list[str]] = {}
    for image_id, source in metadata:
        grouped.setdefault(source, []).append(image_id)
    order = [s for s in sources.SOURCES if s in grouped]
    order += [s for s in grouped if s not in sources.SOURCES]
    return {source: grouped[source] for source in order}


@dataclass(frozen=True)
class Fetching:
    """What every source fetcher needs: the store, the addresses, where zips go."""

    store: ImageStore
    base: str | None
    endpoints: Endpoints
    downloads: Path
    force: bool
    progress: bool

    @property
    def limits(self) -> SourceLimits:
        return self.store.limits


def _from_zip(job: Fetching, report: SourceReport, wanted: dict[str, str]) -> None:
    url = {
        sources.YFCC4K: job.endpoints.yfcc4k,
        sources.IM2GPS3K: job.endpoints.im2gps3k,
        sources.GPTGEOCHAT: job.endpoints.gptgeochat,
    }[report.source]
    target = job.downloads / _ARCHIVES[report.source]
    archive = sources.fetch_zip(url, target, job.limits, job.force, job.progress)
    label = f"{url} ({archive})"
    sources.extract_photos(
        job.store, report, archive, label, wanted, sources.MATCHERS[report.source]
    )


def _from_url_list(job: Fetching, report: SourceReport, wanted: dict[str, str]) -> None:
    url = job.endpoints.yfcc26k_urls
    target = job.downloads / "yfcc25600_urls.csv"
    if job.force or not target.is_file():
        fetch(
            url,
            target,
            restart=job.force,
            timeout=job.limits.timeout,
            progress=False,
            max_bytes=job.limits.list_bytes,
        )
    jobs = sources.url_list_jobs(job.store, report, wanted, target, f"{url} ({target})")
    sources.fetch_photos(job.store, report, jobs, job.progress)


def _from_parquet(job: Fetching, report: SourceReport, wanted: dict[str, str]) -> None:
    split = sources.SPLITS[report.source]
    listing_url = job.endpoints.parquet_listing.format(split=split)
    listing = job.downloads / f"parquet-{split}-listing.json"
    fetch(
        listing_url,
        listing,
        restart=True,
        timeout=job.limits.timeout,
        progress=False,
        max_bytes=job.limits.list_bytes,
    )
    shards = sources.parse_listing(listing, listing_url)
    state = job.downloads / f"parquet-{split}.json"
    scanned = [] if job.force else sources.scanned_shards(state, listing_url)
    scan = ParquetScan(split, listing_url, shards, scanned, state)
    sources.scan_parquet(job.store, report, scan, wanted, job.downloads, job.progress)


def _from_mirror(job: Fetching, report: SourceReport, wanted: dict[str, str]) -> None:
    assert job.base is not None
    jobs = {image_id: f"{job.base}images/{quote(image_id)}.jpg" for image_id in wanted.values()}
    sources.fetch_photos(job.store, report, jobs, job.progress)


Fetcher = Callable[[Fetching, SourceReport, dict[str, str]], None]
_FETCHERS: dict[str, Fetcher] = {
    sources.YFCC4K: _from_zip,
    sources.IM2GPS3K: _from_zip,
    sources.GPTGEOCHAT: _from_zip,
    sources.YFCC26K: _from_url_list,
    sources.OPENAI_TRAIN: _from_parquet,
    sources.OPENAI_VALID: _from_parquet,
}


def fetch_source(job: Fetching, source: str, image_ids: list[str]) -> SourceReport:
    """Fetch the photos of one source that are not already there; its report.

    A failure of the whole source (a landing page without a link, a url list that does
    not parse) is the report's one-line error; only Ctrl-C is raised.
    """
    report = SourceReport(source, len(image_ids))
    wanted: dict[str, str] = {}
    for image_id in image_ids:
        if job.store.wanted(image_id, source):
            wanted[sources.numeric_id(image_id)] = image_id
        else:
            report.kept += 1
    if not wanted:
        return report
    fetcher = _from_mirror if job.base is not None else _FETCHERS.get(source)
    if fetcher is None:
        report.error = "privbench knows no way to fetch this collection"
        return report
    try:
        fetcher(job, report, wanted)
    except PrivbenchError as error:
        if sources.interrupted(error):
            raise
        report.error = str(error)
    return report


# -- the command -------------------------------------------------------------------------


def _folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _record(
    root: Path,
    base: str | None,
    complete: bool,
    released: dict[str, int],
    reports: list[SourceReport],
    present: int,
    total: int,
) -> GeoprivacyDownload:
    record = GeoprivacyDownload(
        repository=layout.REPOSITORY,
        commit=layout.COMMIT,
        url=base,
        time=datetime.now(UTC).isoformat(timespec="seconds"),
        complete=complete,
        annotations=[pinned.name for pinned in layout.ANNOTATIONS],
        released=released,
        sources={report.source: report.counts() for report in reports},
        source_errors={r.source: r.error for r in reports if r.error is not None},
        images_present=present,
        images_total=total,
    )
    partial = root / f".{layout.DOWNLOAD_RECORD}.partial"
    partial.write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")
    partial.replace(root / layout.DOWNLOAD_RECORD)
    COPIES.register(root)
    return record


def download(
    directory: Path | None = None,
    url: str | None = None,
    *,
    force: bool = False,
    endpoints: Endpoints | None = None,
    limits: SourceLimits | None = None,
    progress: bool = True,
) -> DownloadResult:
    """Download everything into ``directory`` (default :func:`default_root`).

    Raises :class:`PrivbenchError` (one line) when the annotations cannot be had, and on
    Ctrl-C (exit code 130) after recording what was written; everything else — a released
    file, a photo, a whole source — is a line of the outcome.
    """
    option = "--dir" if directory is not None else "the cache folder"
    root = default_root() if directory is None else directory
    base = None if url is None else _base(url)
    limits = SourceLimits() if limits is None else limits
    ensure_writable_dir(root, option)
    lines = [fetch_annotations(root, base, force, limits)]
    released_lines, released = fetch_released(root, base, force, limits)
    lines += released_lines
    metadata = metadata_pairs(root)
    store = ImageStore(root, read_image_record(root), limits, force)
    downloads = root / DOWNLOADS_DIR
    downloads.mkdir(exist_ok=True)
    job = Fetching(store, base, endpoints or Endpoints(), downloads, force, progress)
    reports: list[SourceReport] = []
    try:
        for source, image_ids in _by_source(metadata).items():
            reports.append(fetch_source(job, source, image_ids))
            store.save()
    except (KeyboardInterrupt, PrivbenchError) as error:
        if isinstance(error, PrivbenchError) and not sources.interrupted(error):
            raise
        store.save()
        census = image_census(root, metadata)
        _record(root, base, False, released, reports, len(census.present), len(metadata))
        raise PrivbenchError(
            f"interrupted: {len(census.present):,} of {len(metadata):,} images are in "
            f"{root / layout.IMAGES_DIR} and recorded; a rerun fetches the rest",
            exit_code=130,
        ) from None
    for report in reports:
        lines += report.lines()
    census = image_census(root, metadata)
    present = len(census.present)
    record = _record(root, base, True, released, reports, present, len(metadata))
    lines.append(f"images: {present:,} of {len(metadata):,} present in {root / layout.IMAGES_DIR}")
    kept = _folder_size(downloads)
    if kept:
        lines.append(
            f"source files kept in {downloads} ({kept / 1e6:,.0f} MB) so a rerun does not "
            "fetch them again; delete the folder to free the space"
        )
    lines += [LICENCE_LINE, f"use it with --data {layout.KEYWORD}"]
    return DownloadResult(root, record, lines)


def download_geoprivacy(request: DownloadRequest) -> list[str]:
    """``privbench download geoprivacy [--dir DIR] [--url BASE] [--force]``: the lines."""
    return download(request.directory, request.url, force=request.force).lines
