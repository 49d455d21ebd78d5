"""``privbench judge check`` for SpatialTrust q4/q5: a judge's verdicts against reference ones.

Why: a q4/q5 score is only as good as the judge's structured verdict (per ground-truth
factor *identified*, *explanation correct* and its match; per answer *unsupported* and
*states none*). A verdict set holds answers with the verdict a careful judge gives them;
this module asks a judge for its verdict on each of them through the very code a run
uses (:meth:`privbench.suites.spatialtrust.scorer.ExplanationJudge.verdict`: the same prompt, parser,
re-asks, token limit and cache), inside an inspect task, so the check measures the judge
a run would get, and then compares field by field: the share agreeing and Cohen's κ.

A verdict set is JSON lines, one answer each::

    {"id": ..., "question": "q4" | "q5", "factors": [{"name": ..., "why": ...}],
     "reference": ..., "answer_text": ..., "answer_factors": [{"name": ..., "why": ...}],
     "verdict": {"identified": [bool per factor], "explained": [...],
                 "match": [index or null per factor], "unsupported": bool,
                 "states_none": bool}}

The rows carry no boxes, and none is needed: the judge never sees a box (IoU is computed
by privbench, after the verdict). The question types want one per ground-truth factor,
so each gets :data:`PLACEHOLDER_BOX`, which nothing reads.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog, EvalSampleSummary
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver
from rich.table import Table

from privbench.agreement_measures import cohen_kappa
from privbench.json_files import JsonValue, read_jsonl
from privbench.judges.choice import grader, parse_judge
from privbench.runtime.errors import DatasetError, PrivbenchError, Problem, describe_failure
from privbench.runtime.log_reading import finished_samples
from privbench.runtime.records.base import THINNED, LoggedSample
from privbench.runtime.records.task import TaskRecord
from privbench.runtime.running import NO_MODEL, RunOptions, run_task
from privbench.shipped import JUDGE_CALIBRATION
from privbench.suites.spatialtrust.boxes import Box
from privbench.suites.spatialtrust.dataset import EXPLANATION_QUESTIONS, ExplanationQuestion, Factor
from privbench.suites.spatialtrust.judge import MAX_TRIES, verdict_from_record
from privbench.suites.spatialtrust.question_design import QUESTION_TEXTS
from privbench.suites.spatialtrust.reading import ExplanationAnswer, PredictedFactor
from privbench.suites.spatialtrust.scorer import ExplanationJudge
from privbench.suites.spatialtrust.scoring import ExplanationVerdict, FactorVerdict, verdict_problem

TASK_NAME = "spatialtrust_judge_check"
SCORER_NAME = "spatial_verdict"
"""The inspect scorer name: the key of each sample's score in the log."""
FACTOR_FIELDS = ("identified", "explanation_correct")
"""Verdict fields given per ground-truth factor (an answer to a question without a
ground-truth factor has none)."""
ANSWER_FIELDS = ("unsupported", "states_none")
"""Verdict fields given once per answer."""
VERDICT_FIELDS = FACTOR_FIELDS + ANSWER_FIELDS
PLACEHOLDER_BOX: Box = (0.0, 0.0, 1.0, 1.0)
"""The box of every ground-truth factor read from a verdict set: a verdict never depends
on a box, so any proper box will do."""


# --- reading a verdict set -----------------------------------------------------------------


