"""The papers' figure kinds, drawn with matplotlib from the analysis tables, in one style.

Why one style sheet (``privbench.mplstyle``): every figure of the report sits on the same
page, so every figure uses the same font sizes, line widths and the colourblind-safe
Okabe–Ito colours, and is drawn for the width it is shown at (96 px per inch: 9 pt text is
12 px on screen). A run keeps its colour in every figure (colours follow the run order).

Conventions every figure keeps: axis labels say the unit; a bar with a 95 % interval in
the tables has that interval drawn; a zero is drawn as a zero (a mark and "0"), distinct
from a missing value ("n/a"); tick labels are wrapped, never overlapping. Fonts are
matplotlib's bundled DejaVu Sans, so nothing is fetched. :func:`save` writes each figure
as a 200 dpi PNG and an SVG and returns the PNG inline for the self-contained report.

Library warnings (seaborn, matplotlib) are silenced while drawing: the report states what
matters in its own notes.
"""

from __future__ import annotations

import base64
import io
import math
import re
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.projections.polar import PolarAxes
from matplotlib.transforms import blended_transform_factory

from privbench.agreement_measures import bland_altman_limits
from privbench.analysis.agreement import Ratings
from privbench.formatting import signed

STYLE = Path(__file__).with_name("privbench.mplstyle")
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#8C8C8C", "#F0E442")
"""Okabe & Ito's colourblind-safe colours, in the order runs receive them (their black is a
mid grey here, so that black interval whiskers stay visible on every bar)."""
OTHER_COLOR = "#B8BEC9"
INK = "#1d2433"
MUTED = "#5b6477"
PNG_DPI = 200
SCREEN_DPI = 96
"""CSS pixels per inch: the report shows a figure at its drawn size."""
WIDTH = 5.8
"""Inches of a figure in one of the report's two figure columns (≈ 557 px)."""
WIDE = 11.6
"""Inches of a figure spanning both columns."""
MAX_SHARES = 8
"""Legend entries of the contribution figure: the largest combinations, then "other"."""

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True)
class SavedFigure:
    """A figure written to disk, and the PNG inline for the HTML report."""

    name: str
    title: str
    png: Path
    svg: Path
    data_uri: str
    width: int = 0
    """CSS pixels the report shows it at (drawn size at 96 px per inch)."""
    height: int = 0
    mirrors: str = ""
    """The paper figure this one mirrors, for the caption ("Priv-IQ Fig. 5")."""
    wide: bool = False


@contextmanager
def style() -> Iterator[None]:
    """The privbench style, with library warnings silenced, for drawing and saving."""
    with plt.style.context(str(STYLE)), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def styled(function: Callable[P, R]) -> Callable[P, R]:
    """Draw ``function``'s figure inside :func:`style`."""

    @wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with style():
            return function(*args, **kwargs)

    return wrapper


def palette(n: int) -> list[str]:
    """``n`` colourblind-safe colours: Okabe–Ito, then seaborn's colourblind set."""
    if n <= len(OKABE_ITO):
        return list(OKABE_ITO[:n])
    extra = [str(c) for c in sns.color_palette("colorblind", n).as_hex()]
    return list(OKABE_ITO) + extra[len(OKABE_ITO) : n]


def wrap(label: str, width: int = 16) -> str:
    """Break a tick label into lines of at most ~``width`` characters.

    Breaks at spaces; a single word longer than ``width`` is broken after a slash, hyphen
    or underscore (model names are ``provider/model-name``), so words stay whole where
    they can.
    """
    pieces: list[str] = []
    for word in label.split():
        if len(word) > width:
            pieces += [p for p in re.split(r"(?<=[/_\-])", word) if p]
        else:
            pieces.append(word)
    lines: list[str] = []
    current = ""
    for piece in pieces:
        joiner = "" if not current or current.endswith(("/", "-", "_")) else " "
        if current and len(current) + len(joiner) + len(piece) > width:
            lines.append(current)
            current = piece
        else:
            current += joiner + piece
    if current:
        lines.append(current)
    return "\n".join(lines) if lines else label


