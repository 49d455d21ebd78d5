"""Reading many inspect logs (models, tasks, epochs) into tidy pandas tables.

Why tidy tables: every table, interval, comparison and figure of the report is a group-by
over the same long frames, so results are read once, here:

* ``priviq``: one row per (run, item, epoch): ``score`` (0–1, NaN when unscored),
  ``competencies``, ``combination``, question, reference, answer, judge reply, image;
* ``spatial``: one row per (run, image, question): ``score`` (0–1, NaN when unscored);
* ``runs``: one row per log: label, benchmark, model, strategy, judge, protocol, prompt
  hash, counts of unscored judgments and parse failures.

Logs are read with ``inspect_ai.log.read_eval_log``; a directory contributes every
``.eval``/``.json`` log inside it. One model per log; ``labels`` overrides the label
(default: the model name, or the predictions file's stem for grading runs).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from inspect_ai.log import EvalLog, read_eval_log

from privbench.errors import UsageError
from privbench.priviq.competencies import COMPETENCIES, combination_label

PRIVIQ_SCORER = "priviq_judge"
SPATIAL_SCORER = "spatialtrust_scorer"
QUESTIONS = ("q1", "q2", "q3", "q4", "q5")


@dataclass
class Results:
    """Every graded sample of a set of logs, as long tables."""

    runs: pd.DataFrame
    priviq: pd.DataFrame
    spatial: pd.DataFrame

    def labels(self, benchmark: str) -> list[str]:
        """Run labels of one benchmark, in the order the logs were given."""
        rows = self.runs[self.runs["benchmark"] == benchmark]
        return list(rows["label"])


def log_paths(paths: Sequence[str | Path]) -> list[Path]:
    """The log files named, directories expanded to the logs they hold (sorted)."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix in (".eval", ".json"))
        elif path.exists():
            found.append(path)
        else:
            raise UsageError(f"{path}: no such log file or directory")
    if not found:
        raise UsageError("no inspect logs found in " + ", ".join(str(p) for p in paths))
    return found


def _benchmark(log: EvalLog) -> str | None:
    scorers = {s.name for s in (log.results.scores if log.results else [])}
    if PRIVIQ_SCORER in scorers or log.eval.task.endswith(("priviq", "priviq_grade")):
        return "priviq"
    if SPATIAL_SCORER in scorers or log.eval.task.endswith(("spatialtrust", "spatialtrust_grade")):
        return "spatialtrust"
    return None


def _default_label(log: EvalLog) -> str:
    predictions = log.eval.task_args.get("predictions")
    if predictions:
        return Path(str(predictions)).stem
    return str(log.eval.model)


def _number(value: Any) -> float:
    return (
        float(value) if isinstance(value, int | float) and not isinstance(value, bool) else math.nan
    )


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
        replies = metadata.get("replies") or []
        rows.append(
            {
                "run": label,
                "item": str(sample.id),
                "epoch": sample.epoch,
                "score": _number(score.value),
                "competencies": codes,
                "combination": combination_label(codes),
                "question": sample.input
                if isinstance(sample.input, str)
                else _input_text(sample.input),
                "reference": sample.target
                if isinstance(sample.target, str)
                else " / ".join(sample.target),
                "answer": score.answer or "",
                "judge_reply": str(replies[-1]) if replies else "",
                "no_answer": bool(metadata.get("no_answer")),
                "image": sample.metadata.get("image", ""),
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


def _run_row(log: EvalLog, label: str, benchmark: str, path: Path) -> dict[str, Any]:
    samples = log.samples or []
    unscored = parse_failures = 0
    judges: set[str] = set()
    prompt_hash = ""
    for sample in samples:
        for score in (sample.scores or {}).values():
            metadata = score.metadata or {}
            if metadata.get("judge"):
                judges.add(str(metadata["judge"]))
            prompt_hash = str(metadata.get("prompt_hash", prompt_hash))
            if isinstance(score.value, dict):
                unscored += sum(1 for v in score.value.values() if math.isnan(_number(v)))
                parse_failures += len(metadata.get("parse_failures") or {})
            else:
                unscored += math.isnan(_number(score.value))
                replies = metadata.get("replies") or []
                if not metadata.get("reused"):
                    parse_failures += len(replies) - (0 if math.isnan(_number(score.value)) else 1)
    task_metadata = log.eval.metadata or {}
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
        "status": log.status,
        "log": str(path),
    }


def load_results(paths: Sequence[str | Path], labels: Sequence[str] = ()) -> Results:
    """Read logs into :class:`Results`; ``labels`` name the runs in the order of the logs."""
    files = log_paths(paths)
    if labels and len(labels) != len(files):
        raise UsageError(f"{len(labels)} --label given for {len(files)} logs")
    run_rows, priviq_rows, spatial_rows = [], [], []
    seen: dict[str, int] = {}
    for index, path in enumerate(files):
        try:
            log = read_eval_log(str(path))
        except Exception as error:  # inspect raises several types for unreadable logs
            raise UsageError(
                f"{path}: not a readable inspect log ({type(error).__name__})"
            ) from None
        benchmark = _benchmark(log)
        if benchmark is None:
            continue
        label = labels[index] if labels else _default_label(log)
        if benchmark == "spatialtrust" and not labels:
            strategy = str(log.eval.task_args.get("strategy", ""))
            label = f"{label} [{strategy}]" if strategy and strategy != "direct" else label
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            label = f"{label} #{seen[label]}"
        run_rows.append(_run_row(log, label, benchmark, path))
        if benchmark == "priviq":
            priviq_rows += _priviq_rows(log, label)
        else:
            spatial_rows += _spatial_rows(log, label)
    if not run_rows:
        raise UsageError("none of the logs is a Priv-IQ or SpatialTrust run")
    return Results(pd.DataFrame(run_rows), pd.DataFrame(priviq_rows), pd.DataFrame(spatial_rows))