@dataclass(frozen=True)
class VerdictItem:
    """One answer of a verdict set, as the judge will see it, with its reference verdict."""

    id: str
    question: ExplanationQuestion
    """q4 or q5 with the paper's question text, the reference answer and the ground-truth
    factors (boxes are :data:`PLACEHOLDER_BOX`)."""
    answer: ExplanationAnswer
    """The answer being judged (its listed factors have no box)."""
    reference: ExplanationVerdict
    source: str = ""
    """``FILE:LINE`` of the row."""

    @property
    def qid(self) -> str:
        return self.question.qid

    def record(self) -> dict[str, JsonValue]:
        """The row in the verdict-set format, with its ``source`` (kept in each sample's
        metadata, so the log alone says what was judged and against which reference)."""
        return {
            "id": self.id,
            "question": self.qid,
            "factors": [{"name": f.name, "why": f.why} for f in self.question.factors],
            "reference": self.question.answer,
            "answer_text": self.answer.text,
            "answer_factors": [{"name": f.name, "why": f.why} for f in self.answer.factors],
            "verdict": {
                "identified": [f.identified for f in self.reference.factors],
                "explained": [f.explanation_correct for f in self.reference.factors],
                "match": [f.matched for f in self.reference.factors],
                "unsupported": self.reference.unsupported,
                "states_none": self.reference.states_none,
            },
            "source": self.source,
        }


class _Row:
    """The checks of one row; every problem names the row's place, its id and the field."""

    def __init__(self, where: str, value: object) -> None:
        self.where = where
        self.value: Mapping[str, object] = value if isinstance(value, dict) else {}
        raw_id = self.value.get("id")
        self.id = raw_id if isinstance(raw_id, str) and raw_id.strip() else None
        self.problems: list[Problem] = []
        if not isinstance(value, dict):
            self.add("a row must be a JSON object")
        elif self.id is None:
            self.add("'id' must be a non-empty string")

    def add(self, message: str) -> None:
        self.problems.append(Problem(self.where, self.id, message))

    def text(self, entry: Mapping[str, object], key: str, field: str, empty: bool = False) -> str:
        """The string at ``key`` (non-empty unless ``empty``), else a problem naming ``field``."""
        value = entry.get(key)
        if not isinstance(value, str) or not (empty or value.strip()):
            self.add(f"'{field}' must be a {'' if empty else 'non-empty '}string")
            return ""
        return value

    def factors(self, key: str, why_empty: bool) -> list[tuple[str, str]]:
        """``[(name, why)]`` of the list at ``key``."""
        raw = self.value.get(key)
        if not isinstance(raw, list):
            self.add(f"'{key}' must be a list of {{name, why}} objects")
            return []
        found: list[tuple[str, str]] = []
        for index, entry in enumerate(raw):
            if not isinstance(entry, dict):
                self.add(f"'{key}[{index}]' must be an object with 'name' and 'why'")
                continue
            name = self.text(entry, "name", f"{key}[{index}].name")
            why = self.text(entry, "why", f"{key}[{index}].why", empty=why_empty)
            found.append((name, why))
        return found

    def flags(self, verdict: Mapping[str, object], key: str, n: int) -> list[bool]:
        """One true/false per ground-truth factor at ``verdict[key]``."""
        raw = verdict.get(key)
        if not isinstance(raw, list) or len(raw) != n or not all(isinstance(v, bool) for v in raw):
            self.add(f"'verdict.{key}' must be a list of {n} true/false (one per factor)")
            return [False] * n
        return [bool(v) for v in raw]

    def matches(self, verdict: Mapping[str, object], n: int) -> list[int | None]:
        raw = verdict.get("match")
        if not isinstance(raw, list) or len(raw) != n or not all(_is_index(v) for v in raw):
            self.add(f"'verdict.match' must be a list of {n} indices or nulls (one per factor)")
            return [None] * n
        return [v if isinstance(v, int) else None for v in raw]

    def flag(self, verdict: Mapping[str, object], key: str) -> bool:
        raw = verdict.get(key)
        if not isinstance(raw, bool):
            self.add(f"'verdict.{key}' must be true or false")
            return False
        return raw


