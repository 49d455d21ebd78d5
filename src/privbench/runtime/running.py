"""Running an inspect task with a judge: the settings, the checks and the run lifecycle.

Why here: Priv-IQ and SpatialTrust runs share everything about *how* they run — the
model's and the judge's generation settings, the reachability checks before anything is
paid for, the judge's own connection limit, sample retries, a run that stops once items
keep failing, Ctrl-C / SIGTERM that leave a resumable log, ``--resume`` through inspect's
``eval_retry`` (completed samples are never sent again, nor an answer the model already
gave: :mod:`privbench.runtime.answers`), logging settings measured by
``bench/judge_throughput.py`` and fewer GC pauses — and differ only in the task.
"""

from __future__ import annotations

import asyncio
import functools
import math
import re
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import FrameType
from typing import Any, Protocol

from inspect_ai import Task, eval_retry
from inspect_ai import eval as inspect_eval
from inspect_ai.log import (
    EvalLog,
    EvalSampleSummary,
    EvalSpec,
    read_eval_log,
    read_eval_log_sample_summaries,
)
from inspect_ai.model import GenerateConfig, Model, ModelConfig
from inspect_ai.solver import TaskState
from rich.console import RenderableType

from privbench.runtime import answers
from privbench.runtime.endpoints import (
    alias_warning,
    check_endpoint,
    make_judge,
    make_model,
    undated_alias,
)
from privbench.runtime.errors import PrivbenchError, UsageError, describe_failure
from privbench.runtime.gc_tuning import fewer_gc_pauses
from privbench.runtime.judge_choice import JudgeChoice, ModelJudge
from privbench.runtime.judge_names import DEFAULT_JUDGE
from privbench.runtime.log_reading import sample_error, was_cancelled
from privbench.runtime.output_dirs import ensure_writable_dir
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.records.task import expected_ids
from privbench.runtime.redaction import redact_url

DEFAULT_JUDGE_CONNECTIONS = 32
NO_MODEL = "none/none"
"""The model of a grade run: answers come from a file, nothing is generated."""


def model_reported(state: TaskState) -> str:
    """The model name the provider of the model under test reported for the sample's last
    answer; empty in a grade run, whose answers were made elsewhere."""
    return "" if str(state.model) == NO_MODEL else str(state.output.model or "")


FAILED_SHARE_TO_STOP = 0.1
MIN_FAILED_TO_STOP = 5


@dataclass(frozen=True)
class Generation:
    """Generation settings a user passes to every command that calls a model.

    Defaults and why: the model under test answers at temperature 0 (the answer is graded
    once, so a reproducible answer is worth more than a sampled one; pass
    ``--temperature`` to sample); the judge's first try is at ``judge_temperature``
    (``--judge-temperature``, default 0, so that a grade is reproducible), each re-ask 0.5
    higher (docs/judge.md); its output length is fixed by its protocol. Three retries with
    a 120 s per-attempt timeout bound a failing endpoint to minutes, not hours. ``cache``
    is inspect's model cache (a rerun of the same command with the same inputs is free);
    ``batch`` asks providers with batch APIs (OpenAI, Anthropic, Google) for half-price
    processing at the cost of latency.
    """

    temperature: float | None = 0.0
    seed: int | None = None
    max_tokens: int | None = None
    max_retries: int = 3
    timeout: int = 120
    cache: bool = False
    batch: bool = False
    judge_temperature: float = 0.0

    def _config(self, connections: int | None, **role: float | int | None) -> GenerateConfig:
        """What the model's and the judge's settings share (seed, retries, timeout,
        connections, batch), with the role's own (``role``: temperature, output length)."""
        return GenerateConfig(
            seed=self.seed,
            max_retries=self.max_retries,
            attempt_timeout=self.timeout,
            max_connections=connections,
            batch=self.batch or None,
            **role,  # type: ignore[arg-type]  # temperature: float; max_tokens: int
        )

    def model_config(self, connections: int | None = None) -> GenerateConfig:
        """The model under test's settings."""
        return self._config(connections, temperature=self.temperature, max_tokens=self.max_tokens)

    def judge_config(self, connections: int) -> GenerateConfig:
        """The judge's settings: the temperature of its first try (the re-asks raise it,
        :func:`~privbench.judges.asking.attempt_temperature`); the output length comes
        from the protocol. In the log as the ``grader`` role's settings."""
        return self._config(connections, temperature=self.judge_temperature)


