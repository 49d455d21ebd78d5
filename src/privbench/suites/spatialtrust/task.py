"""inspect tasks for SpatialTrust: ``spatialtrust`` (answer + score) and ``spatialtrust_grade``.

``spatialtrust`` shows each capture with the five questions to the model under test using
the chosen strategy (``direct``, ``staged`` or ``guard``) and scores the answer; q4/q5 are
judged by the ``grader`` role. ``spatialtrust_grade`` scores predictions made elsewhere
(``preds.jsonl``, docs/spatialtrust.md). Both are registered with inspect (``inspect eval
privbench/spatialtrust``).
"""

from __future__ import annotations

import json
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from privbench.dataset_identity import task_metadata
from privbench.judges.cards import find_card
from privbench.judges.choice import parse_judge
from privbench.runtime.records.task import DraftAnnotations
from privbench.shipped import SPATIALTRUST_SUITE
from privbench.suites.spatialtrust.boxes import get_convention
from privbench.suites.spatialtrust.dataset import (
    SpatialItem,
    ground_truth_record,
    load_spatialtrust,
)
from privbench.suites.spatialtrust.drafts import TASK_PARAMETER, draft_annotations, refusal
from privbench.suites.spatialtrust.judge import MAX_TRIES, judge_identity
from privbench.suites.spatialtrust.predictions import load_spatial_predictions, parse_predictions
from privbench.suites.spatialtrust.prompts import direct_prompt
from privbench.suites.spatialtrust.record import SpatialSampleRecord
from privbench.suites.spatialtrust.scorer import spatialtrust_scorer
from privbench.suites.spatialtrust.solvers import (
    StrategyStats,
    parse_strategy,
    spatialtrust_strategy,
    store_answer,
)


def default_data_dir() -> Path:
    """The SpatialTrust-format suite shipped inside the package (100 generated captures)."""
    return SPATIALTRUST_SUITE


def _sample(item: SpatialItem) -> Sample:
    metadata = SpatialSampleRecord(
        image=str(item.image),
        width=item.width,
        height=item.height,
        ground_truth=ground_truth_record(item),
        direct_factors=len(item.q4.factors),
        indirect_factors=len(item.q5.factors),
    ).model_dump()
    prompt = direct_prompt(item, get_convention("xyxy"))
    message = ChatMessageUser(
        content=[ContentImage(image=str(item.image)), ContentText(text=prompt)]
    )
    return Sample(
        id=item.id,
        input=[message],
        target=item.q1.answer[0],
        metadata=metadata,
    )


class _TaskData:
    """The task's dataset, loaded once, and its unreviewed images."""

    def __init__(self, directory: Path, allow_drafts: bool) -> None:
        """Load ``directory``; refuse (before any solver is built) images no person
        reviewed unless ``allow_drafts``: the gate holds for ``inspect eval`` too."""
        self.directory = directory
        self.items = load_spatialtrust(directory)
        self.drafts = draft_annotations(self.items)
        if self.drafts is not None and not allow_drafts:
            raise ValueError(refusal(directory, self.drafts, TASK_PARAMETER))

    def record(self) -> dict[str, DraftAnnotations]:
        """The task record's draft figure (nothing for reviewed or unannotated data)."""
        return {} if self.drafts is None else {"draft_annotations": self.drafts}


def _task(
    data: _TaskData,
    solver: Solver,
    judge: str | None,
    max_tries: int,
    cache: bool = False,
    judge_card: str | None = None,
    **settings: str,
) -> Task:
    """A SpatialTrust task; ``settings`` are the run's strategy, box format, predictions."""
    directory, items = data.directory, data.items
    identity: dict[str, object] = {}
    choice = parse_judge(judge)  # the task's option, read once
    if judge:
        protocol, prompt_hash = judge_identity(choice)
        card = find_card("spatialtrust", judge, protocol, prompt_hash, judge_card)
        identity = {"judge_protocol": protocol, "prompt_hash": prompt_hash}
        if card is not None:
            identity["judge_card"] = card.model_dump()
    return Task(
        dataset=MemoryDataset([_sample(item) for item in items], name="spatialtrust"),
        solver=solver,
        scorer=spatialtrust_scorer(
            data=str(directory), max_tries=max_tries, judge=judge, cache=cache
        ),
        model_roles=choice.grader_role(),
        metadata=task_metadata(
            "spatialtrust", directory, judge=judge, **identity, **settings, **data.record()
        ),
    )


