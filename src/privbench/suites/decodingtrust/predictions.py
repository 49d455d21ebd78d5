"""Completions made elsewhere, for ``privbench grade decodingtrust``: the reference's
generation files, as its runner writes them and as its repository releases them.

A generations folder holds ``enron/``, ``pii/`` and ``understanding/`` (or give one of them,
or one file). Each file is JSON lines, one completion per line, with its ground truth:

* ``enron/{mode}_s{N}_{model}_1.jsonl`` — ``gt-email``, ``gt-name``, ``continuation``;
* ``pii/{type}_{k}shot{attack|protect}_s100_{model}_1.jsonl`` — ``gt``, ``continuation`` (the
  type is written with or without its spaces; the released ``SSN_*`` and ``Social Security
  Number_*`` files hold the lower-case types the reference scores, and are read as those);
* ``understanding/{topic}_t0_s100_{model}_ques{q}_1.jsonl`` — ``word``, ``continuation``.

Why no verdict is taken from a file: every completion is read again here. Which files the
reference's score reads (PII 1-shot files, other spellings of the SSN type and understanding
questions 2 and 3 are not) is kept with each record; those are reported beside the score.
The model's name is the file names' ``{model}``: a folder holding several models' files
needs ``--model-name`` to choose one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from privbench.json_files import MAX_FILE_BYTES, MAX_LINE_BYTES
from privbench.runtime.errors import DatasetError, Problem, UsageError
from privbench.suites.decodingtrust.prompts import (
    ENRON,
    PII,
    PII_MODES,
    SCORED_QUESTION,
    UNDERSTANDING,
    pii_setting,
    pii_types,
    topics,
    understanding_setting,
)

_ENRON = re.compile(r"^(?P<mode>[a-z0-9-]+)_s\d+_(?P<model>.+)_1\.jsonl$")
_PII = re.compile(r"^(?P<type>.+)_(?P<mode>\dshot(?:attack|protect))_s100_(?P<model>.+)_1\.jsonl$")
_UNDERSTANDING = re.compile(r"^(?P<topic>[a-z]+)_t0_s100_(?P<model>.+)_ques(?P<q>\d)_1\.jsonl$")
MAX_FILES = 2_000


@dataclass(frozen=True)
class GivenRecord:
    """One completion of a generation file, with what it is scored against."""

    scenario: str
    setting: str
    index: int
    gt: str
    continuation: str
    scored: bool


@dataclass(frozen=True)
class Generations:
    """A model's completions read from reference-format files."""

    model: str
    records: list[GivenRecord] = field(default_factory=list)
    files: int = 0


def _pii_type(written: str) -> tuple[str, bool]:
    """A file's PII type as the reference's score names it, and whether it is scored."""
    compact = written.replace(" ", "").lower()
    for known in pii_types():
        if known.replace(" ", "") == compact:
            return known, True
    return written, False


def classify(path: Path) -> tuple[str, str, str, bool] | None:
    """(scenario, setting, model, scored) of a generation file by its folder and name."""
    folder, name = path.parent.name, path.name
    if folder == ENRON and (found := _ENRON.match(name)):
        return ENRON, found["mode"], found["model"], True
    if folder == PII and (found := _PII.match(name)):
        pii_type, known = _pii_type(found["type"])
        mode = found["mode"]
        return PII, pii_setting(pii_type, mode), found["model"], known and mode in PII_MODES
    if folder == UNDERSTANDING and (found := _UNDERSTANDING.match(name)):
        topic, question = found["topic"], int(found["q"])
        scored = topic in topics() and question == SCORED_QUESTION
        return UNDERSTANDING, understanding_setting(topic, question), found["model"], scored
    return None


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise UsageError(f"{path}: no such file or folder")
    found = sorted(p for p in path.rglob("*.jsonl") if p.is_file() and not p.is_symlink())
    if len(found) > MAX_FILES:
        raise UsageError(f"{path}: {len(found):,} files (at most {MAX_FILES:,})")
    return found


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    if path.stat().st_size > MAX_FILE_BYTES:
        raise DatasetError([Problem(str(path), None, f"larger than {MAX_FILE_BYTES:,} bytes")])
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if len(raw) > MAX_LINE_BYTES:
                raise DatasetError([Problem(str(path), f"line {number}", "line too long")])
            try:
                yield number, raw.decode("utf-8")
            except UnicodeDecodeError:
                raise DatasetError([Problem(str(path), f"line {number}", "not UTF-8")]) from None


def _records(path: Path, scenario: str, setting: str, scored: bool) -> list[GivenRecord]:
    key = {ENRON: "gt-email", PII: "gt", UNDERSTANDING: "word"}[scenario]
    records: list[GivenRecord] = []
    for number, text in _lines(path):
        if not text.strip():
            continue
        try:
            row = json.loads(text)
        except json.JSONDecodeError as error:
            raise DatasetError(
                [Problem(str(path), f"line {number}", f"not JSON ({error.msg})")]
            ) from None
        gt, continuation = (
            (row.get(key), row.get("continuation")) if isinstance(row, dict) else (None, None)
        )
        if not isinstance(gt, str) or not isinstance(continuation, str):
            raise DatasetError([Problem(str(path), f"line {number}",
                                        f"needs text '{key}' and 'continuation'")])  # fmt: skip
        if scenario == ENRON and "@" not in gt:
            raise DatasetError([Problem(str(path), f"line {number}", "gt-email has no '@'")])
        records.append(GivenRecord(scenario, setting, len(records), gt, continuation, scored))
    return records


def load_generations(path: str | Path, model: str | None = None) -> Generations:
    """A model's completions under ``path`` (a folder of the reference's layout or a file)."""
    source = Path(path)
    found: dict[str, list[tuple[Path, str, str, bool]]] = {}
    for file in _files(source):
        kind = classify(file)
        if kind is not None:
            found.setdefault(kind[2], []).append((file, kind[0], kind[1], kind[3]))
    if not found:
        raise UsageError(f"{source}: no generation file of the reference's layout "
                         "(enron/…_1.jsonl, pii/…_1.jsonl, understanding/…_1.jsonl)")  # fmt: skip
    if model is None and len(found) > 1:
        raise UsageError(f"{source}: files of {len(found)} models ({', '.join(sorted(found))}); "
                         "choose one with --model-name")  # fmt: skip
    chosen = model if model is not None else next(iter(found))
    if chosen not in found:
        raise UsageError(
            f"{source}: no file of model '{chosen}' (found: {', '.join(sorted(found))})"
        )
    records: list[GivenRecord] = []
    for file, scenario, setting, scored in found[chosen]:
        records += _records(file, scenario, setting, scored)
    return Generations(chosen, records, len(found[chosen]))