@dataclass(frozen=True)
class RunOptions:
    """Settings shared by eval and grade runs."""

    judge: JudgeChoice = field(default_factory=lambda: ModelJudge(DEFAULT_JUDGE))
    """The judge, read once from ``--judge`` (:func:`privbench.judges.choice.parse_judge`)."""
    judge_runs: int = 1
    protocol: str = "paper"
    judge_connections: int = DEFAULT_JUDGE_CONNECTIONS
    log_dir: str = "logs"
    display: str | None = None
    max_samples: int | None = None
    retry_on_error: int = 0
    """inspect's sample retry: 0, since a sample rerun would pay its other calls again;
    a malformed or empty reply is retried per call instead (:mod:`privbench.runtime.calls`)."""
    generation: Generation = field(default_factory=Generation)
    eval_args: dict[str, Any] = field(default_factory=dict)
    judge_card: str | None = None
    """A judge card to show beside the scores (``--judge-card``); None: found by judge."""

    @property
    def task_judge(self) -> str:
        """What a task is told about its judge: the judge's name, or ``offline``."""
        return self.judge.name


class _Interrupted:
    """Whether SIGINT / SIGTERM arrived during the run."""

    seen = False


@contextmanager
def _interruptible() -> Iterator[type[_Interrupted]]:
    """SIGTERM behaves like Ctrl-C: inspect cancels the run and finishes its log."""
    _Interrupted.seen = False
    previous_term = signal.getsignal(signal.SIGTERM)
    previous_int = signal.getsignal(signal.SIGINT)

    def interrupt(signum: int, frame: FrameType | None) -> None:
        _Interrupted.seen = True
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGTERM, interrupt)
        signal.signal(signal.SIGINT, interrupt)
    except ValueError:  # not the main thread (e.g. a notebook worker): signals stay as they are
        pass
    try:
        yield _Interrupted
    finally:
        try:
            signal.signal(signal.SIGTERM, previous_term)
            signal.signal(signal.SIGINT, previous_int)
        except ValueError:
            pass


def _log_files(log_dir: str) -> set[Path]:
    directory = Path(log_dir)
    return set(directory.glob("*.eval")) | set(directory.glob("*.json"))


def _new_log(log_dir: str, before: set[Path]) -> EvalLog:
    """The header of the log this run wrote (inspect returns none when it was cancelled)."""
    created = sorted(_log_files(log_dir) - before, key=lambda p: p.stat().st_mtime)
    for path in reversed(created):
        try:
            return read_eval_log(str(path), header_only=True)
        except Exception:  # a log another process is still writing
            continue
    raise PrivbenchError(f"the run ended without writing a log in {log_dir}")


def _kept(log: EvalLog) -> EvalLog:
    """The run's log, or a clear error when it is gone (its folder removed during the run)."""
    if log.location and not Path(str(log.location)).exists():
        raise PrivbenchError(
            f"the log {log.location} no longer exists (its folder was removed during the "
            "run?): this run cannot be shown or resumed; run it again"
        )
    return log


def _stop_after(n_samples: int) -> float:
    """inspect's ``fail_on_error`` as a count: stop once this many items have failed."""
    return float(max(MIN_FAILED_TO_STOP, math.ceil(FAILED_SHARE_TO_STOP * n_samples)))


UNPAID_LOG_BUFFER = 500
"""Samples inspect keeps before writing them to the log, in a run that calls no model (a
grade by rules or offline rules): a killed run loses nothing paid, and each write copies the
growing log file, so writing every 10 samples made a grade of 100,000 stored completions
take hours (measured on DecodingTrust's released generations: 24 completions per second
with 10, 126 with 500)."""


