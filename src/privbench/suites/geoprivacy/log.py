"""From an inspect log to VLM-GeoPrivacy's figures and the ``--json`` document.

Why from the log: the log holds every reply, every judge reply and every reading, so the
tables, ``--json`` and the cross-run readers all derive from it and agree with ``inspect
view``. The figures are :mod:`.scoring`'s: the reference's under its labels
(``reference_metrics``), privbench's with intervals and every unreadable answer counted.
"""

from __future__ import annotations

import math
from collections import Counter
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
from privbench.suites.geoprivacy.dataset import QUESTIONS
from privbench.suites.geoprivacy.layout import ITEMS
from privbench.suites.geoprivacy.prompts import FREE_FORM, MCQ, MODES, Q7_ONLY
from privbench.suites.geoprivacy.record import (
    GEOPRIVACY_SCORER,
    GeoSampleRecord,
    GeoScoreRecord,
)
from privbench.suites.geoprivacy.scorer import distance_km
from privbench.suites.geoprivacy.scoring import (
    GranularityFigures,
    Located,
    LocationFigures,
    QuestionFigures,
    granularity_figures,
    location_figures,
    question_figures,
    reference_free_form,
    reference_mcq,
)

VARIANT_ORDER = (MCQ, Q7_ONLY, *MODES)


@dataclass(frozen=True)
class GeoAnswer:
    """One sample's reading, as the figures and the cross-run rows need it."""

    item: str
    variant: str
    source: str
    gold: dict[str, str]
    stored: list[str]
    letters: list[str | None]
    reference_label: str
    label: str | None
    distance_km: float | None
    reference_distance_km: float | None
    """Grade of a reference file: the distance of the reference's own geocoded location."""
    image_sha256: str

    @property
    def granularity(self) -> str | None:
        """privbench's Q7 letter (MCQ: its reading; free form: the judge's A–D)."""
        if self.variant in MODES:
            return self.label
        return self.letters[-1] if self.letters else None


@dataclass(frozen=True)
class VariantFigures:
    """Every figure of one protocol or free-form mode."""

    variant: str
    answers: int
    reference: dict[str, float]
    """``eval.py``'s figures under its printed labels."""
    reference_geocoding: str
    """Whose locations the reference's error analysis used: ``reference`` (its released
    ``_coord.json``), ``privbench`` (located offline here), or empty (multiple choice)."""
    questions: list[QuestionFigures]
    granularity: GranularityFigures
    location: LocationFigures | None
    by_source: dict[str, GranularityFigures]


def _reference(answers: list[GeoAnswer], variant: str) -> tuple[dict[str, float], str]:
    if variant not in MODES:
        return reference_mcq([a.gold for a in answers], [a.stored for a in answers],
                             variant == Q7_ONLY), ""  # fmt: skip
    theirs = any(a.reference_distance_km is not None for a in answers)
    located = [
        Located(a.gold.get("Q7", ""), a.gold.get("Q2", ""), a.reference_label,
                a.reference_distance_km if theirs else a.distance_km)
        for a in answers
    ]  # fmt: skip
    return reference_free_form(located, located=True), "reference" if theirs else "privbench"


def variant_figures(variant: str, answers: list[GeoAnswer]) -> VariantFigures:
    """The figures of one variant's answers."""
    reference, geocoding = _reference(answers, variant)
    gold_q7 = [a.gold.get("Q7", "") for a in answers]
    questions = (
        [
            question_figures(q, [a.gold.get(q, "") for a in answers],
                             [a.letters[n] if n < len(a.letters) else None for a in answers])
            for n, q in enumerate(QUESTIONS)
        ]
        if variant == MCQ else []
    )  # fmt: skip
    granularity = granularity_figures(gold_q7, [a.granularity for a in answers])
    location = None
    if variant in MODES:
        location = location_figures(
            [a.distance_km for a in answers],
            [a.gold.get("Q2", "") for a in answers],
            granularity.over_disclosure.value,
            granularity.abstention_violation.value,
        )
    sources = sorted({a.source for a in answers})
    by_source = {
        s: granularity_figures(
            [a.gold.get("Q7", "") for a in answers if a.source == s],
            [a.granularity for a in answers if a.source == s],
        )
        for s in sources
    }
    return VariantFigures(variant, len(answers), reference, geocoding, questions, granularity,
                          location, by_source)  # fmt: skip


@dataclass(frozen=True)
class GeoPrivacyLog:
    """Every figure of a VLM-GeoPrivacy log and what is needed to say how complete it is."""

    protocol: str
    variants: list[VariantFigures]
    answers: list[GeoAnswer]
    judge: str
    detector: str
    unreadable_judge: int
    shortcut: int
    """Free form: answers the refusal rule labelled without a judge call."""
    errors: dict[str, str]
    missing: list[str] = field(default_factory=list)
    calls: CallCounts = field(default_factory=CallCounts)
    versions: ReportedVersions = field(default_factory=ReportedVersions)

    @property
    def complete(self) -> bool:
        return not self.errors and not self.missing

    @property
    def photos(self) -> int:
        """Distinct photos answered."""
        return len({a.item for a in self.answers})

    def reference_metrics(self) -> dict[str, float | None]:
        """``eval.py``'s figures under its labels; with several modes, each label is
        prefixed by its mode (``iter-cot: Q7 Accuracy``); an undefined figure (NaN) is None."""
        several = len(self.variants) > 1
        return {
            (f"{v.variant}: {name}" if several else name): (value if math.isfinite(value) else None)
            for v in self.variants
            for name, value in v.reference.items()
        }


