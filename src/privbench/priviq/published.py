"""Priv-IQ's published Tables 3 and 5, and when a run may be shown beside them.

Why a recogniser: the paper's figures are over the public release's 146 items; beside a
run over any other data they would invite a comparison that means nothing. The release
is recognised by what the log holds — 146 items with ids exactly ``v1_0`` … ``v1_145``
and the combination counts of the paper's Table 1 — and the data must not be a suite
privbench generated: ``privbench generate priviq --n 146`` copies those ids and counts
exactly (the shipped suite is one), so ids and counts alone cannot tell the two apart.
A generated suite is told by its content hash (the shipped suite's) or by the manifest
the generator writes beside the index (``suite.json``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from privbench.dataset_identity import dataset_hash
from privbench.priviq.competencies import (
    Combination,
    combination_label,
    combination_of,
    normalize_competency,
)
from privbench.priviq.generate.allocation import PAPER_SIZE, TABLE_1
from privbench.priviq.release import recorded_release_hashes
from privbench.published import PublishedTable, published_tables
from privbench.shipped import PRIVIQ_SUITE

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
    downloaded: bool = False
    """The recorded hash is that of a copy ``privbench download priviq`` unpacked and
    recorded: the data is that download, unmodified, wherever it is now."""


def is_public_priviq_release(evidence: ReleaseEvidence) -> bool:
    """Whether a run's data is the public Priv-IQ release (the published rows may be shown).

    The release's shape (146 items, its ids, Table 1's counts) is required either way.
    Then either the data is an unmodified download (its hash was recorded by
    ``privbench download priviq``), or the directory is still there and is no generated
    suite: a directory that is gone cannot be told from a generated suite, so it does not
    count.
    """
    if not has_release_shape(evidence.combinations):
        return False
    return evidence.downloaded or (evidence.data_found and not evidence.generated)


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
    return "the run's data directory is not where the run read it, so it cannot be checked"


def is_generated(directory: Path | None, recorded_hash: str) -> bool:
    """Whether a run's data is a generated suite: the shipped one (by the hash the run
    recorded), or a directory holding the generator's manifest."""
    if recorded_hash and recorded_hash == dataset_hash(PRIVIQ_SUITE):
        return True
    if directory is None:
        return False
    from privbench.priviq.generate.suite import MANIFEST  # the generator loads fonts

    return (directory / MANIFEST).is_file()  # the release's layout has no manifest


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
    downloaded = bool(recorded_hash) and recorded_hash in recorded_release_hashes()
    return ReleaseEvidence(items, recorded_hash, found, generated, downloaded)