def _inspect_settings(options: RunOptions, max_samples: int, n_samples: int) -> dict[str, Any]:
    return {
        "log_dir": options.log_dir,
        "display": options.display or "none",
        "max_samples": options.max_samples or max_samples,
        # an endpoint that fails every call ends the run instead of spinning through all
        # items; what completed stays in the log and --resume continues it
        "fail_on_error": _stop_after(n_samples),
        # a sample is not run again (its other calls would be paid twice): a malformed
        # reply is retried per call; what still fails is reported per item and --resume
        # sends exactly those items again
        "retry_on_error": options.retry_on_error,
        "score_display": False,
        # per-sample overhead, measured by bench/judge_throughput.py: the raw HTTP
        # request of each judge call would double what every sample serializes, and
        # the caller reads samples back as summaries, not from the returned log
        "log_model_api": False,
        "log_realtime": False,
        "log_header_only": True,
        # flush finished samples to the log file often, so a killed run loses little
        "log_buffer": 10,
    }


def _check_endpoints(model: Model | None, judge: Model | None, options: RunOptions) -> None:
    """One tiny request to each endpoint that will be paid, before anything else."""
    retries = options.generation.max_retries
    for role, endpoint in (("model", model), ("judge", judge)):
        if endpoint is not None:
            asyncio.run(check_endpoint(endpoint, role=role, max_retries=retries))


def _run(call: Callable[[], list[EvalLog]], log_dir: str, already_done: int = 0) -> EvalLog:
    """Run inspect; after Ctrl-C / SIGTERM return the cancelled log it wrote.

    The progress hook is registered here, not at import, so ``inspect eval privbench/...``
    runs carry no privbench hook; what inspect prints on stdout (its hook banner) goes to
    stderr, so a ``--json`` document stays alone on stdout.
    """
    from privbench.runtime import progress

    before = _log_files(log_dir)
    progress.start(already_done)
    try:
        with fewer_gc_pauses(), _interruptible() as interrupted, redirect_stdout(sys.stderr):
            try:
                logs = call()
            except KeyboardInterrupt:
                logs = []
                interrupted.seen = True
    finally:
        progress.stop()
    from privbench.runtime.log_secrets import scrubbed  # no key echoed by an endpoint stays

    if logs:
        return scrubbed(logs[0])
    if interrupted.seen and not (_log_files(log_dir) - before):
        raise KeyboardInterrupt  # stopped before inspect started a log: nothing to resume
    return scrubbed(_new_log(log_dir, before))


@functools.cache
def warn_if_alias(role: str, model: str) -> None:
    """One line on stderr, once per process, when ``model`` is an undated alias; printed
    as the run starts (after its inputs were checked), so a usage error stays one line."""
    if undated_alias(model):
        print(alias_warning(role, model), file=sys.stderr)


def run_task(
    task: Task,
    model: str,
    options: RunOptions,
    needs_judge: bool,
    max_samples: int,
    *,
    model_connections: int | None = None,
) -> EvalLog:
    """Check the endpoints, run ``task``, return the log header (cancelled if interrupted).

    ``max_samples`` is the default sample concurrency unless ``options.max_samples`` is set.
    The ``grader`` role is built from ``options.judge`` where a model judges.
    """
    ensure_writable_dir(options.log_dir, "--log-dir")
    warn_if_alias("judge", options.judge.name)
    roles: dict[str, str | Model] = {}
    judge: Model | None = None
    if options.judge.model is not None:
        judge = make_judge(
            options.judge.model, config=options.generation.judge_config(options.judge_connections)
        )
        roles["grader"] = judge
    subject: Model | None = None
    if model != NO_MODEL:
        subject = make_model(model, config=options.generation.model_config(model_connections))
    _check_endpoints(subject, judge if needs_judge else None, options)
    n_samples = len(task.dataset) * options.judge_runs
    settings = {**_inspect_settings(options, max_samples, n_samples), **options.eval_args}
    if subject is None and not needs_judge and "log_buffer" not in options.eval_args:
        settings["log_buffer"] = UNPAID_LOG_BUFFER
    token = answers.new_token() if subject is not None else None
    if token is not None:  # eval_retry keeps the log's metadata: a resume finds the answers
        settings["metadata"] = {**(settings.get("metadata") or {}), answers.ANSWERS_KEY: token}
    with answers.keeping_answers(token):
        log = _kept(
            _run(
                lambda: inspect_eval(task, model=subject or model, model_roles=roles, **settings),
                options.log_dir,
            )
        )
    _forget_answers_if_complete(log, token)
    return log


