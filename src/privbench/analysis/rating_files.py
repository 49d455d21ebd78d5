"""The files of a blind judge–human study: a rater's rating file and the researcher's key.

Why two files: raters must not learn what the judge said nor which model wrote an answer,
so everything they get names items by opaque ids only; the mapping back to runs, items and
judge scores lives in the key, which stays with the researcher.

* **Rating file** (what a rater's form downloads, one per rater and survey)::

    {"format": "privbench-ratings", "version": 1, "survey": "s-…", "rater": "P07",
     "scale": 10, "ratings": {"k-…": 7, "k-…": 4.5}}

  ``scale`` is 1 (scores 0–1) or 10 (0–10); an item left out, or ``null``, is unrated.
* **Key** (``survey_key.json``, written by ``survey export`` beside the ``for_raters``
  folder; never sent to raters)::

    {"format": "privbench-survey-key", "version": 1, "warning": "…", "survey": "s-…",
     "name": "Survey 1", "scale": 1, "seed": 0, "draw": "stratified by judge score, …",
     "strata": [{"stratum": "0.0", "grades": "[0, 0]", "available": 80, "drawn": 3}, …],
     "items": {"k-…": {"run": "openai/gpt-4o", "item": "v1_6", "judge_score": 0.8,
                       "stratum": "0.5–0.9"}}}

  ``judge_score`` is the judge's mean over its runs, on 0–1 as in the logs; ``strata``
  says how many graded items each judge-score band held and how many were drawn from it.

Reading returns values plus :class:`~privbench.runtime.errors.Problem` lists naming the
file and the field, so ``agreement`` can report every defect in one line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from privbench.json_files import read_json_object
from privbench.runtime.errors import DatasetError, Problem

RATING_FORMAT = "privbench-ratings"
KEY_FORMAT = "privbench-survey-key"
FORMAT_VERSION = 1
KEY_FILE = "survey_key.json"
RATERS_FOLDER = "for_raters"
"""What ``survey export`` writes for raters: the only folder to send them."""
KEY_WARNING = (
    "Researcher only: this key maps the opaque item ids back to models and judge scores. "
    f"Do not send it to raters; send them the {RATERS_FOLDER} folder only."
)
SCALES = (1, 10)


@dataclass(frozen=True)
class KeyItem:
    """Where one opaque item came from, and what the judge gave it (0–1)."""

    run: str
    item: str
    judge_score: float
    stratum: str = ""
    """The judge-score stratum it was drawn from (empty in keys written before strata)."""


@dataclass(frozen=True)
class SurveyKey:
    """The researcher's key of one exported survey."""

    survey: str
    name: str
    scale: int
    seed: int
    items: dict[str, KeyItem]
    path: Path | None = None
    strata: list[dict[str, object]] = field(default_factory=list)
    """How the draw was spread: each judge-score stratum's band, graded items available
    and items drawn."""


@dataclass(frozen=True)
class RatingFile:
    """One rater's ratings of one survey; ``None`` marks an item left unrated."""

    survey: str
    rater: str
    scale: int
    ratings: dict[str, float | None]
    path: Path | None = None


def rating_document(
    survey: str, rater: str, scale: int, ratings: dict[str, float | None]
) -> dict[str, object]:
    """The JSON object of a rating file (the same the form's download writes)."""
    return {
        "format": RATING_FORMAT,
        "version": FORMAT_VERSION,
        "survey": survey,
        "rater": rater,
        "scale": scale,
        "ratings": ratings,
    }


def key_document(key: SurveyKey) -> dict[str, object]:
    """The JSON object of a key file."""
    return {
        "format": KEY_FORMAT,
        "version": FORMAT_VERSION,
        "warning": KEY_WARNING,
        "survey": key.survey,
        "name": key.name,
        "scale": key.scale,
        "seed": key.seed,
        "draw": "stratified by judge score, then spread over models and competencies",
        "strata": key.strata,
        "items": {
            opaque: {
                "run": i.run,
                "item": i.item,
                "judge_score": i.judge_score,
                "stratum": i.stratum,
            }
            for opaque, i in key.items.items()
        },
    }


def _text(data: dict[str, object], field: str, display: str, problems: list[Problem]) -> str:
    value = data.get(field)
    if not isinstance(value, str) or not value.strip():
        problems.append(Problem(display, None, f"field {field!r} must be a non-empty string"))
        return ""
    return value.strip()


def _scale(data: dict[str, object], display: str, problems: list[Problem]) -> int:
    value = data.get("scale")
    if isinstance(value, bool) or value not in SCALES:
        problems.append(Problem(display, None, f"field 'scale' must be 1 or 10, not {value!r}"))
        return 1
    return int(value)


