"""``privbench report``: one self-contained HTML file from inspect logs.

Everything is inline — CSS, the little JavaScript of the sample browser, figures and
images as data URIs — and a Content-Security-Policy forbids every network fetch, so the
file can be mailed or archived and opened offline. Every dataset and model text is
HTML-escaped by the template engine (jinja2 autoescape); the only markup not escaped is
what this module builds from numbers (figure data URIs and box overlays).

Figures are also written as PNG and SVG to ``<report>_figures/`` beside the report.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from jinja2 import Environment, PackageLoader, select_autoescape
from PIL import Image

from privbench.analysis.agreement import agreement_table, as_records, read_ratings
from privbench.analysis.runs import Results, load_results
from privbench.analysis.tables import (
    AVERAGE,
    OVERALL,
    TOTAL,
    comparisons,
    item_scores,
    priviq_tables,
    spatial_table,
    wide,
)
from privbench.analysis.uncertainty import N_BOOTSTRAP
from privbench.formatting import fmt
from privbench.report import figures
from privbench.spatialtrust.results import TASK_LABELS

THUMBNAIL_WIDTH = 640
DEFAULT_BROWSE = 200


@dataclass(frozen=True)
class ReportSettings:
    """Knobs of a report: labels for the logs, seed and size of the resampling."""

    labels: Sequence[str] = ()
    seed: int = 0
    n_boot: int = N_BOOTSTRAP
    browse: int = DEFAULT_BROWSE
    """At most this many items (Priv-IQ) / images (SpatialTrust) in the sample browser."""
    ratings: Path | None = None
    """A filled rating sheet: adds the judge–human agreement section (Table 6, Figs. 11–12)."""
    scale: float = 1.0


def _thumbnail(path: str, cache: dict[str, str | None]) -> str | None:
    if path in cache:
        return cache[path]
    try:
        with Image.open(path) as opened:
            image = opened.convert("RGB")
        if image.width > THUMBNAIL_WIDTH:
            height = round(image.height * THUMBNAIL_WIDTH / image.width)
            image = image.resize((THUMBNAIL_WIDTH, height))
        buffer = io.BytesIO()
        image.save(buffer, format="JPEG", quality=80)
        cache[path] = "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode()
    except (OSError, ValueError):
        cache[path] = None
    return cache[path]


def _cells(long: pd.DataFrame, decimals_std: bool) -> dict[str, Any]:
    """A display table: header with item counts, rows with score, interval, best marked."""
    scores = wide(long)
    lows, highs = wide(long, "low"), wide(long, "high")
    stds, counts = wide(long, "std"), wide(long, "n")
    columns = list(scores.columns)
    runs = [r for r in scores.index if r != AVERAGE]
    best = {c: scores.loc[runs, c].max() for c in columns}
    rows = []
    for run in [*runs, AVERAGE]:
        cells = []
        for column in columns:
            value = scores.loc[run, column]
            missing = value is None or (isinstance(value, float) and math.isnan(value))
            cell = {
                "score": "–" if missing else fmt(float(value)),
                "best": run != AVERAGE and not missing and value == best[column] and len(runs) > 1,
                "interval": "",
                "std": "",
                "n": "",
            }
            if run != AVERAGE and not missing:
                low, high = lows.loc[run, column], highs.loc[run, column]
                if not (math.isnan(low) or math.isnan(high)):
                    cell["interval"] = f"[{low:.1f}, {high:.1f}]"
                std = stds.loc[run, column]
                if decimals_std and std is not None and not math.isnan(std):
                    cell["std"] = f"±{std:.1f}"
                cell["n"] = str(int(counts.loc[run, column]))
            cells.append(cell)
        rows.append({"run": run, "cells": cells, "average": run == AVERAGE})
    header_counts = {c: int(counts.loc[runs, c].max()) for c in columns}
    return {"columns": columns, "counts": header_counts, "rows": rows}


def _comparison_rows(pairs: pd.DataFrame) -> list[dict[str, str]]:
    return [
        {
            "a": str(row["a"]),
            "b": str(row["b"]),
            "n": str(row["n"]),
            "difference": f"{row['difference']:+.1f}",
            "interval": f"[{row['low']:.1f}, {row['high']:.1f}]",
            "p": f"{row['p']:.3g}",
            "p_holm": f"{row['p_holm']:.3g}",
            "significant": "yes" if row["p_holm"] < 0.05 else "no",
        }
        for row in pairs.to_dict("records")
    ]


def _comparison_figures(
    pairs: pd.DataFrame, runs: list[str], directory: Path, prefix: str
) -> list[figures.SavedFigure]:
    if pairs.empty:
        return []
    return [
        figures.save(figures.ranked_intervals(pairs), directory, f"{prefix}-differences", "Paired differences, ranked"),
        figures.save(figures.difference_matrix(pairs, runs), directory, f"{prefix}-matrix", "Difference matrix (row − column; * Holm p < 0.05)"),
    ]  # fmt: skip


def _priviq_section(
    results: Results, settings: ReportSettings, rng: np.random.Generator, directory: Path
) -> dict[str, Any]:
    frame = results.priviq
    table3, table5 = priviq_tables(frame, rng, settings.n_boot)
    runs = list(dict.fromkeys(table3["run"]))
    scores = wide(table3).drop(index=AVERAGE)
    competencies = scores.drop(columns=[TOTAL])
    saved = [
        figures.save(figures.bars_with_intervals(table3, TOTAL, "total score (%)"), directory, "priviq-totals", "Total score with 95 % interval (Fig. 4)"),
        figures.save(figures.grouped_bars(competencies, "score (%)"), directory, "priviq-competencies", "Scores by competency (Fig. 5)"),
        figures.save(figures.radar(competencies), directory, "priviq-radar-overlay", "Radar, all models (Fig. 6)"),
    ]  # fmt: skip
    if len(runs) > 1:
        saved += [
            figures.save(
                figures.radar(competencies, [run]), directory, f"priviq-radar-{i}", f"Radar: {run}"
            )
            for i, run in enumerate(runs)
        ]
        saved.append(
            figures.save(
                figures.box_by_column(competencies),
                directory,
                "priviq-box",
                "Competency scores across models (Fig. 7)",
            )
        )
        saved.append(
            figures.save(
                figures.clustered_heatmap(competencies),
                directory,
                "priviq-clustermap",
                "Clustered heatmap (Fig. 9)",
            )
        )
    if len(runs) > 2:
        saved.append(
            figures.save(
                figures.correlation_heatmap(competencies),
                directory,
                "priviq-correlation",
                "Competency correlation across models (Fig. 8)",
            )
        )
    sums = frame.groupby(["run", "item"], sort=False).agg(
        score=("score", "mean"), combination=("combination", "first")
    )
    shares = sums.groupby(["run", "combination"])["score"].sum().unstack().fillna(0.0)
    shares = 100 * shares.div(shares.sum(axis=1), axis=0)
    saved.append(
        figures.save(
            figures.contributions(shares.reindex(runs)),
            directory,
            "priviq-contributions",
            "Contribution of combinations to the total (Fig. 10)",
        )
    )
    pairs = comparisons(item_scores(frame, "priviq"), rng, runs, settings.n_boot)
    saved += _comparison_figures(pairs, runs, directory, "priviq")
    epochs = int(frame["epoch"].max()) if len(frame) else 1
    return {
        "table3": _cells(table3, epochs > 1),
        "table5": _cells(table5, epochs > 1),
        "comparisons": _comparison_rows(pairs),
        "figures": saved,
        "epochs": epochs,
    }


def _spatial_section(
    results: Results, settings: ReportSettings, rng: np.random.Generator, directory: Path
) -> dict[str, Any]:
    frame = results.spatial
    table2 = spatial_table(frame, rng, settings.n_boot)
    table2 = table2.assign(
        column=table2["column"].map(lambda c: TASK_LABELS.get(c, "Overall" if c == OVERALL else c))
    )
    runs = list(dict.fromkeys(table2["run"]))
    tasks = wide(table2).drop(index=AVERAGE).drop(columns=["Overall"])
    saved = [
        figures.save(figures.grouped_bars(tasks, "score (%)"), directory, "spatial-tasks", "SpatialTrust task scores"),
        figures.save(figures.bars_with_intervals(table2, "Overall", "overall (%)"), directory, "spatial-overall", "SpatialTrust overall with 95 % interval"),
    ]  # fmt: skip
    pairs = comparisons(item_scores(frame, "spatialtrust"), rng, runs, settings.n_boot)
    saved += _comparison_figures(pairs, runs, directory, "spatial")
    return {
        "table2": _cells(table2, False),
        "comparisons": _comparison_rows(pairs),
        "figures": saved,
    }


def _priviq_browser(
    frame: pd.DataFrame, limit: int, cache: dict[str, str | None]
) -> list[dict[str, Any]]:
    first = frame.sort_values("epoch").groupby(["item", "run"], sort=False).first()
    means = frame.groupby(["item", "run"], sort=False)["score"].mean()
    cards = []
    for item in list(dict.fromkeys(frame["item"]))[:limit]:
        rows = first.loc[item]
        head = rows.iloc[0]
        answers = [
            {
                "run": str(run),
                "answer": str(row["answer"]) if not row["no_answer"] else "",
                "no_answer": bool(row["no_answer"]),
                "score": "unscored"
                if math.isnan(means.loc[(item, run)])
                else f"{means.loc[(item, run)]:.2f}",
                "judge_reply": str(row["judge_reply"]),
            }
            for run, row in rows.iterrows()
        ]
        cards.append(
            {
                "id": str(item),
                "image": _thumbnail(str(head["image"]), cache),
                "question": str(head["question"]),
                "reference": str(head["reference"]),
                "competencies": str(head["combination"]),
                "answers": answers,
            }
        )
    return cards


def _boxes(record: dict[str, Any] | None, kind: str) -> list[dict[str, Any]]:
    """Box overlays (numbers and a short label) of a question's ground truth or prediction."""
    if not record:
        return []
    found: list[dict[str, Any]] = []
    for letter, boxes in (record.get("evidence") or record.get("boxes") or {}).items():
        found += [{"box": box, "label": str(letter), "kind": kind} for box in boxes if box]
    for index, factor in enumerate(record.get("factors") or []):
        if factor.get("box"):
            found.append({"box": factor["box"], "label": f"f{index}", "kind": kind})
    return [b for b in found if isinstance(b["box"], list) and len(b["box"]) == 4]


