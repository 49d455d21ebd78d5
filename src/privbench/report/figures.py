"""The papers' figure kinds, drawn with matplotlib/seaborn from the analysis tables.

Every function takes plain frames and returns a ``Figure``; :func:`save` writes it as PNG
and SVG and returns the PNG as a data URI for the self-contained report. Fonts are
matplotlib's bundled DejaVu, so nothing is fetched.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.figure import Figure

from privbench.analysis.agreement import Ratings

PALETTE = "tab10"


@dataclass(frozen=True)
class SavedFigure:
    """A figure written to disk, and the PNG inline for the HTML report."""

    name: str
    title: str
    png: Path
    svg: Path
    data_uri: str


def save(figure: Figure, directory: Path, name: str, title: str) -> SavedFigure:
    """Write ``figure`` as ``name.png`` and ``name.svg``; close it."""
    directory.mkdir(parents=True, exist_ok=True)
    png, svg = directory / f"{name}.png", directory / f"{name}.svg"
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    png.write_bytes(buffer.getvalue())
    figure.savefig(svg, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    uri = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    return SavedFigure(name, title, png, svg, uri)


def radar(scores: pd.DataFrame, runs: list[str] | None = None) -> Figure:
    """Radar chart of competency scores (Fig. 6): one polygon per run, 0–100."""
    runs = runs or list(scores.index)
    columns = list(scores.columns)
    angles = np.linspace(0, 2 * np.pi, len(columns), endpoint=False).tolist()
    figure = plt.figure(figsize=(5.2, 5.2))
    axes = figure.add_subplot(projection="polar")
    colors = sns.color_palette(PALETTE, len(runs))
    for run, color in zip(runs, colors, strict=True):
        values = [float(v) for v in np.nan_to_num(scores.loc[run, columns].to_numpy(float))]
        axes.plot(angles + angles[:1], values + values[:1], color=color, label=run)
        axes.fill(angles + angles[:1], values + values[:1], color=color, alpha=0.12)
    axes.set_xticks(angles, columns)
    axes.set_ylim(0, 100)
    axes.legend(loc="upper right", bbox_to_anchor=(1.35, 1.12), fontsize=8)
    return figure


def bars_with_intervals(long: pd.DataFrame, column: str, ylabel: str) -> Figure:
    """One bar per run for ``column`` with its 95 % interval (Fig. 4 for the total)."""
    rows = long[long["column"] == column]
    figure, axes = plt.subplots(figsize=(max(4.0, 0.9 * len(rows) + 2), 3.6))
    errors = [rows["score"] - rows["low"], rows["high"] - rows["score"]]
    colors = sns.color_palette(PALETTE, len(rows))
    axes.bar(rows["run"], rows["score"], yerr=errors, capsize=4, color=colors)
    axes.set_ylabel(ylabel)
    axes.set_ylim(0, 100)
    axes.tick_params(axis="x", rotation=30)
    for label in axes.get_xticklabels():
        label.set_horizontalalignment("right")
    return figure


def grouped_bars(scores: pd.DataFrame, ylabel: str) -> Figure:
    """Grouped bars: columns (competencies or tasks) on x, one bar per run (Fig. 5)."""
    long = scores.reset_index(names="run").melt(
        id_vars="run", var_name="column", value_name="score"
    )
    figure, axes = plt.subplots(
        figsize=(max(6.0, 0.8 * len(scores.columns) * max(1, len(scores)) / 2), 3.8)
    )
    sns.barplot(data=long, x="column", y="score", hue="run", palette=PALETTE, ax=axes)
    axes.set_xlabel("")
    axes.set_ylabel(ylabel)
    axes.set_ylim(0, 100)
    axes.legend(fontsize=8, ncol=2)
    return figure


def box_by_column(scores: pd.DataFrame) -> Figure:
    """Distribution across runs of each competency's score (Fig. 7)."""
    long = scores.melt(var_name="column", value_name="score")
    figure, axes = plt.subplots(figsize=(7, 3.8))
    sns.boxplot(data=long, x="column", y="score", color="#9ecae1", ax=axes)
    sns.stripplot(data=long, x="column", y="score", color="#08519c", size=4, ax=axes)
    axes.set_xlabel("")
    axes.set_ylabel("score across models")
    axes.set_ylim(0, 100)
    return figure


def correlation_heatmap(scores: pd.DataFrame) -> Figure:
    """Pearson correlation between competencies across runs (Fig. 8)."""
    figure, axes = plt.subplots(figsize=(6, 5))
    sns.heatmap(
        scores.astype(float).corr(), vmin=-1, vmax=1, cmap="vlag", annot=True, fmt=".2f", ax=axes
    )
    return figure


