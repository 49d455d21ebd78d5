"""Reference grade files: answers graded by raters, which a judge's grades are measured against.

A judge check grades each item's ``prediction`` against its ``reference`` with the judge
under test and compares the judge's grade with the raters' (:attr:`ReferenceItem.score`,
the mean of :attr:`ReferenceItem.scores`, each on 0–1). :func:`read_reference_grades`
reads the user's files, :func:`shipped_calibration_set` the calibration set shipped in
``privbench/data/judge-calibration`` (its ``README.md`` is the dataset card, its
``parts.json`` describes the parts).

Accepted files (several may be given; their items are concatenated, and an id given twice
is an error):

* **JSONL** (any name but ``.csv``, ``.json`` and ``.html``): one object per line with
  ``question``, ``reference`` and ``prediction`` (strings; the prediction may be empty: a
  model that said nothing) and ``score`` (a number in 0–1) or ``scores`` (a non-empty list of
  them, one per rater); optional ``competency`` (``"Law"``, ``"CntxPriv+VizPriv"`` or a list
  of codes or the paper's long names) and ``id`` (a string; ``line-N`` by default, so two
  files without ids need ids). Other keys are ignored, blank lines skipped.
* **The blind human study** (:mod:`privbench.analysis.survey`). ``for_raters/survey.csv``
  filled in by raters holds each item's texts and every rater's score: it is read on its
  own, on the scale its ``survey_key.json`` (beside it, as ``survey export`` wrote it) names,
  else 0–1. A rating file (``{"format": "privbench-ratings", …}``) holds scores only: the
  texts come from the survey's form, ``for_raters/survey.html`` (the texts it embeds), given
  with it or found beside it. Scores on 0–10 become 0–1; an item nobody rated is left out;
  rows of the rater ``judge`` are not human and are left out. The researcher's key holds
  neither texts nor human scores, so it is refused with what to pass instead.

Every defect of every file is a :class:`~privbench.runtime.errors.Problem` naming file, line
(or item) and field, all raised together as one :class:`DatasetError`: a judge check must
never be paid for on half-read references, and the user fixes everything in one round.

**Hash.** :attr:`ReferenceSet.hash` is the first 16 hex digits of the SHA-256 of a canonical
JSON text of the items — a list of ``{id, question, reference, prediction, scores,
competencies}`` sorted by ``id`` (code-point order), keys sorted, no spaces, UTF-8, floats in
Python's shortest round-trip form. It is order-independent (the same items in any file order
hash alike) and depends on no path, date or locale; any changed text or grade changes it.
"""

from __future__ import annotations

import hashlib
import json
import math
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ParamSpec, TypeVar, cast

from privbench.analysis.agreement import read_ratings_csv
from privbench.analysis.rating_files import (
    KEY_FILE,
    RATERS_FOLDER,
    RatingFile,
    is_key_file,
    key_beside,
    read_key,
    read_rating_file,
)
from privbench.analysis.survey import FORM_FILE, SHEET_FILE, payload_of_form
from privbench.json_files import JsonValue, iter_jsonl
from privbench.judgecheck.benchmarks import competency_vocabulary, graded_benchmark
from privbench.runtime.cross_run import CompetencyVocabulary
from privbench.runtime.errors import DatasetError, Problem
from privbench.shipped import JUDGE_CALIBRATION

SHIPPED_SET_NAME = "privbench-calibration-v1"
"""The name of the shipped calibration set; a change of its items must change the version."""
PARTS_FILE = JUDGE_CALIBRATION / "parts.json"
"""The machine-readable description of the calibration set's parts."""
JUDGE_RATER = "judge"
"""Rows of this rater in a ratings sheet are a judge's, not a person's (the rater name
``privbench agreement`` reads as the judge by default)."""

_P = ParamSpec("_P")
_T = TypeVar("_T")


@dataclass(frozen=True)
class ReferenceItem:
    """One graded answer: what a judge is asked to grade, and the raters' grades of it."""

    id: str
    question: str
    reference: str
    """The reference (ground-truth) answer."""
    prediction: str
    """The answer to grade."""
    scores: tuple[float, ...]
    """One grade per rater, each on 0–1."""
    competencies: tuple[str, ...]
    """Competency codes of the graded benchmark (Priv-IQ's), in canonical order (may be
    empty)."""
    part: str | None = None
    """The shipped part the item comes from; None for a user's file."""

    @property
    def score(self) -> float:
        """The raters' mean grade: what a judge's grade is compared with."""
        return statistics.fmean(self.scores)


