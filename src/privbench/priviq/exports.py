"""Reference-format exports: the grade file and the two score CSVs (SPEC §2.4).

The public Priv-IQ evaluator (MM-Vet's grader) writes, next to a model's results:

* ``{model}_{judge}-grade-{N}runs.json``: ``{id: {"model": [...], "content": [...],
  "score": [...]}}`` — one entry per run: the judge's reported model name, its reply
  and the score;
* ``{model}_{judge}-cap-score-{N}runs.csv``: one row per model, competency columns
  (most frequent first), ``total``, ``std`` (population std of the per-run totals) and
  ``runs`` (the per-run totals), one decimal;
* ``{model}_{judge}-cap-int-score-{N}runs.csv``: the same with combination columns.

privbench writes the same files with three additions a reader of the reference format
ignores: an unscored run's score is ``null`` (never a silent 0.0); each grade entry
carries ``judge``, ``protocol`` and ``prompt_hash``; each CSV ends with ``judge``,
``protocol`` and ``prompt_hash`` columns.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from privbench.priviq.competencies import combination_file_label
from privbench.priviq.results import GradedLog
from privbench.priviq.scores import PrivIQScores, ScoreCell
from privbench.redaction import redact

DECIMALS = 1


def _file_part(text: str) -> str:
    return text.replace("/", "_").replace(" ", "_")


def _file_stem(model: str, judge: str) -> str:
    return f"{_file_part(model)}_{_file_part(judge)}"


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, DECIMALS)


def grade_file_data(graded: GradedLog) -> dict[str, dict[str, object]]:
    """The grade file's content: per item the judge model, reply and score of each run."""
    identity = graded.judge
    return {
        item_id: {
            "model": [r.model for r in records],
            "content": [r.content for r in records],
            "score": [r.score for r in records],
            "judge": identity.judge,
            "protocol": identity.protocol,
            "prompt_hash": identity.prompt_hash,
        }
        for item_id, records in graded.records.items()
    }


def _row(cells: dict[str, ScoreCell], scores: PrivIQScores, graded: GradedLog) -> dict[str, object]:
    ordered = sorted(cells, key=lambda name: -cells[name].n)  # stable: ties keep code order
    row: dict[str, object] = {name: _rounded(cells[name].score) for name in ordered}
    row["total"] = _rounded(scores.overall.score)
    row["std"] = _rounded(scores.overall.std)
    row["runs"] = str([_rounded(r) for r in scores.overall.runs])
    row["judge"] = graded.judge.judge
    row["protocol"] = graded.judge.protocol
    row["prompt_hash"] = graded.judge.prompt_hash
    return row


def write_exports(
    scores: PrivIQScores, graded: GradedLog, *, model: str, out_dir: Path
) -> dict[str, str]:
    """Write the grade file and both CSVs; return their paths by kind."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = _file_stem(model, graded.judge.judge or "judge")
    n_runs = scores.n_runs
    paths = {
        "grades": out_dir / f"{stem}-grade-{n_runs}runs.json",
        "cap_score": out_dir / f"{stem}-cap-score-{n_runs}runs.csv",
        "cap_int_score": out_dir / f"{stem}-cap-int-score-{n_runs}runs.csv",
    }
    text = json.dumps(grade_file_data(graded), indent=4, ensure_ascii=False)
    paths["grades"].write_text(redact(text), encoding="utf-8")
    competencies = {code: cell for code, cell in scores.competencies.items() if cell.n}
    combinations = {combination_file_label(c): cell for c, cell in scores.combinations.items()}
    for kind, cells in (("cap_score", competencies), ("cap_int_score", combinations)):
        frame = pd.DataFrame([_row(cells, scores, graded)], index=[model])
        paths[kind].write_text(redact(frame.to_csv()), encoding="utf-8")
    return {kind: str(path) for kind, path in paths.items()}
