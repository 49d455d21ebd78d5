"""Reference rows of the report's tables: what a model gets for knowing nothing.

Why: a score means little without its floor. SpatialTrust's multiple-choice questions
reward a constant answer (the best constant per question is the *trivial baseline*), and
Priv-IQ's offline judge gives an empty answer some credit on negative-answer items. Both
are properties of the dataset, computed by :mod:`privbench.audit` from the data directory
the runs recorded — and only when that directory still holds the content the runs were
scored on (its content hash equals the logged one); otherwise the row is left out. A
reference row is computed over exactly the items of the runs it stands beside (``ids``),
never over the whole directory when they answered part of it (``--limit``).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

from privbench.dataset_identity import dataset_hash
from privbench.runtime.errors import PrivbenchError

Baseline = tuple[dict[str, Any] | None, str | None]
"""The reference row's values, or None and the reason it is left out (for a note)."""


def _unavailable(directory: str, expected: str, what: str) -> str | None:
    """Why the dataset's ``what`` cannot be computed from ``directory``, or None if it can."""
    path = Path(directory) if directory else None
    if path is None or not path.is_dir():
        return f"{what} not shown: the data directory {directory or '(unrecorded)'} is not here."
    try:
        same = bool(expected) and dataset_hash(path) == expected
    except OSError:
        same = False
    if not same:
        return (
            f"{what} not shown: {directory} no longer holds the content these runs were"
            " scored on (its content hash differs from the logged one). The sample browser"
            " reads images from there, so they may not be the ones the runs saw."
        )
    return None


def priviq_empty_answer(directory: str, expected_hash: str, ids: Collection[str]) -> Baseline:
    """The offline judge's score of an empty answer (overall and per competency, %)."""
    what = "The empty-answer score"
    reason = _unavailable(directory, expected_hash, what)
    if reason:
        return None, reason
    try:
        from privbench.suites.priviq.audit import empty_answer_scores

        return empty_answer_scores(directory, ids), None
    except (ImportError, PrivbenchError, OSError, ValueError) as error:
        return None, f"{what} not shown: {type(error).__name__}: {error}"


def spatial_trivial(directory: str, expected_hash: str, ids: Collection[str]) -> Baseline:
    """The best constant answer per question and overall (%), and which constants won."""
    what = "The trivial baseline"
    reason = _unavailable(directory, expected_hash, what)
    if reason:
        return None, reason
    try:
        from privbench.suites.spatialtrust.baseline import trivial_baselines
        from privbench.suites.spatialtrust.dataset import load_spatialtrust

        wanted = set(ids)
        items = [item for item in load_spatialtrust(directory) if item.id in wanted]
        if not items:
            return None, f"{what} not shown: no image these runs answered is in {directory}."
        return trivial_baselines(items), None
    except (ImportError, PrivbenchError, OSError, ValueError) as error:
        return None, f"{what} not shown: {type(error).__name__}: {error}"