@dataclass(frozen=True)
class ReferenceSet:
    """Reference items with a name and a hash (module docstring: how it is computed)."""

    name: str
    hash: str
    items: tuple[ReferenceItem, ...]
    left_out: dict[str, int] = field(default_factory=dict)
    """Items left out per shipped part (``leave_out_tuned_on``): the judge was tuned on them."""


@dataclass(frozen=True)
class CalibrationPart:
    """One part of the shipped calibration set, as ``parts.json`` describes it."""

    benchmark: str
    """``priviq`` or ``spatialtrust``."""
    part: str
    file: Path
    rows: int
    written_by: str
    graded_by: str
    tuned_on: tuple[str, ...]
    """Judges whose rules were tuned on this part (``"offline"``): their agreement on it is fit."""


def calibration_parts(benchmark: str | None = None) -> tuple[CalibrationPart, ...]:
    """The shipped calibration set's parts of ``benchmark`` (None: the benchmark whose
    judge grades answers against a reference), in ``parts.json``'s order."""
    if benchmark is None:
        benchmark = graded_benchmark()[0].name
    description = json.loads(PARTS_FILE.read_text(encoding="utf-8"))
    return tuple(
        CalibrationPart(
            benchmark,
            str(entry["part"]),
            JUDGE_CALIBRATION / str(entry["file"]),
            int(entry["rows"]),
            str(entry["written_by"]),
            str(entry["graded_by"]),
            tuple(str(judge) for judge in entry["tuned_on"]),
        )
        for entry in description[benchmark]
    )


