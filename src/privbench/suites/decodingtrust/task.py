"""inspect tasks for DecodingTrust privacy: ``decodingtrust`` (ask the model) and
``decodingtrust_grade`` (read completions made elsewhere).

One sample per prompt and completion (understanding: each prompt 100 times, as the
reference asks it), in the reference's order: scenario, then setting, then record. Each
input is the reference's messages byte for byte (:mod:`.prompts`); the model samples at
temperature 1 (the reference's) with the scenario's output limit. Registered with inspect
(``inspect eval privbench/decodingtrust``); no judge: the scoring is rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
)

from privbench.dataset_identity import task_metadata
from privbench.runtime.errors import UsageError
from privbench.suites.decodingtrust.dataset import load_enron_data
from privbench.suites.decodingtrust.options import DecodingTrustOptions, read_options
from privbench.suites.decodingtrust.predictions import GivenRecord, load_generations
from privbench.suites.decodingtrust.prompts import (
    ENRON,
    PII,
    SCORED_QUESTION,
    UNDERSTANDING,
    Message,
    PrivacyPrompt,
    enron_prompts,
    pii_prompts,
    pii_setting,
    understanding_prompts,
    understanding_setting,
)
from privbench.suites.decodingtrust.record import DecodingTrustSampleRecord
from privbench.suites.decodingtrust.scorer import decodingtrust_scorer
from privbench.suites.decodingtrust.solvers import complete, stored_completion

UNDERSTANDING_ONLY = Path("understanding-only")
"""The data folder recorded by a run of the understanding scenario alone (it reads none)."""


def _message(message: Message) -> ChatMessage:
    if message.role == "system":
        return ChatMessageSystem(content=message.content)
    if message.role == "assistant":
        return ChatMessageAssistant(content=message.content)
    return ChatMessageUser(content=message.content)


def sample_id(scenario: str, setting: str, index: int, repeat: int = 0) -> str:
    """``enron:one-shot-a:12``, ``pii:ssn_3shotprotect:4``, ``understanding:divorce_q1:3:57``."""
    base = f"{scenario}:{setting}:{index}"
    return base if scenario != UNDERSTANDING else f"{base}:{repeat}"


def _about(
    scenario: str, setting: str, index: int, repeat: int, gt: str, scored: bool
) -> dict[str, object]:
    return DecodingTrustSampleRecord(scenario=scenario, setting=setting, index=index,
                                     repeat=repeat, gt=gt, scored=scored).model_dump()  # fmt: skip


def _prompts(
    data: Path | None, options: DecodingTrustOptions
) -> Iterator[tuple[str, str, bool, list[PrivacyPrompt]]]:
    """(scenario, setting, scored, prompts) in the reference's order."""
    enron = load_enron_data(data) if options.needs_data and data is not None else None
    if options.needs_data and enron is None:
        raise UsageError("the Enron and PII scenarios need the Enron files: run privbench "
                         "download decodingtrust (or --scenario understanding)")  # fmt: skip
    if ENRON in options.scenarios and enron is not None:
        for mode in options.enron_modes:
            yield ENRON, mode, True, enron_prompts(mode, enron.shots(mode), enron.email2name)
    if PII in options.scenarios and enron is not None:
        for pii_type in options.chosen_pii_types:
            for mode in options.pii_modes:
                yield (
                    PII,
                    pii_setting(pii_type, mode),
                    True,
                    pii_prompts(enron.five_shot, pii_type, mode),
                )
    if UNDERSTANDING in options.scenarios:
        for topic in options.chosen_topics:
            for question in options.questions:
                yield (UNDERSTANDING, understanding_setting(topic, question),
                       question == SCORED_QUESTION, understanding_prompts(topic, question))  # fmt: skip


def prompt_samples(data: Path | None, options: DecodingTrustOptions) -> list[Sample]:
    """Every sample of a run, in the reference's order."""
    samples: list[Sample] = []
    for scenario, setting, scored, prompts in _prompts(data, options):
        for index, prompt in enumerate(prompts):
            for repeat in range(options.samples_of(scenario)):
                samples.append(
                    Sample(
                        id=sample_id(scenario, setting, index, repeat),
                        input=[_message(m) for m in prompt.messages],
                        metadata=_about(scenario, setting, index, repeat, prompt.gt, scored),
                    )
                )
    return samples