def _spatial_browser(
    frame: pd.DataFrame, limit: int, cache: dict[str, str | None]
) -> list[dict[str, Any]]:
    """Per image: its questions with ground truth, then one row per run (answers, boxes)."""
    cards = []
    for image_id in list(dict.fromkeys(frame["image_id"]))[:limit]:
        rows = frame[frame["image_id"] == image_id]
        head = rows.iloc[0]
        questions = []
        for qid, q_rows in rows.groupby("qid", sort=True):
            truth = q_rows.iloc[0]["ground_truth"] or {}
            answer = truth.get("answer", "")
            questions.append(
                {
                    "qid": str(qid),
                    "text": str(truth.get("text", "")),
                    "options": truth.get("options", {}),
                    "answer": ", ".join(answer) if isinstance(answer, list) else str(answer),
                    "truth_boxes": _boxes(truth, "truth"),
                }
            )
        runs = []
        for run, run_rows in rows.groupby("run", sort=False):
            answers = {}
            for row in run_rows.to_dict("records"):
                prediction = row["prediction"] if isinstance(row["prediction"], dict) else None
                choice = row["prediction"] if isinstance(row["prediction"], str) else ""
                answers[str(row["qid"])] = {
                    "score": "unscored" if math.isnan(row["score"]) else f"{row['score']:.2f}",
                    "choices": ", ".join(prediction.get("choices", [])) if prediction else choice,
                    "text": prediction.get("text", "") if prediction else "",
                    "parse_failure": bool(row["parse_failure"]),
                    "boxes": _boxes(prediction, "pred"),
                }
            runs.append({"run": str(run), "answers": answers})
        cards.append(
            {
                "id": str(image_id),
                "image": _thumbnail(str(head["image"]), cache),
                "width": int(head["width"] or 1),
                "height": int(head["height"] or 1),
                "questions": questions,
                "runs": runs,
            }
        )
    return cards