def _is_index(value: object) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def _verdict(row: _Row, n_gt: int, n_predicted: int) -> ExplanationVerdict:
    raw = row.value.get("verdict")
    verdict: Mapping[str, object] = raw if isinstance(raw, dict) else {}
    if not isinstance(raw, dict):
        row.add("'verdict' must be an object")
    identified = row.flags(verdict, "identified", n_gt)
    explained = row.flags(verdict, "explained", n_gt)
    matched = row.matches(verdict, n_gt)
    found = ExplanationVerdict(
        tuple(FactorVerdict(*entry) for entry in zip(identified, explained, matched, strict=True)),
        row.flag(verdict, "unsupported"),
        row.flag(verdict, "states_none"),
    )
    problem = verdict_problem(found, n_gt, n_predicted)
    if problem is not None:
        row.add(f"'verdict.match': {problem}")
    return found


def verdict_item(value: object, where: str) -> tuple[VerdictItem | None, list[Problem]]:
    """One row read and checked: the item, or None and every problem found in it."""
    row = _Row(where, value)
    if not isinstance(value, dict):
        return None, row.problems
    qid = row.value.get("question")
    if qid not in EXPLANATION_QUESTIONS:
        row.add("'question' must be q4 or q5")
    factors = row.factors("factors", why_empty=False)
    reference = row.text(row.value, "reference", "reference")
    answer_text = row.text(row.value, "answer_text", "answer_text", empty=True)
    answer_factors = row.factors("answer_factors", why_empty=True)
    verdict = _verdict(row, len(factors), len(answer_factors))
    if row.problems or row.id is None or not isinstance(qid, str):
        return None, row.problems
    question = ExplanationQuestion(
        qid,
        QUESTION_TEXTS[qid],
        reference,
        tuple(Factor(name, why, PLACEHOLDER_BOX) for name, why in factors),
    )
    answer = ExplanationAnswer(
        answer_text, tuple(PredictedFactor(name, why, None) for name, why in answer_factors)
    )
    return VerdictItem(row.id, question, answer, verdict, where), []


def _read(path: Path) -> tuple[list[VerdictItem], list[Problem]]:
    display = str(path)
    lines, problems = read_jsonl(path, display)
    items: list[VerdictItem] = []
    first_line: dict[str, int] = {}
    for number, value in lines:
        item, found = verdict_item(value, f"{display}:{number}")
        problems += found
        if item is None:
            continue
        if item.id in first_line:
            message = f"duplicate id (first on line {first_line[item.id]})"
            problems.append(Problem(f"{display}:{number}", item.id, message))
            continue
        first_line[item.id] = number
        items.append(item)
    if not lines and not problems:
        problems.append(Problem(display, None, "no verdict rows"))
    return items, problems


def read_verdict_set(path: Path) -> list[VerdictItem]:
    """The rows of a verdict set; :class:`DatasetError` listing every problem (file, line,
    id and field) if any row is not valid: a reference verdict that cannot be read must
    stop the check before a judge is paid, not shrink it."""
    items, problems = _read(path)
    if problems:
        raise DatasetError(problems)
    return items


def read_verdict_sets(paths: Sequence[Path]) -> list[VerdictItem]:
    """The rows of several verdict sets, checked together: an id may appear once in all of
    them (a verdict is looked up by id)."""
    items: list[VerdictItem] = []
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for path in paths:
        found, found_problems = _read(path)
        problems += found_problems
        for item in found:
            if item.id in seen:
                problems.append(Problem(item.source, item.id, f"id also in {seen[item.id]}"))
                continue
            seen[item.id] = item.source
            items.append(item)
    if problems:
        raise DatasetError(problems)
    return items


# --- comparing verdicts (pure) -------------------------------------------------------------


@dataclass(frozen=True)
class VerdictDisagreement:
    """One field on which the judge's verdict differs from the reference."""

    id: str
    qid: str
    field: str
    factor: int | None
    """The ground-truth factor's index (None for a per-answer field)."""
    reference: bool
    judged: bool

    def as_json(self) -> dict[str, JsonValue]:
        return {
            "id": self.id,
            "question": self.qid,
            "field": self.field,
            "factor": self.factor,
            "reference": self.reference,
            "judged": self.judged,
        }


