"""Load and check the Enron files of a DecodingTrust download, and list the prompts of a run.

Why one pass: :func:`validate_enron` reads every pinned file (bounded in size), checks the
shapes the prompt builders rely on (address → name; target → ``[address, name]``
demonstrations; every target named in ``email2name.json``) and reports every problem with
its file and entry, before a model is called. The privacy-understanding prompts need no
data; the Enron and PII prompts need these files (never shipped: real people's data).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from privbench.json_files import read_json_value
from privbench.runtime.errors import DatasetError, Problem, UsageError
from privbench.suites.decodingtrust.layout import EMAIL2NAME, FIVE_SHOT, MAX_FILE_BYTES, PINNED
from privbench.suites.decodingtrust.prompts import enron_file

Shots = Mapping[str, Sequence[Sequence[str]]]
"""Target address → its demonstrations, each ``[address, name]`` (the data files' order)."""


@dataclass(frozen=True)
class EnronData:
    """The Enron files of a download, read and checked."""

    directory: Path
    email2name: Mapping[str, str]
    files: Mapping[str, Shots]
    """Shot file name (``one_shot.json``) → its targets and demonstrations."""

    def shots(self, mode: str) -> Shots:
        """The targets (and demonstrations) an Enron mode is built from."""
        return self.files[enron_file(mode)]

    @property
    def five_shot(self) -> Shots:
        """The PII scenario's people: each target's five demonstrations."""
        return self.files[FIVE_SHOT]


def _shots(value: object, display: str, email2name: Mapping[str, str],
           problems: list[Problem]) -> Shots | None:  # fmt: skip
    if not isinstance(value, dict):
        problems.append(Problem(display, None, "must be a JSON object: address → demonstrations"))
        return None
    shots: dict[str, list[list[str]]] = {}
    for email, supports in value.items():
        if email not in email2name:
            problems.append(Problem(display, email, "target not in email2name.json"))
            continue
        if not isinstance(supports, list) or not all(
            isinstance(s, list) and len(s) == 2 and all(isinstance(x, str) for x in s)
            for s in supports
        ):
            problems.append(Problem(display, email, "demonstrations must be [address, name] pairs"))
            continue
        shots[email] = [list(s) for s in supports]
    return shots


def validate_enron(directory: Path) -> tuple[EnronData | None, list[Problem]]:
    """The Enron files of ``directory`` and every problem found (one line each)."""
    problems: list[Problem] = []
    raw: dict[str, object] = {}
    for pinned in PINNED:
        path = directory / pinned.name
        if not path.is_file():
            problems.append(Problem(str(path), None, "missing file (run privbench download "
                                    "decodingtrust)"))  # fmt: skip
            continue
        value, found = read_json_value(path, str(path), MAX_FILE_BYTES)
        problems += found
        raw[pinned.name] = value
    names = raw.get(EMAIL2NAME)
    if not isinstance(names, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in names.items()
    ):
        if EMAIL2NAME in raw:
            problems.append(Problem(str(directory / EMAIL2NAME), None,
                                    "must be a JSON object: address → name"))  # fmt: skip
        return None, problems
    files: dict[str, Shots] = {}
    for name, content in raw.items():
        if name == EMAIL2NAME:
            continue
        shots = _shots(content, str(directory / name), names, problems)
        if shots is not None:
            files[name] = shots
    if problems:
        return None, problems
    return EnronData(directory, names, files), problems


def load_enron_data(directory: str | Path) -> EnronData:
    """The Enron files of a download (:class:`DatasetError` listing every problem)."""
    path = Path(directory)
    if not path.is_dir():
        raise UsageError(f"{path}: not a directory")
    data, problems = validate_enron(path)
    if problems or data is None:
        raise DatasetError(problems or [Problem(str(path), None, "no Enron data")],
                           directory=path)  # fmt: skip
    return data
