"""Where VLM-GeoPrivacy's data lives on disk, and where each part comes from.

Why one module: the downloader writes this layout, and the dataset reader, ``validate``, the
tasks and the published-figures reader read it; none of them spells a path or an address of
its own. The layout is the reference repository's own ``data/`` folder, so a checkout of the
reference (with its images downloaded by its own script) is a valid ``--data`` directory::

    ROOT/annotation_labels.csv     gold letters Q1–Q7 per item (the evaluator's file)
    ROOT/images_metadata.csv       image id, source collection, true coordinate
    ROOT/figstep_jailbreak.png     the second image of the malicious (FigStep) request
    ROOT/images/<image_id>.jpg     one photo per item, named by its metadata id
    ROOT/images.json               privbench: each image's source, SHA-256 and status
    ROOT/download.json             privbench: what was fetched, from where, when
    ROOT/released/<repo path>      privbench: the reference's released responses

Why the annotations are downloaded and never shipped: the repository has no licence file and
its dataset card names two licences (CC BY 4.0 in its text, CC BY-NC 4.0 in its front
matter); the images keep their owners' licences. privbench fetches them on request and never
redistributes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

REPOSITORY = "99starman/VLM-GeoPrivacyBench"
COMMIT = "7653e00489bc5b05d8ea2bbf1a51fa39014bd3f8"
"""The reference commit every pinned file is read at (2026-02-05)."""
RAW_BASE = f"https://raw.githubusercontent.com/{REPOSITORY}/{COMMIT}/"
"""Where a pinned file of the repository is fetched from (its repository path appended)."""

LABELS_FILE = "annotation_labels.csv"
METADATA_FILE = "images_metadata.csv"
FIGSTEP_FILE = "figstep_jailbreak.png"
IMAGES_DIR = "images"
IMAGES_RECORD = "images.json"
DOWNLOAD_RECORD = "download.json"
RELEASED_DIR = "released"
KEYWORD = "geoprivacy"
"""``--data geoprivacy``: the latest download (unless a path of that name exists)."""
ITEMS = 1200
"""Images (items) of the benchmark."""


@dataclass(frozen=True)
class PinnedFile:
    """A file of the reference repository at :data:`COMMIT`: its path there, its name here,
    its SHA-256 and size (bytes)."""

    repo_path: str
    name: str
    sha256: str
    size: int

    @property
    def url(self) -> str:
        return RAW_BASE + self.repo_path


ANNOTATIONS = (
    PinnedFile(
        "data/annotation_labels.csv",
        LABELS_FILE,
        "a331ace16e1109eec6bb7b9910928b48aced3a5a290353a28048cecd83a73664",
        29_781,
    ),
    PinnedFile(
        "data/images_metadata.csv",
        METADATA_FILE,
        "f32683cac34ef7b199a069c759f0f3e9e333fdf7d5b0ded9eb7f3b6b7ed7b0d8",
        80_234,
    ),
    PinnedFile(
        "data/figstep_jailbreak.png",
        FIGSTEP_FILE,
        "a97f0d9613934fa48941951763ca888179433e7bf674fb85093a83a84c95bbab",
        10_852,
    ),
)
"""The annotation files ``download geoprivacy`` fetches first (verified by SHA-256)."""

HASHED_FILES = (LABELS_FILE, METADATA_FILE)
"""The files a run's ``dataset_hash`` covers: the gold labels and the images' metadata.
The images are identified one by one (each sample records its image's SHA-256), so runs on
copies holding different images share the dataset hash and compare over common images."""


def image_path(root: Path, image_id: str) -> Path:
    """Where the photo of ``image_id`` (``yfcc-1008954785``) lies under ``root``."""
    return root / IMAGES_DIR / f"{image_id}.jpg"