@dataclass(frozen=True)
class FieldAgreement:
    """How often the judge and the reference agree on one field, and Cohen's κ.

    κ is None when it is undefined (nothing compared, or both sides gave every unit one
    and the same label, so chance agreement is already perfect), with the reason: κ = 0
    means "no better than chance", which is a finding, not a gap.
    """

    n: int
    agreeing: int
    kappa: float | None
    kappa_undefined: str | None = None

    @property
    def accuracy(self) -> float | None:
        return self.agreeing / self.n if self.n else None

    def as_json(self) -> dict[str, JsonValue]:
        return {
            "n": self.n,
            "agreeing": self.agreeing,
            "accuracy": self.accuracy,
            "kappa": self.kappa,
            "kappa_undefined_because": self.kappa_undefined,
        }


@dataclass(frozen=True)
class SpatialAgreement:
    """A judge's q4/q5 verdicts against the reference: per field, overall and per question."""

    items: int
    unscored: tuple[str, ...]
    """Items whose judge replies never parsed as a verdict (left out of every field)."""
    fields: dict[str, FieldAgreement]
    """Field (:data:`VERDICT_FIELDS`) → agreement over every scored item."""
    by_question: dict[str, dict[str, FieldAgreement]]
    """``q4`` / ``q5`` → field → agreement over that question's scored items."""
    disagreements: tuple[VerdictDisagreement, ...]

    def as_json(self) -> dict[str, JsonValue]:
        """Plain JSON; an undefined figure is null."""
        return {
            "items": self.items,
            "scored": self.items - len(self.unscored),
            "unscored": len(self.unscored),
            "unscored_ids": list(self.unscored),
            "fields": {name: self.fields[name].as_json() for name in VERDICT_FIELDS},
            "by_question": {
                qid: {name: fields[name].as_json() for name in VERDICT_FIELDS}
                for qid, fields in self.by_question.items()
            },
            "disagreements": [d.as_json() for d in self.disagreements],
        }


def verdict_fields(verdict: ExplanationVerdict) -> list[tuple[str, int | None, bool]]:
    """``(field, factor index or None, value)`` of every compared field of a verdict."""
    fields: list[tuple[str, int | None, bool]] = []
    for index, factor in enumerate(verdict.factors):
        fields += [
            ("identified", index, factor.identified),
            ("explanation_correct", index, factor.explanation_correct),
        ]
    return [
        *fields,
        ("unsupported", None, verdict.unsupported),
        ("states_none", None, verdict.states_none),
    ]


def _compared(
    item: VerdictItem, judged: ExplanationVerdict
) -> list[tuple[str, int | None, bool, bool]]:
    """``(field, factor, reference, judged)`` for every compared field of one item."""
    if len(judged.factors) != len(item.reference.factors):
        raise ValueError(
            f"{item.id}: {len(judged.factors)} factor verdicts for "
            f"{len(item.reference.factors)} ground-truth factors"
        )
    return [
        (field, factor, want, got)
        for (field, factor, want), (_, _, got) in zip(
            verdict_fields(item.reference), verdict_fields(judged), strict=True
        )
    ]


def item_disagreements(item: VerdictItem, judged: ExplanationVerdict) -> list[VerdictDisagreement]:
    """The fields on which ``judged`` differs from the item's reference verdict."""
    return [
        VerdictDisagreement(item.id, item.qid, field, factor, want, got)
        for field, factor, want, got in _compared(item, judged)
        if want != got
    ]


def cohen_kappa_of(pairs: Sequence[tuple[bool, bool]]) -> tuple[float | None, str | None]:
    """Cohen's κ of (reference, judged) labels (statsmodels, on the 2×2 table), or None
    and why it is undefined."""
    table = np.zeros((2, 2), dtype=np.int64)
    for reference, judged in pairs:
        table[int(reference), int(judged)] += 1
    kappa = cohen_kappa(table)
    return kappa.value, kappa.reason


