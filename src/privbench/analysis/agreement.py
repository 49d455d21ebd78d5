"""Judge–human agreement (the Priv-IQ paper, section 5.2 and Table 6).

Ratings come as long CSVs (``item_id,rater,score[,survey]``), as the rating files raters
download from ``survey export``'s blind form, or both; the judge's scores of a blind study
come from the researcher's key (:mod:`privbench.analysis.rating_files`). The judge is the
rater named ``judge_rater`` (default ``judge``); every other rater is human, and the human
score of an item is the mean of its human ratings. Per survey and for all items pooled:

* ICC — two-way random effects, absolute agreement, single rater (ICC(2,1), pingouin's
  ICC2), between the mean human score and the judge score;
* Spearman ρ and its p-value, MAE, the agreement rate (share of items with
  ``|human − judge| ≤ tolerance``) and the Bland–Altman bias ``mean(human − judge)`` with
  its 95 % limits, as :mod:`privbench.agreement_measures` defines them.

The "Average" column averages the per-survey values, as the paper's Table 6 does (and
leaves Bland–Altman out of it, as the paper does).

Scales: human ratings are on 0–``scale`` (1, or 10 as in the paper's surveys); the judge's
scores are privbench's, on 0–1, as the logs and ``survey export`` hold them. Both sides
are put on the human scale before any statistic, so MAE, tolerance and Bland–Altman are in
the raters' units. Library warnings are silenced: where a statistic is undefined it is
NaN and :func:`agreement_notes` says why.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from privbench.agreement_measures import (
    ICC_MIN_ITEMS,
    bland_altman_limits,
    icc_absolute_agreement,
    mean_absolute_error,
    share_within,
    spearman,
)
from privbench.analysis.rating_files import (
    KEY_FILE,
    RatingFile,
    SurveyKey,
    is_key_file,
    key_beside,
    read_key,
    read_rating_file,
)
from privbench.runtime.errors import DatasetError, Problem, UsageError

AVERAGE = "Average"
OVERALL = "Overall"
REQUIRED_COLUMNS = ("item_id", "rater", "score")
DEFAULT_SURVEY = "Survey 1"
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
    scale: float = 1.0
    """The human scale the pairs are on (``--scale``, or what the rating files declare)."""


_ROW = ("item_id", "rater", "score", "survey", "where")


@dataclass
class _Sources:
    """Every rating read so far, as text rows naming where each came from."""

    rows: list[dict[str, object]]
    blank: int
    files: list[RatingFile]
    csv_without_judge: list[Path]
    csvs: list[Path]


def _expand(paths: Sequence[Path]) -> list[Path]:
    """Files to read: a folder stands for the rating files (``*.json``, keys left out) in it."""
    expanded: list[Path] = []
    for path in paths:
        if not path.is_dir():
            expanded.append(path)
            continue
        found = sorted(p for p in path.glob("*.json") if not is_key_file(p))
        if not found:
            raise DatasetError([Problem(str(path), None, "a folder without rating files (*.json)")])
        expanded += found
    return expanded


def read_ratings_csv(
    path: Path, required: Sequence[str] = REQUIRED_COLUMNS, *, verbatim: bool = False
) -> pd.DataFrame:
    """A ratings CSV (a long table, or ``survey export``'s blind sheet) as text columns.

    A file that is missing, not a readable CSV or without a ``required`` column is a
    :class:`DatasetError`. ``verbatim``: every cell as written, a blank one as ``""``; why:
    answer texts such as "None" or "N/A" are what a model said, which pandas would otherwise
    read as missing. Otherwise blank (and NA-like) cells are missing, as scores are.
    """
    display = str(path)
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=not verbatim)
    except FileNotFoundError:
        raise DatasetError([Problem(display, None, "file not found")]) from None
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as error:
        raise DatasetError([Problem(display, None, f"not a readable CSV ({error})")]) from None
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise DatasetError([Problem(display, None, f"missing column(s): {', '.join(missing)}")])
    return frame


def _read_csv(path: Path, judge_rater: str, sources: _Sources) -> None:
    display = str(path)
    frame = read_ratings_csv(path)
    if "survey" not in frame.columns:
        frame["survey"] = DEFAULT_SURVEY
    frame["survey"] = frame["survey"].fillna(DEFAULT_SURVEY)
    sources.blank += int(frame["score"].isna().sum())
    sources.csvs.append(path)
    if not (frame["rater"] == judge_rater).any():
        sources.csv_without_judge.append(path)
    sources.rows += [
        {
            "item_id": str(row["item_id"]),
            "rater": str(row["rater"]),
            "score": row["score"],
            "survey": str(row["survey"]),
            "where": f"{display}:{index + 2}",
        }
        for index, row in frame[frame["score"].notna()].iterrows()
        if isinstance(index, int)
    ]


def _read_sources(paths: Sequence[Path], judge_rater: str) -> _Sources:
    sources = _Sources([], 0, [], [], [])
    for path in _expand(paths):
        if path.suffix.lower() == ".json":
            sources.files.append(read_rating_file(path))
        else:
            _read_csv(path, judge_rater, sources)
    return sources


def _keys(paths: Sequence[Path], keys: Sequence[Path], sources: _Sources) -> list[SurveyKey]:
    """The keys given, or else the one beside each file that needs one (rating files and
    blind sheets); a file that needs a key and has none is an error saying what to pass."""
    if keys:
        return [read_key(path) for path in dict.fromkeys(keys)]
    found: dict[Path, None] = {}
    for path in sources.csv_without_judge:  # a blind sheet; without a key, a plain error later
        beside = key_beside(path)
        if beside is not None:
            found[beside] = None
    for path in [f.path for f in sources.files if f.path]:
        beside = key_beside(path)
        if beside is None:
            raise UsageError(
                f"{path}: holds no judge scores and no {KEY_FILE} is beside it; "
                "pass the survey's key with --key FILE"
            )
        found[beside] = None
    return [read_key(path) for path in found]


def _effective_scale(scale: float | None, sources: _Sources, keys: list[SurveyKey]) -> float:
    """``--scale`` if given (and matching the rating files), else what the files declare."""
    if scale is not None:
        check_scale(scale)
        for rating in sources.files:
            if rating.scale != scale:
                raise UsageError(
                    f"{rating.path}: rated on 0–{rating.scale} (its field 'scale'), but --scale "
                    f"{scale:g}; drop --scale or pass --scale {rating.scale}"
                )
        return scale
    declared = {f.scale: f.path for f in sources.files} or {k.scale: k.path for k in keys}
    if len(declared) > 1:
        (a, first), (b, second) = list(declared.items())[:2]
        raise UsageError(f"rating scales differ: 0–{a} in {first}, 0–{b} in {second}")
    return float(next(iter(declared), 1))


def _rows_of_files(sources: _Sources, keys: list[SurveyKey], judge_rater: str) -> None:
    """Human rows of the rating files and judge rows of the keys, named by key survey."""
    by_survey = {key.survey: key for key in keys}
    problems: list[Problem] = []
    for rating in sources.files:
        key = by_survey.get(rating.survey)
        if key is None:
            known = ", ".join(sorted(by_survey)) or "none"
            raise UsageError(
                f"{rating.path}: rates survey {rating.survey}, which no key covers (keys: "
                f"{known}); pass that survey's {KEY_FILE} with --key"
            )
        for item, score in rating.ratings.items():
            if item not in key.items:
                problems.append(Problem(str(rating.path), item, f"not an item of {key.path}"))
            elif score is not None:
                sources.rows.append(
                    {
                        "item_id": item,
                        "rater": rating.rater,
                        "score": str(score),
                        "survey": key.name,
                        "where": f"{rating.path}: rater {rating.rater}",
                    }
                )
        sources.blank += sum(1 for item in key.items if rating.ratings.get(item) is None)
    if problems:
        raise DatasetError(problems)
    for key in keys:
        sources.rows += [
            {
                "item_id": opaque,
                "rater": judge_rater,
                "score": str(item.judge_score),
                "survey": key.name,
                "where": str(key.path),
            }
            for opaque, item in key.items.items()
        ]


def _survey_of_keys(frame: pd.DataFrame, keys: list[SurveyKey]) -> pd.DataFrame:
    """A blind sheet's rows take their survey's name from the key that holds their id."""
    names = {opaque: key.name for key in keys for opaque in key.items}
    known = frame["item_id"].map(names)
    frame["survey"] = known.where(known.notna(), frame["survey"])
    return frame


def _check_scores(frame: pd.DataFrame, judge_rater: str, scale: float, given: bool) -> pd.Series:
    """The scores as numbers; every score outside its range is a problem with its place.

    Why a separate message for 0–10 ratings read on 0–1: that is the usual mistake, and
    the fix is one option, which the message names.
    """
    numbers = pd.to_numeric(frame["score"], errors="coerce")
    is_judge = frame["rater"] == judge_rater
    human = numbers[~is_judge]
    if scale == 1 and human.notna().all() and (human > 1).any() and human.between(0, 10).all():
        first = frame.loc[(~is_judge) & (numbers > 1)].iloc[0]
        instead = " instead of --scale 1" if given else ""
        raise UsageError(
            f"{first['where']}: human scores go up to {human.max():g}, above 1: "
            f"for ratings on 0–10 rerun with --scale 10{instead}"
        )
    problems = [
        Problem(
            str(frame.loc[index, "where"]),
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
    return numbers


def _check_duplicates(human: pd.DataFrame) -> None:
    """A rater's second rating of an item (a rating file passed twice, say) is an error."""
    twice = human[human.duplicated(["survey", "item_id", "rater"], keep=False)]
    if twice.empty:
        return
    first = twice.iloc[0]
    same = twice[
        (twice["survey"] == first["survey"])
        & (twice["item_id"] == first["item_id"])
        & (twice["rater"] == first["rater"])
    ]
    places = " and ".join(dict.fromkeys(str(w) for w in same["where"]))
    raise DatasetError(
        [Problem(places, str(first["item_id"]), f"rated twice by {first['rater']!r}")]
    )


def read_ratings(
    paths: Path | Sequence[Path],
    judge_rater: str = "judge",
    scale: float | None = None,
    keys: Sequence[Path] = (),
) -> Ratings:
    """Read and check ratings: CSVs, rating files (or folders of them) and survey keys.

    Every problem is named with its file and line or field. Human scores must lie in
    0–``scale``, judge scores in 0–1; the judge's are multiplied by ``scale`` so that both
    sides are on the human scale. ``scale`` None: what the rating files declare, else 1.
    """
    paths = [paths] if isinstance(paths, Path) else list(paths)
    sources = _read_sources(paths, judge_rater)
    used_keys = (
        _keys(paths, keys, sources) if keys or sources.files or sources.csv_without_judge else []
    )
    effective = _effective_scale(scale, sources, used_keys)
    _rows_of_files(sources, used_keys, judge_rater)
    display = ", ".join(str(p) for p in paths)
    frame = _survey_of_keys(pd.DataFrame(sources.rows, columns=list(_ROW)), used_keys)
    numbers = _check_scores(frame, judge_rater, effective, scale is not None)
    is_judge = frame["rater"] == judge_rater
    frame["score"] = numbers.where(~is_judge, numbers * (effective / JUDGE_SCALE))
    judge = frame[is_judge]
    human = frame[~is_judge]
    if judge.empty:
        raise DatasetError(
            [
                Problem(
                    display,
                    None,
                    f"no ratings by the judge rater '{judge_rater}' (a blind sheet of "
                    f"survey export needs its key: --key {KEY_FILE})",
                )
            ]
        )
    if human.empty:
        raise DatasetError([Problem(display, None, "no human ratings")])
    duplicated = judge[judge.duplicated(["survey", "item_id"])]
    if not duplicated.empty:
        item = str(duplicated.iloc[0]["item_id"])
        raise DatasetError(
            [
                Problem(
                    str(duplicated.iloc[0]["where"]), item, "more than one judge score for the item"
                )
            ]
        )
    _check_duplicates(human)
    human_mean = human.groupby(["survey", "item_id"], sort=False)["score"].mean().rename("human")
    judge_score = judge.set_index(["survey", "item_id"])["score"].rename("judge")
    pairs = pd.concat([human_mean, judge_score], axis=1, join="inner").reset_index()
    if pairs.empty:
        raise DatasetError([Problem(display, None, "no item has both human and judge ratings")])
    return Ratings(pairs, sources.blank, int(human["rater"].nunique()), effective)


def _icc2(human: np.ndarray, judge: np.ndarray) -> float:
    return float(icc_absolute_agreement(np.column_stack([human, judge])))


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
        if math.isnan(column.icc) and column.n < ICC_MIN_ITEMS:
            notes.append(
                f"{name}: ICC needs at least {ICC_MIN_ITEMS} items with both scores"
                f" (has {column.n})."
            )
        elif math.isnan(column.icc):
            notes.append(f"{name}: ICC is undefined: every score is the same.")
        if math.isnan(column.spearman_rho):
            notes.append(
                f"{name}: Spearman ρ is undefined: one side's scores are constant"
                " (or fewer than 2 items)."
            )
    return notes