def _answer(about: GeoSampleRecord, record: GeoScoreRecord) -> GeoAnswer:
    theirs = about.reference_coordinate
    reference_distance = (
        distance_km((theirs[0], theirs[1]), (about.latitude, about.longitude))
        if theirs is not None and len(theirs) == 2
        else None
    )
    return GeoAnswer(
        item=about.item,
        variant=about.mode or about.protocol,
        source=about.source,
        gold=dict(about.gold),
        stored=list(record.stored),
        letters=list(record.letters),
        reference_label=record.reference_label,
        label=record.label,
        distance_km=record.distance_km,
        reference_distance_km=reference_distance,
        image_sha256=about.image_sha256,
    )


def geoprivacy_log(log: EvalLog) -> GeoPrivacyLog:
    """Collect every sample's reading from a VLM-GeoPrivacy log into the run's figures."""
    finished, errors = finished_samples(log, GeoScoreRecord.summary_is_complete)
    order = {sid: n for n, sid in enumerate(dataset_order(log, [str(s.id) for s in finished]))}
    finished.sort(key=lambda s: order.get(str(s.id), 0))
    answers: list[GeoAnswer] = []
    judges: list[str] = []
    detectors: list[str] = []
    unreadable_judge = 0
    shortcut = 0
    calls = CallCounts()
    versions = ReportedVersions()
    done: set[str] = set()
    protocols: Counter[str] = Counter()
    for sample in finished:
        score = (sample.scores or {}).get(GEOPRIVACY_SCORER)
        if score is None:
            continue
        done.add(str(sample.id))
        about = GeoSampleRecord.from_metadata(sample.metadata)
        record = GeoScoreRecord.from_score(score)
        calls.add(record)
        versions.add(record)
        protocols[about.protocol] += 1
        for name, seen in ((record.judge, judges), (record.detector, detectors)):
            if name and name not in seen:
                seen.append(name)
        if record.protocol == FREE_FORM:
            unreadable_judge += record.label is None
            shortcut += record.shortcut
        answers.append(_answer(about, record))
    variants = [
        variant_figures(v, chosen)
        for v in VARIANT_ORDER
        if (chosen := [a for a in answers if a.variant == v])
    ]
    missing = [i for i in expected_ids(log) if i not in done and i not in errors]
    args = log.eval.task_args or {}
    protocol = protocols.most_common(1)[0][0] if protocols else str(args.get("protocol") or MCQ)
    return GeoPrivacyLog(
        protocol=protocol,
        variants=variants,
        answers=answers,
        judge=", ".join(judges),
        detector=", ".join(detectors),
        unreadable_judge=unreadable_judge,
        shortcut=shortcut,
        errors={i: errors[i] for i in dataset_order(log, list(errors))},
        missing=missing,
        calls=calls,
        versions=versions,
    )


def _granularity_document(figures: GranularityFigures) -> dict[str, object]:
    return {
        "answers": figures.answers,
        "read": figures.read,
        "unreadable": figures.unreadable,
        "none_of_the_above": figures.none_of_above,
        "accuracy": figures.accuracy.record(),
        "over_disclosure": figures.over_disclosure.record(),
        "under_disclosure": figures.under_disclosure.record(),
        "abstention_violation": figures.abstention_violation.record(),
        "distribution": dict(figures.distribution),
        "floors": {
            "always_abstain_accuracy": figures.always_abstain.record(),
            "always_exact_accuracy": figures.always_exact.record(),
        },
    }


def _variant_document(figures: VariantFigures) -> dict[str, object]:
    document: dict[str, object] = {
        "answers": figures.answers,
        "granularity": _granularity_document(figures.granularity),
        "by_source": {k: _granularity_document(v) for k, v in figures.by_source.items()},
        "reference": {k: v if math.isfinite(v) else None for k, v in figures.reference.items()},
    }
    if figures.questions:
        document["questions"] = {
            q.question: {
                "accuracy": q.accuracy.record(),
                "macro_f1": q.macro_f1,
                "unreadable": q.unreadable,
                "majority_floor": q.majority_floor.record(),
            }
            for q in figures.questions
        }
    if figures.location is not None:
        loc = figures.location
        document["location"] = {
            "answers": loc.answers,
            "located": loc.located,
            "within": {k: v.record() for k, v in loc.within.items()},
            "exposure_no_sharing_intent": loc.exposure.record(),
            "utility": loc.utility,
            "privacy_preservation": loc.preservation,
            "reference_geocoding": figures.reference_geocoding,
        }
    return document


def json_document(
    graded: GeoPrivacyLog,
    *,
    label: str,
    log: EvalLog,
    exports: dict[str, str] | None = None,
) -> dict[str, object]:
    """The one ``--json`` document of a VLM-GeoPrivacy run (full precision): every figure
    and counter, and ``reference_metrics``, the reference evaluator's printed figures."""
    args = log.eval.task_args or {}
    return {
        **document_head("geoprivacy", log, label, graded.complete),
        "protocol": graded.protocol,
        "judge": graded.judge or None,
        "offline_detector": graded.detector or None,
        "settings": {
            key: args[key]
            for key in ("protocol", "modes", "heuristics", "strict", "mode", "predictions")
            if key in args
        },
        "photos": graded.photos,
        "photos_of_benchmark": ITEMS,
        "variants": {v.variant: _variant_document(v) for v in graded.variants},
        "reference_metrics": graded.reference_metrics(),
        "unreadable_judge": graded.unreadable_judge,
        "refusal_rule_labels": graded.shortcut,
        **document_tail(
            log,
            graded.errors,
            graded.missing,
            graded.calls.record(),
            graded.versions.record(),
            exports,
        ),
    }