def clustered_heatmap(scores: pd.DataFrame) -> Figure:
    """Runs × competencies with hierarchical clustering of both (Fig. 9)."""
    grid = sns.clustermap(
        scores.astype(float).fillna(0),
        cmap="viridis",
        annot=True,
        fmt=".1f",
        figsize=(7, 1.2 + 0.5 * len(scores)),
    )
    figure: Figure = grid.figure
    return figure


def contributions(shares: pd.DataFrame) -> Figure:
    """Share of each run's total score contributed by each combination (Fig. 10)."""
    figure, axes = plt.subplots(figsize=(7.5, 0.6 * len(shares) + 1.8))
    left = np.zeros(len(shares))
    colors = sns.color_palette("tab20", len(shares.columns))
    for column, color in zip(shares.columns, colors, strict=True):
        values = shares[column].to_numpy(float)
        axes.barh(shares.index, values, left=left, color=color, label=column)
        left += values
    axes.set_xlabel("% of total score")
    axes.set_xlim(0, 100)
    axes.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.25))
    return figure


def ranked_intervals(pairs: pd.DataFrame) -> Figure:
    """Paired differences with 95 % intervals, ranked (Holm-adjusted p in the labels)."""
    ranked = pairs.sort_values("difference")
    labels = [
        f"{a} − {b} (p={p:.3g})"
        for a, b, p in zip(ranked["a"], ranked["b"], ranked["p_holm"], strict=True)
    ]
    figure, axes = plt.subplots(figsize=(7, 0.45 * len(ranked) + 1.2))
    y = np.arange(len(ranked))
    axes.errorbar(
        ranked["difference"], y,
        xerr=[ranked["difference"] - ranked["low"], ranked["high"] - ranked["difference"]],
        fmt="o", capsize=3, color="#08519c",
    )  # fmt: skip
    axes.axvline(0, color="grey", linestyle="--", linewidth=1)
    axes.set_yticks(y, labels, fontsize=8)
    axes.set_xlabel("difference in score (points), 95 % bootstrap interval")
    return figure


def difference_matrix(pairs: pd.DataFrame, runs: list[str]) -> Figure:
    """Row − column differences; cells marked * where Holm-adjusted p < 0.05."""
    position = {run: i for i, run in enumerate(runs)}
    values = np.full((len(runs), len(runs)), np.nan)
    notes = [["" for _ in runs] for _ in runs]
    for row in pairs.to_dict("records"):
        i, j = position[str(row["a"])], position[str(row["b"])]
        difference = float(row["difference"])
        star = "*" if float(row["p_holm"]) < 0.05 else ""
        values[i, j], values[j, i] = difference, -difference
        notes[i][j], notes[j][i] = f"{difference:+.1f}{star}", f"{-difference:+.1f}{star}"
    matrix = pd.DataFrame(values, index=runs, columns=runs)
    figure, axes = plt.subplots(figsize=(1.1 * len(runs) + 2.5, 0.8 * len(runs) + 1.5))
    limit = max(1.0, float(np.nanmax(np.abs(matrix.to_numpy()))) if len(pairs) else 1.0)
    sns.heatmap(
        matrix,
        annot=notes,
        fmt="",
        cmap="vlag",
        vmin=-limit,
        vmax=limit,
        ax=axes,
        cbar_kws={"label": "row − column"},
    )
    return figure


def bland_altman(ratings: Ratings, survey: str) -> Figure:
    """Bland–Altman plot of human vs judge for one survey (Fig. 11)."""
    rows = ratings.pairs if survey == "all" else ratings.pairs[ratings.pairs["survey"] == survey]
    mean = (rows["human"] + rows["judge"]) / 2
    difference = rows["human"] - rows["judge"]
    bias, sd = difference.mean(), difference.std(ddof=1)
    figure, axes = plt.subplots(figsize=(5, 3.6))
    axes.scatter(mean, difference, color="#08519c", alpha=0.7)
    for value, style in ((bias, "-"), (bias - 1.96 * sd, "--"), (bias + 1.96 * sd, "--")):
        axes.axhline(value, color="#cb181d", linestyle=style, linewidth=1)
    axes.set_xlabel("mean of human and judge")
    axes.set_ylabel("human − judge")
    axes.set_title(str(survey))
    return figure


def violins(ratings: Ratings) -> Figure:
    """Score distributions of humans and the judge per survey (Fig. 12)."""
    long = ratings.pairs.melt(
        id_vars=["survey", "item_id"],
        value_vars=["human", "judge"],
        var_name="rater",
        value_name="score",
    )
    figure, axes = plt.subplots(figsize=(6, 3.6))
    sns.violinplot(
        data=long, x="survey", y="score", hue="rater", split=True, inner="quart", ax=axes
    )
    axes.set_xlabel("")
    return figure
