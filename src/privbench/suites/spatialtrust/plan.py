"""The calls a SpatialTrust run will make, counted from the data before anything is sent.

Why from the run's own pieces: the prompts are the strategies' (:mod:`.prompts`), the
re-ask limits the solver's (``--reask-unparsed``) and the judge's
(:data:`~privbench.suites.spatialtrust.judge.MAX_TRIES`), so the counts are the run's.

Per image, model calls: ``direct`` one; ``staged`` two (selection, grounded answer);
``guard`` those two plus one verifier call per selected non-"None" q2/q3 option (expected:
as many as the ground truth has; at most: every such option); each final answer re-asked
up to ``--reask-unparsed`` times. Judge calls: one per q4/q5 answer that parsed, re-asked
up to ``MAX_TRIES - 1`` times; with re-asks, the first answer's q4/q5 may be judged again
(the score without re-asks). The offline judge makes no call.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from privbench.judges.choice import parse_judge
from privbench.runtime.cost.plan import CallPlan
from privbench.runtime.cost.resume import planned_items, unfinished_items
from privbench.runtime.cost.tokens import image_tokens, text_tokens
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.running import NO_MODEL, RunOptions
from privbench.suites.spatialtrust.boxes import BoxConvention, get_convention
from privbench.suites.spatialtrust.dataset import (
    CHOICE_QUESTIONS,
    EXPLANATION_QUESTIONS,
    QUESTION_IDS,
    ExplanationQuestion,
    SpatialItem,
    load_spatialtrust,
)
from privbench.suites.spatialtrust.judge import MAX_TOKENS as JUDGE_MAX_TOKENS
from privbench.suites.spatialtrust.judge import MAX_TRIES, judge_prompt
from privbench.suites.spatialtrust.predictions import load_spatial_predictions, parse_predictions
from privbench.suites.spatialtrust.prompts import (
    SYSTEM_PROMPT,
    direct_prompt,
    grounded_prompt,
    reask_prompt,
    selection_prompt,
    verification_prompt,
)
from privbench.suites.spatialtrust.reading import ExplanationAnswer, SpatialAnswer
from privbench.suites.spatialtrust.task import default_data_dir

TYPICAL_ANSWER_TOKENS = 400
"""Expected output of a full answer (five questions as JSON, with boxes and two short
explanations; docs/cost.md)."""
TYPICAL_SELECTION_TOKENS = 30
"""Expected output of the selection stage (three letters' JSON)."""
TYPICAL_VERIFIER_TOKENS = 2
"""Expected output of a verifier call (KEEP or DELETE)."""
TYPICAL_EXPLANATION_TOKENS = 100
"""Expected length of a q4/q5 answer as the judge is shown it."""
TYPICAL_VERDICT_TOKENS = 150
"""Expected output of a q4/q5 verdict (a JSON object with one entry per factor)."""

_UNREAD = SpatialAnswer(failures={qid: "could not be read" for qid in QUESTION_IDS})
"""The answer a re-ask prompt is sized for: every question unread (the longest prompt)."""


def _stage(model: str, item: SpatialItem, prompt: str) -> int:
    """Input tokens of one stage: the system prompt, the capture and the stage's prompt."""
    return (
        text_tokens(SYSTEM_PROMPT)
        + text_tokens(prompt)
        + image_tokens(model, item.width, item.height)
    )


def _answer_limit(max_tokens: int | None) -> int:
    return TYPICAL_ANSWER_TOKENS if max_tokens is None else max_tokens


def _add_final_answer(
    plan: CallPlan,
    model: str,
    item: SpatialItem,
    prompt: str,
    convention: BoxConvention,
    reask: int,
    max_tokens: int | None,
) -> None:
    """The final answer and its re-asks (each carries the conversation so far)."""
    first = _stage(model, item, prompt)
    plan.add("model", first, 1, output_typical=TYPICAL_ANSWER_TOKENS, output_limit=max_tokens)
    if reask:
        turn = _answer_limit(max_tokens) + text_tokens(reask_prompt(_UNREAD, item, convention))
        plan.add(
            "model",
            first + turn,
            0,
            at_least=0,
            at_most=reask,
            output_typical=TYPICAL_ANSWER_TOKENS,
            output_limit=max_tokens,
            input_tokens_at_most=first + reask * turn,
        )


def _add_model_calls(
    plan: CallPlan,
    model: str,
    item: SpatialItem,
    strategy: str,
    convention: BoxConvention,
    reask: int,
    max_tokens: int | None,
) -> None:
    if strategy == "direct":
        _add_final_answer(
            plan, model, item, direct_prompt(item, convention), convention, reask, max_tokens
        )
        return
    plan.add(
        "model",
        _stage(model, item, selection_prompt(item)),
        1,
        output_typical=TYPICAL_SELECTION_TOKENS,
        output_limit=max_tokens,
    )
    if strategy == "guard":
        for qid in CHOICE_QUESTIONS:
            question = item.choice(qid)
            options = [x for x in question.options if x != question.none_option]
            expected = [x for x in question.answer if x != question.none_option]
            largest = max(
                (_stage(model, item, verification_prompt(item, qid, x)) for x in options),
                default=0,
            )
            plan.add(
                "model",
                largest,
                len(expected),
                at_least=0,
                at_most=len(options),
                output_typical=TYPICAL_VERIFIER_TOKENS,
                output_limit=max_tokens,
            )
    locked = {qid: tuple(item.choice(qid).answer) for qid in ("q1", *CHOICE_QUESTIONS)}
    _add_final_answer(
        plan,
        model,
        item,
        grounded_prompt(item, locked, convention),
        convention,
        reask,
        max_tokens,
    )


def add_verdict_call(
    plan: CallPlan,
    question: ExplanationQuestion,
    answer: ExplanationAnswer | None,
    *,
    again: bool = False,
    max_tokens: int | None = None,
) -> None:
    """One q4/q5 verdict, re-asked while invalid; ``answer`` None: the model's, not yet
    known (sized by the typical answer, at most by ``max_tokens``); ``again``: the first
    answer of a re-asked image may be judged too."""
    shown = ExplanationAnswer(text="") if answer is None else answer
    extra_typical = TYPICAL_EXPLANATION_TOKENS if answer is None else 0
    extra_most = _answer_limit(max_tokens) if answer is None else 0
    plan.add(
        "judge",
        text_tokens(judge_prompt(question, shown)) + extra_typical,
        1,
        at_least=0 if answer is None else 1,
        at_most=(2 if again else 1) * MAX_TRIES,
        output_typical=TYPICAL_VERDICT_TOKENS,
        output_limit=JUDGE_MAX_TOKENS,
        input_tokens_at_most=text_tokens(judge_prompt(question, shown, retry=True)) + extra_most,
    )


def _items(
    data: str | Path | None, limit: int | None, only: Sequence[str] | None
) -> list[SpatialItem]:
    items = load_spatialtrust(Path(data) if data else default_data_dir())
    items = planned_items(items, lambda item: item.id, limit, only)
    return items


def eval_plan(
    data: str | Path | None,
    model: str,
    options: RunOptions,
    *,
    strategy: str = "direct",
    box_format: str = "xyxy",
    reask_unparsed: int = 0,
    limit: int | None = None,
    only: Sequence[str] | None = None,
    command: str = "eval spatialtrust",
) -> CallPlan:
    """What ``eval spatialtrust`` will send (``only``: just these images, as ``--resume``)."""
    convention = get_convention(box_format)
    judge = options.judge.model
    plan = CallPlan(command, model, judge)
    max_tokens = options.generation.max_tokens
    for item in _items(data, limit, only):
        _add_model_calls(plan, model, item, strategy, convention, reask_unparsed, max_tokens)
        if judge is not None:
            for qid in EXPLANATION_QUESTIONS:
                add_verdict_call(
                    plan,
                    item.explanation(qid),
                    None,
                    again=reask_unparsed > 0,
                    max_tokens=max_tokens,
                )
    if judge is None:
        plan.notes.append("offline judge: no judge call")
    if strategy == "guard":
        plan.notes.append(
            "guard: verifier calls expected as many as the ground truth's q2/q3 factors; "
            "at most one per q2/q3 option"
        )
    return plan


def grade_plan(
    data: str | Path | None,
    predictions: str | Path,
    options: RunOptions,
    *,
    box_format: str = "xyxy",
    only: Sequence[str] | None = None,
    command: str = "grade spatialtrust",
) -> CallPlan:
    """What ``grade spatialtrust`` will send: a verdict per q4/q5 answer that parses."""
    items = _items(data, None, None)
    loaded = load_spatial_predictions(Path(predictions), [item.id for item in items])
    answers = parse_predictions(loaded, items, get_convention(box_format))
    judge = options.judge.model
    plan = CallPlan(command, None, judge)
    if judge is None:
        plan.notes.append("offline judge: no judge call")
        return plan
    wanted = None if only is None else set(only)
    for item in items:
        if wanted is None or item.id in wanted:
            for qid in EXPLANATION_QUESTIONS:
                given = answers[item.id].explanation(qid)
                if given is not None:  # an answer that did not parse scores 0, unjudged
                    add_verdict_call(plan, item.explanation(qid), given)
    return plan


def resume_plan(log: str | Path, options: RunOptions) -> CallPlan:
    """What ``--resume LOG`` will send: the log's unfinished images, with its settings."""
    header, remaining = unfinished_items(log)
    identity = RunIdentity.from_log(header)
    args = header.eval.task_args or {}
    config = header.eval.model_generate_config
    settings = RunOptions(
        judge=parse_judge(identity.judge) if identity.judge else options.judge,
        generation=options.generation.__class__(
            max_tokens=config.max_tokens if config is not None else None
        ),
    )
    data = identity.data or None
    if identity.model == NO_MODEL:
        return grade_plan(
            data,
            identity.predictions,
            settings,
            box_format=identity.box_format,
            only=remaining,
            command="grade spatialtrust --resume",
        )
    return eval_plan(
        data,
        identity.model,
        settings,
        strategy=identity.strategy or "direct",
        box_format=identity.box_format,
        reask_unparsed=int(args.get("reask_unparsed") or 0),
        only=remaining,
        command="eval spatialtrust --resume",
    )
