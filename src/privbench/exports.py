"""What every benchmark's exports share: the output directory, file names, redacted writes.

Why one place: Priv-IQ (:mod:`privbench.suites.priviq.exports`) and SpatialTrust
(:mod:`privbench.suites.spatialtrust.exports`) both name their files ``{model}_{judge}-...``
after the graded model, the judge and the dataset, and write them with any API key redacted. (The
output directory itself is checked before anything is paid: :mod:`privbench.runtime.output_dirs`.)
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from privbench.runtime.errors import PrivbenchError
from privbench.runtime.redaction import redact


def file_part(text: str) -> str:
    """``text`` usable inside a file name: anything but letters, digits and ``.-_``
    (model names hold slashes, spaces, colons) becomes ``_``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "unnamed"


DATASET_CHARS = 8
"""Hex digits of the dataset's content hash in an export's name."""


def file_stem(model: str, judge: str, dataset_hash: str = "") -> str:
    """The reference evaluator's ``{model}_{judge}`` prefix of every export file, then the
    dataset (``-data-<first 8 hex digits of its content hash>``) where the run recorded it,
    so that one model's exports on two datasets never take each other's names."""
    stem = f"{file_part(model)}_{file_part(judge)}"
    return f"{stem}-data-{dataset_hash[:DATASET_CHARS]}" if dataset_hash else stem


class ExportError(PrivbenchError):
    """An export could not be written (a full disk, a folder removed): the run is intact."""


def write_export(path: Path, text: str) -> Path:
    """Write one export file (UTF-8), with anything that looks like a key redacted.

    Written beside the target and renamed into place, so a full disk never leaves a
    truncated file where a complete one is expected; a failure names the file.
    """
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_text(redact(text), encoding="utf-8")
        os.replace(partial, path)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise ExportError(f"{path}: could not be written ({error.strerror or error})") from None
    return path


def export_failure(error: ExportError, log_location: str) -> str:
    """What to tell the user when exports failed after the run: nothing was lost."""
    return (
        f"{error}; the run itself is complete in {log_location}: `privbench show "
        f"{log_location} --out DIR` writes the exports again without calling any model"
    )
