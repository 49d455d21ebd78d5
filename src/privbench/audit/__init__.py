"""``privbench audit``: what a benchmark directory gives away before any model runs.

Why: a score is only meaningful next to what could be scored without doing the task
(blind constant answers, answers leaked by the option texts or printed in the image) and
next to the shape of the data behind it. :mod:`privbench.suites.spatialtrust.audit` and
:mod:`privbench.suites.priviq.audit` compute the figures (pure, from the annotations); this
module recognises which benchmark a directory holds. ``docs/audit.md`` explains every
figure.
"""

from __future__ import annotations

from pathlib import Path

from privbench.runtime.errors import UsageError
from privbench.suites.priviq.dataset import DATASET_FILE as PRIVIQ_FILE
from privbench.suites.spatialtrust.dataset import DATASET_FILE as SPATIAL_FILE


def benchmark_of(directory: Path) -> str:
    """``priviq`` or ``spatialtrust``, by the directory's index file; a one-line error else."""
    if not directory.is_dir():
        raise UsageError(f"{directory}: not a directory")
    if (directory / PRIVIQ_FILE).exists():
        return "priviq"
    if (directory / SPATIAL_FILE).exists():
        return "spatialtrust"
    raise UsageError(
        f"{directory}: neither {PRIVIQ_FILE} nor {SPATIAL_FILE} found; not a benchmark directory"
    )


def audit_directory(directory: str | Path, *, ocr: bool = False) -> dict[str, object]:
    """The audit document of a Priv-IQ or SpatialTrust directory (``ocr``: Priv-IQ only).

    A plain JSON object, as the command line prints it;
    :func:`~privbench.suites.priviq.audit.is_priviq_audit` and
    :func:`~privbench.suites.spatialtrust.audit.is_spatial_audit` tell the two documents apart.
    """
    path = Path(directory)
    if benchmark_of(path) == "priviq":
        from privbench.suites.priviq.audit import audit_priviq

        return audit_priviq(path, ocr=ocr)
    from privbench.suites.spatialtrust.audit import audit_spatialtrust

    return audit_spatialtrust(path)
