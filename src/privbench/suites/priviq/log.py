"""From an inspect log to Priv-IQ grades, scores and the ``--json`` document.

Why from the log: the log is the record of a run (every judge reply, every epoch), so the
tables, the exports and the JSON all derive from it and agree with ``inspect view``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from inspect_ai.log import EvalLog, EvalSample, read_eval_log_sample
from inspect_ai.scorer import Score

from privbench.runtime.calls import CallCounts
from privbench.runtime.log_reading import (
    dataset_order,
    document_head,
    finished_samples,
    token_totals,
)
from privbench.runtime.records.base import LoggedSample
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.records.task import expected_ids
from privbench.runtime.records.versions import ReportedVersions
from privbench.suites.priviq.aggregate import (
    ItemGrades,
    PrivIQScores,
    RefusalCell,
    RefusalRates,
    ScoreCell,
)
from privbench.suites.priviq.competencies import combination_label
from privbench.suites.priviq.record import PRIVIQ_SCORER, PrivIQSampleRecord, PrivIQScoreRecord
from privbench.suites.priviq.refusals import READ_CHARS, RefusalReading, classify, normalize


@dataclass(frozen=True)
class JudgeIdentity:
    """Which judge graded, with which protocol and prompt template."""

    judge: str
    protocol: str
    prompt_hash: str


@dataclass(frozen=True)
class GradeRun:
    """One judged run of one item as the grade file stores it."""

    score: float | None
    content: str
    model: str


@dataclass(frozen=True)
class PrivIQLog:
    """Per-item grades of a Priv-IQ log plus what is needed for exports."""

    grades: list[ItemGrades]
    records: dict[str, list[GradeRun]]
    judge: JudgeIdentity
    judge_parse_failures: int
    errors: dict[str, str]
    """Items whose run failed (after inspect's retries): id → error message."""
    missing: list[str] = field(default_factory=list)
    """Items the run was asked to grade but that have no sample in the log (cancelled)."""
    answer_hashes: dict[str, str] = field(default_factory=dict)
    """Item id → hash of the answer that was graded (the grade file stores it)."""
    reused_runs: int = 0
    unverified_runs: int = 0
    """Of :attr:`reused_runs`, those taken without an answer check
    (``--reuse-unverified-grades`` with a grade file that records no answers)."""
    truncated: list[str] = field(default_factory=list)
    """Items whose answer was longer than the judge is shown (cut; see ``truncate_for_judge``)."""
    offline_rules: dict[str, list[str]] = field(default_factory=dict)
    """Item id → the offline judge's rules that made its grade (runs with ``--explain``)."""
    calls: CallCounts = field(default_factory=CallCounts)
    """Calls retried after a malformed or empty reply, and replies with replaced characters."""
    versions: ReportedVersions = field(default_factory=ReportedVersions)
    """The model names the providers reported, per role."""
    """Judge runs taken from an earlier grade file instead of sent to the judge."""

    @property
    def complete(self) -> bool:
        """Every item was graded: none failed and none is missing."""
        return not self.errors and not self.missing


def read_refusal(log: EvalLog, sample: LoggedSample, score: Score) -> RefusalReading:
    """How the graded answer reads (:mod:`privbench.suites.priviq.refusals`), from the score.

    A summary keeps ~1,000 characters of the answer, enough for the rules, except where
    inspect shortened it to almost nothing (a long answer without spaces, such as Chinese);
    then, and for logs whose score holds no answer, the full sample is read.
    """
    answer = score.answer
    thinned = answer is not None and answer.endswith("...") and len(normalize(answer)) < READ_CHARS
    if (answer is None or thinned) and not isinstance(sample, EvalSample) and log.location:
        sample = read_eval_log_sample(str(log.location), sample.id, sample.epoch)
        answer = (sample.scores or {}).get(PRIVIQ_SCORER, score).answer
    if answer is None and isinstance(sample, EvalSample):
        output = sample.output
        answer = output.completion if output and output.choices else ""
    return classify(answer or "")


def priviq_log(log: EvalLog) -> PrivIQLog:
    """Collect every sample's judge runs from a Priv-IQ log, in dataset order."""
    by_item: dict[str, dict[int, LoggedSample]] = defaultdict(dict)
    finished, errors = finished_samples(log, PrivIQScoreRecord.summary_is_complete)
    for sample in finished:  # the cancelled ones are counted as missing below
        by_item[str(sample.id)][sample.epoch] = sample
    grades: list[ItemGrades] = []
    records: dict[str, list[GradeRun]] = {}
    answer_hashes: dict[str, str] = {}
    offline_rules: dict[str, list[str]] = {}
    judges: list[str] = []
    protocol, prompt_hash = "", ""
    parse_failures = reused = unverified = 0
    truncated: list[str] = []
    calls = CallCounts()
    versions = ReportedVersions()
    for item_id in dataset_order(log, list(by_item)):
        epochs = by_item[item_id]
        runs: list[float | None] = []
        item_records: list[GradeRun] = []
        no_answer = False
        refusal: RefusalReading | None = None
        competencies: tuple[str, ...] = ()
        for epoch in sorted(epochs):
            sample = epochs[epoch]
            competencies = tuple(PrivIQSampleRecord.from_metadata(sample.metadata).competencies)
            score = (sample.scores or {}).get(PRIVIQ_SCORER)
            record = PrivIQScoreRecord() if score is None else PrivIQScoreRecord.from_score(score)
            if refusal is None and score is not None:  # the one answer of the item
                refusal = read_refusal(log, sample, score)
            calls.add(record)
            versions.add(record)
            judge_runs = record.judge_runs()
            reused += record.reused_runs
            unverified += record.unverified_runs
            for run in judge_runs:
                parse_failures += run.unreadable_replies
                item_records.append(GradeRun(run.score, run.last_reply, run.reported_model))
            runs.extend(run.score for run in judge_runs)
            no_answer = no_answer or record.no_answer
            if record.truncated and item_id not in truncated:
                truncated.append(item_id)
            if record.judge and record.judge not in judges:
                judges.append(record.judge)
            if score is not None:
                protocol = record.protocol if "protocol" in record.model_fields_set else protocol
                if "prompt_hash" in record.model_fields_set:
                    prompt_hash = record.prompt_hash
            if record.answer_hash:
                answer_hashes[item_id] = record.answer_hash
            if record.offline_rules is not None:
                offline_rules[item_id] = record.offline_rules
        grades.append(ItemGrades(item_id, competencies, tuple(runs), no_answer, refusal))
        records[item_id] = item_records
    done = set(by_item) | set(errors)
    missing = [i for i in expected_ids(log) if i not in done]
    identity = JudgeIdentity(
        judges[0] if len(judges) == 1 else ", ".join(judges), protocol, prompt_hash
    )
    return PrivIQLog(
        grades,
        records,
        identity,
        parse_failures,
        {i: errors[i] for i in dataset_order(log, list(errors))},
        missing=missing,
        answer_hashes=answer_hashes,
        reused_runs=reused,
        unverified_runs=unverified,
        truncated=truncated,
        offline_rules=offline_rules,
        calls=calls,
        versions=versions,
    )


def _cells(cells: dict[str, ScoreCell]) -> dict[str, float | None]:
    return {name: cell.score for name, cell in cells.items()}


def _refusal_cell(cell: RefusalCell) -> dict[str, int | float | None]:
    return {
        "items": cell.n,
        "refusals": cell.refusals,
        "partial": cell.partial,
        "answers": cell.answers,
        "refusal_rate": cell.refusal_rate,
        "partial_rate": cell.partial_rate,
    }


def refusal_document(rates: RefusalRates) -> dict[str, object]:
    """The ``refusals`` key of ``--json``: counts and rates (percent of the items read),
    overall and per competency, and each item's class, the rule that gave it and, for
    refusals and partial answers, the declining words."""
    return {
        "overall": _refusal_cell(rates.overall),
        "competencies": {code: _refusal_cell(c) for code, c in rates.competencies.items()},
        "items": {item_id: reading.label for item_id, reading in rates.items.items()},
        "rules": {item_id: reading.rule for item_id, reading in rates.items.items()},
        "declined_with": {
            item_id: reading.evidence
            for item_id, reading in rates.items.items()
            if reading.evidence and reading.label != "answer"
        },
    }


def json_document(
    scores: PrivIQScores,
    graded: PrivIQLog,
    *,
    label: str,
    log: EvalLog,
    exports: dict[str, str] | None = None,
    extra_ids: dict[str, list[str]] | None = None,
) -> dict[str, object]:
    """The one ``--json`` document for a Priv-IQ run (full precision).

    ``label``: the run's display name; ``extra_ids``: per input file, ids that match no
    item (not graded).
    """
    combinations = {combination_label(c): cell for c, cell in scores.combinations.items()}
    explained = {"offline_rules": graded.offline_rules} if graded.offline_rules else {}
    identity = RunIdentity.from_log(log)
    return {
        **document_head("priviq", log, label, graded.complete),
        "judge": graded.judge.judge,
        "judge_protocol": graded.judge.protocol,
        "prompt_hash": graded.judge.prompt_hash,
        "reported_models": graded.versions.record(),
        "judge_card": None if identity.judge_card is None else identity.judge_card.model_dump(),
        "judge_agreement": identity.judge_agreement_line,
        "overall": scores.overall.score,
        "competencies": _cells(scores.competencies),
        "combinations": _cells(combinations),
        "std": {
            "overall": scores.overall.std,
            "competencies": {k: c.std for k, c in scores.competencies.items()},
            "combinations": {k: c.std for k, c in combinations.items()},
        },
        "runs": list(scores.overall.runs),
        "counts": {
            "items": scores.overall.n,
            "runs": scores.n_runs,
            "competencies": {k: c.n for k, c in scores.competencies.items()},
            "combinations": {k: c.n for k, c in combinations.items()},
        },
        "unscored": scores.unscored_runs,
        "unscored_items": scores.unscored_items,
        "judge_parse_failures": graded.judge_parse_failures,
        "no_answer": len(scores.no_answer),
        "no_answer_items": scores.no_answer,
        "errors": len(graded.errors),
        "error_items": graded.errors,
        "missing": len(graded.missing),
        "missing_items": graded.missing,
        "reused_runs": graded.reused_runs,
        "reused_unverified_runs": graded.unverified_runs,
        **graded.calls.record(),
        "truncated_answers": len(graded.truncated),
        "truncated_answer_items": graded.truncated,
        "extra_ids": extra_ids or {},
        "tokens": token_totals(log),
        "items": scores.items,
        "refusals": refusal_document(scores.refusals),
        "log": str(log.location),
        "exports": exports or {},
        **explained,
    }
