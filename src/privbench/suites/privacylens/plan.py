"""The calls a PrivacyLens run will make, counted from its prompts before anything is sent.

Final action: one model call per case and prompt type; then, for an action that holds
``Action:`` (assumed for every case, the upper bound), one leakage question per sensitive
item and one helpfulness question (each re-asked up to
:data:`~.scorer.JUDGE_MAX_TRIES` times when the reply states no answer). The judge's prompt
holds the action, sized by a typical action. Probing: one model call per question, no
judge. The offline judge sends nothing.
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
from privbench.suites.privacylens.dataset import DATA_DIR, PrivacyLensCase, load_privacylens
from privbench.suites.privacylens.options import (
    ACTION_MAX_TOKENS,
    PROBING,
    PROBING_MAX_TOKENS,
    PrivacyLensOptions,
    read_options,
)
from privbench.suites.privacylens.predictions import load_actions
from privbench.suites.privacylens.prompts import helpfulness_prompt, leakage_prompt
from privbench.suites.privacylens.record import PrivacyLensSampleRecord
from privbench.suites.privacylens.scorer import JUDGE_MAX_TOKENS, JUDGE_MAX_TRIES
from privbench.suites.privacylens.task import action_samples, probing_samples

TYPICAL_ACTION_TOKENS = 200
"""A typical final action: a thought and an e-mail or message of a paragraph or two."""
TYPICAL_JUDGE_TOKENS = 150
"""A judge's typical reply: a few sentences of reasoning, then the answer."""


def _add_judge(
    plan: CallPlan,
    cases: dict[str, PrivacyLensCase],
    samples: Sequence[Sample],
    answers: dict[str, str],
    protocol: str,
) -> None:
    """Each action's judge questions: one per sensitive item, and its helpfulness."""
    for sample in samples:
        case = cases[PrivacyLensSampleRecord.from_metadata(sample.metadata).case]
        action = answers.get(str(sample.id), "")
        extra = 0 if str(sample.id) in answers else TYPICAL_ACTION_TOKENS
        prompts = [
            *(
                leakage_prompt(case.trajectory.user_name, secret, action, protocol)
                for secret in case.trajectory.sensitive_info_items
            ),
            helpfulness_prompt(case, action, protocol),
        ]
        for prompt in prompts:
            plan.add(
                "judge",
                text_tokens(prompt) + extra,
                1,
                at_most=JUDGE_MAX_TRIES,
                output_typical=TYPICAL_JUDGE_TOKENS,
                output_limit=JUDGE_MAX_TOKENS,
            )


def eval_plan(
    data: str | Path | None,
    model: str,
    options: RunOptions,
    settings: PrivacyLensOptions,
    *,
    limit: int | None = None,
    only: Sequence[str] | None = None,
    command: str = "eval privacylens",
) -> CallPlan:
    """What ``eval privacylens`` will send (``only``: just these samples, as ``--resume``)."""
    cases = load_privacylens(data or DATA_DIR)
    probing = settings.part == PROBING
    if probing:
        samples = probing_samples(cases, settings.levels, settings.shuffled)
    else:
        samples = action_samples(cases, settings.prompt_types)
    samples = planned_items(samples, lambda s: str(s.id), limit, only)
    judge = None if probing else options.judge.model
    plan = CallPlan(command, model, judge)
    limit_tokens = options.generation.max_tokens or (
        PROBING_MAX_TOKENS if probing else ACTION_MAX_TOKENS
    )
    for sample in samples:
        assert isinstance(sample.input, str)
        plan.add(
            "model",
            text_tokens(sample.input),
            1,
            output_typical=2 if probing else TYPICAL_ACTION_TOKENS,
            output_limit=limit_tokens,
        )
    if probing:
        plan.notes.append("no judge call (probing answers are read, not judged)")
    elif judge is None:
        plan.notes.append("no judge call (the offline judge's rules grade)")
    else:
        plan.notes.append(
            "judge: one leakage question per sensitive item and one helpfulness question per action holding 'Action:' (counted for every case)"
        )
        _add_judge(plan, {c.name: c for c in cases}, samples, {}, options.protocol)
    return plan


def grade_plan(
    data: str | Path | None,
    predictions: str | Path,
    options: RunOptions,
    prompt_type: str = "naive",
    *,
    command: str = "grade privacylens",
) -> CallPlan:
    """What ``grade privacylens`` will send: the judge's questions about each action."""
    cases = load_privacylens(data or DATA_DIR)
    given = load_actions(predictions, cases, prompt_type)
    judge = options.judge.model
    plan = CallPlan(command, None, judge)
    if judge is None:
        plan.notes.append("no judge call (the offline judge's rules grade)")
        return plan
    samples = [s for s in action_samples(cases, given.prompt_types) if str(s.id) in given.answers]
    judged = {k: v for k, v in given.answers.items() if "Action:" in v}
    plan.notes.append(
        f"{len(given.answers) - len(judged)} actions without 'Action:' are not judged"
    )
    chosen = [s for s in samples if str(s.id) in judged]
    _add_judge(plan, {c.name: c for c in cases}, chosen, judged, options.protocol)
    return plan


def resume_plan(log: str | Path, options: RunOptions) -> CallPlan:
    """What ``--resume LOG`` will send: the log's unfinished samples, with its settings."""
    header, remaining = unfinished_items(log)
    identity = RunIdentity.from_log(header)
    args = header.eval.task_args or {}
    if identity.judge:
        options = replace(options, judge=parse_judge(identity.judge))
    if identity.model == NO_MODEL:
        return grade_plan(
            identity.data or None,
            str(identity.predictions),
            options,
            str(args.get("prompt_type") or "naive"),
            command="grade privacylens --resume",
        )
    probing = "levels" in args
    settings = read_options(
        PROBING if probing else None,
        args.get("prompt_types"),
        args.get("levels"),
        bool(args.get("shuffled", False)),
    )
    return eval_plan(
        identity.data or None,
        identity.model,
        options,
        settings,
        only=remaining,
        command="eval privacylens --resume",
    )
