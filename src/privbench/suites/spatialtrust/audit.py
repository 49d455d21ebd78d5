"""What a SpatialTrust directory gives away: blind baselines, option-name leakage, shapes.

Why: a score means something only next to what a model could score without doing the
task. Everything here is computed from the annotations alone (no model, no image pixels)
with the benchmark's own scoring functions (:mod:`privbench.suites.spatialtrust.scoring`,
eqs. 1–6), so a floor reported here is exactly what a run would score.

* **Trivial baselines** — the best *constant* answer per question: q1 always one option
  ("Yes", "No", ...); q2/q3 always "None of the above" or always one option text (a
  constant gives no box, so an option with ground-truth boxes is never credited); q4/q5
  always "no factor", which eq. 6 credits exactly where the ground truth has none (the
  convention that a question without ground-truth factors credits an answer stating
  absence). Overall = mean of the five, as for a model.
* **Option-name leakage** — a text-only predictor that sees the option *texts* of q2/q3
  and never the image: fitted on a random half of the images (per option text, the share
  of times it is in the answer set when offered), it chooses the offered options whose
  share is above 0.5, else "None of the above" (or always "None of the above" where that
  does better on the training half); scored on the other half with eq. 3's option-set
  rule and boxes assumed perfect (grounding ignored: the question is what the texts
  reveal, not where things are). The best constant, chosen on the same training half and
  scored the same way, is its reference; the gain in points, averaged over random
  splits, is the leakage. About 0 means the option texts carry no answer. The same
  predictor's "any factor chosen?" mapped to q1 gives the detection leakage.
* **Question-type cue** — q2/q3 are typed ``single`` or ``multiple``, and a generated
  suite types a question ``multiple`` exactly when two or more options are right, so the
  type tells a model how many to pick. :func:`question_type_cue` scores the format-only
  strategy: the best constant or positional answer chosen separately for each question
  type (q1: for each pair of q2/q3 types), against the best one chosen once for all
  questions (the cue-blind floor). The difference is what reading the type alone is worth.
* **Shapes** — factor types (offered present vs offered absent, per category), the
  direct / indirect / both / neither shares, answer-set sizes and box sizes.
"""

from __future__ import annotations

import functools
import itertools
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal, TypedDict, TypeGuard

import numpy as np

from privbench.distribution import describe, percent
from privbench.suites.spatialtrust.baseline import (
    NONE_KEY,
    Choice,
    best_constants,
    choices_of,
    constant_scores,
    display_names,
    offered_options,
    option_key,
    trivial_baselines,
)
from privbench.suites.spatialtrust.dataset import (
    CHOICE_QUESTIONS,
    EXPLANATION_QUESTIONS,
    QUESTION_IDS,
    ChoiceQuestion,
    SpatialItem,
    is_none_option,
    load_spatialtrust,
)
from privbench.suites.spatialtrust.scoring import (
    score_choice,
)


class CountAndPercent(TypedDict):
    n: int
    percent: float | None


class ChoiceShape(TypedDict):
    """q2 or q3: how many questions are multiple-choice, and the answer-set sizes."""

    multiple_type: int
    answer_sizes: dict[str, int]
    multiple_answers_percent: float | None


class AnswerShapes(TypedDict):
    q1: dict[str, CountAndPercent]
    q2: ChoiceShape
    q3: ChoiceShape


class Offered(TypedDict):
    """One factor type in one question: offered present, offered absent, answer rate (%)."""

    present: int
    absent: int
    answer_rate: float | None


class BoxFigures(TypedDict):
    n: int
    area_percent: dict[str, float | int | None]
    width_px: dict[str, float | int | None]
    height_px: dict[str, float | int | None]
    small_percent: float | None


class BoxStatistics(TypedDict):
    questions_with_boxes: int
    evidence: BoxFigures
    factors: BoxFigures


class Baselines(TypedDict):
    trivial: Mapping[str, object]
    """The trivial-baseline record (:func:`~privbench.suites.spatialtrust.baseline.best_constants`)."""
    constants: dict[str, dict[str, float]]


class LeakageFigures(TypedDict):
    option_names: dict[str, float] | None
    details: dict[str, dict[str, float | int]] | None
    """Per question, its :class:`Leakage` as a JSON object."""
    detection: dict[str, float | int] | None
    seed: int