@task
def decodingtrust(
    data: str | None = None,
    scenarios: str = "enron,pii,understanding",
    enron_modes: str | None = None,
    pii_types: str | None = None,
    pii_modes: str | None = None,
    topics: str | None = None,
    questions: str = "1",
    samples: int | None = None,
    max_tokens: int | None = None,
    cache: bool = False,
) -> Task:
    """DecodingTrust privacy: does the model complete people's e-mail addresses, reveal the
    personal data a conversation told it to protect, and tell a secret it was told in
    confidence?

    Args:
        data: the Enron files (``privbench download decodingtrust``); not needed for
            ``scenarios=understanding``.
        scenarios: comma list of ``enron``, ``pii``, ``understanding``.
        enron_modes: comma list of Enron modes (default: the 24 built).
        pii_types: comma list of PII types (default: the 12 scored).
        pii_modes: comma list of ``0shotattack``, ``3shotprotect``, ``3shotattack``.
        topics: comma list of understanding topics (default: all eight).
        questions: understanding questions (1 is scored; 2, 3 reported beside).
        samples: completions per prompt (default: the reference's: 1; understanding 100).
        max_tokens: one output limit for every scenario (default: 16, 32, 64).
        cache: use inspect's model cache for the model's calls.
    """
    options = read_options(scenarios, enron_modes, pii_types, pii_modes, topics, questions, samples)
    directory = Path(data) if data else None
    records = prompt_samples(directory, options)
    recorded = directory if directory is not None else UNDERSTANDING_ONLY
    return Task(
        dataset=MemoryDataset(records, name="decodingtrust"),
        solver=complete(max_tokens, cache),
        scorer=decodingtrust_scorer(),
        metadata=task_metadata("decodingtrust", recorded, **_hash_of(directory)),
    )


def _hash_of(directory: Path | None) -> dict[str, object]:
    """The run's ``dataset_hash``: the Enron files' (None for understanding alone, whose
    prompts come from privbench's shipped templates)."""
    if directory is None:
        import hashlib

        from privbench.suites.decodingtrust.prompts import TEMPLATES_FILE

        return {"dataset_hash": hashlib.sha256(TEMPLATES_FILE.read_bytes()).hexdigest()}
    return {}


def given_samples(records: list[GivenRecord]) -> tuple[list[Sample], dict[str, str]]:
    """A sample per given completion (its text kept for the solver), in file order."""
    samples: list[Sample] = []
    completions: dict[str, str] = {}
    repeats: dict[tuple[str, int], int] = {}
    for record in records:
        index = record.index
        repeat = 0
        if record.scenario == UNDERSTANDING:  # the prompt is the wording; count its repeats
            key = (record.setting, hash(record.gt))
            repeat = repeats.get(key, 0)
            repeats[key] = repeat + 1
        key_id = sample_id(record.scenario, record.setting, index, repeat)
        completions[key_id] = record.continuation
        samples.append(
            Sample(id=key_id, input=record.setting,
                   metadata=_about(record.scenario, record.setting, index, repeat, record.gt,
                                   record.scored))
        )  # fmt: skip
    return samples, completions


@task
def decodingtrust_grade(predictions: str, model: str | None = None) -> Task:
    """Read completions made elsewhere: the reference's generation files.

    Args:
        predictions: a generations folder (``enron/``, ``pii/``, ``understanding/``) or file.
        model: the model whose files to read where the folder holds several.
    """
    given = load_generations(predictions, model)
    samples, completions = given_samples(given.records)
    return Task(
        dataset=MemoryDataset(samples, name="decodingtrust"),
        solver=stored_completion(completions),
        scorer=decodingtrust_scorer(),
        metadata=task_metadata(
            "decodingtrust", Path(predictions), predictions=predictions, graded_model=given.model
        ),
    )
