"""Judge–human agreement (the Priv-IQ paper, section 5.2 and Table 6).

Ratings come as a long CSV: ``item_id,rater,score[,survey]``. The judge is the rater named
``judge_rater`` (default ``judge``); every other rater is human, and the human score of an
item is the mean of its human ratings. Per survey and for all items pooled:

* ICC — two-way random effects, absolute agreement, single rater (pingouin's ICC2),
  between the mean human score and the judge score;
* Spearman ρ and its p-value, MAE, the agreement rate (share of items with
  ``|human − judge| ≤ tolerance``) and the Bland–Altman bias ``mean(human − judge)`` with
  its 95 % limits, as :mod:`privbench.agreement_measures` defines them.

The "Average" column averages the per-survey values, as the paper's Table 6 does (and
leaves Bland–Altman out of it, as the paper does).

Scales: human ratings are on 0–``scale`` (1, or 10 as in the paper's surveys); the judge's
scores are privbench's, on 0–1, as the logs and ``survey export`` hold them. Both sides
are put on the human scale before any statistic, so MAE, tolerance and Bland–Altman are in
the raters' units. Library warnings (pingouin, scipy) are silenced: where a statistic is
undefined it is NaN and :func:`agreement_notes` says why.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pingouin

from privbench.agreement_measures import (
    bland_altman_limits,
    mean_absolute_error,
    share_within,
    spearman,
)
from privbench.runtime.errors import DatasetError, Problem, UsageError

AVERAGE = "Average"
OVERALL = "Overall"
REQUIRED_COLUMNS = ("item_id", "rater", "score")
SCALES = (1.0, 10.0)
"""Human rating scales accepted by ``agreement --scale`` and ``report --scale`` alike."""
JUDGE_SCALE = 1.0
"""The judge's scores (logs, ``survey export``) are on 0–1."""


def check_scale(scale: float) -> float:
    """``scale`` if it is one of :data:`SCALES`, else a usage error naming the choices."""
    if scale not in SCALES:
        raise UsageError(f"--scale: 1 or 10 (the human rating range), not {scale:g}")
    return scale