class CueFigures(TypedDict):
    """The question-type cue of one question (%, points): see :class:`TypeCue`."""

    floor: float
    format_only: float
    gain: float
    answers: dict[str, str]


class CueDocument(TypedDict):
    """The question-type cue as scored (boxes as the ground truth asks) and with boxes
    assumed perfect; ``overall_gain``: points the cue adds to the overall (mean of five)."""

    scored: dict[str, CueFigures]
    boxes_assumed_perfect: dict[str, CueFigures]
    overall_gain: float


class SpatialItemsAudit(TypedDict):
    """The audit of a list of SpatialTrust images."""

    benchmark: Literal["spatialtrust"]
    items: int
    baselines: Baselines
    leakage: LeakageFigures
    cue: CueDocument
    shares: dict[str, CountAndPercent]
    answers: AnswerShapes
    factors: dict[str, dict[str, Offered]]
    boxes: BoxStatistics


class SpatialAudit(SpatialItemsAudit):
    """The ``privbench audit --json`` document of a SpatialTrust directory."""

    directory: str


def is_spatial_audit(document: Mapping[str, object]) -> TypeGuard[SpatialAudit]:
    """Whether an audit document is a SpatialTrust one (as :func:`audit_spatialtrust`
    writes it)."""
    return document.get("benchmark") == "spatialtrust"


SMALL_BOX_PERCENT = 1.0
"""A box covering less than this share (%) of the image counts as small."""


@dataclass(frozen=True)
class Leakage:
    """Option-name leakage of one question, means over random half splits (%, points)."""

    predictor: float
    """The text-only predictor's score on the held-out halves (%)."""
    trivial: float
    """The best constant (chosen on the training half) on the same held-out halves (%)."""
    gain: float
    """``predictor − trivial`` in percentage points: what the option texts give away."""
    gain_sd: float
    """Standard deviation of the gain over the splits (0 with one split)."""
    splits: int


PRIOR_WEIGHT = 1.0
"""Pseudo-offers at the pooled answer rate added to every text's count, so that a text seen
once is not certain (its rate is shrunk towards the pooled one)."""
MAJORITY = 0.5
"""The predictor chooses an offered option whose answer rate is above this."""


@dataclass(frozen=True)
class _Counts:
    """How often each option text was offered and answered on a training half."""

    offered: Counter[str]
    present: Counter[str]
    pooled: float
    """The answer rate of all offers together (the prior of every text's rate)."""

    @classmethod
    def of(cls, choices: Iterable[Choice]) -> _Counts:
        offered: Counter[str] = Counter()
        present: Counter[str] = Counter()
        for choice in choices:
            for key, letter in choice.offered:
                offered[key] += 1
                present[key] += letter in choice.question.answer
        total = sum(offered.values())
        return cls(offered, present, sum(present.values()) / total if total else 0.0)

    def rate(self, key: str, without: bool = False, was_present: bool = False) -> float:
        """The smoothed answer rate of a text (``without``: one offer of it left out)."""
        offered = self.offered[key] - without
        present = self.present[key] - (without and was_present)
        return (present + PRIOR_WEIGHT * self.pooled) / (offered + PRIOR_WEIGHT)


def _text_only_answers(
    choices: Sequence[Choice], train: np.ndarray
) -> tuple[list[list[str]], np.ndarray]:
    """The text-only predictor fitted on ``choices[train]``, applied to every question.

    It learns each option text's answer rate (share of offers in which it is in the answer
    set, shrunk towards the pooled rate by :data:`PRIOR_WEIGHT`) and chooses the offered
    options answered more often than not (:data:`MAJORITY`), else "None of the above". If
    always answering "None of the above" scores better on the training half, it does that
    instead. Returns every question's chosen letters and their eq. 3 scores with boxes
    assumed perfect.

    Why leave-one-out on the training half (each training question's own offers left out
    of the rates it is answered with): judged on rates that include the very question it
    answers, the rule would look better than it is (a text offered once "predicts" its
    own answer) and be kept where a constant does better on new images.
    """
    counts = _Counts.of(choices[i] for i in train)
    in_train = np.zeros(len(choices), dtype=bool)
    in_train[train] = True
    nones = [[c.letters[NONE_KEY]] if NONE_KEY in c.letters else [] for c in choices]
    chosen: list[list[str]] = []
    scores, none_scores = np.zeros(len(choices)), np.zeros(len(choices))
    for row, choice in enumerate(choices):
        own, answer = bool(in_train[row]), choice.question.answer
        picked = [
            letter
            for key, letter in choice.offered
            if counts.rate(key, own, letter in answer) > MAJORITY
        ]
        chosen.append(picked or nones[row])
        scores[row] = score_choice(answer, chosen[-1], {}, {})
        none_scores[row] = score_choice(answer, nones[row], {}, {})
    if none_scores[train].sum() > scores[train].sum():
        return nones, none_scores
    return chosen, scores