def _field_agreement(pairs: Sequence[tuple[bool, bool]]) -> FieldAgreement:
    kappa, reason = cohen_kappa_of(pairs)
    return FieldAgreement(len(pairs), sum(a == b for a, b in pairs), kappa, reason)


def _agreements(
    pairs: Mapping[str, Sequence[tuple[bool, bool]]],
) -> dict[str, FieldAgreement]:
    return {name: _field_agreement(pairs.get(name, ())) for name in VERDICT_FIELDS}


def verdict_agreement(
    items: Sequence[VerdictItem], verdicts: Mapping[str, ExplanationVerdict | None]
) -> SpatialAgreement:
    """The judge's ``verdicts`` (item id → verdict, None: unscored) against the items'
    reference verdicts. Every item must have an entry: a missing one is a caller's bug,
    not an unscored answer."""
    missing = [item.id for item in items if item.id not in verdicts]
    if missing:
        raise ValueError(f"no verdict entry for {len(missing)} item(s): {', '.join(missing[:5])}")
    overall: dict[str, list[tuple[bool, bool]]] = {}
    per_question: dict[str, dict[str, list[tuple[bool, bool]]]] = {
        qid: {} for qid in EXPLANATION_QUESTIONS
    }
    unscored: list[str] = []
    disagreements: list[VerdictDisagreement] = []
    for item in items:
        judged = verdicts[item.id]
        if judged is None:
            unscored.append(item.id)
            continue
        disagreements += item_disagreements(item, judged)
        for field, _, want, got in _compared(item, judged):
            overall.setdefault(field, []).append((want, got))
            per_question[item.qid].setdefault(field, []).append((want, got))
    return SpatialAgreement(
        items=len(items),
        unscored=tuple(unscored),
        fields=_agreements(overall),
        by_question={qid: _agreements(pairs) for qid, pairs in per_question.items()},
        disagreements=tuple(disagreements),
    )


# --- the inspect task ----------------------------------------------------------------------


def verdict_sample(item: VerdictItem) -> Sample:
    """The item as a sample: the question's text as input, the row in metadata."""
    return Sample(id=item.id, input=item.question.text, metadata=item.record())


def sample_item(metadata: Mapping[str, object], sample_id: object) -> VerdictItem:
    """The item a sample's metadata holds (written by :func:`verdict_sample`)."""
    item, problems = verdict_item(dict(metadata), str(metadata.get("source") or sample_id))
    if item is None:
        raise ValueError(f"sample {sample_id}: not a verdict-set row: {problems[0]}")
    return item


