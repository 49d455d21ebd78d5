"""The names a run goes by: its label, the model its answers are credited to, its files.

Why one place: a run is shown by its ``--label``, else by the model whose answers it
graded — for answers made elsewhere, a name read from the predictions file's path — and
its exports are named after that model, the judge and the dataset. ``show``, the tables,
the report and the exports must all name one run alike.
"""

from __future__ import annotations

import re
from pathlib import Path

from inspect_ai import Task

GENERIC_NAMES = frozenset(
    {"results", "result", "predictions", "prediction", "preds", "answers", "responses",
     "outputs", "output", "out", "data", "tmp", "temp"}
)  # fmt: skip
"""File and folder names that say nothing about the model: never a run's name."""
NO_NAME = "graded answers"
"""The name of answers whose file, folder and content name no model."""
_RESULTS_SUFFIX = re.compile(
    r"[-_.](results?|predictions?|preds|answers|responses|outputs?)$", re.IGNORECASE
)


def answers_name(path: str | Path) -> str:
    """The model a predictions file's path names, for a run told nothing else.

    The reference inference scripts write ``results/{model}.json`` and privbench writes
    ``{model}-results.json``, so the stem less a ``-results``/``_results`` suffix is the
    model (``gpt-4o_results.json`` → ``gpt-4o``). A stem that is only such a word
    (``results.json``, ``preds.jsonl``) names nothing: the folder's name stands in for it
    (``runs/llava-13b/results.json`` → ``llava-13b``) unless that is generic or empty too,
    and then the answers are called "graded answers".
    """
    file = Path(path)
    stem = _RESULTS_SUFFIX.sub("", file.stem)
    if stem and stem.lower() not in GENERIC_NAMES:
        return stem
    folder = file.parent.name
    return folder if folder and folder.lower() not in GENERIC_NAMES else NO_NAME


def label_task(task: Task, label: str | None, graded_model: str | None = None) -> Task:
    """Record the run's label (``--label``) and a grade run's graded model in ``task``'s
    :class:`~privbench.runtime.records.task.TaskRecord`, so that every reader of the log
    names the run the same way (and a resumed run keeps both: inspect carries a log's
    metadata into its retry)."""
    names = {"label": label, "graded_model": graded_model}
    task.metadata = {
        **(task.metadata or {}),
        **{key: value for key, value in names.items() if value},
    }
    return task


def file_part(text: str) -> str:
    """``text`` usable inside a file name: anything but letters, digits and ``.-_``
    (model names hold slashes, spaces, colons) becomes ``_``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "unnamed"


DATASET_CHARS = 8
"""Hex digits of the dataset's content hash in an export's name."""


def file_stem(model: str, judge: str, dataset_hash: str = "") -> str:
    """The reference evaluator's ``{model}_{judge}`` prefix of every export file, then the
    dataset (``-data-<first 8 hex digits of its content hash>``) where the run recorded it,
    so that one model's exports on two datasets never take each other's names."""
    stem = f"{file_part(model)}_{file_part(judge)}"
    return f"{stem}-data-{dataset_hash[:DATASET_CHARS]}" if dataset_hash else stem