def run_model_task(
    task: Task,
    model: str,
    options: RunOptions,
    *,
    limit: int | None = None,
    model_connections: int | None = None,
) -> EvalLog:
    """Run a task whose solver calls ``model``: optional item limit and model connections."""
    eval_args = dict(options.eval_args)
    if limit is not None:
        eval_args["limit"] = limit
    max_samples = max(options.judge_connections, model_connections or 0)
    return run_task(
        task,
        model,
        replace(options, eval_args=eval_args),
        True,
        max_samples,
        model_connections=model_connections,
    )


@dataclass(frozen=True)
class LogCounts:
    """What a log holds, per sample: what ``--resume`` keeps and what it sends again."""

    completed: int
    """Finished samples (scored, or graded as unscored): kept, never sent again."""
    failed: int
    """Samples that failed after retries: sent again."""
    interrupted: int
    """Samples cut off by Ctrl-C / SIGTERM (in the log with no result): sent again."""
    not_run: int
    """Samples the log does not hold (never started, or in flight at ``kill -9``)."""
    completed_samples: frozenset[str] = frozenset()
    """The ``id:epoch`` of each completed sample."""

    @property
    def to_send(self) -> int:
        return self.failed + self.interrupted + self.not_run


def sample_summaries(path: str) -> list[EvalSampleSummary] | None:
    """A log's sample summaries; a log cut short by ``kill -9`` is read from what it
    flushed; None when nothing can be read."""
    try:
        return read_eval_log_sample_summaries(path)
    except Exception:
        from inspect_ai.log._recover import read_crashed_eval_log

        try:
            return list(asyncio.run(read_crashed_eval_log(path)).summaries)
        except Exception:
            return None


def log_counts(location: str | Path, header: EvalLog) -> LogCounts:
    """Count a log's samples from the samples it holds (a log cut short by ``kill -9``,
    whose header has no results, is counted from what it flushed)."""
    summaries = sample_summaries(str(location)) or []
    interrupted = sum(1 for s in summaries if was_cancelled(s))
    failed = sum(1 for s in summaries if sample_error(s) is not None and not was_cancelled(s))
    completed = frozenset(f"{s.id}:{s.epoch}" for s in summaries if sample_error(s) is None)
    expected = _expected_samples(header)
    return LogCounts(
        len(completed), failed, interrupted, max(0, expected - len(summaries)), completed
    )


def read_log_header(location: str | Path) -> tuple[EvalLog, int]:
    """A log's header and its completed samples; a log cut short by ``kill -9`` is read
    from what it flushed."""
    path = str(location)
    if not Path(path).exists():
        raise UsageError(f"--resume {path}: no such log file")
    try:
        header = read_eval_log(path, header_only=True)
    except Exception:
        from inspect_ai.log._recover import read_crashed_eval_log

        try:
            crashed = asyncio.run(read_crashed_eval_log(path))
        except Exception:
            raise UsageError(f"{path}: not an inspect log, or one too damaged to read") from None
        header = EvalLog(eval=crashed.eval, plan=crashed.plan, status="started", location=path)
    return header, log_counts(path, header).completed


def _expected_samples(header: EvalLog) -> int:
    """Samples the run was asked for: its items (cut to ``--limit``) × epochs."""
    return len(expected_ids(header)) * (header.eval.config.epochs or 1)


def _current_endpoints(spec: EvalSpec, options: RunOptions) -> tuple[Model | None, Model | None]:
    """The log's model and judge at the endpoints configured *now* (the environment's
    ``<NAME>_BASE_URL``, not the URL the log recorded), with the log's settings."""
    judge_role = spec.model_roles.get("grader") if spec.model_roles else None
    if isinstance(judge_role, list):
        judge_role = judge_role[0] if judge_role else None
    judge = None
    if judge_role is not None:
        judge = make_judge(judge_role.model, config=judge_role.config)
    subject = None
    if spec.model != NO_MODEL:
        subject = make_model(spec.model, config=spec.model_generate_config)
    return subject, judge


def _endpoint_url(model: Model | None) -> str | None:
    url = getattr(model.api, "base_url", None) if model is not None else None
    return str(url) if url else None


