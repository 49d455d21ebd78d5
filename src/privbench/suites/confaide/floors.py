"""What trivial models score on ConfAIde: the floors a real model's figures stand beside.

Each floor is a fixed answer rule, graded with :mod:`~privbench.suites.confaide.scoring`'s
own functions (the reference's rules), so a floor is exactly what the reference would have
reported for such a model:

* ``refuse``: always ``"I'm sorry, I can't help with that."``;
* ``midpoint-2`` / ``midpoint-3`` (tier 1) and ``midpoint`` (tiers 2a, 2b): always the
  scale's middle. Tier 1's scale (1–4) has no middle, so both neighbours are given — the
  floor's r is undefined either way, and the two bracket the labels' own centre (the
  shipped tier-1 labels run from 1.7 to 3.8, mean 2.73). Tier 2's middle is ``0) Neutral``;
* ``echo``: repeats the item's whole text back — the rating line (tiers 1, 2), the
  scenario's story (tier 3), the meeting transcript (tier 4) — so it leaks everything;
* ``always-no`` / ``always-yes``: the tier-3 control question only.

Why these: a leak rate of 0 is what a refusing model gets for free, and an error rate of 1
is what it pays for that (it never names who knows, nor the meeting's public fact). Reading
a run's figures against these floors shows whether it did better than saying nothing.

A constant rating has no Pearson r (its variance is 0): tier 1/2 floors report ``r=None``
with the reason, never 0. Every floor is deterministic, so one sample per item suffices and
its mean equals its worst case.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from privbench.suites.confaide.dataset import (
    ConfAIdeData,
    Meeting,
    RatingItem,
    Tier3Scenario,
)
from privbench.suites.confaide.prompts import TIER_3_QUESTION_TYPES, TIER_4_QUESTION_TYPES
from privbench.suites.confaide.scoring import (
    TIER_3_METRICS,
    TIER_4_METRICS,
    UNCLASSIFIED,
    after_answer_cue,
    binary_answer,
    item_rating,
    mean_and_worst_case,
    parse_rating,
    pearson_with_interval,
    tier_3_verdicts,
    tier_4_verdicts,
)

REFUSAL = "I'm sorry, I can't help with that."
TIER_1_MIDPOINTS = {"midpoint-2": "2) not too sensitive", "midpoint-3": "3) somewhat sensitive"}
TIER_2_MIDPOINT = "0) Neutral"

RatingAnswer = Callable[[RatingItem], str]
Tier3Answer = Callable[[Tier3Scenario, str], str]
Tier4Answer = Callable[[Meeting, str], str]


@dataclass(frozen=True)
class RatingFloor:
    """A floor on a rating tier: its ratings' correlation with the human labels."""

    floor: str
    tier: str
    items: int
    unparsed: int
    """Answers no rating could be read from (the refusal: every one)."""
    ratings: tuple[float, ...]
    """The distinct ratings it gave (one value for a constant floor)."""
    r: float | None
    r_undefined: str | None
    """Why ``r`` is ``None`` (never 0 in its place)."""


@dataclass(frozen=True)
class ReportFloor:
    """A floor on one tier-3/4 question type and metric, as the reference reports it."""

    floor: str
    tier: str
    question_type: str
    metric: str
    mean: float
    worst_case: float
    groups: int
    unclassified: int
    """Control answers read as neither yes nor no (they count as errors, as in the reference)."""

    @property
    def keys(self) -> dict[str, float]:
        """The reference's final-report keys (``control-error_mean`` …)."""
        stem = f"{self.question_type}-{self.metric}"
        return {f"{stem}_mean": self.mean, f"{stem}_worst_case": self.worst_case}


def _r_undefined(readable: Sequence[float], unparsed: int, items: int) -> str | None:
    if not readable:
        return f"no rating could be read ({unparsed} of {items} answers unparsable)"
    if len(set(readable)) < 2:
        return f"every rating is {readable[0]:g}: a constant has no correlation"
    return None


def rating_floor(
    floor: str, tier: str, items: Sequence[RatingItem], answer: RatingAnswer
) -> RatingFloor:
    """Grade ``answer`` on a rating tier: parse each answer, correlate with the labels.

    Items with no readable rating are left out of r (and counted), as privbench does for a
    real model.
    """
    human: list[float] = []
    model: list[float] = []
    unparsed = 0
    for item in items:
        rating = item_rating([parse_rating(answer(item), tier)])
        unparsed += rating.unparsed
        if rating.mean is not None:
            human.append(item.label)
            model.append(rating.mean)
    reason = _r_undefined(model, unparsed, len(items))
    r = None if reason else pearson_with_interval(human, model).r
    if r is None and reason is None:
        reason = "the rated items' human labels are constant: Pearson r is undefined"
    return RatingFloor(floor, tier, len(items), unparsed, tuple(sorted(set(model))), r, reason)


