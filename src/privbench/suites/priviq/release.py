"""The public Priv-IQ release: download it once, find it again with ``--data priviq``.

Why a command: the release is a zip linked from the reference repository's README; a user
should not have to download, unzip, find the dataset folder and check it by hand before the
first run. ``privbench download priviq`` fetches it (resumable), records the zip's SHA-256,
unpacks it safely, validates it as ``privbench validate`` does and keeps it in privbench's
cache (or ``--dir DIR``)::

    ROOT/download.json   url, sha256 of the zip, dataset_hash, files, items
    ROOT/priv-iq/        priv-IQ.json + images/ (the folder that held priv-IQ.json in the zip)

``download.json`` lies beside the dataset, not in it: the dataset hash covers every file of
the dataset folder. ``ROOT`` is ``<cache>/datasets/priviq`` unless ``--dir`` says otherwise;
every copy made is listed in ``<cache>/datasets/priviq-downloads.json`` so that
``--data priviq`` finds the latest one and :func:`recorded_release_hashes` knows them all.

Why "the release" is said only of a pinned content hash: a mirror (``--url``) may serve
a zip with one answer changed, and the paper's tables beside a run on it would compare
different data. A copy is the public release only when its dataset hash equals
:data:`RELEASE_DATASET_HASH`; anything else is "data from URL, not verified".
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from privbench.dataset_identity import dataset_hash
from privbench.runtime.archive import (
    ArchiveRefused,
    UnpackLimits,
    dataset_roots,
    member_names,
    unpack,
)
from privbench.runtime.cache import cache_dir
from privbench.runtime.copies import DownloadedCopies
from privbench.runtime.download import MAX_DOWNLOAD_BYTES, TIMEOUT_S, fetch, sha256_file
from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.runtime.output_dirs import ensure_writable_dir
from privbench.suites.priviq.dataset import DATASET_FILE, validate_priviq

DEFAULT_URL = "https://github.com/sakibsh/Priv-IQ/releases/download/data/Priv-IQ.zip"
"""The "Download Dataset" link of the reference repository's README."""
RELEASE_DATASET_HASH: str | None = None
"""The content hash (:func:`privbench.dataset_identity.dataset_hash`) of the public
release's dataset folder: the one fact by which data counts as "the public release".

None: unknown — privbench was written where the release could not be fetched, and a hash
computed from a copy of unknown origin would vouch for nothing. While it is None no data
is called the release: downloads and runs say where their data came from and that it is
not verified, and the paper's rows are shown beside them only on request
(``--compare-published``). Once it is set, data whose content hash equals it is the
release, wherever it came from (a mirror's zip with the same files included), and a
download whose content differs is refused."""
KEYWORD = "priviq"
"""``--data priviq``: the downloaded release (unless a path of that name exists)."""
ARCHIVE = "Priv-IQ.zip"
DATASET_DIR = "priv-iq"
RECORD_FILE = "download.json"
_UNPACKING = ".unpacking"


class DownloadRecord(BaseModel):
    """``download.json``: what was downloaded, from where, and what it unpacked to."""

    model_config = ConfigDict(extra="forbid")

    url: str
    sha256: str
    """SHA-256 of the zip as downloaded."""
    verified: bool
    """The dataset's content hash is :data:`RELEASE_DATASET_HASH` (False while none is
    pinned)."""
    dataset_hash: str
    """:func:`privbench.dataset_identity.dataset_hash` of the unpacked dataset folder: the
    ``dataset_hash`` every run on it records."""
    files: int
    items: int
    archive_root: str
    """The folder inside the zip that held ``priv-IQ.json`` (``""``: the top)."""


@dataclass(frozen=True)
class Release:
    """A downloaded copy: its folder and record; ``already`` when nothing was fetched."""

    root: Path
    record: DownloadRecord
    already: bool = False

    @property
    def dataset(self) -> Path:
        """The dataset folder (``priv-IQ.json`` + ``images/``) to pass as ``--data``."""
        return self.root / DATASET_DIR

    def lines(self) -> list[str]:
        """What ``privbench download priviq`` prints: the release only when verified."""
        record = self.record
        what = "Priv-IQ release" if record.verified else "Priv-IQ data"
        if self.already:
            return [
                f"{what} already downloaded: {self.dataset} ({record.items} items; "
                f"{origin_note(record)}); --force downloads it again"
            ]
        return [
            f"{what}: {record.items} items, {record.files} files in {self.dataset}",
            f"{origin_note(record)}; zip SHA-256 {record.sha256}; dataset_hash "
            f"{record.dataset_hash}",
            f"use it with --data {KEYWORD}",
        ]


