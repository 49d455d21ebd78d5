"""SpatialTrust exports (``--out DIR``): the per-image scores CSV and the JSON summary.

Mirrors the Priv-IQ exports (:mod:`privbench.suites.priviq.exports`): files named
``{model}_{judge}-...`` after the graded model and the judge, written with keys redacted,
for whatever completed. SpatialTrust has no reference format, so the two files are:

* ``{model}_{judge}-data-{hash}-spatialtrust-{strategy}-{box_format}-scores.csv``: a row per scored
  image: ``id``, the question scores ``q1``…``q5`` (0–1; empty = unscored),
  ``parse_failures`` (the question ids that did not parse, space-separated) and
  ``invalid_boxes`` (how many boxes were not scored; each is listed in the summary);
* ``{model}_{judge}-data-{hash}-spatialtrust-{strategy}-{box_format}-summary.json``: the ``--json``
  document of the run.

Strategy and box format are in the name because a direct, a staged and a guard run of
one model (or one run regraded in another box format) are different results that belong
side by side. An existing export is never replaced silently: :func:`check_free` refuses
before anything is paid unless ``--overwrite`` is given, and a file that appeared during
the run is kept and the new one written beside it (``…-2-scores.csv``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from privbench.exports import write_export
from privbench.runtime.errors import UsageError
from privbench.runtime.run_names import file_part, file_stem
from privbench.suites.spatialtrust.aggregate import SpatialScores
from privbench.suites.spatialtrust.dataset import QUESTION_IDS
from privbench.suites.spatialtrust.log import SpatialTrustLog


def export_paths(
    model: str,
    judge: str,
    strategy: str,
    box_format: str,
    out_dir: Path,
    dataset_hash: str = "",
    copy: int = 1,
) -> dict[str, Path]:
    """Where the two exports of a run go, by kind (``copy`` > 1: beside existing ones)."""
    stem = f"{file_stem(model, judge or 'judge', dataset_hash)}-spatialtrust-{file_part(strategy)}-{file_part(box_format)}"
    if copy > 1:
        stem += f"-{copy}"
    return {
        "scores": out_dir / f"{stem}-scores.csv",
        "summary": out_dir / f"{stem}-summary.json",
    }


def check_free(
    model: str,
    judge: str,
    strategy: str,
    box_format: str,
    out_dir: Path,
    overwrite: bool,
    dataset_hash: str = "",
) -> None:
    """Refuse (one line, before anything is paid) to replace a run's existing exports."""
    if overwrite:
        return
    paths = export_paths(model, judge, strategy, box_format, out_dir, dataset_hash)
    taken = [p for p in paths.values() if p.exists()]
    if taken:
        raise UsageError(
            f"{taken[0]} exists: pass --overwrite to replace it, or choose another --out"
        )


def scores_frame(scores: SpatialScores, logged: SpatialTrustLog) -> pd.DataFrame:
    """The per-image table of the scores CSV, in the order of ``scores.items``."""
    counts = Counter(str(box.get("id")) for box in logged.invalid_boxes)
    rows = [
        {
            "id": image_id,
            **{qid: image[qid] for qid in QUESTION_IDS},
            "parse_failures": " ".join(logged.failed_questions.get(image_id, {})),
            "invalid_boxes": counts.get(image_id, 0),
        }
        for image_id, image in scores.items.items()
    ]
    columns = ["id", *QUESTION_IDS, "parse_failures", "invalid_boxes"]
    return pd.DataFrame(rows, columns=columns)


def write_spatial_exports(
    document: Mapping[str, object],
    scores: SpatialScores,
    logged: SpatialTrustLog,
    out_dir: Path,
    *,
    overwrite: bool = False,
    refuse_existing: bool = False,
) -> dict[str, str]:
    """Write the scores CSV and the summary (``document`` plus the export paths).

    Existing exports are kept: with ``refuse_existing`` (nothing was paid, e.g. ``show``)
    the call stops with one line; else the new files are written beside them.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    naming = (
        str(document["label"]),
        logged.judge,
        str(document["strategy"]),
        str(document.get("box_format") or "xyxy"),
        out_dir,
        str(document.get("dataset_hash") or ""),
    )
    paths = export_paths(*naming)
    if refuse_existing:
        check_free(*naming[:5], overwrite, naming[5])
    copy = 1
    while not overwrite and any(p.exists() for p in paths.values()):
        copy += 1  # appeared while the run was going: keep it, write beside it
        paths = export_paths(*naming, copy=copy)
    exports = {kind: str(path) for kind, path in paths.items()}
    write_export(paths["scores"], scores_frame(scores, logged).to_csv(index=False))
    summary = {**document, "exports": exports}
    write_export(
        paths["summary"], json.dumps(summary, indent=2, ensure_ascii=False, allow_nan=False)
    )
    return exports
