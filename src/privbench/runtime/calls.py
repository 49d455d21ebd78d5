"""Model calls that retry what the provider does not, one call at a time, and count it.

Why: inspect retries rate limits, server errors and time-outs per call, but a reply with
HTTP 200 whose body is not JSON (a proxy's error page, a connection cut mid-body) or that
holds no choice raises at once; inspect's *sample* retry would then run the whole sample
again — a judge fault would re-pay the model's answer, and a malformed answer would
re-pay every judge call. So privbench runs samples once (``retry_on_error`` 0) and
retries here only the call that failed, up to the model's ``max_retries``. Each retry is
counted per role (``model``, ``judge``) in the sample's store; the scorers put the counts
in the score metadata and every summary shows them (a retried call may have been paid).

A reply text with a lone surrogate (invalid UTF-16 that some servers emit) cannot be
written to the log or sent to the judge; it is replaced with U+FFFD here, and counted.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from typing import Any, Literal

import openai
from inspect_ai.model import ChatMessage, ContentText, Model, ModelOutput
from inspect_ai.util import store

from privbench.runtime import answers
from privbench.runtime.records.call_counts import CallCountsRecord

Role = Literal["model", "judge"]
RETRIES_KEY = "privbench_call_retries"
"""Store key: role → calls retried after a malformed or empty reply."""
REPLACED_KEY = "privbench_replaced_characters"
"""Store key: role → replies whose invalid characters (lone surrogates) were replaced."""
RETRY_PAUSE_S = 0.5

_SURROGATE = re.compile("[\ud800-\udfff]")


class EmptyReply(RuntimeError):
    """The endpoint answered with no choice at all."""


TRANSIENT: tuple[type[BaseException], ...] = (
    json.JSONDecodeError,
    openai.APIResponseValidationError,
    EmptyReply,
)
"""Failures of one reply that another try of the same call can cure."""


def _count(key: str, role: Role) -> None:
    counts: dict[str, int] = dict(store().get(key, {}))
    counts[role] = counts.get(role, 0) + 1
    store().set(key, counts)


def call_counts() -> CallCountsRecord:
    """This sample's retried calls and replaced replies, per role (for score metadata)."""
    return CallCountsRecord(
        call_retries=dict(store().get(RETRIES_KEY, {})),
        replaced_characters=dict(store().get(REPLACED_KEY, {})),
    )


def sample_call_counts() -> CallCountsRecord:
    """:func:`call_counts`, or none outside a sample (a scorer called directly)."""
    try:
        return call_counts()
    except Exception:  # no sample context: nothing was counted
        return CallCountsRecord()


def without_surrogates(output: ModelOutput) -> tuple[ModelOutput, bool]:
    """``output`` with lone surrogates in its text replaced by U+FFFD, and whether any was."""
    replaced = False
    if _SURROGATE.search(output.completion):
        output.completion = _SURROGATE.sub("\ufffd", output.completion)
        replaced = True
    for choice in output.choices:
        message = choice.message
        if isinstance(message.content, str):
            if _SURROGATE.search(message.content):
                message.content = _SURROGATE.sub("\ufffd", message.content)
                replaced = True
            continue
        for part in message.content:
            if isinstance(part, ContentText) and _SURROGATE.search(part.text):
                part.text = _SURROGATE.sub("\ufffd", part.text)
                replaced = True
    return output, replaced


async def generate_once(
    model: Model,
    input: str | Sequence[ChatMessage],
    *,
    role: Role,
    **kwargs: Any,
) -> ModelOutput:
    """``model.generate`` with a malformed or empty reply retried (this call only).

    In a run privbench started, an answer of the model under test is kept as it arrives
    and, when a resumed sample asks the same again, taken from there
    (:mod:`privbench.runtime.answers`): its retries and replacements count as before.
    """
    store = answers.active_store() if role == "model" else None
    keyed = answers.call_key(str(model), input, **kwargs) if store is not None else None
    if store is not None and keyed is not None:
        kept = store.get(keyed[0])
        if kept is not None:
            for _ in range(kept.retries):
                _count(RETRIES_KEY, role)
            if kept.replaced:
                _count(REPLACED_KEY, role)
            return kept.output.model_copy(deep=True)
    max_retries = model.config.max_retries
    tries = 1 + (3 if max_retries is None else max(0, max_retries))
    for attempt in range(tries):
        try:
            output = await model.generate(
                input if isinstance(input, str) else list(input), **kwargs
            )
            if not output.choices:
                raise EmptyReply("the endpoint returned no choices (an empty reply)")
        except TRANSIENT:
            if attempt + 1 >= tries:
                raise
            _count(RETRIES_KEY, role)
            await asyncio.sleep(RETRY_PAUSE_S * (attempt + 1))
            continue
        output, replaced = without_surrogates(output)
        if replaced:
            _count(REPLACED_KEY, role)
        if store is not None and keyed is not None:
            store.put(keyed[0], keyed[1], answers.KeptAnswer(output, attempt, replaced))
        return output
    raise AssertionError("unreachable")  # the loop returns or raises


class CallCounts:
    """A run's retried calls and replaced replies, summed from its score metadata."""

    def __init__(self) -> None:
        self.retries: dict[str, int] = {}
        self.replaced: dict[str, int] = {}

    def add(self, record: CallCountsRecord) -> None:
        for counts, total in (
            (record.call_retries, self.retries),
            (record.replaced_characters, self.replaced),
        ):
            for role, count in counts.items():
                total[role] = total.get(role, 0) + count

    def record(self) -> dict[str, dict[str, int]]:
        """``calls_retried`` and ``replaced_characters`` of ``--json`` (per role)."""
        roles = ("model", "judge")
        return {
            "calls_retried": {role: self.retries.get(role, 0) for role in roles},
            "replaced_characters": {role: self.replaced.get(role, 0) for role in roles},
        }

    def line(self) -> str | None:
        """One summary line when anything was retried or replaced, else None."""
        if not self.retries and not self.replaced:
            return None
        record = self.record()
        retried = ", ".join(f"{r} {n}" for r, n in record["calls_retried"].items())
        replaced = ", ".join(f"{r} {n}" for r, n in record["replaced_characters"].items())
        return (
            f"calls retried after a malformed or empty reply (each may have been paid): "
            f"{retried}; replies with invalid characters replaced: {replaced}"
        )
