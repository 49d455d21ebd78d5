"""Load and validate VLM-GeoPrivacy's annotations, and find which images are present.

Layout: :mod:`.layout` (the reference repository's ``data/`` folder). Two files join into
one item per photo:

* ``annotation_labels.csv`` — ``id,Q1,…,Q7``: the gold letter of each question, under the id
  every released response file uses (bare Flickr id; ``s<id>`` for GPTGeoChat);
* ``images_metadata.csv`` — ``image_id,image_source,true_coordinate,sharing_intent``: the
  photo's file id (``yfcc-<id>``, ``im2gps3k-<id>``, ``gptgeochat-<id>``), its collection
  and where it was taken.

Why privbench joins them itself: the reference's evaluator reads only the labels (ids as
strings) and its download script names the photos by the metadata id, so a fresh run of the
reference produces ids that do not join with its own gold file. privbench maps the two once
here (:func:`label_id`) and every item carries both.

Why one pass: :func:`validate_geoprivacy` collects every problem (file and item) so a damaged
copy is reported in full before a model is called. A missing photo is not a defect of the
annotations: runs use the photos present (:func:`present_items`) and say how many.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from privbench.json_files import load_valid
from privbench.runtime.errors import Problem
from privbench.suites.geoprivacy.layout import (
    HASHED_FILES,
    LABELS_FILE,
    METADATA_FILE,
)

QUESTIONS = tuple(f"Q{n}" for n in range(1, 8))
"""The seven questions, in the reference's order."""
CHOICES: Mapping[str, str] = {
    "Q1": "ABC", "Q2": "AB", "Q3": "AB", "Q4": "ABC", "Q5": "ABC", "Q6": "AB", "Q7": "ABC",
}  # fmt: skip
"""The letters each question's options carry."""
SOURCE_PREFIXES: Mapping[str, str] = {"yfcc": "", "im2gps3k": "", "gptgeochat": "s"}
"""Metadata id prefix → the prefix of the label id (GPTGeoChat's ids start with ``s``)."""
MAX_CSV_BYTES = 8 << 20
"""The most privbench reads of one annotation file (the reference's are 30 and 80 kB)."""
MAX_ITEMS = 100_000


@dataclass(frozen=True)
class GeoItem:
    """One photo: its ids, collection, true location and the gold answers."""

    id: str
    """The label id (``1873728``; ``s2378186027`` for GPTGeoChat): the item's id everywhere."""
    image_id: str
    """The photo's file id (``yfcc-1873728``)."""
    source: str
    """Its collection (``Flickr-yfcc4k``, ``ShutterStock-GPTGeoChat`` …)."""
    latitude: float
    longitude: float
    sharing_intent: int
    """The metadata's ``sharing_intent`` (−1, 0 or 1; no code of the reference reads it)."""
    gold: Mapping[str, str]
    """Q1–Q7 → the annotators' letter."""

    @property
    def coordinate(self) -> tuple[float, float]:
        return (self.latitude, self.longitude)


def label_id(image_id: str) -> str | None:
    """The label id of a metadata id (``gptgeochat-123`` → ``s123``); None if unknown."""
    prefix, _, number = image_id.partition("-")
    if prefix not in SOURCE_PREFIXES or not number:
        return None
    return SOURCE_PREFIXES[prefix] + number


def _read_csv(
    path: Path, columns: Sequence[str], problems: list[Problem]
) -> list[dict[str, str]] | None:
    display = str(path)
    if not path.is_file():
        problems.append(Problem(display, None, "missing file (run privbench download geoprivacy)"))
        return None
    if path.stat().st_size > MAX_CSV_BYTES:
        problems.append(Problem(display, None, f"larger than {MAX_CSV_BYTES:,} bytes"))
        return None
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        problems.append(Problem(display, None, f"cannot be read as UTF-8 text ({error})"))
        return None
    reader = csv.DictReader(io.StringIO(text))
    header = reader.fieldnames or []
    absent = [c for c in columns if c not in header]
    if absent:
        problems.append(Problem(display, None, f"no column {', '.join(absent)}"))
        return None
    rows = [dict(row) for row in reader]
    if len(rows) > MAX_ITEMS:
        problems.append(Problem(display, None, f"{len(rows):,} rows (at most {MAX_ITEMS:,})"))
        return None
    return rows


