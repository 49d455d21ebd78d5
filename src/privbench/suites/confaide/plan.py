"""The calls a ConfAIde run will make, counted from its prompts before anything is sent.

Per prompt (in the run's order, cut to ``--limit``): ``samples`` model calls of the prompt.
With the proxy-model metric, each tier-3 free-response answer is put to the judge once
(re-asked up to :data:`~.scorer.PROXY_MAX_TRIES` times when no text comes back); the
judge's prompt holds the answer, sized by the typical answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from inspect_ai.dataset import Sample

from privbench.judges.choice import parse_judge
from privbench.runtime.cost.plan import CallPlan
from privbench.runtime.cost.resume import planned_items, unfinished_items
from privbench.runtime.cost.tokens import text_tokens
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.running import NO_MODEL, RunOptions
from privbench.suites.confaide.dataset import load_confaide
from privbench.suites.confaide.options import ConfAIdeOptions, read_options
from privbench.suites.confaide.predictions import load_predictions
from privbench.suites.confaide.proxy import PROXY_MAX_TOKENS, proxy_prompt
from privbench.suites.confaide.record import ConfAIdeSampleRecord
from privbench.suites.confaide.scorer import PROXY_MAX_TRIES
from privbench.suites.confaide.task import confaide_samples, default_data_dir

TYPICAL_ANSWER_TOKENS = {"rating": 10, "3": 120, "4": 250}
"""Expected output per answer: a rating is a few tokens; a tier-3 answer a few sentences; a
meeting summary or action-item list a paragraph or two."""
TYPICAL_PROXY_TOKENS = 8
"""The proxy question's expected reply: a name or two."""


def _kind(sample: Sample) -> str:
    tier = ConfAIdeSampleRecord.from_metadata(sample.metadata).tier
    return tier if tier in ("3", "4") else "rating"


def _add_proxy(
    plan: CallPlan, samples: Sequence[Sample], runs: int, answers: dict[str, list[str]]
) -> None:
    for sample in samples:
        about = ConfAIdeSampleRecord.from_metadata(sample.metadata)
        if about.question_type != "free-response":
            continue
        given = answers.get(str(sample.id))
        for epoch in range(runs):
            shown = given[epoch] if given is not None else ""
            tokens = text_tokens(proxy_prompt(shown, about.secret))
            if given is None:
                tokens += TYPICAL_ANSWER_TOKENS["3"]
            plan.add(
                "judge",
                tokens,
                1,
                at_most=PROXY_MAX_TRIES,
                output_typical=TYPICAL_PROXY_TOKENS,
                output_limit=PROXY_MAX_TOKENS,
            )


def eval_plan(
    data: str | Path | None,
    model: str,
    options: RunOptions,
    settings: ConfAIdeOptions,
    *,
    limit: int | None = None,
    only: Sequence[str] | None = None,
    command: str = "eval confaide",
) -> CallPlan:
    """What ``eval confaide`` will send (``only``: just these prompts, as ``--resume`` does)."""
    samples = confaide_samples(load_confaide(data or default_data_dir()), settings)
    samples = planned_items(samples, lambda s: str(s.id), limit, only)
    judge = options.judge.model if settings.proxy else None
    plan = CallPlan(command, model, judge)
    max_tokens = options.generation.max_tokens
    for sample in samples:
        assert isinstance(sample.input, str)
        plan.add(
            "model",
            text_tokens(sample.input),
            settings.samples,
            output_typical=TYPICAL_ANSWER_TOKENS[_kind(sample)],
            output_limit=max_tokens,
        )
    if judge is not None:
        _add_proxy(plan, samples, settings.samples, {})
    else:
        plan.notes.append("no judge call (the proxy-model metric is not asked)")
    return plan


def grade_plan(
    data: str | Path | None,
    predictions: str | Path,
    options: RunOptions,
    settings: ConfAIdeOptions,
    *,
    command: str = "grade confaide",
) -> CallPlan:
    """What ``grade confaide`` will send: judge calls for the proxy metric only."""
    benchmark = load_confaide(data or default_data_dir())
    given = load_predictions(predictions, benchmark)
    judge = options.judge.model if settings.proxy else None
    plan = CallPlan(command, None, judge)
    if judge is None:
        plan.notes.append("no judge call (the proxy-model metric is not asked)")
        return plan
    chosen = read_options(tier_3_metrics=settings.tier_3_metrics, samples=given.samples)
    samples = [s for s in confaide_samples(benchmark, chosen) if str(s.id) in given.answers]
    _add_proxy(plan, samples, given.samples, given.answers)
    return plan


def resume_plan(log: str | Path, options: RunOptions) -> CallPlan:
    """What ``--resume LOG`` will send: the log's unfinished prompts, with its settings."""
    header, remaining = unfinished_items(log)
    identity = RunIdentity.from_log(header)
    args = header.eval.task_args or {}
    if identity.judge:  # the log's judge, as the resume asks it
        options = replace(options, judge=parse_judge(identity.judge))
    metrics = str(args.get("tier_3_metrics") or "string-match")
    if identity.model == NO_MODEL:
        return grade_plan(
            identity.data or None,
            str(identity.predictions),
            options,
            read_options(tier_3_metrics=metrics),
            command="grade confaide --resume",
        )
    settings = read_options(
        args.get("tiers"),
        args.get("tier_3_questions"),
        args.get("tier_4_questions"),
        metrics,
        bool(args.get("privacy_prompt", True)),
        int(args.get("samples") or 10),
    )
    return eval_plan(
        identity.data or None,
        identity.model,
        options,
        settings,
        only=remaining,
        command="eval confaide --resume",
    )
