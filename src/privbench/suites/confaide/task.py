"""inspect tasks for ConfAIde: ``confaide`` (the model answers) and ``confaide_grade``.

One inspect sample per prompt (item × question type), its input the reference's prompt byte
for byte (:mod:`.prompts`), in the reference's order (tiers 1, 2a, 2b, 3, 4; scenario by
scenario). The reference's ``n_samples`` answers per prompt are inspect epochs. Both tasks
are registered with inspect (``inspect eval privbench/confaide``); there, pass
``--temperature 1`` for the paper's setting (``privbench eval confaide`` does so by default).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.solver import Solver

from privbench.dataset_identity import task_metadata
from privbench.judges.choice import parse_judge
from privbench.runtime.solvers import answer_once
from privbench.suites.confaide.dataset import (
    DATA_DIR,
    ConfAIdeData,
    Meeting,
    Tier3Scenario,
    load_confaide,
)
from privbench.suites.confaide.options import ConfAIdeOptions, read_options
from privbench.suites.confaide.predictions import load_predictions, sample_id
from privbench.suites.confaide.prompts import (
    rating_prompt,
    tier_3_prompt,
    tier_3_requests,
    tier_4_prompt,
    tier_4_requests,
)
from privbench.suites.confaide.record import ConfAIdeSampleRecord
from privbench.suites.confaide.scorer import confaide_scorer
from privbench.suites.confaide.solvers import stored_answer


def default_data_dir() -> Path:
    """The reference's benchmark files shipped inside the package."""
    return DATA_DIR


def _requests(
    data: ConfAIdeData, options: ConfAIdeOptions, tier: str
) -> Iterator[tuple[str, str, ConfAIdeSampleRecord]]:
    """Each prompt of ``tier``: its sample id, its text and what the scorer reads of it."""
    if tier in ("1", "2a", "2b"):
        for item in data.ratings(tier):
            about = ConfAIdeSampleRecord(
                tier=tier, item=item.id, index=item.index, label=item.label
            )
            yield sample_id(tier, item.index), rating_prompt(item), about
    elif tier == "3":
        for scenario, question in tier_3_requests(data.tier_3, options.tier_3_questions):
            prompt = tier_3_prompt(scenario, question, privacy_prompt=options.privacy_prompt)
            yield _asked("3", scenario, question, prompt)
    else:
        for meeting, question in tier_4_requests(data.tier_4, options.tier_4_questions):
            prompt = tier_4_prompt(meeting, question, privacy_prompt=options.privacy_prompt)
            yield _asked("4", meeting, question, prompt)


CHECKED_NAMES = {
    "3": ("subject_agent", "aware_agent", "oblivious_agent", "secret"),
    "4": ("private_info", "public_info"),
}
"""What a tier-3 or tier-4 answer is checked against, copied from its item into the sample."""


def _asked(
    tier: str, item: Tier3Scenario | Meeting, question: str, prompt: str
) -> tuple[str, str, ConfAIdeSampleRecord]:
    """A tier-3 or tier-4 prompt: its sample id, its text and what the scorer reads of it."""
    about = ConfAIdeSampleRecord.model_validate(
        {
            "tier": tier,
            "question_type": question,
            "item": item.id,
            "index": item.index,
            **{name: getattr(item, name) for name in CHECKED_NAMES[tier]},
        }
    )
    return sample_id(tier, item.index, question), prompt, about


def confaide_samples(data: ConfAIdeData, options: ConfAIdeOptions) -> list[Sample]:
    """The run's samples in the reference's order (tiers in order; tier 3 scenario-major)."""
    return [
        Sample(id=id_, input=prompt, metadata=about.model_dump(exclude_defaults=True))
        for tier in options.tiers
        for id_, prompt, about in _requests(data, options, tier)
    ]


def _task(
    samples: list[Sample],
    solver: Solver,
    directory: Path,
    options: ConfAIdeOptions,
    judge: str | None,
    predictions: str | None = None,
) -> Task:
    proxy_judge = judge if options.proxy else None
    roles = parse_judge(proxy_judge).grader_role() if options.proxy else None
    return Task(
        dataset=MemoryDataset(samples, name="confaide"),
        solver=solver,
        scorer=confaide_scorer(judge=proxy_judge, proxy=options.proxy),
        epochs=Epochs(options.samples),
        model_roles=roles,
        metadata=task_metadata(
            "confaide",
            directory,
            judge=proxy_judge,
            **({"predictions": predictions} if predictions else {}),
        ),
    )


@task
def confaide(
    data: str | None = None,
    tiers: str = "1,2a,2b,3,4",
    tier_3_questions: str = "free-response,info-accessibility,privacy-sharing,control",
    tier_4_questions: str = "meeting-summary,action-item",
    tier_3_metrics: str = "string-match",
    privacy_prompt: bool = True,
    samples: int = 10,
    judge: str | None = None,
    cache: bool = False,
) -> Task:
    """ConfAIde: the model answers every prompt ``samples`` times; verdicts as the reference's.

    Args:
        data: the benchmark files (the reference's ``benchmark/``); the shipped copy if omitted.
        tiers: comma list of 1, 2a, 2b, 3, 4.
        tier_3_questions: comma list of free-response, info-accessibility, privacy-sharing,
            control (the reference's default is free-response only).
        tier_4_questions: comma list of meeting-summary, action-item.
        tier_3_metrics: string-match, optionally proxy-model (asks the ``grader`` role).
        privacy_prompt: the reference's privacy instruction before tier-3/4 prompts.
        samples: answers per prompt (the reference's ``--n-samples``, 10).
        judge: the proxy-model metric's judge (else the ``grader`` role).
        cache: use inspect's model cache for the model's calls.
    """
    options = read_options(
        tiers, tier_3_questions, tier_4_questions, tier_3_metrics, privacy_prompt, samples
    )
    directory = Path(data) if data else default_data_dir()
    items = confaide_samples(load_confaide(directory), options)
    return _task(items, answer_once(cache), directory, options, judge)


@task
def confaide_grade(
    predictions: str,
    data: str | None = None,
    tier_3_metrics: str = "string-match",
    judge: str | None = None,
) -> Task:
    """Grade answers made elsewhere: privbench's predictions JSON or the reference's
    ``eval_*.json`` files (a file, or a directory of them).

    Args:
        predictions: the answers (see :mod:`privbench.suites.confaide.predictions`).
        data: the benchmark files; the shipped copy if omitted.
        tier_3_metrics: string-match, optionally proxy-model (asks the ``grader`` role).
        judge: the proxy-model metric's judge (else the ``grader`` role).
    """
    directory = Path(data) if data else default_data_dir()
    benchmark = load_confaide(directory)
    given = load_predictions(predictions, benchmark)
    options = read_options(tier_3_metrics=tier_3_metrics, samples=given.samples)
    items = [s for s in confaide_samples(benchmark, options) if str(s.id) in given.answers]
    return _task(
        items, stored_answer(given.answers), directory, options, judge, predictions=predictions
    )
