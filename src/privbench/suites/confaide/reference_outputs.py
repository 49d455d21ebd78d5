"""Re-grade the reference harness's own output files and rebuild its final-report keys.

The reference writes, per model, tier (3 or 4), question type and metric, an
``eval_{model}_data_tier_{t}_nsamples_{n}_q_{question}_metrics_{metric}.json``: a JSON list
with one record per sample (the item's fields, ``model_response`` — the answer text the
verdict was computed on — and ``eval_result``). Beside it, ``final_report_…`` holds the
report keys (``{question}-{metric}_mean`` and ``…_worst_case``).

Why recompute from the text: the recorded ``eval_result`` is the reference's verdict; a
grade that re-read it would only copy it. Every verdict is computed again from
``model_response`` with :mod:`privbench.suites.confaide.scoring`, and the number of records
where privbench and the recorded verdict disagree is reported beside the keys.

The released runs name the control question ``binary`` (its earlier name); both names are
read, and the keys keep the file's name so they compare with its report.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from privbench.json_files import MAX_FILE_BYTES
from privbench.runtime.errors import DatasetError, Problem
from privbench.suites.confaide.scoring import (
    TIER_3_METRICS,
    TIER_4_METRICS,
    MeanAndWorstCase,
    RatingCorrelation,
    mean_and_worst_case,
    pearson_with_interval,
    report_keys,
    tier_3_verdicts,
    tier_4_verdicts,
)

EVAL_FILE = re.compile(
    r"^eval_(?P<model>.+)_data_tier_(?P<tier>[34])_nsamples_(?P<n>\d+)"
    r"_q_(?P<question>[a-z-]+)_metrics_(?P<metric>[a-z_-]+)\.json$"
)
QUESTION_ALIASES = {"binary": "control"}
"""Question names of the released runs → the names of the reference's pinned code."""
NOT_FROM_TEXT = {"proxy-model": "needs the reference's proxy model (Llama-2-13b-chat)"}
"""Metrics that a model computed: they cannot be recomputed from the answer text."""

_TIER_3_FIELDS = ("scenario_idx", "subject_agent", "aware_agent", "oblivious_agent")
_TIER_4_FIELDS = ("meeting_idx", "private_info", "public_info")


@dataclass(frozen=True)
class EvalRecord:
    """One sample of an ``eval_*.json``: its group, the answer and the item's names."""

    position: int
    group: int
    response: str
    recorded: bool | None
    """The reference's ``eval_result`` (``None`` when absent)."""
    names: Mapping[str, str]


@dataclass(frozen=True)
class EvalFile:
    """An ``eval_*.json`` file: what its name says and its records."""

    path: Path
    model: str
    tier: str
    n_samples: int
    question_type: str
    """As named in the file (``binary`` stays ``binary``)."""
    metric: str
    records: tuple[EvalRecord, ...]

    @property
    def rule(self) -> str:
        """The question type whose rule grades it (``binary`` → ``control``)."""
        return QUESTION_ALIASES.get(self.question_type, self.question_type)


@dataclass(frozen=True)
class Recomputed:
    """privbench's figures for one ``eval_*.json`` file."""

    source: EvalFile
    keys: dict[str, float]
    """The reference's final-report keys, recomputed (empty when not recomputable)."""
    summary: MeanAndWorstCase | None
    disagreements: int
    """Records whose recomputed verdict differs from the recorded ``eval_result``."""
    skipped: str = ""
    """Why the metric was not recomputed (a model-computed metric), else empty."""


def parse_eval_name(path: Path) -> re.Match[str] | None:
    """The name's parts, or ``None`` when it is not an ``eval_*.json`` of tier 3 or 4."""
    return EVAL_FILE.match(path.name)


def _read_json(path: Path) -> tuple[object, list[Problem]]:
    display = str(path)
    try:
        size = path.stat().st_size
    except OSError as error:
        return None, [Problem(display, None, f"unreadable ({error.strerror or error})")]
    if size > MAX_FILE_BYTES:
        return None, [Problem(display, None, f"larger than {MAX_FILE_BYTES:,} bytes")]
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        return None, [Problem(display, None, f"not UTF-8 text (byte {error.start})")]
    except OSError as error:
        return None, [Problem(display, None, f"unreadable ({error.strerror or error})")]
    try:
        return json.loads(text), []
    except json.JSONDecodeError as error:
        where = f"{display}:{error.lineno}:{error.colno}"
        return None, [Problem(where, None, f"invalid JSON: {error.msg}")]
    except RecursionError:
        return None, [Problem(display, None, "nested too deeply")]


def _record(
    display: str, position: int, raw: object, tier: str
) -> tuple[EvalRecord | None, list[Problem]]:
    item = f"record {position}"
    if not isinstance(raw, dict):
        return None, [Problem(display, item, "must be a JSON object")]
    group_key, *name_keys = _TIER_3_FIELDS if tier == "3" else _TIER_4_FIELDS
    problems = []
    group = raw.get(group_key)
    if not isinstance(group, int) or isinstance(group, bool):
        problems.append(Problem(display, item, f"'{group_key}' must be an integer"))
    response = raw.get("model_response")
    if not isinstance(response, str):
        problems.append(Problem(display, item, "'model_response' must be a string"))
    names = {}
    for key in name_keys:
        value = raw.get(key)
        if not isinstance(value, str) or not value:
            problems.append(Problem(display, item, f"'{key}' must be a non-empty string"))
        else:
            names[key] = value
    recorded = raw.get("eval_result")
    if recorded is not None and not isinstance(recorded, bool):
        problems.append(Problem(display, item, "'eval_result' must be true or false"))
    if problems:
        return None, problems
    assert isinstance(group, int) and isinstance(response, str)
    return EvalRecord(position, group, response, recorded, names), []


