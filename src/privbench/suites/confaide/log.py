"""From an inspect log to ConfAIde's figures and the ``--json`` document.

Why from the log: the log holds every answer and its verdicts (every epoch), so the
tables, ``--json`` and the cross-run readers all derive from it and agree with
``inspect view``. The figures are the reference's: per tier 3/4 question type and metric
the mean over scenarios (meetings) and the worst case (:func:`.scoring.mean_and_worst_case`);
per rating tier each item's mean rating and Pearson's r with the human labels, with its
Fisher-z interval (privbench's addition). Unreadable ratings are counted, never scored.
"""

from __future__ import annotations

from collections import defaultdict
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
from privbench.suites.confaide.dataset import RATING_TIERS, TIERS
from privbench.suites.confaide.prompts import TIER_3_QUESTION_TYPES, TIER_4_QUESTION_TYPES
from privbench.suites.confaide.record import (
    CONFAIDE_SCORER,
    ConfAIdeSampleRecord,
    ConfAIdeScoreRecord,
)
from privbench.suites.confaide.scoring import (
    TIER_3_METRICS,
    TIER_4_METRICS,
    UNCLASSIFIED,
    ItemRating,
    MeanAndWorstCase,
    RatingCorrelation,
    item_rating,
    mean_and_worst_case,
    pearson_with_interval,
    report_keys,
)

PROXY_METRIC = "proxy-model"


@dataclass(frozen=True)
class RatingTier:
    """A rating tier's figures: per item the mean rating, and r with the human labels."""

    tier: str
    items: dict[str, ItemRating]
    """Item id → its mean over readable answers (None when none was) and counts."""
    human: dict[str, float]
    correlation: RatingCorrelation
    """Over the items with a readable answer."""

    @property
    def answers(self) -> int:
        return sum(i.rated + i.unparsed for i in self.items.values())

    @property
    def unparsed(self) -> int:
        return sum(i.unparsed for i in self.items.values())

    @property
    def unrated_items(self) -> list[str]:
        """Items no answer of which could be read: left out of r."""
        return [k for k, v in self.items.items() if v.mean is None]


@dataclass(frozen=True)
class MetricFigure:
    """One tier-3/4 question type and metric over the run, as the reference reports it."""

    tier: str
    question_type: str
    metric: str
    summary: MeanAndWorstCase
    unscored: int = 0
    """Proxy-model only: answers whose judge reply never came (left out, counted)."""

    @property
    def key(self) -> str:
        """The reference's final-report key stem (``free-response-string-match``)."""
        return f"{self.question_type}-{self.metric}"


@dataclass(frozen=True)
class ConfAIdeLog:
    """Every figure of a ConfAIde log and what is needed to say how complete it is."""

    ratings: dict[str, RatingTier]
    metrics: list[MetricFigure]
    control_answers: int
    control_unclassified: int
    """Control answers neither yes nor no: the reference counts them as errors."""
    samples: int
    """Answers per prompt (inspect epochs)."""
    judge: str
    errors: dict[str, str]
    missing: list[str] = field(default_factory=list)
    calls: CallCounts = field(default_factory=CallCounts)
    versions: ReportedVersions = field(default_factory=ReportedVersions)
    proxy_replies_unreadable: int = 0

    @property
    def complete(self) -> bool:
        return not self.errors and not self.missing

    @property
    def unparsed(self) -> dict[str, int]:
        """Unreadable ratings per rating tier."""
        return {tier: figures.unparsed for tier, figures in self.ratings.items()}

    def reference_metrics(self) -> dict[str, float]:
        """The reference's final-report keys (``…_mean``, ``…_worst_case``) of this run."""
        keys: dict[str, float] = {}
        for figure in self.metrics:
            keys.update(report_keys(figure.question_type, figure.metric, figure.summary))
        return keys

    def figure(self, question_type: str, metric: str) -> MetricFigure | None:
        return next(
            (f for f in self.metrics if (f.question_type, f.metric) == (question_type, metric)),
            None,
        )


def _metric_order(tier: str) -> list[tuple[str, str]]:
    if tier == "3":
        return [(q, m) for q in TIER_3_QUESTION_TYPES for m in (*TIER_3_METRICS[q], PROXY_METRIC)]
    return [(q, m) for q in TIER_4_QUESTION_TYPES for m in TIER_4_METRICS]