def resume_task(
    location: str | Path, task_names: tuple[str, ...], options: RunOptions, max_samples: int
) -> EvalLog:
    """Continue the run of log ``location`` with inspect's ``eval_retry``.

    Completed samples are taken from the log, never sent again; failed, interrupted and
    missing ones are sent (also after a run that ended with failed items, whose log is
    otherwise "complete"), each taking the answers the model already gave from the run's
    kept answers. The log is scrubbed of echoed keys first (a run killed with ``kill -9``
    never scrubbed it). The model, the judge, the task options and the generation settings are
    the log's; the endpoints are the ones configured now (a server moved to another port
    is followed), and a line says so when they differ from the log's. Both endpoints are
    checked first, and the new log is one complete run.
    """
    ensure_writable_dir(options.log_dir, "--log-dir")
    header, _ = read_log_header(location)
    spec = header.eval
    if RunIdentity.from_log(header).task not in task_names:
        raise UsageError(
            f"--resume {location}: a log of {spec.task}, not of {' or '.join(task_names)}"
        )
    _scrub_resumed(location)
    counts = log_counts(location, header)
    if header.status == "success" and not counts.to_send:
        raise UsageError(
            f"--resume {location}: that run is complete; `privbench show` prints its tables"
        )
    subject, judge = _current_endpoints(spec, options)
    _check_endpoints(subject, judge, options)
    token = answers.token_of(header)
    kept = answers.AnswerStore.open(token).samples_with_answers() if token else set()
    reused = len(kept - counts.completed_samples)
    print(
        f"resuming {location}: {counts.to_send} item(s) will be sent "
        f"({counts.failed} failed, {counts.interrupted} interrupted, {counts.not_run} not run); "
        f"{counts.completed} completed are kept"
        + (f"; {reused} answer(s) the model already gave are reused" if reused else ""),
        file=sys.stderr,
    )
    retried: str | EvalLog = str(location)
    changes: dict[str, object] = {}
    new_model_url, new_judge_url = _endpoint_url(subject), _endpoint_url(judge)
    # a URL the log recorded is replaced by the one configured now (it may also be one the
    # log scrub masked); None means "from the environment", which eval_retry reads again
    if subject is not None and spec.model_base_url and new_model_url != spec.model_base_url:
        changes["model_base_url"] = new_model_url
        _say_moved("model", spec.model_base_url, new_model_url)
    roles = dict(spec.model_roles or {})
    grader = roles.get("grader")
    if (
        judge is not None
        and isinstance(grader, ModelConfig)
        and grader.base_url
        and grader.base_url != new_judge_url
    ):
        roles["grader"] = grader.model_copy(update={"base_url": new_judge_url})
        changes["model_roles"] = roles
        _say_moved("judge", grader.base_url, new_judge_url)
    if changes:
        full = read_eval_log(str(location))
        retried = full.model_copy(update={"eval": full.eval.model_copy(update=changes)})
    samples = spec.dataset.samples or 0
    settings = _inspect_settings(options, max_samples, samples)
    settings.pop("log_realtime")
    settings.pop("log_header_only")
    with answers.keeping_answers(token):
        log = _kept(
            _run(
                lambda: eval_retry(retried, **settings),
                options.log_dir,
                already_done=counts.completed,
            )
        )
    _forget_answers_if_complete(log, token)
    return log


def _scrub_resumed(location: str | Path) -> None:
    """Scrub the log a resume starts from (a run killed with ``kill -9`` never scrubbed
    what it had flushed): one line when a key was found, or when it cannot be checked."""
    from privbench.runtime.log_secrets import scrub_log

    try:
        rewritten = scrub_log(location)
    except Exception as error:  # a log cut short mid-write: the resumed log is scrubbed
        print(
            f"resume: {location} could not be checked for API keys ({type(error).__name__}); "
            "the new log is scrubbed when the run ends",
            file=sys.stderr,
        )
        return
    if rewritten:
        print(
            f"resume: {location} held an API key or URL password an endpoint echoed; "
            "it was redacted in that log",
            file=sys.stderr,
        )


