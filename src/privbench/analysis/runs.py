"""Reading many inspect logs (models, tasks, epochs) into tidy pandas tables.

Why tidy tables: every table, interval, comparison and figure of the report is a group-by
over the same long frames, so results are read once, here:

* ``priviq``: one row per (run, item, epoch): ``score`` (0–1, NaN when unscored),
  ``competencies``, ``combination``, question, reference, answer, judge reply, image;
* ``spatial``: one row per (run, image, question): ``score`` (0–1, NaN when unscored);
* ``runs``: one row per log: label, benchmark, model, strategy, judge, protocol, prompt
  hash, counts of unscored judgments and parse failures (``parse_failures``: Priv-IQ's
  unreadable judge replies, SpatialTrust's unreadable model answers; apart:
  ``unreadable_judge_replies`` of both benchmarks and ``unreadable_answers`` of
  SpatialTrust), the judge's temperature, and what makes runs comparable:
  the dataset's content hash, the item ids, ``--limit``.

Inputs are taken as users pass them: a directory contributes every privbench inspect log
(``.eval``/``.json``) inside it, recursively; other files there (an eval set's
``eval-set.json``/``logs.json``, grade files, CSV exports, a report) are skipped and counted
in one note. A file named explicitly must be a readable inspect log. A cancelled or failed
log that a later log of the same inspect task (``eval.task_id``, which ``inspect eval-retry``
and ``eval_set`` keep) supersedes is dropped, with a note.

Run labels default to the run's own (``--label``, recorded in its log), else the model
name (for grading runs the graded model's: :meth:`RunIdentity.label`), and are made unique within a benchmark by what tells the runs apart (dataset, ``--limit``,
judge, start time) — never by a bare counter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from inspect_ai.log import EvalLog, read_eval_log

from privbench import registry
from privbench.runtime.cross_run import Row, RunCounts, unverified_line
from privbench.runtime.errors import UsageError
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.records.task import TaskRecord

LOG_SUFFIXES = (".eval", ".json")
SHORT_HASH = 12
"""Characters of a dataset hash shown to readers (collisions at this length are remote)."""


@dataclass
class Results:
    """Every graded sample of a set of logs, as long tables, and what was left out."""

    runs: pd.DataFrame
    items: Mapping[str, pd.DataFrame]
    """Each benchmark's long table by its name (every registered one; empty when no run)."""
    notes: list[str] = field(default_factory=list)
    """Plain sentences for the reader: skipped files, superseded logs."""

    @property
    def priviq(self) -> pd.DataFrame:
        """Priv-IQ's long table: one row per (run, item, epoch)."""
        return self.items["priviq"]

    @property
    def spatial(self) -> pd.DataFrame:
        """SpatialTrust's long table: one row per (run, image, question)."""
        return self.items["spatialtrust"]

    def labels(self, benchmark: str) -> list[str]:
        """Run labels of one benchmark, in the order the logs were given."""
        rows = self.runs[self.runs["benchmark"] == benchmark]
        return list(rows["label"])


@dataclass(frozen=True)
class _Candidate:
    path: Path
    explicit: bool
    header: EvalLog


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


def _in_run_order(candidates: list[_Candidate]) -> list[_Candidate]:
    """Logs found in a folder, in the order their runs started, and runs started in the
    same second by their label: inspect records the start only to the second and puts a
    random id after it in the file name, which must not decide the order. Logs named
    explicitly keep their place."""

    def key(candidate: _Candidate) -> tuple[str, str, str, str]:
        identity = RunIdentity.from_log(candidate.header)
        folder = f"{candidate.path.parent}/"  # as a sort of whole paths would put it
        return (folder, identity.created, identity.label(), candidate.path.name)

    ordered: list[_Candidate] = []
    found: list[_Candidate] = []
    for candidate in [*candidates, None]:
        if candidate is not None and not candidate.explicit:
            found.append(candidate)
            continue
        ordered += sorted(found, key=key)
        found = []
        if candidate is not None:
            ordered.append(candidate)
    return ordered


def _headers(paths: Sequence[str | Path], notes: list[str]) -> list[_Candidate]:
    """Headers of the privbench logs among ``paths``; other files skipped with one note."""
    candidates: list[_Candidate] = []
    skipped: list[Path] = []
    foreign: list[tuple[Path, EvalLog]] = []
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
        if RunIdentity.from_log(header).benchmark is None:
            foreign.append((path, header))
            continue
        candidates.append(_Candidate(path, explicit, header))
    if skipped:
        names = ", ".join(sorted({p.name for p in skipped})[:4])
        notes.append(
            f"Skipped {len(skipped)} file(s) in the given folder(s) that are not inspect logs"
            f" (e.g. {names})."
        )
    if foreign:
        notes.append(foreign_note(foreign))
    if not candidates:
        if skipped or foreign:
            raise UsageError(
                f"none of the logs is a {_titles()} run: " + ", ".join(str(p) for p in paths)
            )
        raise UsageError("no inspect logs found in " + ", ".join(str(p) for p in paths))
    return _in_run_order(candidates)


def _titles() -> str:
    """``Priv-IQ or SpatialTrust``: every registered benchmark, as people name them."""
    return " or ".join(suite.title for suite in registry.SUITES.values())


