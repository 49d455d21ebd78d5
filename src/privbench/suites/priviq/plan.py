"""The calls a Priv-IQ run will make, counted from the data before anything is sent.

Why from the run's own pieces: the counts must be the run's, so they come from the same
prompts (:mod:`.judge`), the same re-ask limit (:data:`~privbench.suites.priviq.judge.MAX_TRIES`),
the same answer cut for the judge and the same reuse rule for an earlier grade file
(:func:`~privbench.suites.priviq.scorer.runs_to_grade`) that the run uses.

Per item: one model call (the image and the question); ``judge_runs`` judge calls, each
re-asked up to ``MAX_TRIES - 1`` times while its reply does not parse. The offline judge
and runs reused from ``--grades`` make no judge call.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from pathlib import Path

from privbench.images import image_size
from privbench.judges.choice import parse_judge
from privbench.runtime.cost.plan import CallPlan
from privbench.runtime.cost.resume import answered_items, planned_items, unfinished_items
from privbench.runtime.cost.tokens import CHARS_PER_TOKEN, image_tokens, text_tokens
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.running import NO_MODEL, RunOptions
from privbench.suites.priviq.dataset import PrivIQItem, load_priviq
from privbench.suites.priviq.judge import (
    MAX_ANSWER_CHARS,
    MAX_TRIES,
    get_protocol,
    truncate_for_judge,
)
from privbench.suites.priviq.predictions import load_grade_file, load_predictions
from privbench.suites.priviq.reading import blank_or_text
from privbench.suites.priviq.scorer import runs_to_grade
from privbench.suites.priviq.task import default_data_dir

TYPICAL_ANSWER_TOKENS = 200
"""Expected output of the model under test per item: the reference answers are one to three
sentences; models tend to write a paragraph (docs/cost.md)."""
TYPICAL_VERDICT_TOKENS = {"paper": 3, "hardened": 40}
"""Expected judge output per call: the paper protocol's score (its limit), the hardened
protocol's JSON verdict with a one-sentence reason."""


def _longest_answer(max_tokens: int | None) -> int:
    """The most answer tokens the judge is shown (the model's limit, the judge's cut)."""
    cut = math.ceil(MAX_ANSWER_CHARS / CHARS_PER_TOKEN)
    return cut if max_tokens is None else min(max_tokens, cut)


def _add_model_calls(
    plan: CallPlan, model: str, items: Sequence[PrivIQItem], max_tokens: int | None
) -> None:
    for item in items:
        width, height = image_size(item.image)
        plan.add(
            "model",
            text_tokens(item.question) + image_tokens(model, width, height),
            1,
            output_typical=TYPICAL_ANSWER_TOKENS,
            output_limit=max_tokens,
        )


def add_judge_runs(
    plan: CallPlan,
    protocol: str,
    question: str,
    reference: str,
    answer: str | None,
    runs: int,
    max_tokens: int | None = None,
) -> None:
    """``runs`` judge runs of one answer (``answer`` None: the model's, not yet known; it is
    sized by the typical answer, at most by ``max_tokens`` and the judge's cut)."""
    judge = get_protocol(protocol)
    shown = "" if answer is None else answer
    first = text_tokens(judge.prompt(question, reference, shown, attempt=0))
    again = text_tokens(judge.prompt(question, reference, shown, attempt=1))
    extra_typical = extra_most = 0
    if answer is None:
        extra_typical = min(TYPICAL_ANSWER_TOKENS, _longest_answer(max_tokens))
        extra_most = _longest_answer(max_tokens)
    plan.add(
        "judge",
        first + extra_typical,
        runs,
        at_most=runs * MAX_TRIES,
        output_typical=TYPICAL_VERDICT_TOKENS[judge.name],
        output_limit=judge.max_tokens,
        input_tokens_at_most=again + extra_most,
    )


def shown_to_judge(answer: str | None) -> str:
    """The answer as the judge's prompt carries it: blank-normalised and cut to the judge's
    limit (a run never shows the judge more, so the dry run must not count more)."""
    return truncate_for_judge(blank_or_text(answer)[0])[0]


def _judge_name(options: RunOptions) -> str | None:
    return options.judge.model


def eval_plan(
    data: str | Path | None,
    model: str,
    options: RunOptions,
    *,
    limit: int | None = None,
    only: Sequence[str] | None = None,
    answered: Collection[str] = (),
    command: str = "eval priviq",
) -> CallPlan:
    """What ``eval priviq`` will send (``only``: just these items, as ``--resume`` sends;
    ``answered``: items whose answer the model already gave, which a resume reuses)."""
    items = load_priviq(data or default_data_dir())
    items = planned_items(items, lambda item: item.id, limit, only)
    judge = _judge_name(options)
    plan = CallPlan(command, model, judge)
    max_tokens = options.generation.max_tokens
    to_ask = [item for item in items if item.id not in answered]
    _add_model_calls(plan, model, to_ask, max_tokens)
    if len(to_ask) < len(items):
        plan.notes.append(
            f"{len(items) - len(to_ask)} answer(s) the model already gave are reused: not sent"
        )
    if judge is not None:
        for item in items:
            add_judge_runs(
                plan,
                options.protocol,
                item.question,
                item.answer,
                None,
                options.judge_runs,
                max_tokens,
            )
    else:
        plan.notes.append("offline judge: no judge call")
    return plan


def grade_plan(
    data: str | Path | None,
    predictions: str | Path,
    options: RunOptions,
    *,
    grades: str | Path | None = None,
    only: Sequence[str] | None = None,
    command: str = "grade priviq",
) -> CallPlan:
    """What ``grade priviq`` will send: the judge runs the grade file does not hold."""
    items = load_priviq(data or default_data_dir())
    answers = load_predictions(Path(predictions), [item.id for item in items])
    prior = load_grade_file(Path(grades)) if grades else {}
    judge = _judge_name(options)
    plan = CallPlan(command, None, judge)
    if judge is None:
        plan.notes.append("offline judge: no judge call")
        return plan
    reused = 0
    wanted = None if only is None else set(only)
    for item in items:
        if wanted is not None and item.id not in wanted:
            continue
        raw = answers[item.id]
        runs = runs_to_grade(
            prior,
            {item.id: raw},
            judge=options.judge,
            protocol=options.protocol,
            judge_runs=options.judge_runs,
        )
        reused += options.judge_runs - runs
        add_judge_runs(
            plan, options.protocol, item.question, item.answer, shown_to_judge(raw), runs
        )
    if reused:
        plan.notes.append(f"{reused} judge run(s) reused from --grades: not sent")
    return plan


def resume_plan(log: str | Path, options: RunOptions) -> CallPlan:
    """What ``--resume LOG`` will send: the log's unfinished items, with the log's settings."""
    header, remaining = unfinished_items(log)
    identity = RunIdentity.from_log(header)
    config = header.eval.model_generate_config
    settings = RunOptions(
        judge=parse_judge(identity.judge) if identity.judge else options.judge,
        judge_runs=identity.judge_runs,
        protocol=str((header.eval.task_args or {}).get("protocol") or options.protocol),
        generation=options.generation.__class__(
            max_tokens=config.max_tokens if config is not None else None
        ),
    )
    data = identity.data or None
    if identity.model == NO_MODEL:
        grades = (header.eval.task_args or {}).get("grades")
        return grade_plan(
            data,
            identity.predictions,
            settings,
            grades=str(grades) if grades else None,
            only=remaining,
            command="grade priviq --resume",
        )
    return eval_plan(
        data,
        identity.model,
        settings,
        only=remaining,
        answered=answered_items(header),
        command="eval priviq --resume",
    )
