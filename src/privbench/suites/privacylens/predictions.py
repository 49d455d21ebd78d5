"""Final actions made elsewhere, for ``privbench grade privacylens``: two formats, one reading.

* the reference's ``get_final_action.py`` output: a CSV with columns ``name`` and
  ``final_action`` (one row per case, its action already cut by the reference); which
  agent prompt made them is not in the file, so ``--prompt-type`` says it (default naive);
* privbench's own answers export: a JSON object, sample id (``main42:naive``) → the
  model's reply (or a one-element list of it), as ``eval privacylens --out`` writes it.
  A JSON object keyed by case names (``main42``) is read as actions of ``--prompt-type``.

Why no verdict is taken from a file: every action is cut again and judged here (cutting an
already cut action changes nothing).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from privbench.json_files import MAX_FILE_BYTES, read_json_object
from privbench.runtime.errors import DatasetError, Problem
from privbench.suites.privacylens.dataset import PrivacyLensCase
from privbench.suites.privacylens.toolkits import PROMPT_TYPES

CSV_COLUMNS = ("name", "final_action")


def action_id(case: str, prompt_type: str) -> str:
    """The sample id of a case's final action under one agent prompt type."""
    return f"{case}:{prompt_type}"


@dataclass(frozen=True)
class Actions:
    """Final actions by sample id, and the prompt types they answer."""

    answers: dict[str, str]
    prompt_types: tuple[str, ...]


def _error(path: Path, where: str | None, message: str) -> DatasetError:
    return DatasetError([Problem(str(path), where, message)])


def _read_csv(path: Path) -> list[dict[str, str]]:
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise _error(path, None, f"larger than {MAX_FILE_BYTES:,} bytes")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise _error(path, None, f"not UTF-8 text (byte {error.start})") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    missing = [c for c in CSV_COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise _error(
            path, None, f"no '{missing[0]}' column (the reference writes name,final_action)"
        )
    try:
        return list(reader)
    except csv.Error as error:
        raise _error(path, f"line {reader.line_num}", f"unreadable CSV: {error}") from None


def load_actions(path: str | Path, cases: Sequence[PrivacyLensCase], prompt_type: str) -> Actions:
    """The actions of a predictions file, checked against the data's case names."""
    source = Path(path)
    if not source.is_file():
        raise _error(source, None, "file not found")
    names = {case.name for case in cases}
    answers: dict[str, str] = {}
    problems: list[Problem] = []
    if source.suffix.lower() == ".csv":
        for number, row in enumerate(_read_csv(source), start=2):
            name = (row.get("name") or "").strip()
            where = f"line {number}"
            if name not in names:
                problems.append(Problem(str(source), where, f"unknown case '{name}'"))
                continue
            key = action_id(name, prompt_type)
            if key in answers:
                problems.append(Problem(str(source), where, f"case '{name}' given twice"))
                continue
            answers[key] = row.get("final_action") or ""  # pandas' empty cell: no action
    else:
        data, problems = read_json_object(source, str(source))
        for key, value in (data or {}).items():
            if isinstance(value, list) and len(value) == 1:
                value = value[0]
            if not isinstance(value, str):
                problems.append(Problem(str(source), key, "an action must be text"))
                continue
            name, _, kind = key.partition(":")
            if kind and kind not in PROMPT_TYPES:
                problems.append(
                    Problem(
                        str(source),
                        key,
                        f"unknown prompt type '{kind}' (choose from {', '.join(PROMPT_TYPES)})",
                    )
                )
                continue
            if name not in names:
                problems.append(Problem(str(source), key, f"unknown case '{name}'"))
                continue
            answers[action_id(name, kind or prompt_type)] = value
    if problems:
        raise DatasetError(problems)
    if not answers:
        raise _error(source, None, "no actions")
    kinds = tuple(dict.fromkeys(key.partition(":")[2] for key in answers))
    return Actions(answers, kinds)
