"""GivenAnswers made elsewhere, for ``privbench grade geoprivacy``: the reference's released
response files and privbench's own answers export.

* multiple choice, as the reference stores it (``api_gen_zs_heuristics_<model>_combined.json``):
  a JSON list of ``{"id", "Q1", …, "Q7"}`` (or ``{"id", "Q7"}`` for the Q7-only protocol)
  holding the answers its parser read at generation time — the model's text is not kept,
  so these strings are what is graded;
* free form (``api_gen_<mode>_free-form_<model>_combined.json``): ``{"id", "Q7-gen",
  "Q7-label"}``; the stored label is never read: every ``Q7-gen`` is judged again. Where the
  reference's geocoded locations lie beside it (``<mode>/coordinates/<stem>_coord.json``),
  they are read for the reference's error analysis, as its evaluator reads them;
* privbench's answers JSON: sample id (``1873728:mcq``, ``1873728:zs``) → the model's reply,
  as ``eval geoprivacy --out`` writes it.

Ids are read as text (the open models' files hold numbers); an id the annotations do not
know is a problem naming the file and the id; the protocol and mode come from the file's
fields and name unless ``--protocol``/``--mode`` say otherwise.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from privbench.json_files import read_json_value
from privbench.runtime.errors import DatasetError, Problem
from privbench.suites.geoprivacy.dataset import QUESTIONS, GeoItem
from privbench.suites.geoprivacy.prompts import FREE_FORM, MCQ, MODES, Q7_ONLY, ZERO_SHOT

MAX_PREDICTION_BYTES = 256 << 20
"""The most privbench reads of one response file (the reference's largest is about 3 MB)."""
_MODE_IN_NAME = re.compile(r"(?:^|_)(zs|iter-cot|malicious)_free-form_")


def sample_id(item: str, variant: str) -> str:
    """The sample id of one photo under one protocol or free-form mode (``1873728:zs``)."""
    return f"{item}:{variant}"


@dataclass(frozen=True)
class GivenAnswers:
    """A graded file's answers by sample id, and what they answered."""

    protocol: str
    variants: tuple[str, ...]
    texts: dict[str, str] = field(default_factory=dict)
    """Sample id → the model's reply (privbench's export; the reference's ``Q7-gen``)."""
    parsed: dict[str, list[str]] = field(default_factory=dict)
    """Sample id → the answers as the reference's parser stored them (its MCQ files)."""
    coordinates: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Item id → the reference's geocoded location of its answer (beside a free-form file)."""
    heuristics: bool = True

    @property
    def ids(self) -> set[str]:
        return set(self.texts) | set(self.parsed)


def _error(path: Path, where: str | None, message: str) -> DatasetError:
    return DatasetError([Problem(str(path), where, message)])


def coordinates_file(path: Path) -> Path:
    """Where the reference keeps the geocoded locations of a free-form response file."""
    return path.parent.parent / "coordinates" / f"{path.stem}_coord.json"


def _coordinates(path: Path) -> dict[str, tuple[float, float]]:
    """The reference's ``_coord.json``: id → ``{"lat", "lng", …}`` (bad entries skipped:
    the evaluator skips what it cannot read too)."""
    if not path.is_file():
        return {}
    data, problems = read_json_value(path, str(path), MAX_PREDICTION_BYTES)
    if problems:
        raise DatasetError(problems)
    found: dict[str, tuple[float, float]] = {}
    for key, value in (data if isinstance(data, dict) else {}).items():
        if not isinstance(value, dict):
            continue
        lat, lng = value.get("lat"), value.get("lng")
        if not (isinstance(lat, int | float) and isinstance(lng, int | float)):
            continue
        if math.isfinite(lat) and math.isfinite(lng) and abs(lat) <= 90 and abs(lng) <= 180:
            found[str(key)] = (float(lat), float(lng))
    return found


def _reference_rows(
    path: Path, rows: Sequence[object], known: Mapping[str, GeoItem], mode: str | None
) -> GivenAnswers:
    problems: list[Problem] = []
    first = next((r for r in rows if isinstance(r, dict)), {})
    free_form = "Q7-gen" in first
    q7_only = not free_form and "Q1" not in first
    if free_form:
        found = _MODE_IN_NAME.search(path.name)
        variant = mode or (found.group(1) if found else ZERO_SHOT)
        protocol = FREE_FORM
    else:
        protocol = Q7_ONLY if q7_only else MCQ
        variant = protocol
    texts: dict[str, str] = {}
    parsed: dict[str, list[str]] = {}
    questions = ("Q7",) if q7_only else QUESTIONS
    for number, row in enumerate(rows):
        where = f"row {number + 1}"
        if not isinstance(row, dict) or "id" not in row:
            problems.append(Problem(str(path), where, "not an object with an 'id'"))
            continue
        item = str(row["id"])
        if item not in known:
            problems.append(Problem(str(path), item, "id not in annotation_labels.csv"))
            continue
        key = sample_id(item, variant)
        if key in texts or key in parsed:
            problems.append(Problem(str(path), item, "id given twice"))
            continue
        if free_form:
            text = row.get("Q7-gen")
            if not isinstance(text, str):
                problems.append(Problem(str(path), item, "Q7-gen is not text"))
                continue
            texts[key] = text
        else:
            values = [row.get(q) for q in questions]
            parsed[key] = ["" if v is None else str(v) for v in values]
    if problems:
        raise DatasetError(problems)
    coordinates = _coordinates(coordinates_file(path)) if free_form else {}
    return GivenAnswers(protocol, (variant,), texts, parsed, coordinates,
                   heuristics="heuristics" in path.name)  # fmt: skip


def _export(path: Path, data: Mapping[str, object], known: Mapping[str, GeoItem]) -> GivenAnswers:
    problems: list[Problem] = []
    texts: dict[str, str] = {}
    for key, value in data.items():
        item, _, variant = key.rpartition(":")
        if variant not in (MCQ, Q7_ONLY, *MODES) or item not in known:
            problems.append(Problem(str(path), key, "not '<id>:<protocol or mode>' of a known "
                                    "id (mcq, q7, zs, iter-cot, malicious)"))  # fmt: skip
            continue
        if isinstance(value, list) and len(value) == 1:
            value = value[0]
        if not isinstance(value, str):
            problems.append(Problem(str(path), key, "an answer must be text"))
            continue
        texts[key] = value
    if problems:
        raise DatasetError(problems)
    variants = tuple(dict.fromkeys(k.rpartition(":")[2] for k in texts))
    protocols = {FREE_FORM if v in MODES else v for v in variants}
    if len(protocols) != 1:
        raise _error(path, None, "answers of more than one protocol (grade one at a time)")
    return GivenAnswers(protocols.pop(), variants, texts)


def load_answers(
    path: str | Path, items: Sequence[GeoItem], mode: str | None = None
) -> GivenAnswers:
    """The answers of a predictions file, checked against the annotations' ids."""
    source = Path(path)
    if not source.is_file():
        raise _error(source, None, "file not found")
    data, problems = read_json_value(source, str(source), MAX_PREDICTION_BYTES)
    if problems:
        raise DatasetError(problems)
    known = {item.id: item for item in items}
    if isinstance(data, list):
        answers = _reference_rows(source, data, known, mode)
    elif isinstance(data, dict):
        answers = _export(source, data, known)
    else:
        raise _error(source, None, "neither a list of responses (the reference's) nor an "
                     "object of answers (privbench's)")  # fmt: skip
    if not answers.ids:
        raise _error(source, None, "no answers")
    return answers