def top_shares(shares: pd.DataFrame, keep: int = MAX_SHARES) -> pd.DataFrame:
    """At most ``keep`` columns: the largest (by mean share), the rest summed as "other".

    Columns that are zero for every run are dropped first: a zero share says nothing in a
    stacked bar and only adds a legend entry.
    """
    nonzero = shares.loc[:, (shares.fillna(0.0) > 0).any(axis=0)].fillna(0.0)
    order = nonzero.mean(axis=0).sort_values(ascending=False, kind="stable").index
    ordered = nonzero[list(order)]
    if ordered.shape[1] <= keep:
        return ordered
    head, tail = ordered.iloc[:, : keep - 1], ordered.iloc[:, keep - 1 :]
    result = head.copy()
    result[f"other ({tail.shape[1]} combinations)"] = tail.sum(axis=1)
    return result


def save(
    figure: Figure,
    directory: Path,
    name: str,
    title: str,
    mirrors: str = "",
    wide: bool = False,
) -> SavedFigure:
    """Write ``figure`` as ``name.png`` (200 dpi) and ``name.svg``; close it."""
    directory.mkdir(parents=True, exist_ok=True)
    png, svg = directory / f"{name}.png", directory / f"{name}.svg"
    buffer = io.BytesIO()
    with style():
        figure.savefig(buffer, format="png", dpi=PNG_DPI, bbox_inches="tight")
        figure.savefig(svg, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    data = buffer.getvalue()
    png.write_bytes(data)
    width_px = int.from_bytes(data[16:20], "big")
    height_px = int.from_bytes(data[20:24], "big")
    uri = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
    return SavedFigure(
        name,
        title,
        png,
        svg,
        uri,
        width=round(width_px * SCREEN_DPI / PNG_DPI),
        height=round(height_px * SCREEN_DPI / PNG_DPI),
        mirrors=mirrors,
        wide=wide,
    )


def _finite(value: object) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) else math.nan


def _value_label(axes: Axes, x: float, y: float, text: str, **kwargs: Any) -> None:
    """A bar's value in small ink type; ``kwargs`` may override the colour or size."""
    axes.text(x, y, text, **{"fontsize": 7.5, "color": INK, **kwargs})


@styled
def run_bars(rows: pd.DataFrame, xlabel: str, colors: Sequence[str] | None = None) -> Figure:
    """One horizontal bar per run with its 95 % interval and value (Fig. 4 for the total).

    ``rows``: one row per run (column ``run``, ``score``, ``low``, ``high``), in display
    order. Horizontal, so that long run names read as they are.
    """
    n = len(rows)
    colors = list(colors) if colors is not None else palette(n)
    figure, axes = plt.subplots(figsize=(WIDTH, 0.75 + 0.36 * max(n, 1)))
    for index, row in enumerate(rows.to_dict("records")):
        score, low, high = _number(row["score"]), _number(row.get("low")), _number(row.get("high"))
        if not _finite(score):
            _value_label(axes, 1.0, index, "n/a (nothing scored)", va="center", color=MUTED)
            continue
        axes.barh(index, score, height=0.62, color=colors[index])
        right = float(score)
        if _finite(low) and _finite(high):
            axes.errorbar(
                score,
                index,
                xerr=[[max(0.0, score - low)], [max(0.0, high - score)]],
                fmt="none",
                ecolor=INK,
                elinewidth=1.0,
                capsize=3,
            )
            right = max(right, float(high))
        if score == 0:
            axes.plot(0, index, marker="|", markersize=11, markeredgewidth=2.5, color=INK)
        _value_label(axes, right + 1.5, index, f"{score:.1f}", va="center")
    axes.set_yticks(range(n), [wrap(str(r), 28) for r in rows["run"]])
    axes.set_ylim(n - 0.5, -0.5)
    axes.set_xlim(0, 110)
    axes.set_xticks([0, 20, 40, 60, 80, 100])
    axes.grid(axis="x")
    axes.grid(axis="y", visible=False)
    axes.set_xlabel(xlabel)
    return figure


