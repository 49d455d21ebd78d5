"""Answers made elsewhere, for ``privbench grade confaide``: two formats, one reading.

* privbench's own: a JSON object, sample id → list of answers, one per sample (epoch), every
  list the same length. Sample ids are the ones an eval logs: ``tier1-0003`` (rating tiers),
  ``tier3-0042-free-response``, ``tier4-0005-meeting-summary`` (item id, then question type).
* the reference harness's ``eval_{model}_data_tier_{3|4}_nsamples_{n}_q_{question}_metrics_
  {metric}.json`` files (:mod:`.reference_outputs`), or a directory holding them: each
  record's ``model_response`` is an answer; the files of one question's metrics hold the same
  rows, so the first file of a question is read and the others are checked to agree.

Why the verdicts are not taken from the files: every verdict is recomputed from the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from privbench.json_files import MAX_FILE_BYTES
from privbench.runtime.errors import DatasetError, Problem
from privbench.suites.confaide.dataset import ConfAIdeData, item_id
from privbench.suites.confaide.reference_outputs import (
    EvalFile,
    _read_json,
    parse_eval_name,
    read_eval_file,
)


def sample_id(tier: str, index: int, question_type: str = "") -> str:
    """The id of one prompt: the item's id, then its question type in tiers 3 and 4."""
    base = item_id(tier, index)
    return f"{base}-{question_type}" if question_type else base


def known_sample_ids(data: ConfAIdeData) -> set[str]:
    """Every prompt id the data can give (all tiers, all question types)."""
    from privbench.suites.confaide.prompts import TIER_3_QUESTION_TYPES, TIER_4_QUESTION_TYPES

    ids = {sample_id(tier, i.index) for tier in ("1", "2a", "2b") for i in data.ratings(tier)}
    ids |= {sample_id("3", s.index, q) for s in data.tier_3 for q in TIER_3_QUESTION_TYPES}
    ids |= {sample_id("4", m.index, q) for m in data.tier_4 for q in TIER_4_QUESTION_TYPES}
    return ids


@dataclass(frozen=True)
class Predictions:
    """Answers by sample id (one per sample, in order) and where they came from."""

    answers: dict[str, list[str]]
    samples: int
    """Answers per prompt (every id has this many)."""
    model: str | None = None
    """The model the reference's file names say made them (None: not named)."""
    files: list[str] = field(default_factory=list)


def _problem(path: Path, where: str | None, message: str) -> DatasetError:
    return DatasetError([Problem(str(path), where, message)])


def _own_format(path: Path) -> dict[str, list[str]]:
    data, problems = _read_json(path)
    if problems:
        raise DatasetError(problems)
    if not isinstance(data, dict) or not data:
        raise _problem(
            path, None, "must be a JSON object: sample id → list of answers (one per sample)"
        )
    answers: dict[str, list[str]] = {}
    for key, value in data.items():
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            raise _problem(path, f"'{key}'", "must be a non-empty list of answer strings")
        answers[str(key)] = list(value)
    return answers


def _check_names(source: EvalFile, data: ConfAIdeData) -> None:
    """Each record's names are those of the data's item at its index (same benchmark text)."""
    items: Sequence[object] = data.tier_3 if source.tier == "3" else data.tier_4
    for record in source.records:
        where = f"record {record.position}"
        if not 0 <= record.group < len(items):
            kind = "scenario_idx" if source.tier == "3" else "meeting_idx"
            raise _problem(source.path, where, f"{kind} {record.group} is not an item of the data")
        item = items[record.group]
        for key, value in record.names.items():
            if getattr(item, key) != value:
                raise _problem(
                    source.path,
                    where,
                    f"'{key}' is {value!r} but the data's item {record.group} has "
                    f"{getattr(item, key)!r} (answers to other data?)",
                )


def _reference_files(paths: Sequence[Path], data: ConfAIdeData) -> Predictions:
    answers: dict[str, list[str]] = {}
    first: dict[tuple[str, str], Path] = {}
    models: set[str] = set()
    samples: set[int] = set()
    for path in paths:
        source = read_eval_file(path)
        _check_names(source, data)
        models.add(source.model)
        samples.add(source.n_samples)
        per_item: dict[str, list[str]] = {}
        for record in source.records:
            key = sample_id(source.tier, record.group, source.rule)
            per_item.setdefault(key, []).append(record.response)
        for key, responses in per_item.items():
            if len(responses) != source.n_samples:
                raise _problem(
                    path,
                    key,
                    f"{len(responses)} records but the name says nsamples_{source.n_samples}",
                )
        question = (source.tier, source.rule)
        if question in first:
            if any(answers.get(k) != v for k, v in per_item.items()):
                raise _problem(
                    path, None, f"answers differ from {first[question].name} (same question)"
                )
            continue
        first[question] = path
        answers.update(per_item)
    if len(samples) > 1:
        raise _problem(paths[0].parent, None, "files of different nsamples: grade them apart")
    model = next(iter(models)) if len(models) == 1 else None
    return Predictions(answers, samples.pop(), model, [str(p) for p in paths])


def load_predictions(path: str | Path, data: ConfAIdeData) -> Predictions:
    """The answers of ``path`` (file or directory of reference files), checked against ``data``.

    Raises :class:`DatasetError` naming the file and the record (or sample id) at fault.
    """
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if parse_eval_name(p) is not None)
        if not files:
            raise _problem(path, None, "no reference eval_*_data_tier_*.json file in it")
        return _reference_files(files, data)
    if not path.is_file():
        raise _problem(path, None, "no such file")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise _problem(path, None, f"larger than {MAX_FILE_BYTES:,} bytes")
    if parse_eval_name(path) is not None:
        return _reference_files([path], data)
    answers = _own_format(path)
    known = known_sample_ids(data)
    for key in answers:
        if key not in known:
            raise _problem(
                path, f"'{key}'", "not a sample id of the data (e.g. tier3-0042-control)"
            )
    lengths = {len(v) for v in answers.values()}
    if len(lengths) > 1:
        key = next(k for k, v in answers.items() if len(v) != len(next(iter(answers.values()))))
        raise _problem(path, f"'{key}'", "every sample id needs the same number of answers")
    return Predictions(answers, lengths.pop(), None, [str(path)])
