"""The calls a VLM-GeoPrivacy run will make, counted before anything is sent.

Multiple choice: one model call per photo (its text and the photo's tokens), no judge.
Free form: one model call per photo and mode (the iterative mode up to four: the answer and
at most three follow-ups), and one granularity question per answer (re-asked up to
:data:`~.judging.JUDGE_MAX_TRIES` times when its reply states no letter; the iterative mode
asks one more after each of its answers), plus one place-name question per answer judged
exact (counted for every answer: the upper bound). The offline judge sends nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from privbench.images import image_size
from privbench.judges.choice import parse_judge
from privbench.runtime.cost.plan import CallPlan
from privbench.runtime.cost.resume import planned_items, unfinished_items
from privbench.runtime.cost.tokens import image_tokens, text_tokens
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.running import NO_MODEL, RunOptions
from privbench.suites.geoprivacy.dataset import load_geoprivacy, present_items
from privbench.suites.geoprivacy.judging import JUDGE_MAX_TOKENS, JUDGE_MAX_TRIES
from privbench.suites.geoprivacy.layout import image_path
from privbench.suites.geoprivacy.options import MAX_TOKENS, GeoPrivacyOptions, read_options
from privbench.suites.geoprivacy.predictions import load_answers, sample_id
from privbench.suites.geoprivacy.prompts import (
    FREE_FORM,
    ITERATIVE,
    MAX_FOLLOW_UPS,
    extraction_prompt,
    judge_prompt,
)
from privbench.suites.geoprivacy.task import prompt_of

TYPICAL_ANSWER_TOKENS = {"mcq": 14, "q7": 2, FREE_FORM: 150}
"""A typical reply: seven letters, one letter, or a paragraph placing the photo."""
TYPICAL_JUDGE_TOKENS = 2
"""The judge answers one letter."""


def _judge_calls(plan: CallPlan, texts: Sequence[str], asks: int) -> None:
    """The granularity and place-name questions about each answer text."""
    for text in texts:
        judge = judge_prompt(text)
        extract = extraction_prompt(text)
        plan.add("judge", text_tokens(judge.system + judge.user), asks, at_least=1,
                 at_most=asks * JUDGE_MAX_TRIES, output_typical=TYPICAL_JUDGE_TOKENS,
                 output_limit=JUDGE_MAX_TOKENS)  # fmt: skip
        plan.add("judge", text_tokens(extract.system + extract.user), 1, at_least=0,
                 output_typical=8, output_limit=JUDGE_MAX_TOKENS)  # fmt: skip


def eval_plan(
    data: str | Path,
    model: str,
    options: RunOptions,
    settings: GeoPrivacyOptions,
    *,
    limit: int | None = None,
    only: Sequence[str] | None = None,
    command: str = "eval geoprivacy",
) -> CallPlan:
    """What ``eval geoprivacy`` will send (``only``: just these samples, as ``--resume``)."""
    directory = Path(data)
    items = present_items(directory, load_geoprivacy(directory))
    keys = [(item, variant) for item in items for variant in settings.variants]
    keys = planned_items(keys, lambda k: sample_id(k[0].id, k[1]), limit, only)
    free_form = settings.protocol == FREE_FORM
    judge = options.judge.model if free_form else None
    plan = CallPlan(command, model, judge)
    limit_tokens = options.generation.max_tokens or MAX_TOKENS
    typical = TYPICAL_ANSWER_TOKENS[settings.protocol]
    for item, variant in keys:
        prompt = prompt_of(settings, variant)
        width, height = image_size(image_path(directory, item.image_id))
        tokens = text_tokens(prompt.system + prompt.user) + image_tokens(model, width, height)
        turns = 1 + MAX_FOLLOW_UPS if variant == ITERATIVE else 1
        plan.add("model", tokens, 1, at_most=turns, output_typical=typical,
                 output_limit=limit_tokens)  # fmt: skip
    plan.notes.append(f"{len(items):,} photos present of the benchmark's 1,200")
    if not free_form:
        plan.notes.append("no judge call (multiple-choice answers are read, not judged)")
    elif judge is None:
        plan.notes.append("no judge call (the offline rules label the granularity)")
    else:
        plan.notes.append(
            "judge: one granularity question per answer (the iterative mode: one per turn) "
            "and one place-name question per answer judged exact (counted for every answer)"
        )
        for _, variant in keys:
            asks = 1 + MAX_FOLLOW_UPS if variant == ITERATIVE else 1
            _judge_calls(plan, ["x" * 4 * TYPICAL_ANSWER_TOKENS[FREE_FORM]], asks)
    return plan


def grade_plan(
    data: str | Path,
    predictions: str | Path,
    options: RunOptions,
    mode: str | None = None,
    *,
    command: str = "grade geoprivacy",
) -> CallPlan:
    """What ``grade geoprivacy`` will send: the judge's questions about each answer."""
    given = load_answers(predictions, load_geoprivacy(Path(data)), mode)
    free_form = given.protocol == FREE_FORM
    judge = options.judge.model if free_form else None
    plan = CallPlan(command, None, judge)
    if not free_form:
        plan.notes.append("no judge call (multiple-choice answers are read, not judged)")
    elif judge is None:
        plan.notes.append("no judge call (the offline rules label the granularity)")
    else:
        _judge_calls(plan, [text.strip() for text in given.texts.values()], 1)
    return plan


def resume_plan(log: str | Path, options: RunOptions) -> CallPlan:
    """What ``--resume LOG`` will send: the log's unfinished samples, with its settings."""
    header, remaining = unfinished_items(log)
    identity = RunIdentity.from_log(header)
    args = header.eval.task_args or {}
    if identity.judge:
        options = replace(options, judge=parse_judge(identity.judge))
    if identity.model == NO_MODEL:
        return grade_plan(identity.data, str(identity.predictions), options,
                          args.get("mode"), command="grade geoprivacy --resume")  # fmt: skip
    protocol = str(args.get("protocol") or "mcq")
    settings = read_options(
        protocol,
        args.get("modes") if protocol == FREE_FORM else None,
        bool(args.get("heuristics", True)),
        bool(args.get("strict", False)),
    )
    return eval_plan(identity.data, identity.model, options, settings, only=remaining,
                     command="eval geoprivacy --resume")  # fmt: skip
