"""Reading many inspect logs (models, tasks, epochs) into tidy pandas tables.

Why tidy tables: every table, interval, comparison and figure of the report is a group-by
over the same long frames, so results are read once, here:

* ``priviq``: one row per (run, item, epoch): ``score`` (0–1, NaN when unscored),
  ``competencies``, ``combination``, question, reference, answer, judge reply, image;
* ``spatial``: one row per (run, image, question): ``score`` (0–1, NaN when unscored);
* ``runs``: one row per log: label, benchmark, model, strategy, judge, protocol, prompt
  hash, counts of unscored judgments and parse failures, and what makes runs comparable:
  the dataset's content hash, the item ids, ``--limit``.

Inputs are taken as users pass them: a directory contributes every privbench inspect log
(``.eval``/``.json``) inside it, recursively; other files there (an eval set's
``eval-set.json``/``logs.json``, grade files, CSV exports, a report) are skipped and counted
in one note. A file named explicitly must be a readable inspect log. A cancelled or failed
log that a later log of the same inspect task (``eval.task_id``, which ``inspect eval-retry``
and ``eval_set`` keep) supersedes is dropped, with a note.

Run labels default to the model name (or the predictions file's stem for grading runs) and
are made unique within a benchmark by what tells the runs apart (dataset, ``--limit``,
judge, start time) — never by a bare counter.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.scorer import Score

from privbench.dataset_identity import DATASET_HASH_KEY
from privbench.priviq.competencies import COMPETENCIES, combination_label
from privbench.priviq.results import logged_runs
from privbench.runtime.errors import UsageError
from privbench.spatialtrust.results import PipelineCounts

PRIVIQ_SCORER = "priviq_judge"
SPATIAL_SCORER = "spatialtrust_scorer"
QUESTIONS = ("q1", "q2", "q3", "q4", "q5")
LOG_SUFFIXES = (".eval", ".json")
SHORT_HASH = 12
"""Characters of a dataset hash shown to readers (collisions at this length are remote)."""


@dataclass
class Results:
    """Every graded sample of a set of logs, as long tables, and what was left out."""

    runs: pd.DataFrame
    priviq: pd.DataFrame
    spatial: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    """Plain sentences for the reader: skipped files, superseded logs."""

    def labels(self, benchmark: str) -> list[str]:
        """Run labels of one benchmark, in the order the logs were given."""
        rows = self.runs[self.runs["benchmark"] == benchmark]
        return list(rows["label"])


@dataclass(frozen=True)
class _Candidate:
    path: Path
    explicit: bool
    header: EvalLog


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that orders ``v1_2`` before ``v1_10`` (digit runs compared as numbers)."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part.lower())
        for part in re.split(r"(\d+)", text)
        if part
    )


def _expand(paths: Sequence[str | Path]) -> list[tuple[Path, bool]]:
    found: list[tuple[Path, bool]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found += [
                (p, False)
                for p in sorted(path.rglob("*"))
                if p.suffix in LOG_SUFFIXES and p.is_file()
            ]
        elif path.exists():
            found.append((path, True))
        else:
            raise UsageError(f"{path}: no such log file or directory")
    return found


def log_paths(paths: Sequence[str | Path]) -> list[Path]:
    """The ``.eval``/``.json`` files named, directories expanded recursively (sorted)."""
    found = [path for path, _ in _expand(paths)]
    if not found:
        raise UsageError("no inspect logs found in " + ", ".join(str(p) for p in paths))
    return found


def _benchmark(log: EvalLog) -> str | None:
    scorers = {s.name for s in (log.results.scores if log.results else [])}
    task = log.eval.task
    if PRIVIQ_SCORER in scorers or task.endswith(("priviq", "priviq_grade")):
        return "priviq"
    if SPATIAL_SCORER in scorers or task.endswith(("spatialtrust", "spatialtrust_grade")):
        return "spatialtrust"
    return None


def _headers(paths: Sequence[str | Path], notes: list[str]) -> list[_Candidate]:
    """Headers of the privbench logs among ``paths``; other files skipped with one note."""
    candidates: list[_Candidate] = []
    skipped: list[Path] = []
    foreign: list[Path] = []
    for path, explicit in _expand(paths):
        try:
            header = read_eval_log(str(path), header_only=True)
        except Exception as error:  # inspect raises several types for what is not a log
            if explicit:
                raise UsageError(
                    f"{path}: not a readable inspect log ({type(error).__name__})"
                ) from None
            skipped.append(path)
            continue
        if _benchmark(header) is None:
            foreign.append(path)
            continue
        candidates.append(_Candidate(path, explicit, header))
    if skipped:
        names = ", ".join(sorted({p.name for p in skipped})[:4])
        notes.append(
            f"Skipped {len(skipped)} file(s) in the given folder(s) that are not inspect logs"
            f" (e.g. {names})."
        )
    if foreign:
        notes.append(
            f"Skipped {len(foreign)} inspect log(s) of tasks other than Priv-IQ and SpatialTrust."
        )
    if not candidates:
        if skipped or foreign:
            raise UsageError(
                "none of the logs is a Priv-IQ or SpatialTrust run: "
                + ", ".join(str(p) for p in paths)
            )
        raise UsageError("no inspect logs found in " + ", ".join(str(p) for p in paths))
    return candidates


def superseded(headers: Sequence[tuple[str, str, str, str]]) -> dict[int, int]:
    """Which logs a retry supersedes: index → index of the later log that replaces it.

    ``headers`` are ``(task_id, created, status, name)`` per log. inspect keeps a task's
    ``task_id`` across ``eval-retry`` and ``eval_set`` retries, so a log that did not finish
    (status other than ``success``) is superseded by the latest later log with its task id.
    Finished logs are never dropped: two successful runs of one task are both results.
    """
    replaced: dict[int, int] = {}
    by_task: dict[str, list[int]] = {}
    for index, (task_id, *_rest) in enumerate(headers):
        if task_id:
            by_task.setdefault(task_id, []).append(index)
    for indices in by_task.values():
        if len(indices) < 2:
            continue
        ordered = sorted(indices, key=lambda i: (headers[i][1], headers[i][3]))
        latest = ordered[-1]
        for index in ordered[:-1]:
            if headers[index][2] != "success":
                replaced[index] = latest
    return replaced


def _default_label(log: EvalLog) -> str:
    predictions = log.eval.task_args.get("predictions")
    if predictions:
        return Path(str(predictions)).stem
    return str(log.eval.model)


def _number(value: Any) -> float:
    return (
        float(value) if isinstance(value, int | float) and not isinstance(value, bool) else math.nan
    )


def _judge_runs(score: Score) -> tuple[list[float | None], list[list[str]]]:
    """Per judge run: its score (None unscored) and its raw replies.

    Logs since judge runs existed keep ``metadata["runs"]`` and one reply list per run;
    older logs hold one value per sample (inspect epochs were the runs then).
    """
    metadata = score.metadata or {}
    runs = logged_runs(score.value, metadata)
    replies = metadata.get("replies") or []
    if replies and all(isinstance(r, list) for r in replies):
        per_run = [[str(x) for x in r] for r in replies]
    else:
        per_run = [[str(x) for x in replies]] * len(runs)
    per_run += [[] for _ in range(len(runs) - len(per_run))]
    return runs, per_run[: len(runs)]


def _priviq_rows(log: EvalLog, label: str) -> list[dict[str, Any]]:
    rows = []
    for sample in log.samples or []:
        score = (sample.scores or {}).get(PRIVIQ_SCORER)
        if score is None:
            continue
        metadata = score.metadata or {}
        codes = tuple(
            code for code in COMPETENCIES if code in sample.metadata.get("competencies", ())
        )
        runs, replies = _judge_runs(score)
        per_run = isinstance(metadata.get("runs"), list)
        common = {
            "run": label,
            "item": str(sample.id),
            "competencies": codes,
            "combination": combination_label(codes),
            "question": sample.input
            if isinstance(sample.input, str)
            else _input_text(sample.input),
            "reference": sample.target
            if isinstance(sample.target, str)
            else " / ".join(sample.target),
            "answer": score.answer or "",
            "no_answer": bool(metadata.get("no_answer")),
            "image": sample.metadata.get("image", ""),
        }
        for index, (value, run_replies) in enumerate(zip(runs, replies, strict=True)):
            rows.append(
                {
                    **common,
                    "epoch": index + 1 if per_run else sample.epoch,
                    "score": math.nan if value is None else float(value),
                    "judge_reply": run_replies[-1] if run_replies else "",
                }
            )
    return rows


def _input_text(messages: Any) -> str:
    texts = []
    for message in messages:
        content = getattr(message, "content", "")
        if isinstance(content, str):
            texts.append(content)
        else:
            texts += [part.text for part in content if getattr(part, "type", "") == "text"]
    return "\n".join(texts)


def _spatial_rows(log: EvalLog, label: str) -> list[dict[str, Any]]:
    rows = []
    for sample in log.samples or []:
        score = (sample.scores or {}).get(SPATIAL_SCORER)
        if score is None:
            continue
        metadata = score.metadata or {}
        values = score.value if isinstance(score.value, dict) else {}
        for qid in QUESTIONS:
            rows.append(
                {
                    "run": label,
                    "image_id": str(sample.id),
                    "qid": qid,
                    "score": _number(values.get(qid)),
                    "parse_failure": qid in (metadata.get("parse_failures") or {}),
                    "image": sample.metadata.get("image", ""),
                    "width": sample.metadata.get("width"),
                    "height": sample.metadata.get("height"),
                    "ground_truth": sample.metadata.get("ground_truth", {}).get(qid, {}),
                    "prediction": (metadata.get("prediction") or {}).get(qid),
                    "judge": (metadata.get("judge_details") or {}).get(qid, {}),
                }
            )
    return rows


def _item_ids(log: EvalLog) -> frozenset[str]:
    if log.samples:
        return frozenset(str(sample.id) for sample in log.samples)
    ids = log.eval.dataset.sample_ids or []
    return frozenset(str(i) for i in ids)


def _limit(log: EvalLog) -> int | None:
    """The ``--limit`` of a run (a ``(start, stop)`` range counts as its length)."""
    limit = log.eval.config.limit
    if isinstance(limit, int):
        return limit
    if isinstance(limit, tuple | list) and len(limit) == 2:
        return int(limit[1]) - int(limit[0])
    return None


def _run_row(log: EvalLog, label: str, benchmark: str, path: Path) -> dict[str, Any]:
    samples = log.samples or []
    unscored = parse_failures = judge_runs = reasks = 0
    pipeline = PipelineCounts()
    failed_questions: dict[str, int] = {}
    judges: set[str] = set()
    prompt_hash = ""
    for sample in samples:
        for name, score in (sample.scores or {}).items():
            metadata = score.metadata or {}
            if metadata.get("judge"):
                judges.add(str(metadata["judge"]))
            prompt_hash = str(metadata.get("prompt_hash", prompt_hash))
            if name == PRIVIQ_SCORER:
                runs, replies = _judge_runs(score)
                judge_runs = max(judge_runs, len(runs))
                unscored += sum(1 for r in runs if r is None)
                reused = int(metadata.get("reused_runs", 1 if metadata.get("reused") else 0))
                parse_failures += sum(
                    len(r) - (0 if v is None else 1)
                    for v, r in list(zip(runs, replies, strict=True))[reused:]
                    if r
                )
            elif isinstance(score.value, dict):
                unscored += sum(1 for v in score.value.values() if math.isnan(_number(v)))
                parse_failures += len(metadata.get("parse_failures") or {})
                for qid in metadata.get("parse_failures") or {}:
                    failed_questions[qid] = failed_questions.get(qid, 0) + 1
                stats = metadata.get("strategy") or {}
                reasks += int(stats.get("reasks", 0))
                if stats.get("strategy") in ("staged", "guard"):
                    pipeline.add(stats)
    task_metadata = log.eval.metadata or {}
    if not judges and task_metadata.get("judge"):
        judges.add(str(task_metadata["judge"]))
    items = _item_ids(log)
    data = str(task_metadata.get("data") or log.eval.task_args.get("data") or "")
    return {
        "label": label,
        "benchmark": benchmark,
        "model": str(log.eval.model),
        "strategy": str(log.eval.task_args.get("strategy", task_metadata.get("strategy", ""))),
        "judge": ", ".join(sorted(judges)),
        "protocol": str(task_metadata.get("judge_protocol", "")),
        "prompt_hash": prompt_hash or str(task_metadata.get("prompt_hash", "")),
        "samples": len(samples),
        "unscored": int(unscored),
        "parse_failures": int(parse_failures),
        "parse_failures_by_question": " · ".join(
            f"{qid} {failed_questions[qid]}" for qid in sorted(failed_questions)
        ),
        "reasks": int(reasks),
        "pipeline": pipeline.record() if pipeline.images else None,
        "pipeline_warnings": pipeline.warnings(),
        "status": log.status,
        "log": str(path),
        "dataset_hash": str(task_metadata.get(DATASET_HASH_KEY) or ""),
        "data": data,
        "items": items,
        "n_items": len(items),
        "limit": _limit(log),
        "epochs": max(judge_runs, int(log.eval.config.epochs or 1)),
        "task_id": log.eval.task_id,
        "created": log.eval.created,
    }


def _data_name(row: dict[str, Any]) -> str:
    name = Path(row["data"]).name if row["data"] else ""
    return name or "data"


QUALIFIERS: tuple[Callable[[dict[str, Any]], str], ...] = (
    _data_name,
    lambda r: f"data {r['dataset_hash'][:8]}" if r["dataset_hash"] else "data unknown",
    lambda r: f"judge {r['judge']}" if r["judge"] else "",
    lambda r: f"{r['epochs']} epochs" if r["epochs"] > 1 else "",
    lambda r: str(r["created"])[:16].replace("T", " "),
    lambda r: Path(r["log"]).stem,
)
"""What can tell two runs with one label apart, in the order it is tried."""


def unique_labels(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Labels that differ within each benchmark, qualified by what tells the runs apart.

    ``rows`` need ``label`` (the base), ``benchmark`` and the run fields the qualifiers
    read. A ``--limit`` run always says so; then, for runs that still share a label, the
    first qualifier that differs among them is appended (data folder, dataset hash, judge,
    epochs, start time, log file name).
    """
    labels = [str(r["label"]) + (f" · limit {r['limit']}" if r.get("limit") else "") for r in rows]
    for _ in QUALIFIERS:
        groups: dict[tuple[str, str], list[int]] = {}
        for index, row in enumerate(rows):
            groups.setdefault((str(row["benchmark"]), labels[index]), []).append(index)
        clashes = [indices for indices in groups.values() if len(indices) > 1]
        if not clashes:
            break
        for indices in clashes:
            for qualify in QUALIFIERS:
                values = [qualify(rows[i]) for i in indices]
                if len(set(values)) > 1:
                    for i, value in zip(indices, values, strict=True):
                        labels[i] = f"{labels[i]} · {value}" if value else labels[i]
                    break
    return labels


