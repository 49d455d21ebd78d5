"""What ``--resume LOG`` would send: the log's items that did not finish (read, not run)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from inspect_ai.log import EvalLog

from privbench.runtime import answers
from privbench.runtime.records.task import expected_ids
from privbench.runtime.running import read_log_header, sample_summaries

T = TypeVar("T")


def planned_items(
    items: Sequence[T], item_id: Callable[[T], str], limit: int | None, only: Sequence[str] | None
) -> list[T]:
    """The items a run sends, in its order: the first ``limit`` (``--limit``), then of
    those only the ids in ``only`` (the unfinished ones ``--resume`` sends again)."""
    chosen = list(items[:limit] if limit is not None else items)
    if only is None:
        return chosen
    wanted = set(only)
    return [item for item in chosen if item_id(item) in wanted]


def unfinished_items(location: str | Path) -> tuple[EvalLog, list[str]]:
    """The log's header and the ids ``--resume`` sends again: failed, cancelled or never
    run (in the run's order), as :func:`privbench.runtime.running.resume_task` counts them."""
    header, _ = read_log_header(location)
    summaries = sample_summaries(str(location)) or []  # after kill -9: what it flushed
    done = {str(s.id) for s in summaries if s.error is None or s.scores}
    return header, [item_id for item_id in expected_ids(header) if item_id not in done]


def answered_items(header: EvalLog) -> set[str]:
    """The ids of the items whose answers the run kept (:mod:`privbench.runtime.answers`):
    a resume does not ask the model for those again."""
    token = answers.token_of(header)
    if token is None:
        return set()
    kept = answers.AnswerStore.open(token).samples_with_answers()
    return {sample.rsplit(":", 1)[0] for sample in kept}
