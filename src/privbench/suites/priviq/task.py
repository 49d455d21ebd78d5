"""inspect tasks for Priv-IQ: ``priviq`` (generate + grade) and ``priviq_grade``.

``priviq`` sends each image with its question to the model under test and grades the
answer with the judge (``grader`` role). ``priviq_grade`` grades answers produced
elsewhere (a ``results.json`` of the reference inference scripts): the solver puts the
stored answer in place of a generation, so the log, the scorer and every export are the
same as for a live run. Both are registered with inspect (``inspect eval
privbench/priviq``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessageUser,
    ContentImage,
    ContentText,
)
from inspect_ai.solver import Solver

from privbench.dataset_identity import task_metadata
from privbench.judges.cards import find_card
from privbench.judges.choice import parse_judge
from privbench.runtime.solvers import answer_once
from privbench.shipped import PRIVIQ_SUITE
from privbench.suites.priviq.competencies import combination_label
from privbench.suites.priviq.dataset import PrivIQItem, load_priviq
from privbench.suites.priviq.judge import MAX_TRIES
from privbench.suites.priviq.predictions import load_predictions
from privbench.suites.priviq.record import PrivIQSampleRecord
from privbench.suites.priviq.scorer import priviq_judge, protocol_identity
from privbench.suites.priviq.solvers import stored_answer


def default_data_dir() -> Path:
    """The Priv-IQ-format suite shipped inside the package (146 generated items)."""
    return PRIVIQ_SUITE


def _metadata(item: PrivIQItem) -> dict[str, object]:
    return PrivIQSampleRecord(
        image=str(item.image),
        competencies=list(item.competencies),
        combination=combination_label(item.combination),
    ).model_dump()


def priviq_sample(item: PrivIQItem) -> Sample:
    """The image and the question in one user message; competencies in metadata."""
    message = ChatMessageUser(
        content=[ContentImage(image=str(item.image)), ContentText(text=item.question)]
    )
    return Sample(id=item.id, input=[message], target=item.answer, metadata=_metadata(item))


@dataclass(frozen=True)
class JudgeSettings:
    """The task options that decide how answers are judged (shared by both tasks)."""

    judge: str | None
    judge_runs: int
    protocol: str
    max_tries: int
    grades: str | None = None
    cache: bool = False
    explain: bool = False
    """Offline judge: record the rules that made each grade (``--explain``)."""
    judge_card: str | None = None
    """A judge card to show beside the scores (``--judge-card``; default: found by judge)."""
    reuse_unverified: bool = False
    """Reuse runs of ``grades`` that record no answer (``--reuse-unverified-grades``)."""


def _judged_task(
    samples: list[Sample],
    solver: Solver,
    settings: JudgeSettings,
    data: Path,
    predictions: str | None = None,
) -> Task:
    """A Priv-IQ task: ``solver`` produces the answer, the judge grades it."""
    choice = parse_judge(settings.judge)  # the task's option, read once
    protocol, prompt_hash = protocol_identity(settings.protocol, choice)
    card = (
        find_card("priviq", settings.judge, protocol, prompt_hash, settings.judge_card)
        if settings.judge
        else None
    )
    return Task(
        dataset=MemoryDataset(samples, name="priviq"),
        solver=solver,
        scorer=priviq_judge(
            protocol=settings.protocol,
            max_tries=settings.max_tries,
            grades=settings.grades,
            judge=settings.judge,
            judge_runs=settings.judge_runs,
            cache=settings.cache,
            explain=settings.explain,
            reuse_unverified=settings.reuse_unverified,
        ),
        model_roles=choice.grader_role(),
        metadata=task_metadata(
            "priviq",
            data,
            judge=settings.judge,
            judge_runs=settings.judge_runs,
            judge_protocol=protocol,
            prompt_hash=prompt_hash,
            **({"predictions": predictions} if predictions else {}),
            **({"judge_card": card.model_dump()} if card else {}),
        ),
    )


@task
def priviq(
    data: str | None = None,
    judge: str | None = None,
    judge_runs: int = 1,
    protocol: str = "paper",
    max_tries: int = MAX_TRIES,
    cache: bool = False,
    explain: bool = False,
    judge_card: str | None = None,
) -> Task:
    """Priv-IQ: answer image + question once, graded 0.0–1.0 by the few-shot judge.

    Args:
        data: Priv-IQ directory (``priv-IQ.json`` + ``images/``); the shipped suite if omitted.
        judge: judge model, or ``offline`` for the rule-based judge (else ``--model-role
            grader=...``, else ``openai/gpt-4o``).
        judge_runs: times the judge grades each answer (the paper's ``num_run``; it used
            5). The model answers each item once; inspect's ``--epochs`` would re-ask it.
        protocol: ``paper`` (docs/judge.md) or ``hardened`` (prediction fenced, JSON verdict).
        max_tries: judge tries per run before that run is counted as unscored.
        cache: use inspect's model cache for the model's and the judge's calls.
        explain: offline judge only: record, per item, the rules that made its grade.
        judge_card: a judge card (``privbench judge check``) shown beside the scores;
            default: the card found for the judge, protocol and prompt in the cache.
    """
    directory = Path(data) if data else default_data_dir()
    samples = [priviq_sample(item) for item in load_priviq(directory)]
    settings = JudgeSettings(
        judge, judge_runs, protocol, max_tries, cache=cache, explain=explain, judge_card=judge_card
    )
    return _judged_task(samples, answer_once(cache), settings, directory)


@task
def priviq_grade(
    predictions: str,
    data: str | None = None,
    grades: str | None = None,
    judge: str | None = None,
    judge_runs: int = 1,
    protocol: str = "paper",
    max_tries: int = MAX_TRIES,
    cache: bool = False,
    explain: bool = False,
    judge_card: str | None = None,
    reuse_unverified_grades: bool = False,
) -> Task:
    """Grade answers made elsewhere (``results.json``: id → answer) with the Priv-IQ judge.

    Args:
        predictions: ``results.json`` of the reference inference scripts.
        data: Priv-IQ directory; the shipped suite if omitted.
        grades: an earlier grade file; its runs are reused where the answer, the judge and
            the protocol are the same, and graded again otherwise.
        judge: judge model (else ``--model-role grader=...``, else ``openai/gpt-4o``).
        judge_runs: times the judge grades each answer (``num_run``).
        protocol: ``paper`` or ``hardened``.
        max_tries: judge tries per run before that run is counted as unscored.
        cache: use inspect's model cache for the judge's calls.
        explain: offline judge only: record, per item, the rules that made its grade.
        judge_card: a judge card shown beside the scores (default: found in the cache).
        reuse_unverified_grades: also reuse runs of ``grades`` that record no answer hash
            (the reference evaluator's files) where the judge is the same; every reader
            says how many were taken without an answer check.
    """
    directory = Path(data) if data else default_data_dir()
    items = load_priviq(directory)
    load_predictions(Path(predictions), [item.id for item in items])  # every id answered
    samples = [
        Sample(id=item.id, input=item.question, target=item.answer, metadata=_metadata(item))
        for item in items
    ]
    settings = JudgeSettings(
        judge,
        judge_runs,
        protocol,
        max_tries,
        grades,
        cache,
        explain,
        judge_card,
        reuse_unverified=reuse_unverified_grades,
    )
    return _judged_task(
        samples, stored_answer(predictions), settings, directory, predictions=predictions
    )
