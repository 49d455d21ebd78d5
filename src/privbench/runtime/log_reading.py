"""Reading a run's samples back from its inspect log, quickly and completely.

Why: results are derived from the log (the record of a run), but reading full samples is
slow (1,000 samples ≈ 5 s); sample *summaries* read ~30× faster and carry the scores and
metadata. inspect thins summary metadata over 1 kB, so a caller says which summaries are
complete enough and only the others are read in full.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from inspect_ai.log import (
    EvalLog,
    EvalSample,
    EvalSampleSummary,
    read_eval_log,
    read_eval_log_sample,
    read_eval_log_sample_summaries,
)
from inspect_ai.scorer import Score

from privbench.runtime.errors import UsageError
from privbench.runtime.records.base import LoggedSample
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.redaction import redact


def scored_samples(log: EvalLog, scorer: str) -> Iterator[tuple[EvalSample, Score]]:
    """Each sample of ``log`` that ``scorer`` scored, with its score, in log order.

    A sample with no such score (it failed, or was cut off) is skipped: callers count
    those from the log's totals, never as a zero."""
    for sample in log.samples or []:
        score = (sample.scores or {}).get(scorer)
        if score is not None:
            yield sample, score


def log_samples(
    log: EvalLog, is_complete: Callable[[EvalSampleSummary], bool]
) -> list[LoggedSample]:
    """Every sample of a log: summaries where ``is_complete`` accepts them, else samples."""
    if log.samples is not None or not log.location:
        return list(log.samples or [])
    location = str(log.location)
    return [
        s if is_complete(s) else read_eval_log_sample(location, s.id, s.epoch)
        for s in read_eval_log_sample_summaries(location)
    ]


def finished_samples(
    log: EvalLog, is_complete: Callable[[EvalSampleSummary], bool]
) -> tuple[list[LoggedSample], dict[str, str]]:
    """The samples that finished (scored or not), and the failed ones: id → error.

    A cancelled sample (Ctrl-C, SIGTERM) is in neither: it is not done, and the readers
    count it as missing (``--resume`` runs it).
    """
    finished: list[LoggedSample] = []
    errors: dict[str, str] = {}
    for sample in log_samples(log, is_complete):
        if was_cancelled(sample):
            continue
        error = sample_error(sample)
        if error is None:
            finished.append(sample)
        else:
            errors[str(sample.id)] = error
    return finished, errors


def was_cancelled(sample: LoggedSample) -> bool:
    """A sample cut off by Ctrl-C / SIGTERM: not a failure, just not done (``--resume`` runs it)."""
    if sample.error is None or sample.scores:
        return False
    message = sample.error if isinstance(sample.error, str) else sample.error.message
    return message.startswith("CancelledError")


def sample_error(sample: LoggedSample) -> str | None:
    """The one-line, key-free error of a sample that failed without a score, else None."""
    if sample.error is None or sample.scores:
        return None
    message = sample.error if isinstance(sample.error, str) else sample.error.message
    return redact(" ".join(message.split()))[:300]


def token_totals(log: EvalLog) -> dict[str, dict[str, int]]:
    """Tokens per role from inspect's usage records: ``model`` (under test) and ``judge``.

    inspect keeps usage per model name and per role; the judge is the ``grader`` role,
    everything else is the model under test (a grade run has none).
    """
    stats = log.stats
    judge_usage = stats.role_usage.get("grader")
    totals: dict[str, dict[str, int]] = {}
    model_names = [name for name in stats.model_usage if name != "none/none"]
    grader = log.eval.model_roles.get("grader") if log.eval.model_roles else None
    grader_name = getattr(grader, "model", None)
    model_usage = [
        usage
        for name, usage in stats.model_usage.items()
        if name in model_names and name != grader_name
    ]
    for role, usages in (("model", model_usage), ("judge", [judge_usage] if judge_usage else [])):
        totals[role] = {
            "input": sum(u.input_tokens for u in usages),
            "output": sum(u.output_tokens for u in usages),
            "total": sum(u.total_tokens for u in usages),
        }
    return totals


def benchmark_of(location: str | Path) -> str:
    """``priviq`` or ``spatialtrust``: which privbench benchmark wrote the log."""
    path = Path(location)
    if not path.is_file():
        raise UsageError(f"{path}: no such log file")
    try:
        header = read_eval_log(str(path), header_only=True)
    except Exception:
        raise UsageError(f"{path}: not a readable inspect log") from None
    benchmark = RunIdentity.from_log(header).benchmark
    if benchmark is None:
        raise UsageError(f"{path}: a log of {header.eval.task}, not of a privbench benchmark")
    return benchmark


def dataset_order(log: EvalLog, ids: list[str]) -> list[str]:
    """``ids`` in the dataset's order (the log lists samples in completion order)."""
    order = {str(i): n for n, i in enumerate(log.eval.dataset.sample_ids or [])}
    return sorted(ids, key=lambda i: (order.get(i, len(order)), i))


def document_head(benchmark: str, log: EvalLog, label: str, complete: bool) -> dict[str, object]:
    """The first keys of a benchmark's ``--json`` document: whose answers, under which
    label, and whether the run is complete (every item graded and the log a success)."""
    identity = RunIdentity.from_log(log)
    return {
        "benchmark": benchmark,
        "model": identity.answered_by,
        "label": label,
        "status": "complete" if complete and log.status == "success" else "partial",
        "log_status": log.status,
        "dataset_hash": identity.dataset_hash or None,
    }


def document_tail(
    log: EvalLog,
    errors: dict[str, str],
    missing: list[str],
    calls: dict[str, dict[str, int]],
    versions: dict[str, list[str]],
    exports: dict[str, str] | None,
) -> dict[str, object]:
    """The last keys of a benchmark's ``--json`` document: who answered (as the providers
    reported it), what failed or is not run yet, retries, tokens, the log and the exports."""
    return {
        "reported_models": versions,
        "errors": len(errors),
        "error_items": errors,
        "missing": len(missing),
        "missing_items": missing,
        **calls,
        "tokens": token_totals(log),
        "log": str(log.location),
        "exports": exports or {},
    }