def _coordinate(text: str) -> tuple[float, float] | None:
    """``"[36.99, -121.98]"`` → (36.99, -121.98); None if not a valid latitude/longitude."""
    parts = text.strip().strip("[]() ").split(",")
    if len(parts) != 2:
        return None
    try:
        lat, lon = float(parts[0]), float(parts[1])
    except ValueError:
        return None
    if not (math.isfinite(lat) and math.isfinite(lon)) or abs(lat) > 90 or abs(lon) > 180:
        return None
    return lat, lon


def _gold(row: Mapping[str, str], display: str, problems: list[Problem]) -> dict[str, str]:
    gold: dict[str, str] = {}
    for question in QUESTIONS:
        letter = (row.get(question) or "").strip()
        if len(letter) != 1 or letter not in CHOICES[question]:
            problems.append(
                Problem(display, row.get("id"), f"{question} is '{letter}' (one of "
                        f"{', '.join(CHOICES[question])})")
            )  # fmt: skip
        gold[question] = letter
    return gold


def validate_geoprivacy(directory: Path) -> tuple[list[GeoItem], list[Problem]]:
    """Every annotated item of ``directory`` and every problem of its annotation files."""
    problems: list[Problem] = []
    labels = _read_csv(directory / LABELS_FILE, ("id", *QUESTIONS), problems)
    metadata = _read_csv(
        directory / METADATA_FILE,
        ("image_id", "image_source", "true_coordinate", "sharing_intent"),
        problems,
    )
    if labels is None or metadata is None:
        return [], problems
    labels_display = str(directory / LABELS_FILE)
    meta_display = str(directory / METADATA_FILE)
    by_id: dict[str, dict[str, str]] = {}
    for row in labels:
        key = (row.get("id") or "").strip()
        if not key:
            problems.append(Problem(labels_display, None, "a row without an id"))
        elif key in by_id:
            problems.append(Problem(labels_display, key, "id given to two rows"))
        else:
            by_id[key] = _gold(row, labels_display, problems)
    items: list[GeoItem] = []
    joined: set[str] = set()
    for row in metadata:
        image_id = (row.get("image_id") or "").strip()
        mapped = label_id(image_id)
        if mapped is None:
            problems.append(Problem(meta_display, image_id or None, "unknown image id prefix "
                                    f"(one of {', '.join(SOURCE_PREFIXES)})"))  # fmt: skip
            continue
        key = mapped
        if key in joined:
            problems.append(Problem(meta_display, image_id, "image id given to two rows"))
            continue
        gold = by_id.get(key)
        if gold is None:
            problems.append(Problem(meta_display, image_id, f"no labels for id {key}"))
            continue
        coordinate = _coordinate(row.get("true_coordinate") or "")
        if coordinate is None:
            problems.append(Problem(meta_display, image_id, "true_coordinate is not "
                                    "'[latitude, longitude]'"))  # fmt: skip
            continue
        try:
            intent = int((row.get("sharing_intent") or "").strip())
        except ValueError:
            problems.append(Problem(meta_display, image_id, "sharing_intent is not an integer"))
            continue
        joined.add(key)
        items.append(
            GeoItem(key, image_id, (row.get("image_source") or "").strip(), *coordinate,
                    intent, gold)
        )  # fmt: skip
    for key in by_id.keys() - joined:
        problems.append(Problem(labels_display, key, "no row in images_metadata.csv"))
    if not items and not problems:
        problems.append(Problem(labels_display, None, "no items"))
    items.sort(key=lambda item: item.id)  # the evaluator's order (it sorts by id, as text)
    return items, problems


def load_geoprivacy(directory: str | Path) -> list[GeoItem]:
    """The items of valid annotations (:class:`DatasetError` listing every problem)."""
    return load_valid(directory, validate_geoprivacy)


def present_items(directory: Path, items: Sequence[GeoItem]) -> list[GeoItem]:
    """The items whose photo is on disk with the bytes first downloaded (a run asks about
    these only; :mod:`.census` says why the others are absent)."""
    from privbench.suites.geoprivacy.census import image_census

    census = image_census(directory, [(item.image_id, item.source) for item in items])
    present = census.present
    return [item for item in items if item.image_id in present]


def annotation_hash(directory: Path) -> str:
    """SHA-256 over the gold labels and the metadata (names and bytes): a run's
    ``dataset_hash``. The photos are not in it: each sample records its photo's SHA-256,
    so copies holding different photos compare over the photos they share."""
    digest = hashlib.sha256()
    for name in HASHED_FILES:
        digest.update(name.encode() + b"\0")
        digest.update((directory / name).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()
