"""The eight Priv-IQ competencies, their accepted names, and competency combinations.

Why: the codes appear in the dataset, the scorer's metadata, the tables and the CSV
exports; they are defined here once. The order of :data:`COMPETENCIES` is the column
order of the paper's Table 3.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

COMPETENCIES: tuple[str, ...] = (
    "VizPriv",
    "NER",
    "PrivRisk",
    "PET",
    "Law",
    "Know",
    "CntxPriv",
    "MultLing",
)

_LONG_NAMES: dict[str, tuple[str, ...]] = {
    "VizPriv": ("visual privacy", "visual privacy recognition"),
    "NER": ("named entity recognition",),
    "PrivRisk": ("privacy risk assessment",),
    "PET": ("privacy enhancing technologies", "privacy enhancing technology", "pets"),
    "Law": ("privacy law and regulations", "privacy laws and regulations"),
    "Know": ("general privacy knowledge",),
    "CntxPriv": ("contextual privacy understanding",),
    "MultLing": ("multilingual understanding", "multilingual privacy understanding"),
}


def _key(name: str) -> str:
    """Case-, hyphen- and parenthesis-insensitive form of a competency name."""
    return " ".join(re.sub(r"[()\-_]", " ", name).lower().split())


_BY_KEY: dict[str, str] = {
    _key(alias): code for code in COMPETENCIES for alias in (code, *_LONG_NAMES[code])
}


def normalize_competency(name: str) -> str | None:
    """The canonical code for ``name`` (a code or a long name), or None if unknown."""
    return _BY_KEY.get(_key(name))


Combination = tuple[str, ...]
"""The exact set of codes an item requires, in canonical order."""


def combination_of(codes: Iterable[str]) -> Combination:
    """The canonical combination for a set of canonical codes."""
    wanted = set(codes)
    return tuple(code for code in COMPETENCIES if code in wanted)


def combination_label(combination: Combination, sep: str = " + ") -> str:
    """Human-readable name of a combination (``"CntxPriv + VizPriv"``)."""
    return sep.join(combination)


def combination_file_label(combination: Combination) -> str:
    """The reference evaluator's CSV column name for a combination (``"VizPriv_CntxPriv"``)."""
    return "_".join(combination)