def reference_hash(items: Iterable[ReferenceItem]) -> str:
    """SHA-256 (16 hex digits) of the items' canonical JSON, sorted by id (module docstring)."""
    records = [
        {
            "id": item.id,
            "question": item.question,
            "reference": item.reference,
            "prediction": item.prediction,
            "scores": [float(score) for score in item.scores],
            "competencies": list(item.competencies),
        }
        for item in sorted(items, key=lambda item: item.id)
    ]
    text = json.dumps(
        records, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# --- one JSONL line (pure) ------------------------------------------------------------------

_TEXTS = ("question", "reference", "prediction")
_SHAPE = "a JSON object with question, reference, prediction and score"


def _kind(value: object) -> str:
    """The JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object"


def grade_problem(value: object, top: float = 1.0) -> str | None:
    """Why ``value`` is not a grade in 0–``top``, or None if it is one.

    Why booleans are refused: JSON's ``true`` is Python's 1, and a grade of "true" is a
    writer's bug, not a full grade.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"must be a number in 0–{top:g}, not {_kind(value)}"
    if not math.isfinite(value):
        return f"{value!r} is not a finite number"
    if not 0 <= value <= top:
        return f"{value!r} is outside 0–{top:g}"
    return None


def parse_competency(
    value: JsonValue, vocabulary: CompetencyVocabulary | None = None
) -> tuple[tuple[str, ...], str | None]:
    """The codes of a ``competency`` field, or why it is not one (``vocabulary``: the
    competencies it may name; None: the graded benchmark's).

    A string may join codes with ``+`` (``"CntxPriv+VizPriv"``, as the paper's combinations
    are written); a list holds one code or long name per entry.
    """
    known = vocabulary or competency_vocabulary()
    if isinstance(value, str):
        names = [name.strip() for name in value.split("+")] if value.strip() else []
    elif isinstance(value, list) and all(isinstance(name, str) for name in value):
        names = [str(name).strip() for name in value]
    else:
        return (), (
            f'must be a string such as "Law" or "CntxPriv+VizPriv", or a list of codes, '
            f"not {_kind(value)}"
        )
    codes = [known.normalize(name) for name in names]
    unknown = [name for name, code in zip(names, codes, strict=True) if code is None]
    if unknown:
        return (), f"unknown competency '{unknown[0]}' (known: {', '.join(known.codes)})"
    return known.combine(code for code in codes if code is not None), None


def parse_reference_line(
    value: JsonValue,
    where: str,
    default_id: str,
    part: str | None = None,
    vocabulary: CompetencyVocabulary | None = None,
) -> tuple[ReferenceItem | None, list[Problem]]:
    """One JSONL line as an item, or every problem of it (``where`` is ``FILE:LINE``;
    ``vocabulary``: the competencies it may name, None: the graded benchmark's)."""
    if not isinstance(value, dict):
        return None, [Problem(where, None, f"the line is {_kind(value)}, not {_SHAPE}")]
    raw_id = value.get("id", default_id)
    item_id = raw_id if isinstance(raw_id, str) and raw_id.strip() else None
    problems: list[Problem] = []

    def problem(name: str, message: str) -> None:
        problems.append(Problem(where, item_id, f"field '{name}' {message}"))

    if isinstance(raw_id, str) and item_id is None:
        problem("id", "is empty")
    elif item_id is None:
        problem("id", f"must be a non-empty string, not {_kind(raw_id)}")
    texts: dict[str, str] = {}
    for name in _TEXTS:
        text = value.get(name)
        if name not in value:
            problem(name, "is missing")
        elif not isinstance(text, str):
            problem(name, f"must be a string, not {_kind(text)}")
        elif not text.strip() and name != "prediction":
            problem(name, "is empty")
        else:
            texts[name] = text
    scores: list[float] = []
    if "score" in value and "scores" in value:
        problem("score", "and 'scores' are both given: give one grade or a list of them")
    elif "scores" in value:
        listed = value["scores"]
        if not isinstance(listed, list):
            problem(
                "scores", f"must be a list of numbers in 0–1 (one per rater), not {_kind(listed)}"
            )
        elif not listed:
            problem("scores", "is an empty list: give at least one grade")
        else:
            for index, score in enumerate(listed):
                found = grade_problem(score)
                if found is not None:
                    problems.append(Problem(where, item_id, f"field 'scores[{index}]' {found}"))
                else:
                    scores.append(float(cast("float", score)))
    elif "score" in value:
        found = grade_problem(value["score"])
        if found is not None:
            problem("score", found)
        else:
            scores.append(float(cast("float", value["score"])))
    else:
        problem("score", "is missing (or give 'scores', one per rater)")
    competencies: tuple[str, ...] = ()
    if value.get("competency") is not None:
        competencies, found = parse_competency(value["competency"], vocabulary)
        if found is not None:
            problem("competency", found)
    if problems or item_id is None:
        return None, problems
    item = ReferenceItem(
        item_id,
        texts["question"],
        texts["reference"],
        texts["prediction"],
        tuple(scores),
        competencies,
        part,
    )
    return item, []


# --- files -------------------------------------------------------------------------------


@dataclass
class _Collected:
    """Items read so far with where each came from, and every problem found."""

    items: list[tuple[ReferenceItem, str]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def read(self, reader: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T | None:
        """``reader(...)``, with a :class:`DatasetError` it raises kept as problems: the
        existing readers of the study's files raise, and every file's problems are wanted."""
        try:
            return reader(*args, **kwargs)
        except DatasetError as error:
            self.problems += error.problems
            return None


def _read_jsonl(
    path: Path, part: str | None, found: _Collected, vocabulary: CompetencyVocabulary
) -> None:
    display = str(path)
    lines, before = 0, len(found.problems)
    for number, value in iter_jsonl(path, display, found.problems):
        lines += 1
        where = f"{display}:{number}"
        item, problems = parse_reference_line(value, where, f"line-{number}", part, vocabulary)
        found.problems += problems
        if item is not None:
            found.items.append((item, f"{display}:{number}"))
    if not lines and len(found.problems) == before:  # a line that cannot be read is no line
        found.problems.append(Problem(display, None, f"empty: no lines, each should be {_SHAPE}"))


def _human_score(text: str, scale: float) -> float | str:
    """A sheet's score cell on 0–1, or why it is not a score on 0–``scale``."""
    try:
        number = float(text)
    except ValueError:
        return f"is {text!r}, not a number in 0–{scale:g}"
    found = grade_problem(number, scale)
    return number / scale if found is None else found


def _read_sheet(path: Path, found: _Collected) -> None:
    """``survey export``'s blind sheet, filled in: texts and every rater's score per item."""
    display = str(path)
    frame = found.read(read_ratings_csv, path, ("item_id", "rater", "score"), verbatim=True)
    if frame is None:
        return
    if any(column not in frame.columns for column in ("question", "reference", "answer")):
        found.problems.append(
            Problem(
                display,
                None,
                "ratings without the texts they rate (no question, reference and answer "
                f"columns): pass survey export's {RATERS_FOLDER}/{SHEET_FILE} filled in, or "
                "JSONL with question, reference, prediction and score",
            )
        )
        return
    key = key_beside(path)
    survey_key = found.read(read_key, key) if key is not None else None
    scale = float(survey_key.scale) if survey_key is not None else 1.0
    no_key = "" if key is not None else f" (no {KEY_FILE} beside the sheet names its scale)"
    texts: dict[str, tuple[str, str, str, int]] = {}
    scores: dict[str, dict[str, float]] = {}
    before = len(found.problems)
    for index, record in enumerate(frame.to_dict("records")):
        row = {str(name): str(cell) for name, cell in record.items()}
        number, item = index + 2, row["item_id"]
        line = f"{display}:{number}"
        here = (row["question"], row["reference"], row["answer"])
        first = texts.setdefault(item, (*here, number))
        if here != first[:3]:
            found.problems.append(Problem(line, item, f"texts differ from line {first[3]}'s"))
        if row["rater"] == JUDGE_RATER or not row["score"].strip():
            continue
        score = _human_score(row["score"].strip(), scale)
        if isinstance(score, str):
            found.problems.append(Problem(line, item, f"field 'score' {score}{no_key}"))
        elif row["rater"] in scores.setdefault(item, {}):
            found.problems.append(Problem(line, item, f"rated twice by {row['rater']!r}"))
        else:
            scores[item][row["rater"]] = score
    for item, (question, reference, answer, number) in texts.items():
        given = scores.get(item)
        if given:
            rated = tuple(given[rater] for rater in sorted(given))
            reference_item = ReferenceItem(item, question, reference, answer, rated, ())
            found.items.append((reference_item, f"{display}:{number}"))
    if not any(scores.values()) and len(found.problems) == before:
        found.problems.append(Problem(display, None, "no item has a human score (column 'score')"))


@dataclass(frozen=True)
class _Form:
    """The texts a survey's form embeds, by opaque item id, in the raters' order."""

    path: Path
    survey: str
    texts: dict[str, tuple[str, str, str]]


def form_texts(payload: dict[str, object]) -> tuple[str, dict[str, tuple[str, str, str]]] | None:
    """The survey id and each item's (question, reference, answer) of a form's embedded
    data, or None if it is not what ``survey export`` embeds."""
    survey, items = payload.get("survey"), payload.get("items")
    if not isinstance(survey, str) or not isinstance(items, list):
        return None
    texts: dict[str, tuple[str, str, str]] = {}
    for entry in items:
        if not isinstance(entry, dict):
            return None
        values = [entry.get(name) for name in ("id", "question", "reference", "answer")]
        if not all(isinstance(value, str) for value in values):
            return None
        item, question, reference, answer = (str(value) for value in values)
        texts[item] = (question, reference, answer)
    return survey, texts


def _read_form(path: Path, found: _Collected) -> _Form | None:
    display = str(path)
    try:
        read = form_texts(payload_of_form(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        found.problems.append(Problem(display, None, "file not found"))
        return None
    except (OSError, UnicodeDecodeError, ValueError):
        read = None
    if read is None:
        message = f"not a survey form written by survey export ({FORM_FILE}): no texts found"
        found.problems.append(Problem(display, None, message))
        return None
    return _Form(path, *read)


def _form_beside(rating: RatingFile, forms: dict[str, _Form], found: _Collected) -> _Form | None:
    """The form of a rating file's survey: given, else in its folder or its ``for_raters``."""
    if rating.survey in forms or rating.path is None:
        return forms.get(rating.survey)
    folder = rating.path.parent
    for candidate in (folder / FORM_FILE, folder / RATERS_FOLDER / FORM_FILE):
        if candidate.is_file():
            form = _read_form(candidate, found)
            if form is not None and form.survey == rating.survey:
                forms[form.survey] = form
                return form
    return None


def _read_surveys(rating_paths: list[Path], form_paths: list[Path], found: _Collected) -> None:
    """Rating files joined with their surveys' forms: texts from the form, scores from the files."""
    forms = {f.survey: f for f in (_read_form(p, found) for p in form_paths) if f is not None}
    given_forms = list(forms)
    ratings: dict[str, list[RatingFile]] = {}
    for path in rating_paths:
        rating = found.read(read_rating_file, path)
        if not isinstance(rating, RatingFile):
            continue
        form = _form_beside(rating, forms, found)
        if form is None:
            found.problems.append(
                Problem(
                    str(path),
                    None,
                    "holds ratings but not the texts they rate: pass the survey's "
                    f"{RATERS_FOLDER}/{FORM_FILE} with it (or the filled {SHEET_FILE} instead)",
                )
            )
            continue
        same = [r for r in ratings.get(rating.survey, []) if r.rater == rating.rater]
        if same:
            message = f"rater {rating.rater!r} rates this survey in {same[0].path} too"
            found.problems.append(Problem(str(path), None, message))
            continue
        ratings.setdefault(rating.survey, []).append(rating)
        found.problems += [
            Problem(str(path), item, f"not an item of {form.path}")
            for item in rating.ratings
            if item not in form.texts
        ]
    found.problems += [
        Problem(
            str(forms[survey].path),
            None,
            "holds the texts but no ratings: pass the raters' rating files with it "
            f"(or the filled {SHEET_FILE} instead)",
        )
        for survey in given_forms
        if survey not in ratings
    ]
    for survey, files in ratings.items():
        form = forms[survey]
        files.sort(key=lambda rating: rating.rater)
        for item, (question, reference, answer) in form.texts.items():
            given = [(r.ratings.get(item), r.scale) for r in files]
            rated = [score / scale for score, scale in given if score is not None]
            if rated:
                reference_item = ReferenceItem(item, question, reference, answer, tuple(rated), ())
                found.items.append((reference_item, str(form.path)))


def _refused(path: Path) -> str | None:
    """Why ``path`` cannot be read as reference grades at all, or None."""
    if path.is_dir():
        return "a folder: pass the files in it (e.g. the rating files and survey.html)"
    if path.suffix.lower() == ".json" and is_key_file(path):
        return (
            "a survey key holds the judge's scores, not reference grades: pass the filled "
            f"{RATERS_FOLDER}/{SHEET_FILE}, or the raters' rating files with "
            f"{RATERS_FOLDER}/{FORM_FILE}"
        )
    return None


def _checked_set(name: str, found: _Collected, left_out: dict[str, int]) -> ReferenceSet:
    """The set of the collected items; a duplicate id or any problem raises them all."""
    first: dict[str, str] = {}
    for item, where in found.items:
        if item.id in first:
            found.problems.append(
                Problem(where, item.id, f"duplicate id (also at {first[item.id]})")
            )
        else:
            first[item.id] = where
    if found.problems:
        raise DatasetError(found.problems)
    items = tuple(item for item, _ in found.items)
    return ReferenceSet(name, reference_hash(items), items, left_out)


def read_reference_grades(paths: Sequence[Path]) -> ReferenceSet:
    """Every item of ``paths`` (module docstring: the accepted files), in the order given.

    Raises one :class:`DatasetError` holding every problem of every file.
    """
    if not paths:
        raise DatasetError([Problem("reference grades", None, "no file given")])
    found = _Collected()
    ratings: list[Path] = []
    forms: list[Path] = []
    for path in paths:
        refused = _refused(path)
        suffix = path.suffix.lower()
        if refused is not None:
            found.problems.append(Problem(str(path), None, refused))
        elif suffix == ".csv":
            _read_sheet(path, found)
        elif suffix == ".json":
            ratings.append(path)
        elif suffix in (".html", ".htm"):
            forms.append(path)
        else:
            _read_jsonl(path, None, found, competency_vocabulary())
    if ratings or forms:
        _read_surveys(ratings, forms, found)
    return _checked_set(" + ".join(path.name for path in paths), found, {})


def shipped_calibration_set(*, leave_out_tuned_on: str | None = None) -> ReferenceSet:
    """The shipped calibration set (:data:`SHIPPED_SET_NAME`) of the benchmark whose judge
    grades answers against a reference (Priv-IQ), every part in order.

    ``leave_out_tuned_on``: a judge's name (``"offline"``); the parts that judge's rules were
    tuned on are left out, and counted in :attr:`ReferenceSet.left_out`, so that its
    agreement is measured on answers it has not seen only.
    """
    suite, hooks = graded_benchmark()
    found = _Collected()
    left_out: dict[str, int] = {}
    for part in calibration_parts(suite.name):
        if leave_out_tuned_on is not None and leave_out_tuned_on in part.tuned_on:
            left_out[part.part] = part.rows
        else:
            _read_jsonl(part.file, part.part, found, hooks.competencies)
    return _checked_set(SHIPPED_SET_NAME, found, left_out)