def load_results(paths: Sequence[str | Path], labels: Sequence[str] = ()) -> Results:
    """Read logs into :class:`Results`; ``labels`` name the kept runs in the order of the logs."""
    notes: list[str] = []
    candidates = _headers(paths, notes)
    replaced = superseded(
        [
            (c.header.eval.task_id, c.header.eval.created, c.header.status, c.path.name)
            for c in candidates
        ]
    )
    for index, by in sorted(replaced.items()):
        old, new = candidates[index], candidates[by]
        notes.append(
            f"Dropped {old.path.name} ({old.header.status}): superseded by its retry"
            f" {new.path.name} (same inspect task id {old.header.eval.task_id})."
        )
    kept = [c for i, c in enumerate(candidates) if i not in replaced]
    if labels and len(labels) != len(kept):
        raise UsageError(f"{len(labels)} --label given for {len(kept)} logs")
    logs: list[tuple[EvalLog, Path, str, str]] = []
    rows: list[dict[str, Any]] = []
    for index, candidate in enumerate(kept):
        try:
            log = read_eval_log(str(candidate.path))
        except Exception as error:  # inspect raises several types for unreadable logs
            raise UsageError(
                f"{candidate.path}: not a readable inspect log ({type(error).__name__})"
            ) from None
        benchmark = _benchmark(log) or "priviq"
        label = labels[index] if labels else _default_label(log)
        if benchmark == "spatialtrust" and not labels:
            strategy = str(log.eval.task_args.get("strategy", ""))
            label = f"{label} [{strategy}]" if strategy and strategy != "direct" else label
        rows.append(_run_row(log, label, benchmark, candidate.path))
        logs.append((log, candidate.path, label, benchmark))
    if labels:
        final = [str(row["label"]) for row in rows]
        seen: set[tuple[str, str]] = set()
        for row in rows:
            key = (str(row["benchmark"]), str(row["label"]))
            if key in seen:
                raise UsageError(f"--label {row['label']!r} names two {row['benchmark']} runs")
            seen.add(key)
    else:
        final = unique_labels(rows)
    priviq_rows: list[dict[str, Any]] = []
    spatial_rows: list[dict[str, Any]] = []
    for row, (log, _path, _label, benchmark), label in zip(rows, logs, final, strict=True):
        row["label"] = label
        if benchmark == "priviq":
            priviq_rows += _priviq_rows(log, label)
        else:
            spatial_rows += _spatial_rows(log, label)
    return Results(pd.DataFrame(rows), pd.DataFrame(priviq_rows), pd.DataFrame(spatial_rows), notes)