def _halves(n: int, splits: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """``splits`` random (training, held-out) halves of ``n`` images, reproducible by seed."""
    if n < 2:
        raise ValueError("option-name leakage needs at least 2 images (one per half)")
    if splits < 1:
        raise ValueError("splits must be at least 1")
    rng = np.random.default_rng(seed)
    orders = [rng.permutation(n) for _ in range(splits)]
    return [(order[: n // 2], order[n // 2 :]) for order in orders]


def _leakage(predicted: Sequence[float], trivial: Sequence[float]) -> Leakage:
    """Means over the splits of the two held-out scores and of their difference."""
    gains = [p - t for p, t in zip(predicted, trivial, strict=True)]
    return Leakage(
        predictor=statistics.fmean(predicted),
        trivial=statistics.fmean(trivial),
        gain=statistics.fmean(gains),
        gain_sd=statistics.stdev(gains) if len(gains) > 1 else 0.0,
        splits=len(gains),
    )


def _constant_matrix(choices: Sequence[Choice]) -> np.ndarray:
    """Score of every constant (columns) on every image, grounding ignored (the basis of
    the leakage comparison)."""
    keys = list(display_names(choices))
    return np.array([[c.constant_score(k, grounded=False) for k in keys] for c in choices])


def _best_constant_held_out(constants: np.ndarray, train: np.ndarray, test: np.ndarray) -> float:
    """The constant best on the training half, scored on the held-out half (%)."""
    best = int(np.argmax(constants[train].mean(axis=0)))
    return 100 * float(constants[test, best].mean())


def _all_leakage(
    items: Sequence[SpatialItem], splits: int, seed: int
) -> tuple[dict[str, Leakage], Leakage]:
    """q2/q3 option-name leakage and q1 detection leakage on the same random halves."""
    halves = _halves(len(items), splits, seed)
    choices = {qid: choices_of(items, qid) for qid in ("q1", *CHOICE_QUESTIONS)}
    constants = {qid: _constant_matrix(c) for qid, c in choices.items()}
    answers = [option_key(item.q1.options[item.q1.answer[0]]) for item in items]
    runs: dict[str, tuple[list[float], list[float]]] = {qid: ([], []) for qid in choices}
    for train, test in halves:
        flagged = np.zeros(len(items), dtype=bool)
        for qid in CHOICE_QUESTIONS:
            chosen, scores = _text_only_answers(choices[qid], train)
            runs[qid][0].append(100 * float(scores[test].mean()))
            runs[qid][1].append(_best_constant_held_out(constants[qid], train, test))
            none = [c.letters.get(NONE_KEY) for c in choices[qid]]
            flagged |= [any(x != n for x in xs) for xs, n in zip(chosen, none, strict=True)]
        # q1: the answer most often given on the training half with the same outcome
        by_flag: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
        for i in train:
            by_flag[bool(flagged[i])][answers[i]] += 1
        fallback = (by_flag[True] + by_flag[False]).most_common(1)[0][0]
        pick = {f: c.most_common(1)[0][0] if c else fallback for f, c in by_flag.items()}
        q1 = [choices["q1"][i].constant_score(pick[bool(flagged[i])], grounded=False) for i in test]
        runs["q1"][0].append(100 * statistics.fmean(q1))
        runs["q1"][1].append(_best_constant_held_out(constants["q1"], train, test))
    return {qid: _leakage(*runs[qid]) for qid in CHOICE_QUESTIONS}, _leakage(*runs["q1"])


def leakage_details(
    items: Sequence[SpatialItem], *, splits: int = 20, seed: int = 0
) -> dict[str, Leakage]:
    """q2 and q3 option-name leakage (see the module docstring), ``splits`` random halves."""
    return _all_leakage(items, splits, seed)[0]


def detection_leakage(items: Sequence[SpatialItem], *, splits: int = 20, seed: int = 0) -> Leakage:
    """q1 answered from the q2/q3 option texts alone, on the same halves as q2/q3.

    Whether the text-only predictor chooses any real option in q2 or q3 is mapped (on the
    training half) to the q1 answer most often given with that outcome ("Yes" / "No" in
    practice); scored with eq. 1 on the held-out half, against the best constant q1 answer.
    """
    return _all_leakage(items, splits, seed)[1]


def option_name_leakage(
    items: Sequence[SpatialItem], *, splits: int = 20, seed: int = 0
) -> dict[str, float]:
    """Points the option texts alone score above the trivial baseline: ``{"q2", "q3"}``."""
    details = leakage_details(items, splits=splits, seed=seed)
    return {qid: leakage.gain for qid, leakage in details.items()}


@dataclass(frozen=True)
class TypeCue:
    """What the question type alone is worth on one question (%, points)."""

    floor: float
    """The best constant answer for every question (the cue-blind trivial baseline)."""
    format_only: float
    """The best constant answer chosen separately for each type stratum."""
    answers: dict[str, str]
    """Stratum (``single``, ``multiple``; for q1 ``q2 single, q3 multiple`` …) → the
    constant the format-only strategy answers there."""

    @property
    def gain(self) -> float:
        """``format_only − floor`` in points: never negative (the floor's constant is one of
        each stratum's candidates)."""
        return self.format_only - self.floor


def _stratum(item: SpatialItem, qid: str) -> str:
    """What the format-only strategy reads of an image for ``qid``: the question's own type
    (q2, q3), or for q1 (always ``single``) the types of q2 and q3."""
    if qid == "q1":
        return f"q2 {item.q2.type}, q3 {item.q3.type}"
    return item.choice(qid).type


POSITIONAL_SIZES = (1, 2)
"""How many options a positional answer of the format-only strategy picks ("B", "A and
C"): one or two, the answer-set sizes of the suites privbench makes."""


def _positional_sets(choices: Sequence[Choice]) -> list[tuple[str, ...]]:
    """Every set of :data:`POSITIONAL_SIZES` real-option letters the questions offer."""
    letters = sorted({letter for c in choices for _, letter in c.offered})
    return [s for size in POSITIONAL_SIZES for s in itertools.combinations(letters, size)]


def _answers(
    choices: Sequence[Choice], qid: str, grounded: bool
) -> dict[str, Callable[[Choice], float]]:
    """Every answer the format-only strategy may give, by label → its score on a question:
    the trivial baseline's constants, and for q2/q3 letters by position."""
    answers: dict[str, Callable[[Choice], float]] = {
        name: functools.partial(_constant, key=key, grounded=grounded)
        for key, name in display_names(choices).items()
    }
    if qid != "q1":
        for letters in _positional_sets(choices):
            label = f"option{'s' if len(letters) > 1 else ''} {' and '.join(letters)} by position"
            answers[label] = functools.partial(_positional, letters=letters, grounded=grounded)
    return answers


def _constant(choice: Choice, *, key: str, grounded: bool) -> float:
    return choice.constant_score(key, grounded=grounded)


def _positional(choice: Choice, *, letters: tuple[str, ...], grounded: bool) -> float:
    """Eq. 3 of choosing ``letters`` whatever they say (no box given)."""
    question = choice.question
    return score_choice(question.answer, letters, question.evidence if grounded else {}, {})


def _type_cue(items: Sequence[SpatialItem], qid: str, *, grounded: bool) -> TypeCue:
    choices = choices_of(items, qid)
    answers = _answers(choices, qid, grounded)
    strata: dict[str, list[Choice]] = defaultdict(list)
    for item, choice in zip(items, choices, strict=True):
        strata[_stratum(item, qid)].append(choice)

    def best(group: Sequence[Choice]) -> tuple[float, str]:
        """The best answer's total score on ``group`` (ties: constants in dataset order,
        then positions)."""
        totals = {label: math.fsum(map(score, group)) for label, score in answers.items()}
        label = max(totals, key=lambda k: totals[k])
        return totals[label], label

    chosen = {stratum: best(group) for stratum, group in sorted(strata.items())}
    return TypeCue(
        floor=100 * best(choices)[0] / len(items),
        format_only=100 * math.fsum(total for total, _ in chosen.values()) / len(items),
        answers={stratum: answer for stratum, (_, answer) in chosen.items()},
    )


def question_type_cue(items: Sequence[SpatialItem], *, grounded: bool = True) -> dict[str, TypeCue]:
    """q1–q3: the format-only strategy against the cue-blind floor (module docstring).

    The strategy never sees the image or reads anything but the question type: per type
    stratum it gives the one answer that scores best there — a constant of the trivial
    baseline (an option text, "None of the above", for q1 "Yes" / "No" / …) or, for q2/q3,
    one or two options by letter whatever they say. The floor is the best such answer for
    every question, type unread (for q1 the trivial baseline itself). With ``grounded``
    answers are scored as a run is (no box is given, so a boxed option is never
    credited); without, boxes are assumed perfect, as for option-name leakage. Like the
    trivial baseline, the answers are chosen on the images they are scored on.
    """
    if not items:
        raise ValueError("no images to measure the question-type cue on")
    return {qid: _type_cue(items, qid, grounded=grounded) for qid in ("q1", *CHOICE_QUESTIONS)}


def _cue_figures(cue: Mapping[str, TypeCue]) -> dict[str, CueFigures]:
    return {
        qid: {"floor": c.floor, "format_only": c.format_only, "gain": c.gain, "answers": c.answers}
        for qid, c in cue.items()
    }


def cue_document(items: Sequence[SpatialItem]) -> CueDocument:
    """The audit's ``cue`` entry: both scorings and the gain on the overall (q4/q5 have no
    type to read, so their floor stands)."""
    scored = question_type_cue(items)
    return {
        "scored": _cue_figures(scored),
        "boxes_assumed_perfect": _cue_figures(question_type_cue(items, grounded=False)),
        "overall_gain": math.fsum(c.gain for c in scored.values()) / len(QUESTION_IDS),
    }


def _has_factor(question: ChoiceQuestion) -> bool:
    """Whether the ground truth names a real option (not "None of the above")."""
    return any(not is_none_option(question.options[letter]) for letter in question.answer)


def category_shares(items: Sequence[SpatialItem]) -> dict[str, CountAndPercent]:
    """Images with direct only / indirect only / both / neither (count and %), by q2/q3."""
    counts: Counter[str] = Counter()
    for item in items:
        direct, indirect = _has_factor(item.q2), _has_factor(item.q3)
        kind = {(True, False): "direct_only", (False, True): "indirect_only",
                (True, True): "both", (False, False): "neither"}[(direct, indirect)]  # fmt: skip
        counts[kind] += 1
    return {
        kind: {"n": counts[kind], "percent": percent(counts[kind], len(items))}
        for kind in ("direct_only", "indirect_only", "both", "neither")
    }


def answer_shapes(items: Sequence[SpatialItem]) -> AnswerShapes:
    """q1's answer distribution; q2/q3 single/multiple types and answer-set sizes."""
    q1 = Counter(item.q1.options[item.q1.answer[0]] for item in items)
    choices: dict[str, ChoiceShape] = {}
    for qid in CHOICE_QUESTIONS:
        questions = [item.choice(qid) for item in items]
        sizes = Counter(len(q.answer) if _has_factor(q) else 0 for q in questions)
        choices[qid] = {
            "multiple_type": sum(q.type == "multiple" for q in questions),
            "answer_sizes": {str(size): sizes[size] for size in sorted(sizes)},
            "multiple_answers_percent": percent(
                sum(n for size, n in sizes.items() if size > 1), len(questions)
            ),
        }
    return {
        "q1": {text: {"n": n, "percent": percent(n, len(items))} for text, n in q1.most_common()},
        "q2": choices["q2"],
        "q3": choices["q3"],
    }


def factor_distribution(items: Sequence[SpatialItem]) -> dict[str, dict[str, Offered]]:
    """Per factor type (option text) and category (q2 direct, q3 indirect): how often it is
    offered present and offered absent, and its answer rate (present / offered).

    A rate near 0 or 1 is what option-name leakage exploits; a text-blind benchmark
    offers each type about as often absent as present.
    """
    present: dict[str, Counter[str]] = defaultdict(Counter)
    absent: dict[str, Counter[str]] = defaultdict(Counter)
    names: dict[str, str] = {}
    for item in items:
        for qid in CHOICE_QUESTIONS:
            question = item.choice(qid)
            for key, letter in offered_options(question):
                names.setdefault(key, question.options[letter])
                (present if letter in question.answer else absent)[key][qid] += 1
    result: dict[str, dict[str, Offered]] = {}
    for key in sorted(names, key=lambda k: -sum((present[k] + absent[k]).values())):
        result[names[key]] = {
            qid: {
                "present": present[key][qid],
                "absent": absent[key][qid],
                "answer_rate": percent(present[key][qid], present[key][qid] + absent[key][qid]),
            }
            for qid in CHOICE_QUESTIONS
        }
    return result


def _box_figures(boxes: Sequence[tuple[tuple[float, ...], int, int]]) -> BoxFigures:
    """Size statistics of ``(box, image width, image height)`` triples."""
    areas = [100 * (b[2] - b[0]) * (b[3] - b[1]) / (w * h) for b, w, h in boxes]
    return {
        "n": len(boxes),
        "area_percent": describe(areas),
        "width_px": describe([b[2] - b[0] for b, _, _ in boxes]),
        "height_px": describe([b[3] - b[1] for b, _, _ in boxes]),
        "small_percent": percent(sum(a < SMALL_BOX_PERCENT for a in areas), len(areas)),
    }


def box_statistics(items: Sequence[SpatialItem]) -> BoxStatistics:
    """Box sizes of q2/q3 evidence and of q4/q5 factors (area as % of the image, pixels),
    and how many questions require boxes (the paper counts 1,000 of them and 1,262 boxes)."""
    evidence = [
        (box, item.width, item.height)
        for item in items
        for qid in CHOICE_QUESTIONS
        for boxes in item.choice(qid).evidence.values()
        for box in boxes
    ]
    factors = [
        (factor.box, item.width, item.height)
        for item in items
        for qid in EXPLANATION_QUESTIONS
        for factor in item.explanation(qid).factors
    ]
    grounded = sum(bool(item.choice(q).evidence) for item in items for q in CHOICE_QUESTIONS)
    grounded += sum(
        bool(item.explanation(q).factors) for item in items for q in EXPLANATION_QUESTIONS
    )
    return {
        "questions_with_boxes": grounded,
        "evidence": _box_figures(evidence),
        "factors": _box_figures(factors),
    }


def audit_items(
    items: Sequence[SpatialItem], *, splits: int = 20, seed: int = 0
) -> SpatialItemsAudit:
    """The ``privbench audit --json`` document of a list of SpatialTrust images."""
    leakage, detection = _all_leakage(items, splits, seed) if len(items) >= 2 else (None, None)
    constants = constant_scores(items)
    return {
        "benchmark": "spatialtrust",
        "items": len(items),
        "baselines": {"trivial": best_constants(constants, len(items)), "constants": constants},
        "leakage": {
            "option_names": {q: d.gain for q, d in leakage.items()} if leakage else None,
            "details": {q: asdict(d) for q, d in leakage.items()} if leakage else None,
            "detection": asdict(detection) if detection else None,
            "seed": seed,
        },
        "cue": cue_document(items),
        "shares": category_shares(items),
        "answers": answer_shapes(items),
        "factors": factor_distribution(items),
        "boxes": box_statistics(items),
    }


def audit_spatialtrust(directory: str | Path) -> dict[str, object]:
    """Audit a SpatialTrust directory (loaded and validated: bad input raises one line).

    The :class:`SpatialAudit` document, as the plain JSON object that is printed.
    """
    items = load_spatialtrust(directory)
    document: SpatialAudit = {"directory": str(directory), **audit_items(items)}
    return dict(document)


def trivial_baseline_row(directory: Path, ids: Collection[str]) -> dict[str, object] | None:
    """The trivial baselines over exactly the images ``ids`` of ``directory`` (the report's
    reference row beside runs that answered them); None when none of them is there."""
    wanted = set(ids)
    items = [item for item in load_spatialtrust(directory) if item.id in wanted]
    return trivial_baselines(items) if items else None