def is_release_hash(content_hash: str) -> bool:
    """Whether ``content_hash`` is the pinned hash of the public release."""
    return RELEASE_DATASET_HASH is not None and content_hash == RELEASE_DATASET_HASH


def unverified_note(origin: str) -> str:
    """How data of unknown identity is named on every output: where it came from."""
    why = (
        "privbench pins no release hash"
        if RELEASE_DATASET_HASH is None
        else "its content hash is not the release's"
    )
    return f"data from {origin}, not verified against the release ({why})"


def origin_note(record: DownloadRecord) -> str:
    """``the public release (content hash verified)`` or :func:`unverified_note`."""
    if record.verified and is_release_hash(record.dataset_hash):
        return "the public release (content hash verified)"
    return unverified_note(record.url)


def default_root() -> Path:
    """Where the release is kept without ``--dir``: ``<cache>/datasets/priviq``."""
    return cache_dir() / "datasets" / KEYWORD


def read_record(root: Path) -> DownloadRecord | None:
    """The ``download.json`` of ``root``; None if absent or not one privbench wrote."""
    try:
        return DownloadRecord.model_validate_json((root / RECORD_FILE).read_bytes())
    except (OSError, ValidationError):
        return None


def downloaded(root: Path) -> Release | None:
    """The copy in ``root`` if it is complete (its record and its dataset folder)."""
    record = read_record(root)
    if record is None or not (root / DATASET_DIR / DATASET_FILE).is_file():
        return None
    return Release(root, record, already=True)


COPIES = DownloadedCopies(KEYWORD, lambda: default_root())
"""Every copy downloaded, so that ``--data priviq`` finds the latest."""


def latest_release() -> Release | None:
    """The copy downloaded last that is still complete, if any."""
    for root in reversed(COPIES.registered()):
        found = downloaded(root)
        if found is not None:
            return found
    return None


def recorded_release_hashes() -> frozenset[str]:
    """The dataset hashes of the downloaded copies (those still recorded).

    A run whose ``dataset_hash`` is among them ran on an unmodified download — of
    whatever its address served: only :func:`is_release_hash` says it is the release.
    """
    records = (read_record(root) for root in COPIES.registered())
    return frozenset(record.dataset_hash for record in records if record is not None)


def download_origin(content_hash: str) -> str | None:
    """The address of the latest recorded download with ``content_hash`` (None: none)."""
    for root in reversed(COPIES.registered()):
        record = read_record(root)
        if record is not None and record.dataset_hash == content_hash:
            return record.url
    return None


def resolve_data(value: Path) -> tuple[Path, str | None]:
    """The folder a ``--data`` (or ``DIR``) value means, and a note for stderr if shadowed.

    ``priviq`` means the downloaded release unless a file or folder of that name exists in
    the working directory: an existing path always means itself (a suite generated with
    ``--out priviq`` is never swapped for the release); the note then says where the
    release is. No such path and no download: a one-line error saying to download first.
    """
    if value != Path(KEYWORD):
        return value, None
    release = latest_release()
    if value.exists():
        if release is None:
            return value, None
        note = (
            f"note: {KEYWORD}: using ./{KEYWORD} in this folder, not the downloaded release "
            f"(give {release.dataset} for the release)"
        )
        return value, note
    if release is None:
        raise UsageError(
            f"{KEYWORD}: no downloaded Priv-IQ release (and no ./{KEYWORD} here); run "
            "privbench download priviq first"
        )
    return release.dataset, None


