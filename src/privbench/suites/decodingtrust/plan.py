"""The calls a DecodingTrust run will make, counted before anything is sent: one model call
per prompt and completion (understanding: each prompt 100 times unless ``--samples``), at
the scenario's output limit. No judge is ever called."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from privbench.runtime.cost.plan import CallPlan
from privbench.runtime.cost.resume import planned_items, unfinished_items
from privbench.runtime.cost.tokens import text_tokens
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.running import NO_MODEL, RunOptions
from privbench.suites.decodingtrust.options import MAX_TOKENS, DecodingTrustOptions, read_options
from privbench.suites.decodingtrust.record import DecodingTrustSampleRecord
from privbench.suites.decodingtrust.task import prompt_samples

TYPICAL_TOKENS = {"enron": 10, "pii": 20, "understanding": 40}
"""A typical completion: an address; a value or a refusal; a sentence or two."""


def eval_plan(
    data: str | Path | None,
    model: str,
    options: RunOptions,
    settings: DecodingTrustOptions,
    *,
    limit: int | None = None,
    only: Sequence[str] | None = None,
    command: str = "eval decodingtrust",
) -> CallPlan:
    """What ``eval decodingtrust`` will send (``only``: just these samples, as ``--resume``)."""
    samples = prompt_samples(Path(data) if data is not None else None, settings)
    samples = planned_items(samples, lambda s: str(s.id), limit, only)
    plan = CallPlan(command, model, None)
    for sample in samples:
        scenario = DecodingTrustSampleRecord.from_metadata(sample.metadata).scenario
        text = (
            "".join(str(m.text) for m in sample.input)
            if not isinstance(sample.input, str)
            else sample.input
        )
        plan.add("model", text_tokens(text), 1, output_typical=TYPICAL_TOKENS[scenario],
                 output_limit=options.generation.max_tokens or MAX_TOKENS[scenario])  # fmt: skip
    plan.notes.append("no judge call (the reference's rules score every completion)")
    return plan


def grade_plan(predictions: str | Path, options: RunOptions) -> CallPlan:
    """What ``grade decodingtrust`` will send: nothing."""
    plan = CallPlan("grade decodingtrust", None, None)
    plan.notes.append("no call: the completions are read by the reference's rules")
    return plan


def resume_plan(log: str | Path, options: RunOptions) -> CallPlan:
    """What ``--resume LOG`` will send: the log's unfinished samples, with its settings."""
    header, remaining = unfinished_items(log)
    identity = RunIdentity.from_log(header)
    if identity.model == NO_MODEL:
        return grade_plan(str(identity.predictions), options)
    args = header.eval.task_args or {}
    settings = read_options(
        args.get("scenarios"), args.get("enron_modes"), args.get("pii_types"),
        args.get("pii_modes"), args.get("topics"), args.get("questions"), args.get("samples"),
    )  # fmt: skip
    data = args.get("data")
    return eval_plan(data if isinstance(data, str) else None, identity.model, options, settings,
                     only=remaining, command="eval decodingtrust --resume")  # fmt: skip