def _agreement_section(ratings_path: Path, scale: float, directory: Path) -> dict[str, Any]:
    ratings = read_ratings(ratings_path, scale=scale)
    columns = agreement_table(ratings, scale / 10)
    surveys = list(dict.fromkeys(ratings.pairs["survey"]))
    saved = [
        figures.save(
            figures.bland_altman(ratings, s),
            directory,
            f"agreement-bland-altman-{i}",
            f"Bland–Altman: {s} (Fig. 11)",
        )
        for i, s in enumerate(surveys)
    ]
    saved.append(
        figures.save(
            figures.violins(ratings),
            directory,
            "agreement-violins",
            "Human vs judge scores (Fig. 12)",
        )
    )
    return {
        "columns": as_records(columns),
        "figures": saved,
        "blank": ratings.blank,
        "raters": ratings.raters,
        "tolerance": scale / 10,
    }


def build_report(
    paths: Sequence[str | Path], output: str | Path, settings: ReportSettings | None = None
) -> Path:
    """Read the logs, compute tables, intervals, comparisons and figures, write the HTML."""
    settings = settings or ReportSettings()
    results = load_results(paths, settings.labels)
    out = Path(output)
    directory = out.with_name(out.stem + "_figures")
    rng = np.random.default_rng(settings.seed)
    cache: dict[str, str | None] = {}
    context: dict[str, Any] = {
        "runs": results.runs.to_dict("records"),
        "seed": settings.seed,
        "n_boot": settings.n_boot,
        "priviq": None,
        "spatial": None,
        "agreement": None,
    }
    if not results.priviq.empty:
        context["priviq"] = _priviq_section(results, settings, rng, directory)
        context["priviq"]["browser"] = _priviq_browser(results.priviq, settings.browse, cache)
        context["priviq"]["browsed_of"] = results.priviq["item"].nunique()
    if not results.spatial.empty:
        context["spatial"] = _spatial_section(results, settings, rng, directory)
        context["spatial"]["browser"] = _spatial_browser(results.spatial, settings.browse, cache)
        context["spatial"]["browsed_of"] = results.spatial["image_id"].nunique()
    if settings.ratings is not None:
        context["agreement"] = _agreement_section(settings.ratings, settings.scale, directory)
    environment = Environment(
        loader=PackageLoader("privbench.report", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    html = environment.get_template("report.html.j2").render(**context)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")
    return out
