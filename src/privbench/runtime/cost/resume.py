"""What ``--resume LOG`` would send: the log's items that did not finish (read, not run)."""

from __future__ import annotations

from pathlib import Path

from inspect_ai.log import EvalLog

from privbench.runtime import answers
from privbench.runtime.records.task import expected_ids
from privbench.runtime.running import read_log_header, sample_summaries


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
