"""The model's answers of a run, kept until the run completes: ``--resume`` never pays twice.

Why: inspect's ``eval_retry`` keeps the samples a log holds and runs every other one from
the start. A sample whose model answer had arrived but whose judge call was still going
when Ctrl-C, SIGTERM or ``kill -9`` came is not in the log, so a resume would ask the
model again — a second payment for an answer already received (and, at a temperature
above 0, possibly another answer). So every answer of the model under test is written
here the moment it arrives, and a resumed sample takes it from here instead of calling.

How: a run started by privbench gets a token, recorded in its log's ``eval.metadata``
(``eval_retry`` carries it into the resumed log, so a resume of a resume finds it too).
The answers are appended, one JSON line per call, to ``<cache>/answers/<token>.jsonl``
(privbench's cache directory, readable by the user only; never the log folder, which is
shared). A call is found again by its sample, epoch and input (a multi-call solver's later
calls carry the earlier answers in their input, so they are found in turn). The file is
deleted once the run is complete; one left by a run never resumed is deleted after
:data:`KEEP_DAYS`. Runs that inspect starts without privbench (``inspect eval``) keep
nothing. Only the model under test's answers are kept: the judge is re-asked, as a judge
call in flight was never received.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput
from pydantic import BaseModel, ValidationError

from privbench.runtime.cache import cache_dir

ANSWERS_KEY = "privbench_answers"
"""``eval.metadata`` key of the run's answer store token."""
KEEP_DAYS = 30
"""A store left by a run that was never resumed is deleted after this many days."""


@dataclass(frozen=True)
class KeptAnswer:
    """One answer as it was received, with what it cost in retries and replacements."""

    output: ModelOutput
    retries: int = 0
    replaced: bool = False


@dataclass
class AnswerStore:
    """The answers of one run (a JSON-lines file), read once and appended to."""

    path: Path
    answers: dict[str, KeptAnswer] = field(default_factory=dict)
    samples: dict[str, str] = field(default_factory=dict)
    """Call key → the ``id:epoch`` of its sample (for counting what a resume reuses)."""

    @classmethod
    def open(cls, token: str) -> AnswerStore:
        """The store of ``token``, with what an earlier process wrote (a line cut short by
        ``kill -9`` is skipped)."""
        store = cls(store_path(token))
        try:
            lines = store.path.read_bytes().split(b"\n")
        except OSError:
            return store
        for line in lines:
            try:
                record = json.loads(line)
                output = ModelOutput.model_validate(record["output"])
                kept = KeptAnswer(output, int(record["retries"]), bool(record["replaced"]))
                store.answers[str(record["key"])] = kept
                store.samples[str(record["key"])] = str(record["sample"])
            except (ValueError, KeyError, TypeError, ValidationError):
                continue
        return store

    def get(self, key: str) -> KeptAnswer | None:
        return self.answers.get(key)

    def put(self, key: str, sample: str, kept: KeptAnswer) -> None:
        """Append one answer, written before the caller goes on. A store that cannot be
        written (a full or read-only disk) never fails the run: the answer is then only
        in the log, as without a store."""
        self.answers[key] = kept
        self.samples[key] = sample
        record = {
            "key": key,
            "sample": sample,
            "retries": kept.retries,
            "replaced": kept.replaced,
            "output": kept.output.model_dump(mode="json"),
        }
        line = json.dumps(record) + "\n"  # ASCII: any character survives, one line each
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(descriptor, line.encode("ascii"))
            finally:
                os.close(descriptor)
        except OSError:
            return

    def samples_with_answers(self) -> set[str]:
        """The ``id:epoch`` of every sample that has at least one kept answer."""
        return set(self.samples.values())


def store_path(token: str) -> Path:
    return cache_dir() / "answers" / f"{token}.jsonl"


def new_token() -> str:
    """A token for a new run's store; stores older than :data:`KEEP_DAYS` are deleted."""
    _prune()
    return uuid.uuid4().hex


def token_of(log: EvalLog) -> str | None:
    """The answer store token a log records (None: a run privbench did not start)."""
    token = (log.eval.metadata or {}).get(ANSWERS_KEY)
    return token if isinstance(token, str) and token.isalnum() else None


def discard(token: str | None) -> None:
    """Delete a completed run's answers."""
    if token:
        store_path(token).unlink(missing_ok=True)


def _prune() -> None:
    folder = cache_dir() / "answers"
    cutoff = time.time() - KEEP_DAYS * 86400
    try:
        old = [p for p in folder.glob("*.jsonl") if p.stat().st_mtime < cutoff]
    except OSError:
        return
    for path in old:
        path.unlink(missing_ok=True)


_active: ContextVar[AnswerStore | None] = ContextVar("privbench_answer_store", default=None)


@contextmanager
def keeping_answers(token: str | None) -> Iterator[AnswerStore | None]:
    """Within this block, the model under test's answers are kept in (and taken from) the
    store of ``token`` (None: nothing is kept)."""
    store = AnswerStore.open(token) if token else None
    reset = _active.set(store)
    try:
        yield store
    finally:
        _active.reset(reset)


def _current_sample() -> tuple[str, int] | None:
    """The id and epoch of the sample being run (None outside one).

    inspect keeps the sample's state in a context variable it reads itself before each
    model call (``Model.generate`` sets the cache epoch from it); privbench reads it the
    same way rather than changing every solver's signature.
    """
    try:
        from inspect_ai.solver._task_state import sample_state
    except ImportError:  # a later inspect moved it: nothing is kept
        return None
    state = sample_state()
    return None if state is None else (str(state.sample_id), int(state.epoch))


def _plain(value: object) -> object:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_none=True)
    return value


def call_key(
    model: str, input: str | Sequence[ChatMessage], **kwargs: object
) -> tuple[str, str] | None:
    """(the call's key, its sample's ``id:epoch``) while a store is active in a sample."""
    if _active.get() is None:
        return None
    sample = _current_sample()
    if sample is None:
        return None
    messages = (
        input
        if isinstance(input, str)
        else [m.model_dump(mode="json", exclude={"id"}, exclude_none=True) for m in input]
    )
    settings = {name: _plain(value) for name, value in kwargs.items() if name != "cache"}
    text = json.dumps([model, *sample, messages, settings], sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest(), f"{sample[0]}:{sample[1]}"


def active_store() -> AnswerStore | None:
    return _active.get()