@styled
def grouped_bars(
    long: pd.DataFrame,
    columns: Sequence[str],
    runs: Sequence[str],
    ylabel: str,
    xlabel: str,
    colors: Sequence[str] | None = None,
    label_width: int = 12,
) -> Figure:
    """Grouped bars: ``columns`` on x, one bar per run, each with its 95 % interval (Fig. 5).

    ``long``: rows ``run, column, score, low, high`` (the analysis tables). A zero score
    is marked with a tick and "0"; a column a run has no items for is marked "n/a".
    """
    k, m = len(runs), len(columns)
    colors = list(colors) if colors is not None else palette(k)
    wide = m * k > 24
    figure, axes = plt.subplots(figsize=(WIDE if wide else WIDTH, 3.5))
    cells = {
        (str(r["run"]), str(r["column"])): (
            _number(r["score"]),
            _number(r["low"]),
            _number(r["high"]),
        )
        for r in long.to_dict("records")
    }
    group = 0.82
    bar = group / max(k, 1)
    for j, run in enumerate(runs):
        for i, column in enumerate(columns):
            x = i - group / 2 + bar * (j + 0.5)
            score, low, high = cells.get((run, column), (math.nan, math.nan, math.nan))
            if not _finite(score):
                axes.text(x, 1.5, "n/a", rotation=90, ha="center", va="bottom",
                          fontsize=6.5, color=MUTED)  # fmt: skip
                continue
            axes.bar(x, score, width=bar * 0.92, color=colors[j])
            if _finite(low) and _finite(high) and high > low:
                axes.errorbar(x, score, yerr=[[max(0.0, score - low)], [max(0.0, high - score)]], fmt="none",
                              ecolor=INK, elinewidth=0.9, capsize=min(2.5, 40 * bar))  # fmt: skip
            if score == 0:
                axes.plot(x, 0, marker="_", markersize=max(4.0, 60 * bar), markeredgewidth=2.2,
                          color=colors[j], clip_on=False)  # fmt: skip
                axes.text(x, 1.2, "0", ha="center", va="bottom", fontsize=6.5, color=INK)
    axes.set_xticks(range(m), [wrap(str(c), label_width) for c in columns])
    axes.set_xlim(-0.5, m - 0.5)
    axes.set_ylim(0, 105)
    axes.set_yticks([0, 20, 40, 60, 80, 100])
    axes.set_ylabel(ylabel)
    axes.set_xlabel(xlabel)
    handles = [Patch(color=colors[j], label=wrap(str(r), 30)) for j, r in enumerate(runs)]
    longest = max((len(str(r)) for r in runs), default=10)
    per_row = max(1, min(k, int((WIDE if wide else WIDTH) * 96 / (longest * 6.5 + 40))))
    axes.legend(handles=handles, loc="lower left", bbox_to_anchor=(0, 1.01), ncol=per_row,
                title="95 % bootstrap intervals on each bar", alignment="left")  # fmt: skip
    return figure


def _bisector_radius(r1: float, r2: float, step: float) -> float:
    """Radius of the polygon edge between two spokes at their bisecting angle."""
    if r1 <= 0 or r2 <= 0:
        return 0.0
    return 2 * r1 * r2 * math.cos(step / 2) / (r1 + r2)


def radar_label_slot(values: Sequence[Sequence[float]]) -> tuple[int, float]:
    """The gap between spokes where the data reach least far, and how far they reach.

    ``values``: per run, one value per spoke (0–100, NaN as 0). The radial scale labels go
    on that gap's bisector, above the data, so they never sit on a polygon.
    """
    n = len(values[0]) if values else 0
    if n == 0:
        return 0, 0.0
    step = 2 * math.pi / n
    reach = []
    for slot in range(n):
        reach.append(
            max(
                (_bisector_radius(v[slot], v[(slot + 1) % n], step) for v in values),
                default=0.0,
            )
        )
    best = int(np.argmin(reach))
    return best, float(reach[best])


