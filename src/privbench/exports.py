"""What every benchmark's exports share: redacted writes, and what to say when one fails.

Why one place: Priv-IQ (:mod:`privbench.suites.priviq.exports`) and SpatialTrust
(:mod:`privbench.suites.spatialtrust.exports`) both write their files with any API key
redacted. Their names (``{model}_{judge}-...``) follow :mod:`privbench.runtime.run_names`. (The
output directory itself is checked before anything is paid: :mod:`privbench.runtime.output_dirs`.)
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from privbench.runtime.errors import PrivbenchError
from privbench.runtime.redaction import redact
from privbench.runtime.run_names import file_part


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


def write_answers_json(out_dir: Path, model: str, name: str, answers: Mapping[str, object]) -> Path:
    """A run's answers (sample id → answer or answers) as ``<model>-<name>``, in the format
    the benchmark's grade command reads, so the judge can grade them again without the model."""
    path = out_dir / f"{file_part(model)}-{name}"
    return write_export(path, json.dumps(answers, indent=2, ensure_ascii=False))
