"""The trivial baseline of SpatialTrust: what the best constant answer scores (no image).

Why here, beside the scoring: a score means something only next to what a model could
score without doing the task, and that floor is computed with the benchmark's own
scoring functions (:mod:`privbench.suites.spatialtrust.scoring`, eqs. 1–6), so it is exactly
what a run answering the constant would score. q1 always one option ("Yes", "No", ...);
q2/q3 always "None of the above" or always one option text (a constant gives no box, so
an option with ground-truth boxes is never credited); q4/q5 always "no factor", which
eq. 6 credits exactly where the ground truth has none. Overall = mean of the five, as for
a model. Every run's ``--json`` and table show it beside the scores; ``privbench audit``
reports it with the leakage figures.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from inspect_ai.log import EvalLog, read_eval_log

from privbench.dataset_identity import dataset_hash
from privbench.runtime.errors import PrivbenchError
from privbench.runtime.records.task import TaskRecord
from privbench.suites.spatialtrust.aggregate import TASKS
from privbench.suites.spatialtrust.dataset import (
    CHOICE_QUESTIONS,
    EXPLANATION_QUESTIONS,
    QUESTION_IDS,
    ChoiceQuestion,
    ExplanationQuestion,
    SpatialItem,
    is_none_option,
    load_spatialtrust,
)
from privbench.suites.spatialtrust.scoring import (
    ExplanationVerdict,
    FactorVerdict,
    score_choice,
    score_explanation,
    score_single,
)

BASELINE_LABEL = "trivial baseline (no image)"
"""How a trivial-baseline row or column is labelled wherever scores are shown."""
NONE_ANSWER = "None of the above"
NO_FACTOR = "no factor"
"""The constant q4/q5 answer: "there is no such factor", with no box."""
NONE_KEY = ""
"""Key of the "None of the above" constant (never the key of a real option text)."""


def option_key(text: str) -> str:
    """An option text compared across images: case, spacing and a final period ignored."""
    return " ".join(text.casefold().split()).rstrip(".")


def offered_options(question: ChoiceQuestion) -> list[tuple[str, str]]:
    """``(key, letter)`` of every real option (not "None of the above") of a question."""
    return [(option_key(t), k) for k, t in question.options.items() if not is_none_option(t)]


@dataclass(frozen=True)
class Choice:
    """A choice question with its option texts keyed once (every figure reuses them)."""

    question: ChoiceQuestion
    letters: dict[str, str]
    """Constant key → the letter offering it here (``NONE_KEY`` → "None of the above")."""
    offered: tuple[tuple[str, str], ...]
    """``(key, letter)`` of the real options."""

    @classmethod
    def of(cls, question: ChoiceQuestion) -> Choice:
        if question.qid == "q1":
            offered = [(option_key(text), k) for k, text in question.options.items()]
        else:
            offered = offered_options(question)
        letters = {key: letter for key, letter in reversed(offered)}
        if question.none_option is not None:
            letters[NONE_KEY] = question.none_option
        return cls(question, letters, tuple(offered))

    def constant_score(self, key: str, *, grounded: bool) -> float:
        """Score of always answering ``key``: eq. 1 for q1, eq. 3 for q2/q3 (no box given).

        With ``grounded`` False the ground-truth boxes are ignored (boxes assumed perfect),
        the basis on which option-name leakage is compared.
        """
        letter = self.letters.get(key)
        if self.question.qid == "q1":
            return score_single(self.question.answer[0], letter)
        if letter is None:
            return 0.0  # the constant is not offered here: the answer chooses nothing
        evidence = self.question.evidence if grounded else {}
        return score_choice(self.question.answer, [letter], evidence, {})


def choices_of(items: Sequence[SpatialItem], qid: str) -> list[Choice]:
    return [Choice.of(item.choice(qid)) for item in items]


def no_factor_score(question: ExplanationQuestion) -> float:
    """Eq. 6 for an answer that states there is no factor and gives no box."""
    verdict = ExplanationVerdict(
        factors=tuple(FactorVerdict(False, False, None) for _ in question.factors),
        unsupported=False,
        states_none=True,
    )
    return score_explanation(verdict, [factor.box for factor in question.factors], [])


def display_names(choices: Sequence[Choice]) -> dict[str, str]:
    """Each constant's key → the option text as first written in the dataset."""
    names = {} if not choices or choices[0].question.qid == "q1" else {NONE_KEY: NONE_ANSWER}
    for choice in choices:
        for key, letter in choice.offered:
            names.setdefault(key, choice.question.options[letter])
    return names


def constant_scores(items: Sequence[SpatialItem]) -> dict[str, dict[str, float]]:
    """Every constant answer's score (%) per question, best first (ties: dataset order)."""
    if not items:
        raise ValueError("no images to compute a baseline on")
    result: dict[str, dict[str, float]] = {}
    for qid in ("q1", *CHOICE_QUESTIONS):
        choices = choices_of(items, qid)
        scores = {
            name: 100
            * math.fsum(c.constant_score(key, grounded=True) for c in choices)
            / len(items)
            for key, name in display_names(choices).items()
        }
        result[qid] = dict(sorted(scores.items(), key=lambda kv: -kv[1]))
    for qid in EXPLANATION_QUESTIONS:
        total = math.fsum(no_factor_score(item.explanation(qid)) for item in items)
        result[qid] = {NO_FACTOR: 100 * total / len(items)}
    return result


def best_constants(scores: Mapping[str, Mapping[str, float]], images: int) -> dict[str, object]:
    """The trivial-baseline record from every constant's scores (best first per question)."""
    best = {qid: next(iter(scores[qid].items())) for qid in QUESTION_IDS}
    values = {qid: best[qid][1] for qid in QUESTION_IDS}
    return {
        **values,
        "overall": statistics.fmean(values[qid] for qid in QUESTION_IDS),
        "answers": {qid: best[qid][0] for qid in QUESTION_IDS},
        "images": images,
    }


def trivial_baselines(items: Sequence[SpatialItem]) -> dict[str, object]:
    """The best constant answer per question (q1–q5, %), their overall, and which won.

    Keys: ``q1`` … ``q5`` and ``overall`` (percentages, overall = mean of the five),
    ``answers`` (qid → the winning constant) and ``images``. Each question's constant is
    chosen on its own, as a model may answer each question differently.
    """
    return best_constants(constant_scores(items), len(items))


def run_baseline(log: EvalLog | str, ids: Iterable[str]) -> dict[str, object] | None:
    """The trivial baseline of the images a SpatialTrust run scored, keyed as its scores.

    ``log`` is the run's log (or its location); its task metadata names the data directory
    and, where recorded, the directory's content hash. None when the directory is gone, has
    changed since the run, or none of ``ids`` is in it: a floor of other data would mislead.
    Keys: ``label``, the task names (``detection`` …), ``overall``, ``answers``, ``images``.
    """
    try:
        header = read_eval_log(log, header_only=True) if isinstance(log, str) else log
        record = TaskRecord.from_log(header)
        if not record.data:
            return None
        if record.dataset_hash and dataset_hash(record.data) != record.dataset_hash:
            return None
        data = record.data
        wanted = set(ids)
        items = [item for item in load_spatialtrust(data) if item.id in wanted]
    except (OSError, ValueError, PrivbenchError):
        return None
    if not items:
        return None
    baseline = trivial_baselines(items)
    return {
        "label": BASELINE_LABEL,
        **{name: baseline[qid] for qid, name in TASKS},
        "overall": baseline["overall"],
        "answers": baseline["answers"],
        "images": baseline["images"],
    }
