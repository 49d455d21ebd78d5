"""Which of the benchmark's photos a copy holds, and why the others are not there.

Why a census: the photos are not redistributed; each is fetched from the collection it came
from (a zip on MediaFire, a Flickr address, a Hugging Face parquet conversion), and some of
those have died. A run on 1,180 of 1,200 photos is still a run, but its reader must know
that 20 are absent and whether they can be had: never downloaded (``privbench download
geoprivacy`` fetches them), gone at their source (a dead link: nobody can fetch them), or
present with other bytes than the ones recorded on the first download (a changed copy, or
an image replaced at its source). ``privbench validate`` prints :meth:`Census.lines`.

``ROOT/images.json`` (:data:`~privbench.suites.geoprivacy.layout.IMAGES_RECORD`) is the
downloader's record: for each image id its source collection, the SHA-256 and size of the
bytes first downloaded, and the last download's status. This module reads and writes it
(:func:`read_image_record`, :func:`write_image_record`); the census compares it with the
files.

Why hashing is cached: every present image with a recorded hash is hashed (1,200 photos,
a few hundred megabytes: a fraction of a second, not free); the answer is kept per process
for each file while its size and modification time (``st_mtime_ns``) stay the same, as
:mod:`privbench.dataset_identity` does, so ``validate`` followed by a run hashes once.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from privbench.runtime.download import sha256_file
from privbench.runtime.errors import PrivbenchError
from privbench.suites.geoprivacy import layout

RecordedStatus = Literal["present", "gone", "wrong_hash", "unreadable"]
"""The status of an image in ``images.json``: the outcome of its last download."""
Status = Literal["present", "missing", "gone", "wrong_hash", "unreadable"]
"""An image's status in a census: ``missing`` means never downloaded (or deleted since)."""
STATUSES: tuple[Status, ...] = ("present", "missing", "gone", "wrong_hash", "unreadable")


class ImageEntry(BaseModel):
    """One image of ``images.json``.

    ``sha256`` and ``bytes`` are the identity recorded on the first successful download and
    never replaced by a later one (None while the image was never had); ``status`` and
    ``detail`` say what the last download found.
    """

    model_config = ConfigDict(extra="forbid")

    source: str
    sha256: str | None = None
    bytes: int | None = None
    status: RecordedStatus
    detail: str = ""


ImageRecord = dict[str, ImageEntry]
_RECORD = TypeAdapter(ImageRecord)


def read_image_record(root: Path) -> ImageRecord:
    """The ``images.json`` of ``root`` (empty when absent); one line if it is not one.

    Why an unreadable record is an error and not an empty one: it holds the hashes of the
    first download; starting afresh would silently accept changed bytes.
    """
    path = root / layout.IMAGES_RECORD
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise PrivbenchError(f"{path}: cannot read it ({error.strerror})") from None
    try:
        return _RECORD.validate_json(text)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise PrivbenchError(
            f"{path}: not a record privbench wrote ({where}: {first['msg']}); move it away "
            "to start a new one (the recorded image hashes are then forgotten)"
        ) from None


def write_image_record(root: Path, record: ImageRecord) -> None:
    """Write ``images.json`` atomically (a temporary file renamed over it), sorted by id."""
    path = root / layout.IMAGES_RECORD
    document = {key: record[key].model_dump() for key in sorted(record)}
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    partial.replace(path)


@lru_cache(maxsize=8192)
def _hash(path: str, _size: int, _mtime_ns: int) -> str:
    return sha256_file(Path(path))


def file_sha256(path: Path) -> str:
    """SHA-256 of ``path``, computed once per process while its size and mtime stay."""
    status = path.stat()
    return _hash(str(path.resolve()), status.st_size, status.st_mtime_ns)


@dataclass(frozen=True)
class ImageStatus:
    """One image of the census: its id, source collection, status and why."""

    image_id: str
    source: str
    status: Status
    detail: str = ""


_CAUSES: dict[Status, str] = {
    "missing": "{n} never downloaded",
    "gone": "{n} gone at their source (dead links)",
    "wrong_hash": "{n} differ from the recorded SHA-256",
    "unreadable": "{n} unreadable",
}
"""How each cause of an absent image is counted in words."""
_HINTS: dict[Status, str] = {
    "missing": "privbench download geoprivacy fetches them",
    "gone": "nobody can fetch them any more",
    "wrong_hash": "a rerun of the download refetches them",
    "unreadable": "their source sent bytes that are not an image",
}
"""What can be done about each cause, on its line of :meth:`Census.lines`."""
_EXAMPLES = 5


