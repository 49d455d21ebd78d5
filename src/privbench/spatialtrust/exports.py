"""SpatialTrust exports (``--out DIR``): the per-image scores CSV and the JSON summary.

Mirrors the Priv-IQ exports (:mod:`privbench.priviq.exports`): files named
``{model}_{judge}-...`` after the graded model and the judge, written with keys redacted,
for whatever completed. SpatialTrust has no reference format, so the two files are:

* ``{model}_{judge}-spatialtrust-scores.csv``: a row per scored image: ``id``, the
  question scores ``q1``…``q5`` (0–1; empty = unscored), ``parse_failures`` (the question
  ids that did not parse, space-separated) and ``invalid_boxes`` (how many boxes were not
  scored; each is listed in the summary);
* ``{model}_{judge}-spatialtrust-summary.json``: the ``--json`` document of the run.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd

from privbench.exports import file_stem, write_export
from privbench.spatialtrust.dataset import QUESTION_IDS
from privbench.spatialtrust.results import SpatialLog, SpatialScores


def export_paths(model: str, judge: str, out_dir: Path) -> dict[str, Path]:
    """Where the two exports of a run go, by kind."""
    stem = file_stem(model, judge or "judge")
    return {
        "scores": out_dir / f"{stem}-spatialtrust-scores.csv",
        "summary": out_dir / f"{stem}-spatialtrust-summary.json",
    }


def scores_frame(scores: SpatialScores, logged: SpatialLog) -> pd.DataFrame:
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
    document: dict[str, Any], scores: SpatialScores, logged: SpatialLog, out_dir: Path
) -> dict[str, str]:
    """Write the scores CSV and the summary (``document`` plus the export paths)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = export_paths(str(document["model"]), logged.judge, out_dir)
    exports = {kind: str(path) for kind, path in paths.items()}
    write_export(paths["scores"], scores_frame(scores, logged).to_csv(index=False))
    summary = {**document, "exports": exports}
    write_export(
        paths["summary"], json.dumps(summary, indent=2, ensure_ascii=False, allow_nan=False)
    )
    return exports