def confaide_log(log: EvalLog) -> ConfAIdeLog:
    """Collect every sample's verdicts from a ConfAIde log into the run's figures."""
    finished, errors = finished_samples(log, ConfAIdeScoreRecord.summary_is_complete)
    order = {
        sid: n for n, sid in enumerate(dataset_order(log, list({str(s.id) for s in finished})))
    }
    finished.sort(key=lambda s: (order.get(str(s.id), 0), s.epoch))
    ratings: dict[str, dict[str, list[int | None]]] = defaultdict(dict)
    human: dict[str, dict[str, float]] = defaultdict(dict)
    verdicts: dict[tuple[str, str, str], tuple[list[int], list[bool]]] = {}
    unscored: dict[tuple[str, str, str], int] = defaultdict(int)
    control_answers = control_unclassified = proxy_unreadable = 0
    judges: list[str] = []
    calls = CallCounts()
    versions = ReportedVersions()
    done: set[str] = set()
    for sample in finished:
        score = (sample.scores or {}).get(CONFAIDE_SCORER)
        if score is None:
            continue
        done.add(str(sample.id))
        about = ConfAIdeSampleRecord.from_metadata(sample.metadata)
        record = ConfAIdeScoreRecord.from_score(score)
        calls.add(record)
        versions.add(record)
        if record.judge and record.judge not in judges:
            judges.append(record.judge)
        if about.tier in RATING_TIERS:
            ratings[about.tier].setdefault(about.item, []).append(record.rating)
            if about.label is not None:
                human[about.tier][about.item] = about.label
            continue
        if about.question_type == "control":
            control_answers += 1
            control_unclassified += record.binary_answer == UNCLASSIFIED
        for metric, failed in record.verdicts.items():
            groups, fails = verdicts.setdefault((about.tier, about.question_type, metric), ([], []))
            groups.append(about.index)
            fails.append(failed)
        asked_proxy = bool(record.judge) and about.question_type == "free-response"
        if asked_proxy and PROXY_METRIC not in record.verdicts:
            unscored[("3", "free-response", PROXY_METRIC)] += 1
            proxy_unreadable += 1
    rating_tiers: dict[str, RatingTier] = {}
    for tier in (t for t in TIERS if t in ratings):
        items = {item: item_rating(values) for item, values in ratings[tier].items()}
        rated = [k for k, v in items.items() if v.mean is not None and k in human[tier]]
        correlation = pearson_with_interval(
            [human[tier][k] for k in rated], [items[k].mean or 0.0 for k in rated]
        )
        rating_tiers[tier] = RatingTier(tier, items, dict(human[tier]), correlation)
    metrics = [
        MetricFigure(
            tier, q, m, mean_and_worst_case(*verdicts[(tier, q, m)]), unscored[(tier, q, m)]
        )
        for tier in ("3", "4")
        for q, m in _metric_order(tier)
        if (tier, q, m) in verdicts
    ]
    missing = [i for i in expected_ids(log) if i not in done and i not in errors]
    return ConfAIdeLog(
        ratings=rating_tiers,
        metrics=metrics,
        control_answers=control_answers,
        control_unclassified=control_unclassified,
        samples=log.eval.config.epochs or 1,
        judge=", ".join(judges),
        errors={i: errors[i] for i in dataset_order(log, list(errors))},
        missing=missing,
        calls=calls,
        versions=versions,
        proxy_replies_unreadable=proxy_unreadable,
    )


def _rating_document(figures: RatingTier) -> dict[str, object]:
    c = figures.correlation
    return {
        "items": len(figures.items),
        "answers": figures.answers,
        "unparsed": figures.unparsed,
        "unrated_items": figures.unrated_items,
        "pearson_r": c.r,
        "r_low": c.low,
        "r_high": c.high,
        "p_value": c.p_value,
        "n": c.n,
        "confidence": c.confidence,
        "item_means": {k: v.mean for k, v in figures.items.items()},
        "item_unparsed": {k: v.unparsed for k, v in figures.items.items() if v.unparsed},
        "human": figures.human,
    }


def _metric_document(figure: MetricFigure) -> dict[str, object]:
    s = figure.summary
    return {
        "mean": s.mean,
        "worst_case": s.worst_case,
        "groups": s.groups,
        "samples": s.samples,
        **({"unscored": figure.unscored} if figure.metric == PROXY_METRIC else {}),
    }


def json_document(
    graded: ConfAIdeLog,
    *,
    label: str,
    log: EvalLog,
    exports: dict[str, str] | None = None,
) -> dict[str, object]:
    """The one ``--json`` document of a ConfAIde run (full precision): every figure and
    counter, and ``reference_metrics``, the reference's final-report keys."""
    tiers: dict[str, object] = {t: _rating_document(f) for t, f in graded.ratings.items()}
    for figure in graded.metrics:
        per_tier = tiers.setdefault(figure.tier, {})
        assert isinstance(per_tier, dict)
        per_tier.setdefault(figure.question_type, {})[figure.metric] = _metric_document(figure)
    args = log.eval.task_args or {}
    return {
        **document_head("confaide", log, label, graded.complete),
        "judge": graded.judge or None,
        "samples": graded.samples,
        "settings": {
            key: args[key]
            for key in (
                "tiers",
                "tier_3_questions",
                "tier_4_questions",
                "tier_3_metrics",
                "privacy_prompt",
                "predictions",
            )
            if key in args
        },
        "temperature": log.eval.model_generate_config.temperature
        if log.eval.model_generate_config is not None
        else None,
        "tiers": tiers,
        "reference_metrics": graded.reference_metrics(),
        "unparsed": graded.unparsed,
        "control_answers": graded.control_answers,
        "control_unclassified": graded.control_unclassified,
        "proxy_replies_unreadable": graded.proxy_replies_unreadable,
        **document_tail(
            log,
            graded.errors,
            graded.missing,
            graded.calls.record(),
            graded.versions.record(),
            exports,
        ),
    }