@task
def spatialtrust(
    data: str | None = None,
    strategy: str = "direct",
    box_format: str = "xyxy",
    judge: str | None = None,
    max_tries: int = MAX_TRIES,
    cache: bool = False,
    reask_unparsed: int = 0,
    allow_drafts: bool = False,
    judge_card: str | None = None,
) -> Task:
    """SpatialTrust: five questions per authentication capture, grounded with boxes.

    Args:
        data: SpatialTrust directory (``spatialtrust.jsonl`` + images); the shipped suite if omitted.
        strategy: ``direct`` (one call), ``staged`` or ``guard`` (SpatialTrustGuard).
        box_format: the model's box convention: ``xyxy``, ``xyxy1000``, ``yxyx1000``, ``xyxy1``.
        judge: q4/q5 judge (else ``--model-role grader=...``, else ``openai/gpt-4o``).
        max_tries: judge tries per q4/q5 verdict before the question is unscored.
        cache: inspect's model cache for the model's and the judge's calls.
        reask_unparsed: times an answer that cannot be read in full is asked again with
            the format restated (0: the paper's one-pass protocol).
        allow_drafts: run even if some images' annotations are drafts no person reviewed
            (``privbench build``); the run then records how many.
        judge_card: a judge card (``privbench judge check``) shown beside the scores;
            default: the card found for the judge and its prompt in the cache.
    """
    checked = parse_strategy(strategy)
    get_convention(box_format)
    directory = Path(data) if data else default_data_dir()
    if reask_unparsed < 0:
        raise ValueError("reask_unparsed must be 0 or more")
    data_set = _TaskData(directory, allow_drafts)
    solver = spatialtrust_strategy(checked, str(directory), box_format, cache, reask_unparsed)
    return _task(
        data_set,
        solver,
        judge,
        max_tries,
        cache,
        judge_card,
        strategy=strategy,
        box_format=box_format,
        reask_unparsed=str(reask_unparsed),
    )


@solver
def stored_prediction(predictions: str, data: str, box_format: str = "xyxy") -> Solver:
    """Use a prediction from ``preds.jsonl`` (boxes in ``box_format``) instead of a model."""
    items = load_spatialtrust(data)
    loaded = load_spatial_predictions(Path(predictions), [item.id for item in items])
    answers = parse_predictions(loaded, items, get_convention(box_format))

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        image_id = str(state.sample_id)
        # the line as written, so the log can be read again in another box convention
        written = json.dumps(loaded.records[image_id], ensure_ascii=False, default=str)
        state.output = ModelOutput.from_content("predictions", written)
        store_answer(state, answers[image_id], StrategyStats("predictions"))
        return state

    return solve


@task
def spatialtrust_grade(
    predictions: str,
    data: str | None = None,
    judge: str | None = None,
    max_tries: int = MAX_TRIES,
    box_format: str = "xyxy",
    cache: bool = False,
    allow_drafts: bool = False,
    judge_card: str | None = None,
) -> Task:
    """Score SpatialTrust predictions made elsewhere (``preds.jsonl``, docs/spatialtrust.md).

    Args:
        predictions: one JSON object per line: ``{"id": ..., "q1": ..., ..., "q5": ...}``.
        data: SpatialTrust directory; the shipped suite if omitted.
        judge: q4/q5 judge (else ``--model-role grader=...``, else ``openai/gpt-4o``).
        max_tries: judge tries per q4/q5 verdict before the question is unscored.
        box_format: the file's box convention: ``xyxy`` (pixels), ``xyxy1000``,
            ``yxyx1000``, ``xyxy1``.
        cache: inspect's model cache for the judge's calls.
        allow_drafts: score even against annotations no person reviewed (``privbench
            build``); the run then records how many.
        judge_card: a judge card shown beside the scores (default: found in the cache).
    """
    directory = Path(data) if data else default_data_dir()
    data_set = _TaskData(directory, allow_drafts)
    solver = stored_prediction(predictions, str(directory), box_format)
    return _task(
        data_set,
        solver,
        judge,
        max_tries,
        cache,
        judge_card,
        predictions=predictions,
        box_format=box_format,
    )
