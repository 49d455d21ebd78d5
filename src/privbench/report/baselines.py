"""Reference rows of the report's tables: what a model gets for knowing nothing.

Why: a score means little without its floor. SpatialTrust's multiple-choice questions
reward a constant answer (the best constant per question is the *trivial baseline*), and
Priv-IQ's offline judge gives an empty answer some credit on negative-answer items. Both
are properties of the dataset, computed by the benchmark's audit from the data directory
the runs recorded — and only when that directory still holds the content the runs were
scored on (its content hash equals the logged one); otherwise the row is left out. A
reference row is computed over exactly the items of the runs it stands beside (``ids``),
never over the whole directory when they answered part of it (``--limit``).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from privbench import registry
from privbench.dataset_identity import dataset_hash
from privbench.runtime.errors import PrivbenchError

Baseline = tuple[dict[str, object] | None, str | None]
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


def reference_row(
    benchmark: str, directory: str, expected_hash: str, ids: Collection[str]
) -> Baseline:
    """The benchmark's reference row over ``ids`` (:class:`~privbench.runtime.cross_run.ReferenceRow`),
    or None and why it is left out (None, None: the benchmark has none)."""
    row = registry.get(benchmark).cross_run.reference_row
    if row is None:
        return None, None
    reason = _unavailable(directory, expected_hash, row.what)
    if reason:
        return None, reason
    try:
        values = row.compute(Path(directory), ids)
    except (ImportError, PrivbenchError, OSError, ValueError) as error:
        return None, f"{row.what} not shown: {type(error).__name__}: {error}"
    if values is None:
        return None, f"{row.what} not shown: {row.missing} {directory}."
    return values, None
