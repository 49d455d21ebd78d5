"""``privbench validate`` of a VLM-GeoPrivacy copy: the annotations' problems, what the copy
holds, and why photos are absent (one line per cause).

Why the pinned hashes: a copy is the reference's annotations only if its two files have the
SHA-256 of the pinned commit; any other (a subset, hand-made labels) is named as such, so
its figures are not taken for the benchmark's.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from privbench.runtime.download import sha256_file
from privbench.runtime.errors import Problem
from privbench.runtime.suite import LocalCopy
from privbench.suites.geoprivacy.census import image_census, metadata_pairs
from privbench.suites.geoprivacy.dataset import validate_geoprivacy
from privbench.suites.geoprivacy.layout import ANNOTATIONS, COMMIT, HASHED_FILES, KEYWORD


def is_reference_copy(directory: Path) -> bool:
    """Whether the gold labels and metadata are the pinned commit's, byte for byte."""
    pinned = {f.name: f.sha256 for f in ANNOTATIONS}
    return all(
        (directory / name).is_file() and sha256_file(directory / name) == pinned[name]
        for name in HASHED_FILES
    )


def origin_note(directory: Path) -> str:
    """Where a copy's annotations come from, as every output names them."""
    if is_reference_copy(directory):
        return f"the reference's annotations (99starman/VLM-GeoPrivacyBench@{COMMIT[:12]})"
    return "annotations that are not the reference's (a subset or other labels), not verified"


def validate_with_summary(directory: Path) -> tuple[list[Problem], str]:
    """Every problem of ``directory``, and what it holds: one line, then one per cause of
    absent photos."""
    items, problems = validate_geoprivacy(directory)
    if not items:
        return problems, f"{directory}: VLM-GeoPrivacy, not readable"
    census = image_census(directory, [(item.image_id, item.source) for item in items])
    q7 = Counter(item.gold["Q7"] for item in items)
    spread = ", ".join(f"{letter} {q7[letter]}" for letter in "ABC")
    head = (
        f"{directory}: VLM-GeoPrivacy, {len(items):,} annotated photos (Q7 gold: {spread}); "
        f"{origin_note(directory)}"
    )
    return problems, "\n".join([head, *census.lines()])


def local_copy() -> LocalCopy:
    """The latest download, or why there is none (the photos cannot ship with privbench)."""
    from privbench.suites.geoprivacy.download import latest_download

    latest = latest_download()
    if latest is None:
        return LocalCopy(
            None,
            "its photos and annotations cannot ship with privbench; run privbench download "
            f"{KEYWORD} to fetch them, then use --data {KEYWORD}",
        )
    census = image_census(latest, metadata_pairs(latest))
    if not census.present:
        return LocalCopy(None, f"the download in {latest} holds no photo ({census.summary()})")
    return LocalCopy(latest)