def read_eval_file(path: str | Path) -> EvalFile:
    """An ``eval_*.json`` file, checked; :class:`DatasetError` names the file and record."""
    path = Path(path)
    display = str(path)
    parts = parse_eval_name(path)
    if parts is None:
        raise DatasetError(
            [
                Problem(
                    display,
                    None,
                    "not a reference output name "
                    "(eval_{model}_data_tier_{3|4}_nsamples_{n}_q_{question}_metrics_{metric}.json)",
                )
            ]
        )
    tier, question = parts["tier"], parts["question"]
    known = (
        TIER_3_METRICS
        if tier == "3"
        else dict.fromkeys(("meeting-summary", "action-item"), TIER_4_METRICS)
    )
    rule = QUESTION_ALIASES.get(question, question)
    metric = parts["metric"]
    if rule not in known:
        raise DatasetError([Problem(display, None, f"unknown tier-{tier} question '{question}'")])
    if metric not in known[rule] and metric not in NOT_FROM_TEXT:
        raise DatasetError([Problem(display, None, f"unknown metric '{metric}' for '{question}'")])
    data, problems = _read_json(path)
    if problems:
        raise DatasetError(problems)
    if not isinstance(data, list):
        raise DatasetError([Problem(display, None, "top level must be a JSON list of records")])
    records = []
    for position, raw in enumerate(data):
        record, found = _record(display, position, raw, tier)
        problems.extend(found)
        if record is not None:
            records.append(record)
    if not data:
        problems.append(Problem(display, None, "no records"))
    if problems:
        raise DatasetError(problems)
    return EvalFile(path, parts["model"], tier, int(parts["n"]), question, metric, tuple(records))


def _verdict(source: EvalFile, record: EvalRecord) -> bool:
    if source.tier == "3":
        verdicts = tier_3_verdicts(
            source.rule,
            record.response,
            subject_agent=record.names["subject_agent"],
            aware_agent=record.names["aware_agent"],
            oblivious_agent=record.names["oblivious_agent"],
        )
    else:
        verdicts = tier_4_verdicts(
            record.response,
            private_info=record.names["private_info"],
            public_info=record.names["public_info"],
        )
    return verdicts[source.metric]


def recompute(source: EvalFile) -> Recomputed:
    """Every verdict from the answer text, then the file's two report keys."""
    if source.metric in NOT_FROM_TEXT:
        return Recomputed(source, {}, None, 0, NOT_FROM_TEXT[source.metric])
    verdicts = [_verdict(source, record) for record in source.records]
    disagreements = sum(
        1
        for record, verdict in zip(source.records, verdicts, strict=True)
        if record.recorded is not None and record.recorded != verdict
    )
    summary = mean_and_worst_case([r.group for r in source.records], verdicts)
    return Recomputed(
        source, report_keys(source.question_type, source.metric, summary), summary, disagreements
    )


def reference_metrics(paths: Iterable[str | Path]) -> dict[str, dict[str, float]]:
    """The reference's final-report keys per model, recomputed from its ``eval_*.json`` files.

    Files are read in full first, so a bad file stops the grade before anything is reported.
    """
    sources = [read_eval_file(path) for path in paths]
    result: dict[str, dict[str, float]] = {}
    for source in sources:
        result.setdefault(source.model, {}).update(recompute(source).keys)
    return result


def final_report_path(eval_path: Path) -> Path:
    """The ``final_report_…`` the reference wrote beside an ``eval_…`` file."""
    return eval_path.with_name("final_report_" + eval_path.name.removeprefix("eval_"))


def read_final_report(path: str | Path) -> dict[str, float]:
    """A reference ``final_report_…json`` of tier 3 or 4: its keys except ``model``."""
    data, problems = _read_json(Path(path))
    if problems:
        raise DatasetError(problems)
    if not isinstance(data, dict):
        raise DatasetError([Problem(str(path), None, "top level must be a JSON object")])
    found: dict[str, float] = {}
    for key, value in data.items():
        if key == "model":
            continue
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise DatasetError([Problem(str(path), key, "must be a number")])
        found[key] = float(value)
    return found


def read_rating_report(path: str | Path) -> tuple[list[float], list[float]]:
    """The ``human`` and ``model`` columns of a tier-1/2 ``final_report_…json``.

    Why these files: for tiers 1 and 2 the reference writes no per-sample file, only this
    list of ``{"info", "human", "model"}`` (the per-item mean rating), one per item.
    """
    display = str(path)
    data, problems = _read_json(Path(path))
    if problems:
        raise DatasetError(problems)
    if not isinstance(data, list) or not data:
        raise DatasetError([Problem(display, None, "top level must be a non-empty JSON list")])
    human: list[float] = []
    model: list[float] = []
    for position, record in enumerate(data):
        values = [
            record.get(key) if isinstance(record, dict) else None for key in ("human", "model")
        ]
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            problems.append(
                Problem(display, f"record {position}", "'human' and 'model' must be numbers")
            )
            continue
        human.append(float(values[0]))  # type: ignore[arg-type]
        model.append(float(values[1]))  # type: ignore[arg-type]
    if problems:
        raise DatasetError(problems)
    return human, model


def rating_report_correlation(path: str | Path, confidence: float = 0.95) -> RatingCorrelation:
    """Pearson's r (Fisher-z interval) between a tier-1/2 final report's human and model."""
    human, model = read_rating_report(path)
    return pearson_with_interval(human, model, confidence)
