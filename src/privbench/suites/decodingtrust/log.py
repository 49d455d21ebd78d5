"""From an inspect log to DecodingTrust's figures and the ``--json`` document.

Why from the log: the log holds every completion and its verdicts, so the tables, ``--json``
and the cross-run readers all derive from it. The figures are :mod:`.scoring`'s: the
reference's under its ``result_agg.py`` keys (``reference_metrics``), HELM's corrected view
beside them (``helm_metrics``), and privbench's per setting with intervals.
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
from privbench.suites.decodingtrust.prompts import ENRON, PII, SCENARIOS, UNDERSTANDING
from privbench.suites.decodingtrust.record import (
    DECODINGTRUST_SCORER,
    DecodingTrustSampleRecord,
    DecodingTrustScoreRecord,
)
from privbench.suites.decodingtrust.scoring import (
    EnronFigures,
    EnronVerdict,
    LeakFigures,
    LeakVerdict,
    enron_figures,
    helm_enron,
    helm_leakage,
    leak_figures,
    reference_enron,
    reference_pii,
    reference_total,
    reference_understanding,
)


@dataclass(frozen=True)
class Completion:
    """One completion's verdicts, as the figures and the cross-run rows need them."""

    scenario: str
    setting: str
    item: str
    scored: bool
    enron: EnronVerdict | None
    leak: LeakVerdict | None

    @property
    def leaked(self) -> bool:
        """Enron: the whole address; PII: the value; understanding: a leak phrase."""
        if self.enron is not None:
            return self.enron.correct
        return self.leak is not None and self.leak.leaked


@dataclass(frozen=True)
class SettingFigures:
    """privbench's figures of one setting (a reference file)."""

    scenario: str
    setting: str
    scored: bool
    enron: EnronFigures | None
    leak: LeakFigures | None


@dataclass(frozen=True)
class DecodingTrustLog:
    """Every figure of a DecodingTrust log and what is needed to say how complete it is."""

    completions: list[Completion]
    settings: list[SettingFigures]
    reference: dict[str, dict[str, float]]
    """Scenario (``enron``, ``pii``, ``understanding``, ``all``) → ``result_agg.py``'s keys."""
    helm: dict[str, float | None]
    pooled: dict[str, SettingFigures]
    """Scenario → its scored settings pooled (privbench's scenario figures)."""
    errors: dict[str, str]
    missing: list[str] = field(default_factory=list)
    calls: CallCounts = field(default_factory=CallCounts)
    versions: ReportedVersions = field(default_factory=ReportedVersions)

    @property
    def complete(self) -> bool:
        return not self.errors and not self.missing

    def reference_metrics(self) -> dict[str, float]:
        """``result_agg.py``'s records flattened: ``{scenario}_{key}`` (``enron_leak_rate``,
        ``all_privacy_score``)."""
        return {
            f"{scenario}_{key}": value
            for scenario, figures in self.reference.items()
            for key, value in figures.items()
        }


def _verdicts(completions: list[Completion], scenario: str) -> dict[str, list[Completion]]:
    files: dict[str, list[Completion]] = {}
    for c in completions:
        if c.scenario == scenario and c.scored:
            files.setdefault(c.setting, []).append(c)
    return files


def _setting(scenario: str, setting: str, scored: bool, chosen: list[Completion]) -> SettingFigures:
    if scenario == ENRON:
        verdicts = [c.enron for c in chosen if c.enron is not None]
        return SettingFigures(scenario, setting, scored, enron_figures(verdicts), None)
    leaks = [c.leak for c in chosen if c.leak is not None]
    return SettingFigures(scenario, setting, scored, None, leak_figures(leaks))


def figures_of(completions: list[Completion]) -> tuple[
    list[SettingFigures], dict[str, dict[str, float]], dict[str, float | None], dict[str, SettingFigures]
]:  # fmt: skip
    """Per setting, the reference's, HELM's and the pooled figures of completions."""
    keys = list(dict.fromkeys((c.scenario, c.setting, c.scored) for c in completions))
    settings = [
        _setting(s, name, scored, [c for c in completions if (c.scenario, c.setting) == (s, name)])
        for s, name, scored in keys
    ]
    enron = _verdicts(completions, ENRON)
    pii = _verdicts(completions, PII)
    understanding = _verdicts(completions, UNDERSTANDING)
    reference: dict[str, dict[str, float]] = {}
    if enron:
        reference[ENRON] = reference_enron(
            {k: [c.enron for c in v if c.enron is not None] for k, v in enron.items()}
        )
    if pii:
        reference[PII] = reference_pii({k: [c.leak for c in v if c.leak] for k, v in pii.items()})
    if understanding:
        reference[UNDERSTANDING] = reference_understanding(
            {k: [c.leak for c in v if c.leak] for k, v in understanding.items()}
        )
    total = reference_total(reference.get(ENRON, {}), reference.get(PII, {}),
                            reference.get(UNDERSTANDING, {}))  # fmt: skip
    if total:
        reference["all"] = total
    helm: dict[str, float | None] = {}
    all_enron = [c.enron for c in completions if c.enron is not None]
    helm |= {f"enron_{k}": v for k, v in helm_enron(all_enron).items()}
    if pii:
        helm["pii_leakage"] = helm_leakage([c.leak for v in pii.values() for c in v if c.leak])
    for question in sorted({c.setting.rsplit("_q", 1)[1] for c in completions
                            if c.scenario == UNDERSTANDING}):  # fmt: skip
        chosen = [c.leak for c in completions if c.scenario == UNDERSTANDING
                  and c.setting.endswith(f"_q{question}") and c.leak]  # fmt: skip
        helm[f"understanding_q{question}_leakage"] = helm_leakage(chosen)
    pooled = {
        scenario: _setting(scenario, "all scored", True, [c for v in files.values() for c in v])
        for scenario, files in ((ENRON, enron), (PII, pii), (UNDERSTANDING, understanding))
        if files
    }
    return settings, reference, helm, pooled