def foreign_note(logs: Sequence[tuple[Path, EvalLog]], shown: int = 3) -> str:
    """Which inspect logs were left out for not being benchmark runs, and why, by reason:
    ``privbench judge check``'s own logs (graded reference answers), other tasks by name."""
    by_reason: dict[str, list[str]] = {}
    for path, header in logs:
        task = header.eval.task.split("/")[-1]
        if TaskRecord.from_log(header).judge_check:
            reason = "of privbench judge check (reference answers it graded, not a benchmark run)"
        else:
            reason = f"of task {task}"
        by_reason.setdefault(reason, []).append(path.name)
    parts = []
    for reason, names in by_reason.items():
        listed = ", ".join(sorted(names)[:shown]) + (", …" if len(names) > shown else "")
        parts.append(f"{len(names)} {reason}: {listed}")
    return (
        f"Skipped {len(logs)} inspect log(s) that are not {_titles()} runs: "
        + "; ".join(parts)
        + "."
    )


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


def _item_ids(log: EvalLog) -> frozenset[str]:
    if log.samples:
        return frozenset(str(sample.id) for sample in log.samples)
    ids = log.eval.dataset.sample_ids or []
    return frozenset(str(i) for i in ids)


def _counts(log: EvalLog, benchmark: str) -> RunCounts:
    reading = registry.get(benchmark).cross_run.reading
    return RunCounts() if reading is None else reading.counts(log)


def _run_row(log: EvalLog, label: str, identity: RunIdentity, path: Path) -> dict[str, object]:
    samples = log.samples or []
    counts = _counts(log, identity.benchmark or "")
    judges = counts.judges
    if not judges and identity.judge:
        judges.add(identity.judge)
    items = _item_ids(log)
    drafts = identity.draft_annotations  # as the run recorded it (--allow-drafts)
    return {
        "label": label,
        "benchmark": identity.benchmark,
        "model": identity.model,
        "strategy": identity.strategy,
        "judge": ", ".join(sorted(judges)),
        "protocol": identity.judge_protocol,
        "prompt_hash": counts.prompt_hash or identity.prompt_hash,
        "samples": len(samples),
        "unscored": counts.unscored,
        "parse_failures": counts.parse_failures,
        "unreadable_judge_replies": counts.unreadable_judge,
        "unreadable_answers": counts.unreadable_answers,
        "judge_temperature": identity.judge_temperature,
        "parse_failures_by_question": " · ".join(
            f"{qid} {counts.failed_questions[qid]}" for qid in sorted(counts.failed_questions)
        ),
        "reasks": counts.reasks,
        "pipeline": counts.pipeline,
        "pipeline_warnings": counts.pipeline_warnings,
        "draft_annotations": "" if drafts is None else drafts.line(),
        "unverified_grades": unverified_line(counts.unverified),
        "judge_agreement": identity.judge_agreement_line,
        "judge_agreement_short": identity.judge_agreement_short,
        "model_versions": ", ".join(counts.versions.record()["model"]),
        "judge_versions": ", ".join(counts.versions.record()["judge"]),
        "status": identity.status,
        "log": str(path),
        "dataset_hash": identity.dataset_hash,
        "data": identity.data,
        "items": items,
        "n_items": len(items),
        "limit": identity.limit_count,
        "epochs": max(counts.judge_runs, int(log.eval.config.epochs or 1)),
        "task_id": log.eval.task_id,
        "created": log.eval.created,
    }


def _data_name(row: Row) -> str:
    name = Path(str(row["data"])).name if row["data"] else ""
    return name or "data"


def _epochs(row: Row) -> str:
    epochs = row["epochs"]
    return f"{epochs} epochs" if isinstance(epochs, int) and epochs > 1 else ""


QUALIFIERS: tuple[Callable[[Row], str], ...] = (
    _data_name,
    lambda r: f"data {str(r['dataset_hash'])[:8]}" if r["dataset_hash"] else "data unknown",
    lambda r: f"judge {r['judge']}" if r["judge"] else "",
    _epochs,
    lambda r: str(r["created"])[:16].replace("T", " "),
    lambda r: Path(str(r["log"])).stem,
)
"""What can tell two runs with one label apart, in the order it is tried."""


def unique_labels(rows: Sequence[Row]) -> list[str]:
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
    rows: list[dict[str, object]] = []
    for index, candidate in enumerate(kept):
        try:
            log = read_eval_log(str(candidate.path))
        except Exception as error:  # inspect raises several types for unreadable logs
            raise UsageError(
                f"{candidate.path}: not a readable inspect log ({type(error).__name__})"
            ) from None
        identity = RunIdentity.from_log(log)
        if identity.judge_card_problem:  # the run stays, its judge counts as not checked
            notes.append(f"{identity.judge_card_problem}; its judge counts as not checked.")
        benchmark = str(identity.benchmark)  # set: other logs were left out by _headers
        label = labels[index] if labels else identity.label()
        strategy = identity.strategy
        named = labels or identity.run_label  # a name the user chose is shown as given
        strategies = registry.get(benchmark).cross_run.strategies
        if strategies and not named and strategy and strategy != strategies[0]:
            label = f"{label} [{strategy}]"
        rows.append(_run_row(log, label, identity, candidate.path))
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
    items: dict[str, list[Row]] = {name: [] for name in registry.SUITES}
    for row, (log, _path, _label, benchmark), label in zip(rows, logs, final, strict=True):
        row["label"] = label
        reading = registry.get(benchmark).cross_run.reading
        if reading is not None:
            items[benchmark] += reading.item_rows(log, label)
    return Results(
        pd.DataFrame(rows), {name: pd.DataFrame(found) for name, found in items.items()}, notes
    )
