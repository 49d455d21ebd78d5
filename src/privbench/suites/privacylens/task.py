"""inspect tasks for PrivacyLens: ``privacylens`` (the agent's final action),
``privacylens_probing`` (the multiple-choice questions) and ``privacylens_grade``.

One sample per case and agent prompt type (final action), or per case, level and variant
(probing); each input is the reference's prompt byte for byte (:mod:`.prompts`), in the
reference's case order. The model answers at temperature 0 with at most 400 tokens (a final
action) or 5 (a probing answer), as the reference asks API models. Registered with inspect
(``inspect eval privbench/privacylens``); there, the judge is the ``grader`` model role or
``-T judge=offline``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Solver

from privbench.dataset_identity import task_metadata
from privbench.judges.choice import parse_judge
from privbench.runtime.solvers import answer_once
from privbench.suites.privacylens.dataset import DATA_DIR, PrivacyLensCase, load_privacylens
from privbench.suites.privacylens.options import (
    ACTION,
    ACTION_MAX_TOKENS,
    PROBING,
    PROBING_MAX_TOKENS,
    read_options,
)
from privbench.suites.privacylens.predictions import action_id, load_actions
from privbench.suites.privacylens.prompts import PAPER, agent_prompt, is_swapped, probe, swapped
from privbench.suites.privacylens.record import PrivacyLensSampleRecord
from privbench.suites.privacylens.scorer import privacylens_scorer
from privbench.suites.privacylens.scoring import ORIGINAL, SHUFFLED
from privbench.suites.privacylens.solvers import stored_action


def _about(case: PrivacyLensCase, **fields: object) -> dict[str, object]:
    """A sample's metadata: the case, its application and source, and ``fields``."""
    return PrivacyLensSampleRecord.model_validate(
        {
            "case": case.name,
            "index": case.index,
            "application": case.application,
            "source": case.source,
            "final_tool": case.trajectory.final_action,
            "items": len(case.trajectory.sensitive_info_items),
            **fields,
        }
    ).model_dump(exclude_defaults=True)


def action_samples(cases: Sequence[PrivacyLensCase], prompt_types: Sequence[str]) -> list[Sample]:
    """Each case's agent prompt per type, case by case in the file's order."""
    return [
        Sample(
            id=action_id(case.name, prompt_type),
            input=agent_prompt(case, prompt_type),
            metadata=_about(case, part=ACTION, prompt_type=prompt_type),
        )
        for case in cases
        for prompt_type in prompt_types
    ]


def probe_id(case: str, level: str, variant: str) -> str:
    """The sample id of one probing question (``main42:seed``, ``main42:seed:shuffled``)."""
    return f"{case}:{level}" + ("" if variant == ORIGINAL else f":{variant}")


def probing_samples(
    cases: Sequence[PrivacyLensCase], levels: Sequence[str], shuffled: bool
) -> list[Sample]:
    """Each case's question per level (the reference's order: case, then level), and with
    ``shuffled`` the same question again with its choices swapped on a seeded half."""
    samples: list[Sample] = []
    for case in cases:
        for level in levels:
            question = probe(case, level)
            for variant in (ORIGINAL, SHUFFLED) if shuffled else (ORIGINAL,):
                swap = variant == SHUFFLED and is_swapped(case.name, level)
                samples.append(
                    Sample(
                        id=probe_id(case.name, level, variant),
                        input=swapped(question) if swap else question,
                        metadata=_about(
                            case, part=PROBING, level=level, variant=variant, swapped=swap
                        ),
                    )
                )
    return samples


def _task(
    samples: list[Sample],
    solver: Solver,
    directory: Path,
    judge: str | None,
    max_tokens: int,
    protocol: str = PAPER,
    **settings: object,
) -> Task:
    roles = parse_judge(judge).grader_role() if judge is not None else None
    judged = {"judge_protocol": protocol} if judge is not None else {}
    return Task(
        dataset=MemoryDataset(samples, name="privacylens"),
        solver=solver,
        scorer=privacylens_scorer(data=str(directory), judge=judge, protocol=protocol),
        config=GenerateConfig(max_tokens=max_tokens),
        model_roles=roles,
        metadata=task_metadata("privacylens", directory, judge=judge, **judged, **settings),
    )


@task
def privacylens(
    data: str | None = None,
    prompt_types: str = "naive",
    judge: str | None = None,
    protocol: str = PAPER,
    cache: bool = False,
) -> Task:
    """PrivacyLens: the model writes each case's final action; the judge says per sensitive
    item whether it leaks and how helpful it is.

    Args:
        data: a folder holding ``main_data.json``; the shipped copy if omitted.
        prompt_types: comma list of ``naive``, ``privacy_enhanced`` (the agent prompt).
        judge: the judge model, or ``offline``; else the ``grader`` role.
        protocol: the judge's: ``paper`` (the reference's prompts) or ``hardened`` (the action
            fenced as untrusted data).
        cache: use inspect's model cache for the model's calls.
    """
    options = read_options(ACTION, prompt_types)
    directory = Path(data) if data else DATA_DIR
    samples = action_samples(load_privacylens(directory), options.prompt_types)
    return _task(samples, answer_once(cache), directory, judge, ACTION_MAX_TOKENS, protocol)


@task
def privacylens_probing(
    data: str | None = None,
    levels: str = "seed,vignette,trajectory,trajectory_enhancing",
    shuffled: bool = False,
    cache: bool = False,
) -> Task:
    """PrivacyLens probing: "Is it acceptable …? (A) Yes (B) No" at each level; no judge.

    Args:
        data: a folder holding ``main_data.json``; the shipped copy if omitted.
        levels: comma list of seed, vignette, trajectory, trajectory_enhancing.
        shuffled: also ask each question with its choices swapped on a seeded half.
        cache: use inspect's model cache for the model's calls.
    """
    options = read_options(PROBING, levels=levels, shuffled=shuffled)
    directory = Path(data) if data else DATA_DIR
    samples = probing_samples(load_privacylens(directory), options.levels, options.shuffled)
    return _task(samples, answer_once(cache), directory, None, PROBING_MAX_TOKENS)


@task
def privacylens_grade(
    predictions: str,
    data: str | None = None,
    prompt_type: str = "naive",
    judge: str | None = None,
    protocol: str = PAPER,
) -> Task:
    """Judge final actions made elsewhere: the reference's ``name,final_action`` CSV or
    privbench's answers JSON.

    Args:
        predictions: the actions (see :mod:`privbench.suites.privacylens.predictions`).
        data: a folder holding ``main_data.json``; the shipped copy if omitted.
        prompt_type: the agent prompt the actions answered, where the file does not say.
        judge: the judge model, or ``offline``; else the ``grader`` role.
        protocol: the judge's: ``paper`` or ``hardened``.
    """
    directory = Path(data) if data else DATA_DIR
    cases = load_privacylens(directory)
    options = read_options(ACTION, prompt_type)
    given = load_actions(predictions, cases, options.prompt_types[0])
    samples = [s for s in action_samples(cases, given.prompt_types) if str(s.id) in given.answers]
    return _task(
        samples,
        stored_action(given.answers),
        directory,
        judge,
        ACTION_MAX_TOKENS,
        protocol,
        predictions=predictions,
    )