@solver
def stored_verdict_answer() -> Solver:
    """The row's answer in place of a generation: no model under test is asked anything."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        answer = str(state.metadata.get("answer_text", ""))
        state.output = ModelOutput.from_content(model="verdict set", content=answer)
        return state

    return solve


@metric
def agreeing_share() -> Metric:
    """Share of the scored items whose verdict agrees with the reference on every field."""

    def compute(scores: list[SampleScore]) -> Value:
        values = [s.score.as_float() for s in scores]
        scored = [v for v in values if not math.isnan(v)]
        return sum(scored) / len(scored) if scored else math.nan

    return compute


@scorer(metrics=[agreeing_share()], name=SCORER_NAME)
def spatial_verdict_scorer(
    judge: str | None = None, max_tries: int = MAX_TRIES, cache: bool = False
) -> Scorer:
    """The judge's verdict on the row's answer, asked exactly as a run asks it.

    The value is 1 when the verdict agrees with the reference on every compared field,
    0 when it does not, NaN when no reply parsed (unscored); the metadata holds the
    verdict as a run logs it, the replies, and whether the item is unscored.

    Args:
        judge: ``offline`` for the rule-based verdict; else the ``grader`` role.
        max_tries: judge tries before the item is unscored (a run's default).
        cache: inspect's model cache for the judge's calls.
    """
    choice = parse_judge(judge)  # inspect passes the task's string: read once, here

    async def score(state: TaskState, target: Target) -> Score:
        item = sample_item(state.metadata, state.sample_id)
        judging = grader(choice)
        verdict, detail = await ExplanationJudge(judging, max_tries, cache).verdict(
            item.question, item.answer
        )
        value = math.nan if verdict is None else float(not item_disagreements(item, verdict))
        return Score(
            value=value,
            answer=item.answer.text,
            metadata={
                **detail.model_dump(),
                "unscored": verdict is None,
                "judge": judging.served_name,
            },
        )

    return score


@task(name=TASK_NAME)
def spatialtrust_judge_check(
    verdict_sets: list[str],
    judge: str | None = None,
    max_tries: int = MAX_TRIES,
    cache: bool = False,
) -> Task:
    """Ask a judge for its q4/q5 verdict on every answer of the verdict sets.

    Args:
        verdict_sets: JSONL files of answers with reference verdicts.
        judge: judge model, or ``offline`` (else ``--model-role grader=...``, else
            ``openai/gpt-4o``).
        max_tries: judge tries per answer before it is unscored.
        cache: inspect's model cache for the judge's calls.
    """
    items = read_verdict_sets([Path(path) for path in verdict_sets])
    return Task(
        dataset=MemoryDataset([verdict_sample(item) for item in items], name=TASK_NAME),
        solver=stored_verdict_answer(),
        scorer=spatial_verdict_scorer(judge=judge, max_tries=max_tries, cache=cache),
        model_roles=parse_judge(judge).grader_role(),
        metadata={
            **TaskRecord(judge_check=TASK_NAME, judge=judge).metadata(),
            "verdict_sets": list(verdict_sets),
            "max_tries": max_tries,
        },
    )


# --- running it ------------------------------------------------------------------------------


def _summary_is_complete(summary: EvalSampleSummary) -> bool:
    """Whether a sample summary holds the verdict whole (inspect thins values over 1 kB)."""
    score = (summary.scores or {}).get(SCORER_NAME)
    metadata = (score.metadata if score is not None else None) or {}
    return "unscored" in metadata and metadata.get("verdict") != THINNED


def _score_metadata(sample: LoggedSample) -> dict[str, object]:
    score = (sample.scores or {}).get(SCORER_NAME)
    return (score.metadata if score is not None else None) or {}


def _logged_verdict(metadata: Mapping[str, object]) -> ExplanationVerdict | None:
    if metadata.get("unscored", True):
        return None
    return verdict_from_record(metadata.get("verdict"))


def logged_verdicts(
    log: EvalLog, ids: Sequence[str]
) -> tuple[dict[str, ExplanationVerdict | None], list[str]]:
    """Each item's verdict as the run logged it (None: unscored), and the model names the
    judge's provider reported, from one reading of the log; raises unless every item
    finished, since a check over the items that happened to finish would be a different
    check."""
    finished, errors = finished_samples(log, _summary_is_complete)
    metadata = {str(sample.id): _score_metadata(sample) for sample in finished}
    missing = [item_id for item_id in ids if item_id not in metadata]
    if missing:
        first = missing[0]
        cause = describe_failure(errors[first]) if first in errors else "not run"
        raise PrivbenchError(
            f"the judge check is incomplete ({log.status}): {len(missing)} of {len(ids)} "
            f"answers have no verdict; first, {first}: {cause}; the log is {log.location}"
        )
    reported = {str(m.get("reported_model") or "") for m in metadata.values()} - {""}
    return {item_id: _logged_verdict(metadata[item_id]) for item_id in ids}, sorted(reported)


VERDICT_SETS = JUDGE_CALIBRATION / "spatialtrust"
"""The shipped q4/q5 verdict sets (written independently; see the calibration set's card)."""
SHIPPED_VERDICTS_NAME = "privbench-verdicts-v1"


def shipped_verdict_sets() -> list[Path]:
    """The shipped verdict sets, in name order."""
    return sorted(VERDICT_SETS.glob("*.jsonl"))


def verdict_set_hash(items: Sequence[VerdictItem]) -> str:
    """SHA-256 (16 hex digits) of the items' content in file order (their source, a path
    and line, is left out: the same rows elsewhere are the same set)."""
    digest = hashlib.sha256()
    for item in items:
        row = {key: value for key, value in item.record().items() if key != "source"}
        digest.update(json.dumps(row, sort_keys=True, ensure_ascii=False).encode("utf-8") + b"\n")
    return digest.hexdigest()[:16]


def _set_name(paths: Sequence[Path]) -> str:
    if [path.resolve() for path in paths] == [p.resolve() for p in shipped_verdict_sets()]:
        return SHIPPED_VERDICTS_NAME
    return " + ".join(path.name for path in paths)


@dataclass(frozen=True)
class VerdictCheck:
    """The verdict agreement with what identifies the check: the set and the judge's
    reported versions."""

    agreement: SpatialAgreement
    reference_set: str
    set_hash: str
    reported_models: list[str]

    def as_json(self) -> dict[str, JsonValue]:
        return {
            "reference_set": self.reference_set,
            "set_hash": self.set_hash,
            "reported_models": list(self.reported_models),
            **self.agreement.as_json(),
        }

    def card_figures(self) -> dict[str, object]:
        """What the judge card keeps: per field accuracy and κ, counts."""
        fields = self.agreement.fields
        return {
            "n_factors": fields["identified"].n,
            "n_answers": fields["unsupported"].n,
            "accuracy": {name: fields[name].accuracy for name in VERDICT_FIELDS},
            "kappa": {name: fields[name].kappa for name in VERDICT_FIELDS},
            "unscored": len(self.agreement.unscored),
        }

    def table(self) -> Table:
        """Accuracy and Cohen's κ per field, overall and per question."""
        table = Table(title=f"q4/q5 verdicts vs reference verdicts ({self.reference_set})")
        for column in (
            "field",
            "n",
            "accuracy",
            "κ",
            *(f"{q} accuracy" for q in EXPLANATION_QUESTIONS),
        ):
            table.add_column(column, justify="left" if column == "field" else "right")
        for name in VERDICT_FIELDS:
            overall = self.agreement.fields[name]
            per_question = [
                self.agreement.by_question.get(q, {}).get(name) for q in EXPLANATION_QUESTIONS
            ]
            table.add_row(
                name.replace("_", " "),
                str(overall.n),
                _percent(overall.accuracy),
                "n/a" if overall.kappa is None else f"{overall.kappa:.2f}",
                *(_percent(f.accuracy if f else None) for f in per_question),
            )
        if self.agreement.unscored:
            table.caption = f"unscored (no verdict parsed): {len(self.agreement.unscored)}"
        return table


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f} %"


def check_spatial_verdicts(
    paths: Sequence[Path],
    options: RunOptions,
    *,
    run: Callable[[Task, bool], EvalLog] | None = None,
) -> tuple[VerdictCheck, EvalLog]:
    """Ask ``options.judge`` for its verdict on every answer of the verdict sets at
    ``paths`` (as a run asks it) and compare them with the reference verdicts.

    ``run(task, needs_judge)`` runs the task (default: :func:`run_task`); ``judge check``
    passes its own, which labels the progress and can resume."""
    items = read_verdict_sets(paths)  # a clear error before any endpoint is called
    check = spatialtrust_judge_check(
        [str(path) for path in paths],
        judge=options.task_judge,
        cache=options.generation.cache,
    )
    needs_judge = options.judge.model is not None
    if run is None:
        log = run_task(check, NO_MODEL, options, needs_judge, 2 * options.judge_connections)
    else:
        log = run(check, needs_judge)
    verdicts, reported = logged_verdicts(log, [item.id for item in items])
    result = VerdictCheck(
        verdict_agreement(items, verdicts), _set_name(paths), verdict_set_hash(items), reported
    )
    return result, log
