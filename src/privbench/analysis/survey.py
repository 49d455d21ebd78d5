"""Rating sheets for judge–human agreement studies (``privbench survey export``).

Draws graded Priv-IQ samples at random (seeded), spreading the draw over every run so
each model is represented, and writes

* ``survey.csv`` — the long format ``privbench agreement`` reads: ``item_id, rater,
  score, survey`` plus the context a rater needs (model, question, reference, answer).
  The judge's rows are filled in (its mean score over epochs); each human rater gets a row
  per sample with an empty ``score`` to fill;
* ``survey.html`` — the same samples as a printable form (every text escaped).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from jinja2 import Environment, PackageLoader, select_autoescape

from privbench.analysis.runs import load_results
from privbench.runtime.errors import UsageError

COLUMNS = ["item_id", "rater", "score", "survey", "model", "question", "reference", "answer"]


def draw_samples(priviq: pd.DataFrame, n: int, seed: int) -> pd.DataFrame:
    """``n`` graded (run, item) pairs, round-robin over runs so every run appears."""
    graded = priviq.groupby(["run", "item"], sort=False).agg(
        score=("score", "mean"),
        question=("question", "first"),
        reference=("reference", "first"),
        answer=("answer", "first"),
        image=("image", "first"),
    )
    graded = graded[graded["score"].notna()].reset_index()
    runs = list(dict.fromkeys(graded["run"]))
    if n < len(runs):
        raise UsageError(f"--n {n} is smaller than the {len(runs)} models to represent")
    rng = np.random.default_rng(seed)
    pools = {run: list(rng.permutation(graded.index[graded["run"] == run])) for run in runs}
    chosen: list[int] = []
    while len(chosen) < n and any(pools.values()):
        for run in runs:
            if pools[run] and len(chosen) < n:
                chosen.append(int(pools[run].pop()))
    return graded.loc[chosen].reset_index(drop=True)


def export_survey(
    logs: Sequence[str | Path],
    out_dir: Path,
    *,
    n: int = 10,
    seed: int = 0,
    raters: int = 3,
    survey: str = "Survey 1",
    judge_rater: str = "judge",
) -> tuple[Path, Path]:
    """Write ``survey.csv`` and ``survey.html`` into ``out_dir``; return their paths."""
    results = load_results(logs)
    if results.priviq.empty:
        raise UsageError("the logs hold no graded Priv-IQ samples")
    samples = draw_samples(results.priviq, n, seed)
    rows = []
    for sample in samples.to_dict("records"):
        item_id = f"{sample['run']}::{sample['item']}"
        context = {
            "survey": survey,
            "model": sample["run"],
            "question": sample["question"],
            "reference": sample["reference"],
            "answer": sample["answer"],
        }
        judge_score = float(sample["score"])
        rows.append(
            {"item_id": item_id, "rater": judge_rater, "score": round(judge_score, 4), **context}
        )
        rows += [
            {"item_id": item_id, "rater": f"rater{k}", "score": math.nan, **context}
            for k in range(1, raters + 1)
        ]
    out_dir.mkdir(parents=True, exist_ok=True)
    csv_path, html_path = out_dir / "survey.csv", out_dir / "survey.html"
    pd.DataFrame(rows, columns=COLUMNS).to_csv(csv_path, index=False)
    environment = Environment(
        loader=PackageLoader("privbench.report", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
    )
    html = environment.get_template("survey.html.j2").render(
        survey=survey,
        samples=samples.assign(
            item_id=[f"{r}::{i}" for r, i in zip(samples["run"], samples["item"], strict=True)]
        ).to_dict("records"),
    )
    html_path.write_text(html, encoding="utf-8")
    return csv_path, html_path