def _radar(
    axes: PolarAxes, scores: pd.DataFrame, runs: Sequence[str], colors: Sequence[str]
) -> None:
    columns = list(scores.columns)
    n = len(columns)
    angles = np.linspace(0, 2 * np.pi, n, endpoint=False)
    axes.set_theta_offset(np.pi / 2)
    axes.set_theta_direction(-1)
    values = []
    for run, color in zip(runs, colors, strict=True):
        row = [float(v) for v in scores.loc[run, columns].to_numpy(float)]
        values.append([0.0 if math.isnan(v) else v for v in row])
        closed = np.append(angles, angles[0])
        # a competency without items is a gap in the polygon (missing), never a 0
        axes.plot(closed, [*row, row[0]], color=color, linewidth=1.6, label=run)
        if not any(math.isnan(v) for v in row) and len(runs) <= 3:  # more fills turn to mud
            axes.fill(closed, [*row, row[0]], color=color, alpha=0.10)
        axes.scatter(angles, row, color=color, s=10, zorder=3)
    axes.set_xticks(angles, [wrap(c, 12) for c in columns])
    axes.tick_params(axis="x", pad=9)
    axes.set_ylim(0, 100)
    ticks = [25, 50, 75, 100]
    axes.set_yticks(ticks, [""] * len(ticks))
    axes.grid(color="#d6dae2", linewidth=0.6)
    slot, reach = radar_label_slot(values)
    angle = float(angles[slot] + np.pi / n)
    for tick in ticks:
        if tick >= reach + 7 or tick == 100:
            axes.text(angle, tick, f"{tick}", ha="center", va="center", fontsize=7,
                      color=MUTED, zorder=5)  # fmt: skip
    axes.spines["polar"].set_color("#c9ced8")


@styled
def radar(scores: pd.DataFrame, runs: Sequence[str], colors: Sequence[str] | None = None) -> Figure:
    """All runs' competency scores on one radar chart (Fig. 6), scale 0–100 %."""
    colors = list(colors) if colors is not None else palette(len(runs))
    figure = plt.figure(figsize=(WIDTH, 5.0))
    axes = figure.add_subplot(projection="polar")
    assert isinstance(axes, PolarAxes)
    _radar(axes, scores, runs, colors)
    axes.set_title("score (%) per competency", pad=14, fontweight="normal", color=MUTED)
    handles = [Patch(color=c, label=wrap(str(r), 34)) for r, c in zip(runs, colors, strict=True)]
    figure.legend(handles=handles, loc="upper center", ncol=2, bbox_to_anchor=(0.5, 0.02))
    return figure


@styled
def radar_grid(
    scores: pd.DataFrame, runs: Sequence[str], colors: Sequence[str] | None = None
) -> Figure:
    """One small radar per run (Fig. 6's per-model panels), same scale 0–100 %."""
    colors = list(colors) if colors is not None else palette(len(runs))
    columns = min(3, len(runs))  # four across would make neighbours' spoke labels collide
    rows = math.ceil(len(runs) / columns)
    width = WIDE if columns > 2 else WIDTH
    figure = plt.figure(figsize=(width, 3.4 * rows))
    for index, (run, color) in enumerate(zip(runs, colors, strict=True)):
        axes = figure.add_subplot(rows, columns, index + 1, projection="polar")
        assert isinstance(axes, PolarAxes)
        _radar(axes, scores, [run], [color])
        axes.tick_params(axis="x", labelsize=7.5)
        axes.set_title(wrap(str(run), 30), pad=16, fontsize=8.5)
    figure.subplots_adjust(wspace=0.55, hspace=0.6)
    return figure