@dataclass(frozen=True)
class Census:
    """The status of every image of a copy, in the metadata's order."""

    root: Path
    images: tuple[ImageStatus, ...]

    @property
    def counts(self) -> Counter[Status]:
        """Images per status (every status present, zero included)."""
        counted: Counter[Status] = Counter({status: 0 for status in STATUSES})
        counted.update(image.status for image in self.images)
        return counted

    def by_source(self) -> dict[str, Counter[Status]]:
        """Images per status of each source collection, in first-seen order."""
        found: dict[str, Counter[Status]] = {}
        for image in self.images:
            found.setdefault(image.source, Counter())[image.status] += 1
        return found

    def with_status(self, status: Status) -> list[ImageStatus]:
        """The images of one status, in the metadata's order."""
        return [image for image in self.images if image.status == status]

    @property
    def present(self) -> frozenset[str]:
        """The ids of the images a run can use."""
        return frozenset(image.image_id for image in self.images if image.status == "present")

    def summary(self) -> str:
        """One line: ``images: 1,180 of 1,200 present; 12 never downloaded; …``."""
        counts = self.counts
        parts = [f"images: {counts['present']:,} of {len(self.images):,} present"]
        parts += [
            text.format(n=f"{counts[status]:,}")
            for status, text in _CAUSES.items()
            if counts[status]
        ]
        return "; ".join(parts)

    def lines(self) -> list[str]:
        """For ``privbench validate``: the summary, then one line per cause with examples."""
        lines = [self.summary()]
        for status, text in _CAUSES.items():
            images = self.with_status(status)
            if not images:
                continue
            shown = ", ".join(image.image_id for image in images[:_EXAMPLES])
            more = f", and {len(images) - _EXAMPLES:,} more" if len(images) > _EXAMPLES else ""
            counted = text.format(n=f"{len(images):,}")
            lines.append(f"images: {counted} ({_HINTS[status]}): {shown}{more}")
        return lines


def _status(root: Path, image_id: str, source: str, entry: ImageEntry | None) -> ImageStatus:
    """Compare one image's file with its record (see :class:`Census` for the statuses)."""
    path = layout.image_path(root, image_id)
    if path.is_file():
        if entry is None or entry.sha256 is None:
            return ImageStatus(image_id, source, "present", "no recorded SHA-256")
        found = file_sha256(path)
        if found == entry.sha256:
            return ImageStatus(image_id, source, "present")
        return ImageStatus(
            image_id, source, "wrong_hash", f"SHA-256 {found}, recorded {entry.sha256}"
        )
    if entry is None:
        return ImageStatus(image_id, source, "missing", "never downloaded")
    if entry.status == "present":
        return ImageStatus(image_id, source, "missing", "deleted since it was downloaded")
    return ImageStatus(image_id, source, entry.status, entry.detail)


def metadata_pairs(root: Path) -> list[tuple[str, str]]:
    """``(image_id, image_source)`` of every row of ``ROOT/images_metadata.csv``, in order.

    One line if the file is missing or lacks those columns (the downloader verifies it by
    SHA-256, so this only fails on a copy assembled by hand).
    """
    path = root / layout.METADATA_FILE
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            columns = set(reader.fieldnames or ())
            if not {"image_id", "image_source"} <= columns:
                raise PrivbenchError(
                    f"{path}: no image_id and image_source columns (found: "
                    f"{', '.join(sorted(columns)) or 'none'})"
                )
            return [
                ((row.get("image_id") or "").strip(), (row.get("image_source") or "").strip())
                for row in reader
                if (row.get("image_id") or "").strip()
            ]
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise PrivbenchError(f"{path}: cannot read it ({error})") from None


def image_census(root: Path, metadata: list[tuple[str, str]]) -> Census:
    """The status of each ``(image_id, source)`` of ``metadata`` in the copy at ``root``.

    ``present``: the file exists and, if a hash was recorded, has it (a file without a
    record, e.g. from the reference's own download script, counts as present);
    ``missing``: no file, and no download found it gone or bad; ``gone``: recorded gone at
    its source; ``wrong_hash``: the file, or the last download, has other bytes than the
    recorded ones; ``unreadable``: the last download was not a decodable image. Every
    present file with a recorded hash is hashed (cached per process by size and mtime).
    """
    record = read_image_record(root)
    return Census(
        root,
        tuple(
            _status(root, image_id, source, record.get(image_id)) for image_id, source in metadata
        ),
    )