def _completion(
    about: DecodingTrustSampleRecord, record: DecodingTrustScoreRecord, item: str
) -> Completion:
    if about.scenario == ENRON:
        verdict = EnronVerdict(record.found, record.correct, record.local, record.domain,
                               record.rejected)  # fmt: skip
        return Completion(about.scenario, about.setting, item, about.scored, verdict, None)
    return Completion(about.scenario, about.setting, item, about.scored, None,
                      LeakVerdict(record.leaked, record.rejected))  # fmt: skip


def decodingtrust_log(log: EvalLog) -> DecodingTrustLog:
    """Collect every sample's verdicts from a DecodingTrust log into the run's figures."""
    finished, errors = finished_samples(log, DecodingTrustScoreRecord.summary_is_complete)
    order = {sid: n for n, sid in enumerate(dataset_order(log, [str(s.id) for s in finished]))}
    finished.sort(key=lambda s: order.get(str(s.id), 0))
    completions: list[Completion] = []
    calls = CallCounts()
    versions = ReportedVersions()
    done: set[str] = set()
    for sample in finished:
        score = (sample.scores or {}).get(DECODINGTRUST_SCORER)
        if score is None:
            continue
        done.add(str(sample.id))
        about = DecodingTrustSampleRecord.from_metadata(sample.metadata)
        record = DecodingTrustScoreRecord.from_score(score)
        calls.add(record)
        versions.add(record)
        completions.append(_completion(about, record, str(sample.id)))
    settings, reference, helm, pooled = figures_of(completions)
    missing = [i for i in expected_ids(log) if i not in done and i not in errors]
    return DecodingTrustLog(
        completions=completions,
        settings=settings,
        reference=reference,
        helm=helm,
        pooled=pooled,
        errors={i: errors[i] for i in dataset_order(log, list(errors))},
        missing=missing,
        calls=calls,
        versions=versions,
    )


def setting_document(figures: SettingFigures) -> dict[str, object]:
    """A setting's figures in ``--json``."""
    document: dict[str, object] = {"scenario": figures.scenario, "scored": figures.scored}
    if figures.enron is not None:
        e = figures.enron
        document |= {
            "completions": e.completions,
            "no_address": e.no_address,
            "email": e.email.record(),
            "local": e.local.record(),
            "domain": e.domain.record(),
            "rejected": e.rejected.record(),
        }
    if figures.leak is not None:
        k = figures.leak
        document |= {
            "completions": k.completions,
            "leaked": k.leaked.record(),
            "rejected": k.rejected.record(),
            "neither": k.neither,
            "leaked_wo_reject": k.leaked_wo_reject.record(),
        }
    return document


def json_document(
    graded: DecodingTrustLog,
    *,
    label: str,
    log: EvalLog,
    exports: dict[str, str] | None = None,
) -> dict[str, object]:
    """The one ``--json`` document of a DecodingTrust run (full precision)."""
    args = log.eval.task_args or {}
    return {
        **document_head("decodingtrust", log, label, graded.complete),
        "judge": None,
        "settings": {
            k: args[k]
            for k in (
                "scenarios",
                "enron_modes",
                "pii_types",
                "pii_modes",
                "topics",
                "questions",
                "samples",
                "max_tokens",
                "predictions",
                "model",
            )
            if k in args
        },
        "scenarios": {s: setting_document(f) for s, f in graded.pooled.items()},
        "per_setting": {f"{f.scenario}/{f.setting}": setting_document(f) for f in graded.settings},
        "reference_metrics": graded.reference_metrics(),
        "helm_metrics": graded.helm,
        "completions": len(graded.completions),
        "unscored_settings": sorted(
            {f"{f.scenario}/{f.setting}" for f in graded.settings if not f.scored}
        ),
        **document_tail(
            log,
            graded.errors,
            graded.missing,
            graded.calls.record(),
            graded.versions.record(),
            exports,
        ),
    }


__all__ = ["SCENARIOS", "DecodingTrustLog", "decodingtrust_log", "json_document"]
