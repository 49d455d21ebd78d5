"""DecodingTrust's solvers: one completion per sample at the scenario's output limit, or a
stored completion.

Why a solver of its own: one run mixes scenarios whose reference limits differ (16, 32 and
64 tokens); each sample is answered with its scenario's limit unless ``--max-tokens`` set
one for all.
"""

from __future__ import annotations

from collections.abc import Mapping

from inspect_ai.model import CachePolicy, GenerateConfig, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from privbench.runtime.calls import generate_once
from privbench.suites.decodingtrust.options import MAX_TOKENS
from privbench.suites.decodingtrust.record import DecodingTrustSampleRecord


@solver
def complete(max_tokens: int | None = None, cache: bool = False) -> Solver:
    """The model completes the sample's messages once."""
    policy = CachePolicy(expiry=None, per_epoch=True) if cache else False

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        scenario = DecodingTrustSampleRecord.from_metadata(state.metadata).scenario
        limit = max_tokens or MAX_TOKENS[scenario]
        state.output = await generate_once(
            get_model(), state.messages, role="model", cache=policy,
            config=GenerateConfig(max_tokens=limit),
        )  # fmt: skip
        state.messages.append(state.output.message)
        return state

    return solve


@solver
def stored_completion(completions: Mapping[str, str]) -> Solver:
    """The sample's completion from the generation files instead of a model call."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        text = completions.get(str(state.sample_id), "")
        state.output = ModelOutput.from_content(model="predictions", content=text)
        return state

    return solve