@styled
def box_by_column(scores: pd.DataFrame) -> Figure:
    """Distribution across runs of each competency's score (Fig. 7), runs as dots."""
    columns = list(scores.columns)
    figure, axes = plt.subplots(figsize=(WIDTH, 3.3))
    data = [scores[c].dropna().to_numpy(float) for c in columns]
    positions = [i for i, d in enumerate(data) if d.size]
    axes.boxplot(
        [data[i] for i in positions],
        positions=positions,
        widths=0.55,
        patch_artist=True,
        boxprops={"facecolor": "#cfe3f3", "edgecolor": "#0072B2", "linewidth": 0.9},
        whiskerprops={"color": "#0072B2"},
        capprops={"color": "#0072B2"},
        showfliers=False,
    )
    rng = np.random.default_rng(0)
    for i in positions:
        axes.scatter(i + rng.uniform(-0.12, 0.12, data[i].size), data[i], s=12,
                     color=INK, zorder=3)  # fmt: skip
    axes.set_xticks(range(len(columns)), [wrap(c, 10) for c in columns])
    axes.set_xlim(-0.6, len(columns) - 0.4)
    axes.set_ylim(-2, 102)
    axes.set_ylabel("score across runs (%)")
    axes.set_xlabel("competency")
    return figure


def correlatable(scores: pd.DataFrame) -> pd.DataFrame:
    """The columns a correlation can use: complete and not constant across runs."""
    complete = scores.dropna(axis=1).astype(float)
    return complete.loc[:, complete.std(axis=0, ddof=0) > 0]


@styled
def correlation_heatmap(scores: pd.DataFrame) -> Figure:
    """Pearson correlation between competencies across runs (Fig. 8)."""
    usable = correlatable(scores).rename_axis(index=None, columns=None)
    size = 1.6 + 0.5 * usable.shape[1]
    figure, axes = plt.subplots(figsize=(min(WIDTH, size + 1.2), min(WIDTH, size)))
    sns.heatmap(usable.corr(), vmin=-1, vmax=1, cmap="vlag", annot=True, fmt=".2f",
                annot_kws={"fontsize": 7.5}, square=True, linewidths=0.5, ax=axes,
                cbar_kws={"label": "Pearson r across runs", "shrink": 0.8})  # fmt: skip
    axes.tick_params(axis="x", rotation=45)
    for label in axes.get_xticklabels():
        label.set_horizontalalignment("right")
    axes.grid(False)
    return figure


@styled
def clustered_heatmap(scores: pd.DataFrame) -> Figure:
    """Runs × competencies, both hierarchically clustered (Fig. 9), scores in %."""
    complete = scores.dropna(axis=1).astype(float).rename_axis(index=None, columns=None)
    grid = sns.clustermap(
        complete.rename(index=lambda r: wrap(str(r), 30)),
        cmap="viridis",
        vmin=0,
        vmax=100,
        annot=True,
        fmt=".1f",
        annot_kws={"fontsize": 7.5},
        linewidths=0.5,
        figsize=(WIDTH, 1.9 + 0.42 * len(complete)),
        dendrogram_ratio=(0.12, 0.16),
        cbar_pos=None,  # every cell carries its value; a colour bar would repeat it
    )
    grid.ax_heatmap.set_xlabel("competency (cells: score, %)")
    grid.ax_heatmap.tick_params(axis="x", labelrotation=40)
    for label in grid.ax_heatmap.get_xticklabels():
        label.set_horizontalalignment("right")
        label.set_rotation_mode("anchor")
    grid.ax_heatmap.set_ylabel("")
    grid.ax_heatmap.tick_params(axis="y", labelrotation=0)
    figure: Figure = grid.figure
    return figure