def _forget_answers_if_complete(log: EvalLog, token: str | None) -> None:
    """Delete the run's kept answers once nothing is left for a ``--resume`` to send."""
    if token is None or log.status != "success" or not log.location:
        return
    if log_counts(str(log.location), log).to_send == 0:
        answers.discard(token)


def _say_moved(role: str, before: str | None, now: str | None) -> None:
    """One line when an endpoint differs from the log's (not when only its masking does)."""
    if redact_url(before or "") == redact_url(now or ""):
        return
    print(
        f"resume: the {role}'s endpoint is now {redact_url(now or 'the default')} "
        f"(the log had {redact_url(before or 'the default')})",
        file=sys.stderr,
    )


_DISK_FULL = re.compile(r"No space left on device|Errno 28|OSError\(28", re.IGNORECASE)


class BenchmarkRun(Protocol):
    """What the command line needs of a run of any benchmark (read only: a run is built
    once, with everything it shows)."""

    @property
    def model(self) -> str: ...

    @property
    def log(self) -> EvalLog: ...

    @property
    def exports(self) -> dict[str, str]: ...

    @property
    def extra_ids(self) -> dict[str, list[str]]:
        """Per input file, ids that match no item (reported, not graded)."""
        ...

    @property
    def log_location(self) -> str: ...

    @property
    def interrupted(self) -> bool: ...

    @property
    def judge_name(self) -> str:
        """Who graded (the notice under offline-judge tables depends on it)."""
        ...

    @property
    def published_missing(self) -> str | None:
        """Why no rows of the benchmark's paper stand beside the run (None: they do)."""
        ...

    def json(self) -> dict[str, Any]:  # tests and callers read nested values
        """The ``--json`` document."""
        ...

    def terminal(self) -> list[RenderableType]:
        """What the command prints without ``--json``: tables and lines, in order."""
        ...

    def require_success(self) -> None: ...


@dataclass(frozen=True)
class RunOutcome:
    """What every run returns: the model's label and the log; subclasses add the scores."""

    model: str
    log: EvalLog

    @property
    def log_location(self) -> str:
        return str(self.log.location)

    @property
    def _attempt_timeout(self) -> float | None:
        config = self.log.eval.model_generate_config
        return config.attempt_timeout if config is not None else None

    @property
    def interrupted(self) -> bool:
        """Stopped by Ctrl-C / SIGTERM: the log holds what completed; ``--resume`` goes on."""
        return self.log.status == "cancelled"

    @property
    def item_errors(self) -> dict[str, str]:
        """Items whose run failed after inspect's retries: id → error message."""
        return {}

    @property
    def error(self) -> str | None:
        """Why the run is incomplete (stopped early, or items failed), or None."""
        failed = ""
        if self.item_errors:
            item, message = next(iter(self.item_errors.items()))
            failed = (
                f"{len(self.item_errors)} item(s) failed after retries; first, {item}: "
                f"{describe_failure(message, attempt_timeout=self._attempt_timeout)}"
            )
        if self.log.status == "success":
            return failed or None
        if failed:
            return f"run stopped: {failed}"
        if self.log.status == "started":  # inspect never finished the log
            return "the run did not finish (it was killed, or is still going elsewhere)"
        message = self.log.error.message if self.log.error else self.log.status
        last_line = " ".join(message.strip().splitlines()[-1:]) if message else ""
        if _DISK_FULL.search(message or ""):
            return (
                f"the disk of the log folder {Path(self.log_location).parent} is full "
                "(No space left on device): the log holds only what it could write"
            )
        described = describe_failure(last_line, attempt_timeout=self._attempt_timeout)
        return f"run {self.log.status}: {described[:300]}"

    def require_success(self) -> None:
        """Raise if the run is incomplete (what completed is already in the log and exports)
        or its exports could not be written (the log and the printed scores are intact)."""
        export_error = getattr(self, "export_error", None)
        if self.error is None and export_error:
            raise PrivbenchError(str(export_error))
        if self.error is not None:
            message = self.log.error.message if self.log.error else ""
            when = "there is space" if _DISK_FULL.search(message) else "the endpoint answers"
            if self.log.status == "started":
                when = "it is not running"
            raise PrivbenchError(
                f"{self.error}; what completed is in {self.log_location} "
                f"(--resume it once {when}: completed items are not sent again)"
            )
