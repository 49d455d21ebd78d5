"""Reference-format exports: the grade file and the two score CSVs (docs/judge.md).

The public Priv-IQ evaluator (MM-Vet's grader) writes, next to a model's results:

* ``{model}_{judge}-grade-{N}runs.json``: ``{id: {"model": [...], "content": [...],
  "score": [...]}}`` — one entry per run: the judge's reported model name, its reply
  and the score;
* ``{model}_{judge}-cap-score-{N}runs.csv``: one row per model, competency columns
  (most frequent first), ``total``, ``std`` (population std of the per-run totals) and
  ``runs`` (the per-run totals), one decimal;
* ``{model}_{judge}-cap-int-score-{N}runs.csv``: the same with combination columns.

privbench writes the same files with additions a reader of the reference format ignores:
an unscored run's score is ``null`` (never a silent 0.0); each grade entry carries
``judge``, ``protocol``, ``prompt_hash`` and ``answer_hash`` (what a later ``--grades``
checks before reusing a run) and, from an ``--explain`` run of the offline judge,
``offline_rules`` (the rules that made the grade, one line each); each CSV has every competency (or combination) column even
where no item was graded, ``n_<column>`` item counts, the judge's identity, and
``status`` (``complete`` / ``partial``) with the missing, failed and unscored counts and
ids, so an incomplete run can never pass for a complete one; ``refusals``, ``partial``,
``refusal_rate`` and ``partial_rate`` (percent) count the answers that decline
(:mod:`privbench.suites.priviq.refusals`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from privbench.exports import write_export
from privbench.runtime.run_names import file_stem
from privbench.suites.priviq.aggregate import PrivIQScores, ScoreCell
from privbench.suites.priviq.competencies import combination_file_label
from privbench.suites.priviq.log import PrivIQLog

DECIMALS = 1


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, DECIMALS)


def grade_file_data(graded: PrivIQLog) -> dict[str, dict[str, object]]:
    """The grade file's content: per item the judge model, reply and score of each run
    (and, from an ``--explain`` run, the offline judge's rules under ``offline_rules``)."""
    identity = graded.judge
    data: dict[str, dict[str, object]] = {}
    for item_id, records in graded.records.items():
        entry: dict[str, object] = {
            "model": [r.model for r in records],
            "content": [r.content for r in records],
            "score": [r.score for r in records],
            "judge": identity.judge,
            "protocol": identity.protocol,
            "prompt_hash": identity.prompt_hash,
            "answer_hash": graded.answer_hashes.get(item_id, ""),
        }
        if item_id in graded.offline_rules:
            entry["offline_rules"] = graded.offline_rules[item_id]
        data[item_id] = entry
    return data


def completeness(scores: PrivIQScores, graded: PrivIQLog) -> dict[str, object]:
    """Whether the run is complete and, if not, what is missing, failed or unscored."""
    return {
        "status": "complete" if graded.complete else "partial",
        "missing": len(graded.missing),
        "failed": len(graded.errors),
        "unscored": scores.unscored_runs,
        "missing_ids": ";".join(graded.missing),
        "failed_ids": ";".join(graded.errors),
        "unscored_ids": ";".join(scores.unscored_items),
    }


def _row(cells: dict[str, ScoreCell], scores: PrivIQScores, graded: PrivIQLog) -> dict[str, object]:
    ordered = sorted(cells, key=lambda name: -cells[name].n)  # stable: ties keep code order
    row: dict[str, object] = {name: _rounded(cells[name].score) for name in ordered}
    row["total"] = _rounded(scores.overall.score)
    row["std"] = _rounded(scores.overall.std)
    row["runs"] = str([_rounded(r) for r in scores.overall.runs])
    row["judge"] = graded.judge.judge
    row["protocol"] = graded.judge.protocol
    row["prompt_hash"] = graded.judge.prompt_hash
    versions = graded.versions.record()
    row["model_version"] = ";".join(versions["model"])
    row["judge_version"] = ";".join(versions["judge"])
    row.update({f"n_{name}": cells[name].n for name in ordered})
    row.update(completeness(scores, graded))
    refusals = scores.refusals.overall
    row["refusals"], row["partial"] = refusals.refusals, refusals.partial
    row["refusal_rate"] = _rounded(refusals.refusal_rate)
    row["partial_rate"] = _rounded(refusals.partial_rate)
    return row


def write_exports(
    scores: PrivIQScores, graded: PrivIQLog, *, model: str, out_dir: Path, dataset_hash: str = ""
) -> dict[str, str]:
    """Write the grade file and both CSVs; return their paths by kind (named after the
    model, the judge and the dataset's hash)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = file_stem(model, graded.judge.judge or "judge", dataset_hash)
    n_runs = scores.n_runs
    paths = {
        "grades": out_dir / f"{stem}-grade-{n_runs}runs.json",
        "cap_score": out_dir / f"{stem}-cap-score-{n_runs}runs.csv",
        "cap_int_score": out_dir / f"{stem}-cap-int-score-{n_runs}runs.csv",
    }
    text = json.dumps(grade_file_data(graded), indent=4, ensure_ascii=False)
    write_export(paths["grades"], text)
    competencies = dict(scores.competencies)  # every column, n = 0 included: partial is visible
    combinations = {combination_file_label(c): cell for c, cell in scores.combinations.items()}
    for kind, cells in (("cap_score", competencies), ("cap_int_score", combinations)):
        frame = pd.DataFrame([_row(cells, scores, graded)], index=[model])
        write_export(paths[kind], frame.to_csv())
    return {kind: str(path) for kind, path in paths.items()}