@styled
def contributions(shares: pd.DataFrame) -> Figure:
    """Share of each run's total score contributed by each combination (Fig. 10).

    At most :data:`MAX_SHARES` legend entries (the largest combinations, then "other");
    zero shares are dropped; shares of at least 6 % are written on their segment.
    """
    grouped = top_shares(shares)
    n = len(grouped)
    hues = [c for c in OKABE_ITO if c != "#8C8C8C"]  # grey is reserved for "other"
    colors = hues[: min(grouped.shape[1], len(hues))]
    colors = [*colors, OTHER_COLOR] if grouped.shape[1] > len(colors) else colors
    figure, axes = plt.subplots(figsize=(WIDTH, 1.5 + 0.42 * n))
    left = np.zeros(n)
    for column, color in zip(grouped.columns, colors, strict=False):
        values = grouped[column].to_numpy(float)
        axes.barh(range(n), values, left=left, height=0.64, color=color, label=column,
                  edgecolor="white", linewidth=0.6)  # fmt: skip
        for i, value in enumerate(values):
            if value >= 6:
                dark = color in ("#0072B2", "#D55E00", "#009E73", "#CC79A7")
                axes.text(left[i] + value / 2, i, f"{value:.0f}", ha="center", va="center",
                          fontsize=7, color="white" if dark else INK)  # fmt: skip
        left += values
    axes.set_yticks(range(n), [wrap(str(r), 28) for r in grouped.index])
    axes.set_ylim(n - 0.5, -0.5)
    axes.set_xlim(0, 100)
    axes.set_xlabel("share of the run's total score (%)")
    axes.grid(axis="x")
    axes.grid(axis="y", visible=False)
    axes.legend(loc="lower left", bbox_to_anchor=(0, 1.02), ncol=2, title="competency combination",
                alignment="left")  # fmt: skip
    return figure


@styled
def ranked_intervals(pairs: pd.DataFrame) -> Figure:
    """Paired differences with 95 % intervals, ranked; Holm-adjusted p at the right."""
    ranked = pairs.sort_values("difference").reset_index(drop=True)
    labels = [wrap(f"{b} − {a}", 40) for a, b in zip(ranked["a"], ranked["b"], strict=True)]
    lines = sum(label.count("\n") + 1 for label in labels)
    figure, axes = plt.subplots(figsize=(WIDTH, 0.9 + 0.2 * lines + 0.12 * len(ranked)))
    y = np.arange(len(ranked))
    axes.errorbar(
        ranked["difference"], y,
        xerr=[(ranked["difference"] - ranked["low"]).clip(lower=0),
              (ranked["high"] - ranked["difference"]).clip(lower=0)],
        fmt="o", capsize=3, color="#0072B2", ecolor="#0072B2", markersize=4,
    )  # fmt: skip
    axes.axvline(0, color=MUTED, linestyle="--", linewidth=0.9)
    axes.set_yticks(y, labels)
    axes.set_ylim(len(ranked) - 0.5, -0.5)
    side = blended_transform_factory(axes.transAxes, axes.transData)
    axes.text(1.02, 1.0, "p (Holm, per family)", transform=axes.transAxes, fontsize=7.5, color=MUTED,
              va="bottom")  # fmt: skip
    for index, p in enumerate(ranked["p_holm"]):
        axes.text(1.02, index, f"{p:.3g}", transform=side, fontsize=7.5, va="center",
                  fontweight="bold" if p < 0.05 else "normal")  # fmt: skip
    axes.grid(axis="x")
    axes.grid(axis="y", visible=False)
    axes.set_xlabel("difference B − A (percentage points), 95 % bootstrap interval")
    return figure


@styled
def difference_matrix(pairs: pd.DataFrame, runs: list[str]) -> Figure:
    """Row − column differences in points; * where Holm-adjusted p < 0.05; blank: not paired."""
    position = {run: i for i, run in enumerate(runs)}
    values = np.full((len(runs), len(runs)), np.nan)
    notes = [["" for _ in runs] for _ in runs]
    for row in pairs.to_dict("records"):
        i, j = position[str(row["a"])], position[str(row["b"])]
        difference = float(row["difference"])
        star = "*" if float(row["p_holm"]) < 0.05 else ""
        # ``difference`` is B − A: the row of B, the column of A
        values[j, i], values[i, j] = difference, -difference
        notes[j][i], notes[i][j] = signed(difference) + star, signed(-difference) + star
    names = [wrap(str(r), 22) for r in runs]
    matrix = pd.DataFrame(values, index=names, columns=names)
    side = min(WIDTH, 2.2 + 0.62 * len(runs))
    figure, axes = plt.subplots(figsize=(side + 1.0, side))
    finite = np.abs(values[np.isfinite(values)])
    limit = max(1.0, float(finite.max()) if finite.size else 1.0)
    sns.heatmap(matrix, annot=notes, fmt="", cmap="vlag", vmin=-limit, vmax=limit, ax=axes,
                annot_kws={"fontsize": 7.5}, square=True, linewidths=0.5,
                cbar_kws={"label": "row − column (percentage points)", "shrink": 0.8})  # fmt: skip
    axes.tick_params(axis="x", rotation=40)
    for label in axes.get_xticklabels():
        label.set_horizontalalignment("right")
    axes.tick_params(axis="y", rotation=0)
    axes.grid(False)
    return figure


