"""The identity of a benchmark directory: one content hash, stored with every run.

Why: a number is only comparable with another number computed over the same data.
Two suites can share item ids (``v1_0`` …) and differ in every question and image, so
ids alone say nothing. Every run records ``dataset_hash`` in its task metadata; the
report and the grade files compare hashes before they pair, average or reuse anything.

The hash covers every regular file under the directory (relative path and bytes), so a
changed image, question or reference answer gives another identity. It is computed once
per directory state per process (keyed by the files' sizes and modification times).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from privbench.runtime.records.task import TaskRecord


def _files(directory: Path) -> list[Path]:
    return sorted(
        (p for p in directory.rglob("*") if p.is_file() and not p.name.startswith(".")),
        key=lambda p: p.relative_to(directory).as_posix(),
    )


@lru_cache(maxsize=32)
def _hash(directory: Path, _state: tuple[tuple[str, int, int], ...]) -> str:
    digest = hashlib.sha256()
    for path in _files(directory):
        digest.update(path.relative_to(directory).as_posix().encode("utf-8") + b"\0")
        with path.open("rb") as handle:  # streamed: an image is never held whole
            digest.update(hashlib.file_digest(handle, "sha256").digest())
    return digest.hexdigest()


def dataset_hash(directory: str | Path) -> str:
    """SHA-256 over every file's relative path and content under ``directory``."""
    root = Path(directory).resolve()
    state = tuple(
        (p.relative_to(root).as_posix(), p.stat().st_size, p.stat().st_mtime_ns)
        for p in _files(root)
    )
    return _hash(root, state)


def task_metadata(benchmark: str, directory: str | Path, **settings: object) -> dict[str, object]:
    """What a benchmark's task writes into its log's metadata: the benchmark, its data
    directory and that directory's hash, and the run's ``settings`` (checked as a
    :class:`~privbench.runtime.records.task.TaskRecord`; unset ones left out)."""
    record = {
        "benchmark": benchmark,
        "data": str(directory),
        "dataset_hash": dataset_hash(directory),
        **settings,
    }
    return TaskRecord.model_validate(record).metadata()
