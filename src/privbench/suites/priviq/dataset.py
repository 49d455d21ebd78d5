"""Load and validate a Priv-IQ benchmark directory (the public release's layout).

Layout (the public release's; docs/datasets.md)::

    DIR/priv-IQ.json   {"v1_0": {"imagename": "v1_0.png", "question": "...",
                                  "answer": "...", "capability": ["VizPriv", ...]}, ...}
    DIR/images/v1_0.png

Why one pass: :func:`validate_priviq` collects every problem (invalid JSON with line and
column, missing/unreadable/corrupt images, empty fields, unknown competencies, duplicate
ids) so a user fixes a dataset in one round instead of one error at a time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from privbench.images import DatasetImages
from privbench.json_files import JsonObject, load_valid, read_json_object
from privbench.runtime.errors import Problem
from privbench.runtime.gc_tuning import bulk_reading
from privbench.suites.priviq.competencies import (
    COMPETENCIES,
    Combination,
    combination_of,
    normalize_competency,
)

DATASET_FILE = "priv-IQ.json"
IMAGES_DIR = "images"
GENERATOR_MANIFEST = "suite.json"
"""What ``privbench generate priviq`` writes beside the items; the release has no such file."""


@dataclass(frozen=True)
class PrivIQItem:
    """One image + question with its reference answer and required competencies."""

    id: str
    image: Path
    question: str
    answer: str
    competencies: Combination

    @property
    def combination(self) -> Combination:
        """The exact set of competencies (a row of Table 1)."""
        return self.competencies


def _text_field(
    entry: Mapping[str, object], name: str, display: str, item: str
) -> tuple[str, list[Problem]]:
    value = entry.get(name)
    if value is None:
        return "", [Problem(display, item, f"missing '{name}'")]
    if not isinstance(value, str):
        return "", [Problem(display, item, f"'{name}' must be a string")]
    if not value.strip():
        return "", [Problem(display, item, f"empty '{name}'")]
    return value, []


def _competencies(
    entry: Mapping[str, object], display: str, item: str
) -> tuple[Combination, list[Problem]]:
    raw = entry.get("capability")
    if raw is None:
        return (), [Problem(display, item, "missing 'capability'")]
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        return (), [Problem(display, item, "'capability' must be a list of competency names")]
    if not raw:
        return (), [Problem(display, item, "empty 'capability'")]
    problems = []
    codes = []
    for name in raw:
        code = normalize_competency(name)
        if code is None:
            known = ", ".join(COMPETENCIES)
            problems.append(Problem(display, item, f"unknown competency '{name}' (known: {known})"))
        else:
            codes.append(code)
    return combination_of(codes), problems


def validate_priviq(directory: Path) -> tuple[list[PrivIQItem], list[Problem]]:
    """Every item that is valid, and every problem found, in one pass over the directory.

    Without cycle collection (:func:`~privbench.runtime.gc_tuning.bulk_reading`): a large file's
    items would otherwise spend much of their time in the collector.
    """
    with bulk_reading():
        return _validate_priviq(directory)


def _validate_priviq(directory: Path) -> tuple[list[PrivIQItem], list[Problem]]:
    display = str(directory / DATASET_FILE)
    data, problems = read_json_object(directory / DATASET_FILE, display)
    if data is None:
        return [], problems
    problems.extend(Problem(display, key, "duplicate id") for key in data.duplicates)
    images = DatasetImages(directory / IMAGES_DIR)
    items: list[PrivIQItem] = []
    for item_id, entry in data.items():
        if not isinstance(entry, dict):
            problems.append(Problem(display, item_id, "item must be a JSON object"))
            continue
        item_problems: list[Problem] = []
        if isinstance(entry, JsonObject):
            item_problems.extend(
                Problem(display, item_id, f"duplicate field '{key}'") for key in entry.duplicates
            )
        question, found = _text_field(entry, "question", display, item_id)
        item_problems += found
        answer, found = _text_field(entry, "answer", display, item_id)
        item_problems += found
        competencies, found = _competencies(entry, display, item_id)
        item_problems += found
        imagename, found = _text_field(entry, "imagename", display, item_id)
        item_problems += found
        image = images.get(imagename) if imagename else None
        image_path = None if image is None else image.path
        if image is not None and image.path is None:
            item_problems.append(
                Problem(display, item_id, f"image path '{imagename}' leaves images/")
            )
        elif image is not None and image.check is not None and image.check.problem:
            item_problems.append(
                Problem(display, item_id, f"{image.check.problem}: {IMAGES_DIR}/{imagename}")
            )
        problems.extend(item_problems)
        if not item_problems and image_path is not None:
            items.append(PrivIQItem(item_id, image_path, question, answer, competencies))
    if not data and not problems:
        problems.append(Problem(display, None, "no items"))
    return items, problems


def load_priviq(directory: str | Path) -> list[PrivIQItem]:
    """Load a valid Priv-IQ directory; raise :class:`DatasetError` listing its problems."""
    return load_valid(directory, validate_priviq)


def competency_counts(items: list[PrivIQItem]) -> dict[str, int]:
    """Items per competency (an item counts toward each competency it requires)."""
    counts = Counter(code for item in items for code in item.competencies)
    return {code: counts[code] for code in COMPETENCIES}


def combination_counts(items: list[PrivIQItem]) -> Counter[Combination]:
    """Items per exact combination."""
    return Counter(item.combination for item in items)
