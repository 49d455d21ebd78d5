"""What ``--resume LOG`` would send: the log's items that did not finish (read, not run)."""

from __future__ import annotations

from pathlib import Path

from inspect_ai.log import EvalLog, read_eval_log_sample_summaries

from privbench.runtime.record import expected_ids
from privbench.runtime.running import read_log_header


def unfinished_items(location: str | Path) -> tuple[EvalLog, list[str]]:
    """The log's header and the ids ``--resume`` sends again: failed, cancelled or never
    run (in the run's order), as :func:`privbench.runtime.running.resume_task` counts them."""
    header, _ = read_log_header(location)
    try:
        summaries = read_eval_log_sample_summaries(str(location))
    except Exception:  # a log cut short by kill -9: only its header is known
        summaries = []
    done = {str(s.id) for s in summaries if s.error is None or s.scores}
    return header, [item_id for item_id in expected_ids(header) if item_id not in done]
