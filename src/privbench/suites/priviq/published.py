"""Priv-IQ's published Tables 3 and 5, and when a run may be shown beside them.

Why a recogniser: the paper's figures are over the public release's 146 items; beside a
run over any other data they would invite a comparison that means nothing. The release
is recognised by what the log holds — 146 items with ids exactly ``v1_0`` … ``v1_145``
and the combination counts of the paper's Table 1 — and the data must not be a suite
privbench generated: ``privbench generate priviq --n 146`` copies those ids and counts
exactly (the shipped suite is one), so ids and counts alone cannot tell the two apart.
A generated suite is told by its content hash (the shipped suite's) or by the manifest
the generator writes beside the index (``suite.json``).

Shape is necessary, not enough: a mirror's copy with one answer changed has the same ids
and counts. Data is the release only when its content hash is the pinned one
(:func:`privbench.suites.priviq.release.is_release_hash`); other data of the release's shape is
"data from URL (or DIR), not verified against the release", and the paper's rows are
shown beside it only when the user asks (``--compare-published``), under that note.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from privbench.dataset_identity import dataset_hash
from privbench.published import PublishedTable, published_tables
from privbench.runtime.errors import PrivbenchError
from privbench.shipped import PRIVIQ_SUITE
from privbench.suites.priviq.allocation import PAPER_SIZE, TABLE_1
from privbench.suites.priviq.competencies import (
    Combination,
    combination_label,
    combination_of,
    normalize_competency,
)
from privbench.suites.priviq.dataset import GENERATOR_MANIFEST, load_priviq
from privbench.suites.priviq.release import download_origin, is_release_hash, unverified_note

TOTAL = "Total"
"""The paper's heading of the overall column (Tables 3 and 5)."""
NOTE = "same data: the public Priv-IQ release"
"""How the paper's data relate to a run they are shown beside (``--json`` ``note``)."""
RELEASE_IDS = frozenset(f"v1_{index}" for index in range(PAPER_SIZE))
"""The public release's item ids."""


def paper_combination(heading: str) -> Combination:
    """The combination a Table 5 heading names (``"PET CntxPriv"`` → PET + CntxPriv).

    The paper writes a combination as its codes separated by spaces, in no fixed order.
    """
    codes = [normalize_competency(token) for token in heading.split()]
    if not codes or None in codes:
        raise ValueError(f"Table 5 heading {heading!r} is not a set of competency codes")
    return combination_of(code for code in codes if code is not None)


def column_name(heading: str) -> str:
    """privbench's name of a Table 3 / Table 5 heading: a code, a combination label, Total."""
    return TOTAL if heading == TOTAL else combination_label(paper_combination(heading))


def priviq_published() -> list[PublishedTable]:
    """Tables 3 and 5 with privbench's column names (the columns of the run's tables)."""
    return [table.renamed(column_name) for table in published_tables("priviq")]


def has_release_shape(combinations: Mapping[str, Combination]) -> bool:
    """Whether items (id → combination) are the release's: its 146 ids, Table 1's counts."""
    return set(combinations) == RELEASE_IDS and Counter(combinations.values()) == Counter(TABLE_1)


@dataclass(frozen=True)
class ReleaseEvidence:
    """What a run's log and data directory say about its data."""

    combinations: Mapping[str, Combination]
    """Each logged item's combination (from the samples' competencies)."""
    dataset_hash: str
    """The data directory's content hash the run recorded (empty: not recorded)."""
    data_found: bool
    """The run's data directory is still where the run read it."""
    generated: bool
    """The data is a suite privbench generated (the shipped suite's hash, or the
    generator's manifest in the directory); checked only for data of the release's shape."""
    verified: bool = False
    """The recorded hash is the pinned hash of the public release."""
    origin: str = ""
    """Where the data came from: the address of the download whose hash the run recorded,
    else the run's data directory."""

    @property
    def note(self) -> str:
        """How the data relate to the paper's: the release, or where it came from."""
        return NOTE if self.verified else unverified_note(self.origin or "an unknown folder")


def is_public_priviq_release(evidence: ReleaseEvidence) -> bool:
    """Whether a run's data is the public Priv-IQ release (the published rows are shown).

    The release's shape (146 items, its ids, Table 1's counts) and the pinned content
    hash; without a pinned hash, never.
    """
    return has_release_shape(evidence.combinations) and evidence.verified


def comparable_on_request(evidence: ReleaseEvidence) -> bool:
    """Whether the paper's rows may stand beside the run when the user asks for them:
    data of the release's shape that is no generated suite, verified or not."""
    return has_release_shape(evidence.combinations) and not evidence.generated


def release_reason(evidence: ReleaseEvidence) -> str:
    """Why a run is not shown beside the published rows, in one sentence (or "")."""
    if is_public_priviq_release(evidence):
        return ""
    if not has_release_shape(evidence.combinations):
        return (
            f"the run's items are not the public release's ({len(evidence.combinations)} "
            f"items; the release has {PAPER_SIZE}, ids v1_0 … v1_{PAPER_SIZE - 1}, with "
            "Table 1's combination counts)"
        )
    if evidence.generated:
        return "the run's data is a suite privbench generated, not the public release"
    return evidence.note


def is_generated(directory: Path | None, recorded_hash: str) -> bool:
    """Whether a run's data is a generated suite: the shipped one (by the hash the run
    recorded), or a directory holding the generator's manifest."""
    if recorded_hash and recorded_hash == dataset_hash(PRIVIQ_SUITE):
        return True
    if directory is None:
        return False
    return (directory / GENERATOR_MANIFEST).is_file()  # the release's layout has no manifest


def release_evidence(
    combinations: Mapping[str, tuple[str, ...]], data: str, recorded_hash: str
) -> ReleaseEvidence:
    """The evidence of one run: its items' competencies, data directory and hash."""
    directory = Path(data) if data else None
    found = directory is not None and directory.is_dir()
    items = {item: combination_of(codes) for item, codes in combinations.items()}
    # hashing the shipped suite is only worth it for data of the release's shape
    generated = has_release_shape(items) and is_generated(
        directory if found else None, recorded_hash
    )
    verified = bool(recorded_hash) and is_release_hash(recorded_hash)
    origin = (download_origin(recorded_hash) if recorded_hash else None) or data
    return ReleaseEvidence(items, recorded_hash, found, generated, verified, origin)


def whole_data_evidence(evidence: ReleaseEvidence, data: str) -> tuple[ReleaseEvidence, int]:
    """For runs over part of their data (``--limit``): the evidence of the whole data
    directory and its item count, when the whole has the release's shape; else
    ``(evidence, 0)``. Why: ten items of a release-shaped dataset are still that data and
    are named as it is ("not verified against the release"), though no paper row may
    stand beside a run over ten items.
    """
    partial = evidence.combinations and set(evidence.combinations) < RELEASE_IDS
    if comparable_on_request(evidence) or not partial or not data or not Path(data).is_dir():
        return evidence, 0
    try:
        items = {item.id: item.competencies for item in load_priviq(data)}
    except PrivbenchError:  # the folder changed since the run: the log's own items stand
        return evidence, 0
    whole = release_evidence(items, data, evidence.dataset_hash)
    return (whole, len(items)) if comparable_on_request(whole) else (evidence, 0)