def tier_3_floor(
    floor: str, scenarios: Sequence[Tier3Scenario], question_type: str, answer: Tier3Answer
) -> list[ReportFloor]:
    """Grade ``answer`` on one tier-3 question type: one row per metric of that type."""
    groups = [scenario.index for scenario in scenarios]
    responses = [answer(scenario, question_type) for scenario in scenarios]
    verdicts = [
        tier_3_verdicts(
            question_type,
            response,
            subject_agent=scenario.subject_agent,
            aware_agent=scenario.aware_agent,
            oblivious_agent=scenario.oblivious_agent,
        )
        for scenario, response in zip(scenarios, responses, strict=True)
    ]
    unclassified = (
        sum(binary_answer(after_answer_cue(r)) == UNCLASSIFIED for r in responses)
        if question_type == "control"
        else 0
    )
    rows = []
    for metric in TIER_3_METRICS[question_type]:
        summary = mean_and_worst_case(groups, [v[metric] for v in verdicts])
        rows.append(
            ReportFloor(
                floor,
                "3",
                question_type,
                metric,
                summary.mean,
                summary.worst_case,
                summary.groups,
                unclassified,
            )
        )
    return rows


def tier_4_floor(
    floor: str, meetings: Sequence[Meeting], question_type: str, answer: Tier4Answer
) -> list[ReportFloor]:
    """Grade ``answer`` on one tier-4 question type: one row per metric."""
    groups = [meeting.index for meeting in meetings]
    verdicts = [
        tier_4_verdicts(
            answer(meeting, question_type),
            private_info=meeting.private_info,
            public_info=meeting.public_info,
        )
        for meeting in meetings
    ]
    rows = []
    for metric in TIER_4_METRICS:
        summary = mean_and_worst_case(groups, [v[metric] for v in verdicts])
        rows.append(
            ReportFloor(
                floor,
                "4",
                question_type,
                metric,
                summary.mean,
                summary.worst_case,
                summary.groups,
                0,
            )
        )
    return rows


@dataclass(frozen=True)
class Floors:
    """Every floor on every tier of a dataset."""

    ratings: tuple[RatingFloor, ...]
    reports: tuple[ReportFloor, ...]


def _constant(text: str) -> Callable[..., str]:
    def answer(*_: object) -> str:
        return text

    return answer


def _echo_rating(item: RatingItem) -> str:
    return item.text


def _echo_story(scenario: Tier3Scenario, _question_type: str) -> str:
    return scenario.story


def _echo_meeting(meeting: Meeting, _question_type: str) -> str:
    return meeting.text


def trivial_floors(data: ConfAIdeData) -> Floors:
    """The floors of ``data``: refuse, midpoint, echo on every tier; yes/no on control."""
    ratings: list[RatingFloor] = []
    for tier in ("1", "2a", "2b"):
        items = data.ratings(tier)
        ratings.append(rating_floor("refuse", tier, items, _constant(REFUSAL)))
        midpoints = TIER_1_MIDPOINTS if tier == "1" else {"midpoint": TIER_2_MIDPOINT}
        for name, text in midpoints.items():
            ratings.append(rating_floor(name, tier, items, _constant(text)))
        ratings.append(rating_floor("echo", tier, items, _echo_rating))
    reports: list[ReportFloor] = []
    for question_type in TIER_3_QUESTION_TYPES:
        reports += tier_3_floor("refuse", data.tier_3, question_type, _constant(REFUSAL))
        reports += tier_3_floor("echo", data.tier_3, question_type, _echo_story)
    reports += tier_3_floor("always-no", data.tier_3, "control", _constant("No"))
    reports += tier_3_floor("always-yes", data.tier_3, "control", _constant("Yes"))
    for question_type in TIER_4_QUESTION_TYPES:
        reports += tier_4_floor("refuse", data.tier_4, question_type, _constant(REFUSAL))
        reports += tier_4_floor("echo", data.tier_4, question_type, _echo_meeting)
    return Floors(tuple(ratings), tuple(reports))


def _cell(rows: Sequence[ReportFloor], floor: str) -> str:
    found = [row for row in rows if row.floor == floor]
    if not found:
        return "—"
    row = found[0]
    text = f"{row.mean:.3f} / {row.worst_case:.3f}"
    return f"{text} ({row.unclassified} unclassified)" if row.unclassified else text


def markdown_tables(floors: Floors) -> str:
    """The floors as the two Markdown tables of ``docs/confaide.md`` (rating tiers, then
    tiers 3 and 4, each cell ``mean / worst case``)."""
    lines = [
        "| tier | floor | ratings given | unparsable | Pearson r |",
        "|---|---|---|---|---|",
    ]
    for rating in floors.ratings:
        given = ", ".join(f"{value:g}" for value in rating.ratings) or "none"
        r = f"{rating.r:.3f}" if rating.r is not None else f"undefined: {rating.r_undefined}"
        lines.append(
            f"| {rating.tier} | {rating.floor} | {given} | {rating.unparsed} of {rating.items}"
            f" | {r} |"
        )
    names = list(dict.fromkeys(row.floor for row in floors.reports))
    lines += [
        "",
        "| tier | question type | metric | " + " | ".join(names) + " |",
        "|---|---|---|" + "---|" * len(names),
    ]
    seen: list[tuple[str, str, str]] = []
    for row in floors.reports:
        where = (row.tier, row.question_type, row.metric)
        if where in seen:
            continue
        seen.append(where)
        rows = [r for r in floors.reports if (r.tier, r.question_type, r.metric) == where]
        cells = " | ".join(_cell(rows, name) for name in names)
        lines.append(f"| {row.tier} | {row.question_type} | `{row.metric}` | {cells} |")
    return "\n".join(lines) + "\n"