def _number(value: object) -> float | None:
    """``value`` as a finite float, or None if it is not a JSON number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _check_format(
    data: dict[str, object], expected: str, other: str, display: str
) -> list[Problem]:
    """A wrong ``format`` marker (a key given as ratings, or the reverse) in words."""
    found = data.get("format", expected)
    if found == expected:
        return []
    if found == other:
        what = "a survey key" if other == KEY_FORMAT else "a rating file"
        return [Problem(display, None, f"this is {what}, not a {expected.split('-')[-1]} file")]
    return [Problem(display, None, f"field 'format' is {found!r}, expected {expected!r}")]


def _document(
    path: Path, expected: str, other: str
) -> tuple[dict[str, object], str, list[Problem]]:
    """A rating file's or key's JSON object, its display name and an empty problem list;
    a file that is not JSON, or of the other kind, is a :class:`DatasetError` at once."""
    display = str(path)
    data, problems = read_json_object(path, display)
    if data is None:
        raise DatasetError(problems)
    problems += _check_format(data, expected, other, display)
    if problems:
        raise DatasetError(problems)
    return data, display, problems


def read_rating_file(path: Path) -> RatingFile:
    """Read and check one rater's rating file; every defect named with its field."""
    data, display, problems = _document(path, RATING_FORMAT, KEY_FORMAT)
    survey = _text(data, "survey", display, problems)
    rater = _text(data, "rater", display, problems)
    scale = _scale(data, display, problems)
    raw = data.get("ratings")
    ratings: dict[str, float | None] = {}
    if not isinstance(raw, dict):
        problems.append(Problem(display, None, "field 'ratings' must be an object: item → score"))
    else:
        problems += [
            Problem(display, key, "rated twice in 'ratings'")
            for key in getattr(raw, "duplicates", [])
        ]
        for item, value in raw.items():
            number = _number(value)
            if value is not None and (number is None or not 0 <= number <= scale):
                problems.append(
                    Problem(display, item, f"ratings: {value!r} is not a number in 0–{scale}")
                )
            ratings[item] = number
    if problems:
        raise DatasetError(problems)
    return RatingFile(survey, rater, scale, ratings, path)


def read_key(path: Path) -> SurveyKey:
    """Read and check a survey key; every defect named with its field."""
    data, display, problems = _document(path, KEY_FORMAT, RATING_FORMAT)
    survey = _text(data, "survey", display, problems)
    name = _text(data, "name", display, problems)
    scale = _scale(data, display, problems)
    seed = data.get("seed", 0)
    raw = data.get("items")
    items: dict[str, KeyItem] = {}
    if not isinstance(raw, dict) or not raw:
        problems.append(Problem(display, None, "field 'items' must be a non-empty object"))
    else:
        for opaque, entry in raw.items():
            judge = _number(entry.get("judge_score")) if isinstance(entry, dict) else None
            if (
                not isinstance(entry, dict)
                or not isinstance(entry.get("run"), str)
                or not isinstance(entry.get("item"), str)
                or judge is None
                or not 0 <= judge <= 1
            ):
                problems.append(
                    Problem(display, opaque, "items: needs run, item and judge_score in 0–1")
                )
                continue
            stratum = entry.get("stratum")
            items[opaque] = KeyItem(
                entry["run"], entry["item"], judge, stratum if isinstance(stratum, str) else ""
            )
    if problems:
        raise DatasetError(problems)
    strata = data.get("strata")
    return SurveyKey(
        survey,
        name,
        scale,
        int(seed) if isinstance(seed, int) else 0,
        items,
        path,
        [s for s in strata if isinstance(s, dict)] if isinstance(strata, list) else [],
    )


def key_beside(path: Path) -> Path | None:
    """The key that ``survey export`` wrote next to ``path`` (its folder or the one above).

    Why the folder above too: raters' files come back into ``for_raters`` or next to it.
    """
    folder = path if path.is_dir() else path.parent
    for candidate in (folder / KEY_FILE, folder.parent / KEY_FILE):
        if candidate.is_file():
            return candidate
    return None


def is_key_file(path: Path) -> bool:
    """Whether a JSON file in a folder of ratings is a key (so it is not read as ratings)."""
    if path.name == KEY_FILE:
        return True
    try:
        head = path.read_text(encoding="utf-8-sig")[:200]
    except (OSError, UnicodeDecodeError):
        return False
    return f'"{KEY_FORMAT}"' in head
