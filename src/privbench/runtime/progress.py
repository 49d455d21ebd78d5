"""One progress line on stderr while a privbench command runs: done / failed / remaining.

A sample cut off by Ctrl-C or SIGTERM is counted as ``interrupted``, not as failed:
nothing went wrong with it, and ``--resume`` runs it.

Why: a run against a slow or failing endpoint must never look like a hang. privbench runs
inspect without its full-screen display (so output is the same in a terminal, a pipe or
CI) and listens to inspect's own sample hooks instead of counting by itself. The line is
printed at most every few seconds and once at the end; it goes to stderr, so ``--json``
keeps stdout to its one document.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from inspect_ai.hooks import Hooks, SampleEnd, TaskEnd, TaskStart, hooks

from privbench.runtime.log_reading import was_cancelled

INTERVAL_S = 5.0


@dataclass
class Tally:
    """What one run has done so far."""

    total: int
    already_done: int = 0
    done: int = 0
    failed: int = 0
    interrupted: int = 0
    last_print: float = 0.0
    last_change: float = 0.0
    label: str = ""
    """What this run is, when a command makes several (``judge check``'s phases)."""

    @property
    def remaining(self) -> int:
        finished = self.already_done + self.done + self.failed + self.interrupted
        return max(0, self.total - finished)

    def line(self) -> str:
        earlier = f" (+{self.already_done} from the resumed log)" if self.already_done else ""
        interrupted = f"{self.interrupted} interrupted, " if self.interrupted else ""
        which = f" [{self.label}]" if self.label else ""
        return (
            f"progress{which}: {self.done} done{earlier}, {self.failed} failed, {interrupted}"
            f"{self.remaining} remaining of {self.total}"
        )


class _State:
    active: bool = False
    already_done: int = 0
    tally: Tally | None = None
    label: str = ""


@contextmanager
def labelled(label: str) -> Iterator[None]:
    """Label the progress lines of the runs started inside (a command's phase), so that
    a command that makes several runs says which one a line counts."""
    before, _State.label = _State.label, label
    try:
        yield
    finally:
        _State.label = before


def start(already_done: int = 0) -> None:
    """Show progress for the next inspect run of this process."""
    _State.active, _State.already_done, _State.tally = True, already_done, None


def stop() -> None:
    """End of the run: the last line (even when inspect stopped the task on errors)."""
    if _State.tally is not None and _State.tally.last_print < _State.tally.last_change:
        _emit(_State.tally, force=True)
    _State.active, _State.tally = False, None


def _emit(tally: Tally, force: bool = False) -> None:
    now = time.monotonic()
    if force or now - tally.last_print >= INTERVAL_S:
        tally.last_print = now
        sys.stderr.write(tally.line() + "\n")
        sys.stderr.flush()


@hooks(name="privbench_progress", description="privbench's progress line on stderr")
class ProgressHook(Hooks):
    """Counts finished and failed samples of the run privbench started."""

    def enabled(self) -> bool:
        return _State.active

    async def on_task_start(self, data: TaskStart) -> None:
        spec = data.spec
        samples = spec.dataset.samples or 0
        limit = spec.config.limit
        if isinstance(limit, int):
            samples = min(samples, limit)
        elif isinstance(limit, tuple):
            samples = min(samples, limit[1] - limit[0])
        epochs = spec.config.epochs or 1
        _State.tally = Tally(
            total=samples * epochs, already_done=_State.already_done, label=_State.label
        )

    async def on_sample_end(self, data: SampleEnd) -> None:
        tally = _State.tally
        if tally is None:
            return
        if was_cancelled(data.sample):
            tally.interrupted += 1
        elif data.sample.error is not None and not data.sample.scores:
            tally.failed += 1
        else:
            tally.done += 1
        tally.last_change = time.monotonic()
        _emit(tally)

    async def on_task_end(self, data: TaskEnd) -> None:
        if _State.tally is not None:
            _emit(_State.tally, force=True)
            _State.tally.last_change = _State.tally.last_print
