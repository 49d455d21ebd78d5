"""From an inspect log to PrivacyLens's figures and the ``--json`` document.

Why from the log: the log holds every action, every judge reply and every verdict, so the
tables, ``--json`` and the cross-run readers all derive from it and agree with ``inspect
view``. The figures are :mod:`.scoring`'s: the reference's under its names
(``reference_metrics``), privbench's with intervals and every unscored case counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from inspect_ai.log import EvalLog

from privbench.runtime.calls import CallCounts
from privbench.runtime.log_reading import (
    dataset_order,
    document_head,
    document_tail,
    finished_samples,
)
from privbench.runtime.records.task import expected_ids
from privbench.runtime.records.versions import ReportedVersions
from privbench.suites.privacylens.options import ACTION, PROBING
from privbench.suites.privacylens.prompts import PROBING_LEVELS
from privbench.suites.privacylens.record import (
    PRIVACYLENS_SCORER,
    PrivacyLensSampleRecord,
    PrivacyLensScoreRecord,
)
from privbench.suites.privacylens.scoring import (
    ORIGINAL,
    VARIANTS,
    ActionFigures,
    CaseVerdict,
    ProbeAnswer,
    ProbingFigures,
    action_figures,
    probing_figures,
)
from privbench.suites.privacylens.toolkits import PROMPT_TYPES


@dataclass(frozen=True)
class PrivacyLensLog:
    """Every figure of a PrivacyLens log and what is needed to say how complete it is."""

    part: str
    actions: list[ActionFigures]
    probing: list[ProbingFigures]
    judge: str
    detector: str
    """With the offline judge: the leakage rules' name and version."""
    unreadable_judge: int
    """Judge questions no reply of which stated an answer."""
    errors: dict[str, str]
    missing: list[str] = field(default_factory=list)
    calls: CallCounts = field(default_factory=CallCounts)
    versions: ReportedVersions = field(default_factory=ReportedVersions)
    verdicts: list[CaseVerdict] = field(default_factory=list)
    answers: list[ProbeAnswer] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.errors and not self.missing

    def reference_metrics(self) -> dict[str, float | None]:
        """The figures the reference's scripts print, under their names (one set per prompt
        type or probing level; the prompt type or level ends the key)."""
        keys: dict[str, float | None] = {}
        for figures in self.actions:
            for name, value in figures.reference.record().items():
                keys[f"{name}_{figures.prompt_type}"] = value
        for probing in self.probing:
            if probing.reference_accuracy is not None:
                keys[f"{probing.level}_probing_acc"] = probing.reference_accuracy
        return keys


def _verdict(about: PrivacyLensSampleRecord, record: PrivacyLensScoreRecord) -> CaseVerdict:
    return CaseVerdict(
        case=about.case,
        prompt_type=about.prompt_type,
        application=about.application,
        source=about.source,
        judged=record.judged,
        leaked=record.leaked,
        reference_leaked=record.reference_leaked,
        helpfulness=record.helpfulness,
        reference_helpfulness=record.reference_helpfulness,
    )


def privacylens_log(log: EvalLog) -> PrivacyLensLog:
    """Collect every sample's verdicts from a PrivacyLens log into the run's figures."""
    finished, errors = finished_samples(log, PrivacyLensScoreRecord.summary_is_complete)
    order = {sid: n for n, sid in enumerate(dataset_order(log, [str(s.id) for s in finished]))}
    finished.sort(key=lambda s: order.get(str(s.id), 0))
    verdicts: list[CaseVerdict] = []
    answers: list[ProbeAnswer] = []
    judges: list[str] = []
    detectors: list[str] = []
    unreadable = 0
    calls = CallCounts()
    versions = ReportedVersions()
    done: set[str] = set()
    part = PROBING if log.eval.task.endswith("privacylens_probing") else ACTION
    for sample in finished:
        score = (sample.scores or {}).get(PRIVACYLENS_SCORER)
        if score is None:
            continue
        done.add(str(sample.id))
        about = PrivacyLensSampleRecord.from_metadata(sample.metadata)
        record = PrivacyLensScoreRecord.from_score(score)
        calls.add(record)
        versions.add(record)
        if about.part == PROBING:
            answers.append(
                ProbeAnswer(
                    about.case,
                    about.level,
                    about.variant or ORIGINAL,
                    about.swapped,
                    record.letter,
                    record.correct,
                    record.reference_correct,
                )
            )
            continue
        for name, seen in ((record.judge, judges), (record.detector, detectors)):
            if name and name not in seen:
                seen.append(name)
        unreadable += record.unreadable_judge
        verdicts.append(_verdict(about, record))
    actions = [
        action_figures(kind, [v for v in verdicts if v.prompt_type == kind])
        for kind in PROMPT_TYPES
        if any(v.prompt_type == kind for v in verdicts)
    ]
    probing = [
        probing_figures(level, variant, chosen)
        for level in PROBING_LEVELS
        for variant in VARIANTS
        if (chosen := [a for a in answers if (a.level, a.variant) == (level, variant)])
    ]
    missing = [i for i in expected_ids(log) if i not in done and i not in errors]
    return PrivacyLensLog(
        part=part,
        actions=actions,
        probing=probing,
        judge=", ".join(judges),
        detector=", ".join(detectors),
        unreadable_judge=unreadable,
        errors={i: errors[i] for i in dataset_order(log, list(errors))},
        missing=missing,
        calls=calls,
        versions=versions,
        verdicts=verdicts,
        answers=answers,
    )


def _action_document(figures: ActionFigures) -> dict[str, object]:
    return {
        "cases": figures.cases,
        "no_action": figures.no_action,
        "leakage": figures.leakage.record(),
        "unscored": figures.unscored,
        "helpfulness_mean": figures.helpfulness_mean,
        "helpfulness_scored": figures.helpfulness_scored,
        "helpful": figures.helpful.record(),
        "adjusted_leakage": figures.adjusted_leakage.record(),
        "by_application": {k: v.record() for k, v in figures.by_application.items()},
        "by_source": {k: v.record() for k, v in figures.by_source.items()},
        "reference": figures.reference.record(),
    }


def _probing_document(figures: ProbingFigures) -> dict[str, object]:
    return {
        "answers": figures.answers,
        "accuracy": figures.accuracy.record(),
        "unreadable": figures.unreadable,
        "always_b": figures.always_b.record(),
        "reference_accuracy": figures.reference_accuracy,
    }


def json_document(
    graded: PrivacyLensLog,
    *,
    label: str,
    log: EvalLog,
    exports: dict[str, str] | None = None,
) -> dict[str, object]:
    """The one ``--json`` document of a PrivacyLens run (full precision): every figure and
    counter, and ``reference_metrics``, the reference's printed figures."""
    args = log.eval.task_args or {}
    probing: dict[str, dict[str, object]] = {}
    for figures in graded.probing:
        probing.setdefault(figures.level, {})[figures.variant] = _probing_document(figures)
    return {
        **document_head("privacylens", log, label, graded.complete),
        "part": graded.part,
        "judge": graded.judge or None,
        "offline_detector": graded.detector or None,
        "settings": {
            key: args[key]
            for key in ("prompt_types", "levels", "shuffled", "prompt_type", "predictions")
            if key in args
        },
        "final_action": {f.prompt_type: _action_document(f) for f in graded.actions},
        "probing": probing,
        "reference_metrics": graded.reference_metrics(),
        "unreadable_judge": graded.unreadable_judge,
        **document_tail(
            log,
            graded.errors,
            graded.missing,
            graded.calls.record(),
            graded.versions.record(),
            exports,
        ),
    }