@styled
def bland_altman(ratings: Ratings, survey: str, scale: float = 1.0) -> Figure:
    """Bland–Altman plot of mean human score vs judge for one survey (Fig. 11)."""
    rows = ratings.pairs if survey == "all" else ratings.pairs[ratings.pairs["survey"] == survey]
    mean = (rows["human"] + rows["judge"]) / 2
    difference = rows["human"] - rows["judge"]
    limits = bland_altman_limits(rows["human"].to_numpy(float), rows["judge"].to_numpy(float))
    figure, axes = plt.subplots(figsize=(WIDTH, 3.4))
    axes.scatter(mean, difference, color="#0072B2", alpha=0.75, s=18)
    lines = [(limits.bias, "-", f"bias {limits.bias:+.2f}")]
    if math.isfinite(limits.high):
        lines += [(limits.high, "--", "+1.96 SD"), (limits.low, "--", "−1.96 SD")]
    side = blended_transform_factory(axes.transAxes, axes.transData)
    for value, line, text in lines:
        axes.axhline(value, color="#D55E00", linestyle=line, linewidth=1.1)
        axes.text(1.01, value, text, transform=side, fontsize=7.5, color="#D55E00", va="center")
    axes.set_xlim(-0.05 * scale, 1.05 * scale)
    axes.set_xlabel(f"mean of human and judge score (0–{scale:g})")
    axes.set_ylabel(f"human − judge (0–{scale:g} scale)")
    axes.set_title(str(survey))
    return figure


@styled
def violins(ratings: Ratings, scale: float = 1.0) -> Figure:
    """Score distributions of humans and the judge per survey (Fig. 12)."""
    surveys = list(dict.fromkeys(ratings.pairs["survey"]))
    figure, axes = plt.subplots(figsize=(WIDTH, 3.4))
    colors = {"human": OKABE_ITO[0], "judge": OKABE_ITO[1]}
    for index, survey in enumerate(surveys):
        rows = ratings.pairs[ratings.pairs["survey"] == survey]
        for offset, who in ((-0.2, "human"), (0.2, "judge")):
            values = rows[who].to_numpy(float)
            x = index + offset
            if values.size >= 2 and np.ptp(values) > 0:
                parts = axes.violinplot(values, positions=[x], widths=0.36, showmedians=True)
                bodies: list[Any] = list(parts["bodies"])  # type: ignore[call-overload]
                for body in bodies:
                    body.set_facecolor(colors[who])
                    body.set_edgecolor(colors[who])
                    body.set_alpha(0.55)
                for key in ("cbars", "cmins", "cmaxes", "cmedians"):
                    parts[key].set_color(INK)
                    parts[key].set_linewidth(0.9)
            else:
                axes.scatter([x] * values.size, values, color=colors[who], s=16)
    axes.set_xticks(range(len(surveys)), [wrap(str(s), 14) for s in surveys])
    axes.set_ylim(-0.05 * scale, 1.05 * scale)
    axes.set_ylabel(f"score (0–{scale:g})")
    axes.set_xlabel("survey")
    axes.legend(handles=[Patch(color=c, alpha=0.55, label=w) for w, c in colors.items()],
                loc="lower left", bbox_to_anchor=(0, 1.0), ncol=2)  # fmt: skip
    return figure