def format_stat(key: str, value: float | int | None) -> str:
    """One Table 6 value for display: n/a for undefined, never "-0.000"."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    number = float(value)
    if key == "agreement_rate":
        return f"{100 * number:.1f} %"
    if key == "spearman_p":
        return "< 0.001" if number < 0.001 else f"{number:.3g}"
    if key == "n":
        return str(int(number))
    text = f"{number:+.3f}" if key in ("bias", "loa_low", "loa_high") else f"{number:.3f}"
    return "0.000" if float(text) == 0 else text


@dataclass(frozen=True)
class AgreementStats:
    """Agreement between mean human scores and judge scores over ``n`` items."""

    n: int
    icc: float
    spearman_rho: float
    spearman_p: float
    mae: float
    agreement_rate: float
    bias: float
    loa_low: float
    loa_high: float


@dataclass(frozen=True)
class Ratings:
    """Paired scores per item, and how many rating rows were blank (skipped)."""

    pairs: pd.DataFrame
    """Columns: item_id, survey, human (mean of human raters), judge."""
    blank: int
    raters: int


def read_ratings(path: Path, judge_rater: str = "judge", scale: float = 1.0) -> Ratings:
    """Read and check a ratings CSV; every problem is named with its line.

    Human scores must lie in 0–``scale``, judge scores in 0–1; the judge's are multiplied
    by ``scale`` so that both sides are on the human scale.
    """
    display = str(path)
    try:
        frame = pd.read_csv(path, dtype={"item_id": str, "rater": str, "survey": str, "score": str})
    except FileNotFoundError:
        raise DatasetError([Problem(display, None, "file not found")]) from None
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as error:
        raise DatasetError([Problem(display, None, f"not a readable CSV ({error})")]) from None
    missing = [c for c in REQUIRED_COLUMNS if c not in frame.columns]
    if missing:
        raise DatasetError([Problem(display, None, f"missing column(s): {', '.join(missing)}")])
    if "survey" not in frame.columns:
        frame["survey"] = "Survey 1"
    frame["survey"] = frame["survey"].fillna("Survey 1")
    blank = int(frame["score"].isna().sum())
    frame = frame[frame["score"].notna()].copy()
    numbers = pd.to_numeric(frame["score"], errors="coerce")
    is_judge = frame["rater"] == judge_rater
    problems = [
        Problem(
            f"{display}:{index + 2}",
            str(frame.loc[index, "item_id"]),
            f"score {frame.loc[index, 'score']!r} is not a number in 0–{top:g}"
            + (" (judge scores are on 0–1, as in the logs)" if is_judge[index] else ""),
        )
        for index in frame.index
        for top in [JUDGE_SCALE if is_judge[index] else scale]
        if math.isnan(numbers[index]) or not 0 <= numbers[index] <= top
    ]
    if problems:
        raise DatasetError(problems)
    frame["score"] = numbers.where(~is_judge, numbers * (scale / JUDGE_SCALE))
    judge = frame[frame["rater"] == judge_rater]
    human = frame[frame["rater"] != judge_rater]
    if judge.empty:
        raise DatasetError(
            [Problem(display, None, f"no ratings by the judge rater '{judge_rater}'")]
        )
    if human.empty:
        raise DatasetError([Problem(display, None, "no human ratings")])
    duplicated = judge[judge.duplicated(["survey", "item_id"])]
    if not duplicated.empty:
        item = str(duplicated.iloc[0]["item_id"])
        raise DatasetError([Problem(display, item, "more than one judge score for the item")])
    human_mean = human.groupby(["survey", "item_id"], sort=False)["score"].mean().rename("human")
    judge_score = judge.set_index(["survey", "item_id"])["score"].rename("judge")
    pairs = pd.concat([human_mean, judge_score], axis=1, join="inner").reset_index()
    if pairs.empty:
        raise DatasetError([Problem(display, None, "no item has both human and judge ratings")])
    return Ratings(pairs, blank, int(human["rater"].nunique()))


def _icc2(human: np.ndarray, judge: np.ndarray) -> float:
    if len(human) < 3:
        return math.nan
    n = len(human)
    long = pd.DataFrame(
        {
            "item": np.tile(np.arange(n), 2),
            "rater": ["human"] * n + ["judge"] * n,
            "score": np.concatenate([human, judge]),
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = pingouin.intraclass_corr(data=long, targets="item", raters="rater", ratings="score")
    by_type = table.set_index("Type")["ICC"]
    # pingouin ≥ 0.7 names ICC2 (two-way random, absolute agreement, single rater) ICC(A,1)
    return float(by_type["ICC(A,1)"] if "ICC(A,1)" in by_type.index else by_type["ICC2"])


def agreement_stats(human: np.ndarray, judge: np.ndarray, tolerance: float) -> AgreementStats:
    """The Table 6 statistics for one set of paired scores."""
    rho, p = spearman(human, judge)
    limits = bland_altman_limits(human, judge)
    return AgreementStats(
        n=len(human),
        icc=_icc2(human, judge),
        spearman_rho=rho,
        spearman_p=p,
        mae=mean_absolute_error(human, judge),
        agreement_rate=share_within(human, judge, tolerance),
        bias=limits.bias,
        loa_low=limits.low,
        loa_high=limits.high,
    )


def agreement_table(ratings: Ratings, tolerance: float) -> dict[str, AgreementStats]:
    """Per survey, the Average of the surveys (Bland–Altman left out) and all pooled."""
    columns: dict[str, AgreementStats] = {}
    pairs = ratings.pairs
    for survey, rows in pairs.groupby("survey", sort=False):
        columns[str(survey)] = agreement_stats(
            rows["human"].to_numpy(float), rows["judge"].to_numpy(float), tolerance
        )
    surveys = list(columns.values())
    if len(surveys) > 1:
        mean = {
            key: float(np.mean([getattr(s, key) for s in surveys]))
            for key in ("icc", "spearman_rho", "spearman_p", "mae", "agreement_rate")
        }
        columns[AVERAGE] = AgreementStats(
            n=sum(s.n for s in surveys), bias=math.nan, loa_low=math.nan, loa_high=math.nan, **mean
        )
    columns[OVERALL] = agreement_stats(
        pairs["human"].to_numpy(float), pairs["judge"].to_numpy(float), tolerance
    )
    return columns


def as_records(columns: dict[str, AgreementStats]) -> dict[str, dict[str, float | int | None]]:
    """JSON-ready values (NaN → None)."""
    return {
        name: {
            k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in asdict(s).items()
        }
        for name, s in columns.items()
    }


def agreement_notes(columns: dict[str, AgreementStats]) -> list[str]:
    """Why a statistic is n/a, in the reader's words (instead of library warnings)."""
    notes = []
    for name, column in columns.items():
        if name == AVERAGE:
            continue
        if math.isnan(column.icc):
            notes.append(f"{name}: ICC needs at least 3 items with both scores (has {column.n}).")
        if math.isnan(column.spearman_rho):
            notes.append(
                f"{name}: Spearman ρ is undefined: one side's scores are constant"
                " (or fewer than 2 items)."
            )
    return notes