def _check_release(content_hash: str, url: str, archive: Path) -> bool:
    """Whether the unpacked data is the pinned release; a pinned hash that differs refuses."""
    if RELEASE_DATASET_HASH is None:
        return False
    if content_hash != RELEASE_DATASET_HASH:
        raise PrivbenchError(
            f"{url}: the dataset's content hash {content_hash} is not the release's "
            f"{RELEASE_DATASET_HASH}; nothing was unpacked (the zip is kept: {archive})"
        )
    return True


def _archive_root(archive: Path, url: str) -> str:
    roots = dataset_roots(member_names(archive, f"{url} ({archive})"), DATASET_FILE)
    if not roots:
        raise PrivbenchError(
            f"{url}: no {DATASET_FILE} in the archive; not the Priv-IQ release (the file is "
            f"kept: {archive})"
        )
    if len(roots) > 1:
        raise PrivbenchError(
            f"{url}: {DATASET_FILE} in {len(roots)} folders of the archive "
            f"({', '.join(roots[:3])}); cannot tell which is the release (the file is kept: "
            f"{archive})"
        )
    return roots[0]


def _validated(staging: Path, archive: Path, root: str, url: str) -> int:
    """Items of the unpacked dataset; one line with the count and first problem otherwise."""
    items, problems = validate_priviq(staging)
    if not problems:
        return len(items)
    inside = f"{archive.name}:{root}/" if root else f"{archive.name}:"
    first = str(problems[0]).replace(f"{staging}/", inside)
    raise PrivbenchError(
        f"{url}: the archive's dataset has {len(problems)} problem(s); the first: {first} "
        f"(the zip is kept: {archive})"
    )


def _place(root: Path, staging: Path) -> None:
    """Replace the dataset folder by the unpacked one (a --force download)."""
    dataset = root / DATASET_DIR
    if dataset.exists():
        shutil.rmtree(dataset)
    staging.rename(dataset)


def download_priviq(
    root: Path | None = None,
    url: str = DEFAULT_URL,
    *,
    force: bool = False,
    progress: bool = True,
    timeout: float = TIMEOUT_S,
    max_bytes: int = MAX_DOWNLOAD_BYTES,
    limits: UnpackLimits | None = None,
) -> Release:
    """Download, check and unpack the release into ``root`` (default :func:`default_root`).

    A complete copy already there is returned as it is (``already``) unless ``force``.
    Raises :class:`PrivbenchError` (one line naming the address) on a network failure (the
    ``.part`` is kept for a rerun); a file over ``max_bytes`` or an archive that is unsafe
    to unpack (a name, a size over ``limits``, a clash) — both deleted; or a foreign
    archive, a dataset that does not validate or that is not the pinned release (the zip
    is kept for a look).
    """
    option = "--dir" if root is not None else "the cache folder"
    root = default_root() if root is None else root
    existing = downloaded(root)
    if existing is not None and not force:
        return existing
    if existing is None and (root / DATASET_DIR).exists():
        raise UsageError(
            f"{root / DATASET_DIR}: exists but is not a copy privbench downloaded (no "
            f"readable {RECORD_FILE} beside it); move it away or choose another --dir"
        )
    ensure_writable_dir(root, option)
    fetched = fetch(
        url, root / ARCHIVE, restart=force, timeout=timeout, progress=progress, max_bytes=max_bytes
    )
    archive = fetched.path
    sha256 = sha256_file(archive)
    staging = root / _UNPACKING
    if staging.exists():
        shutil.rmtree(staging)
    try:
        inside = _archive_root(archive, url)
        files = unpack(archive, staging, inside, f"{url} ({archive})", limits)
        items = _validated(staging, archive, inside, url)
        content_hash = dataset_hash(staging)
        record = DownloadRecord(
            url=url,
            sha256=sha256,
            verified=_check_release(content_hash, url, archive),
            dataset_hash=content_hash,
            files=files,
            items=items,
            archive_root=inside,
        )
        _place(root, staging)
    except ArchiveRefused:
        archive.unlink(missing_ok=True)  # never a dataset: nothing of it is kept
        raise
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    partial = root / f".{RECORD_FILE}.partial"
    partial.write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")
    partial.replace(root / RECORD_FILE)
    COPIES.register(root)
    archive.unlink()
    return Release(root, record)
