"""inspect tasks for VLM-GeoPrivacy: ``geoprivacy`` (ask the model about each photo) and
``geoprivacy_grade`` (judge answers made elsewhere).

One sample per photo present and protocol (or free-form mode); each request is the
reference's system message and user message (:mod:`.prompts`, :func:`.solvers.request`),
in the evaluator's order (ids sorted as text). The model answers with the reference's
settings (temperature 0.7 unless ``--temperature``, top-p 0.95, at most 1,200 tokens).
Registered with inspect (``inspect eval privbench/geoprivacy``); there, the judge of
free-form answers is the ``grader`` model role or ``-T judge=offline``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Solver

from privbench.dataset_identity import task_metadata
from privbench.judges.choice import parse_judge
from privbench.runtime.errors import UsageError
from privbench.suites.geoprivacy.dataset import (
    GeoItem,
    annotation_hash,
    load_geoprivacy,
    present_items,
)
from privbench.suites.geoprivacy.layout import FIGSTEP_FILE, image_path
from privbench.suites.geoprivacy.options import (
    MAX_TOKENS,
    TOP_P,
    GeoPrivacyOptions,
    read_options,
)
from privbench.suites.geoprivacy.predictions import load_answers, sample_id
from privbench.suites.geoprivacy.prompts import (
    FREE_FORM,
    Q7_ONLY,
    Prompt,
    free_form_prompt,
    mcq_prompt,
)
from privbench.suites.geoprivacy.record import GeoSampleRecord
from privbench.suites.geoprivacy.scorer import geoprivacy_scorer
from privbench.suites.geoprivacy.solvers import answer, request, stored_answers


def prompt_of(options: GeoPrivacyOptions, variant: str) -> Prompt:
    """The request of one protocol or free-form mode."""
    if options.protocol == FREE_FORM:
        return free_form_prompt(variant)
    return mcq_prompt(options.heuristics, options.protocol == Q7_ONLY, options.strict)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _about(
    item: GeoItem, options: GeoPrivacyOptions, variant: str, image_sha256: str = ""
) -> dict[str, object]:
    return GeoSampleRecord(
        item=item.id,
        image_id=item.image_id,
        source=item.source,
        image_sha256=image_sha256,
        protocol=options.protocol,
        mode=variant if options.protocol == FREE_FORM else "",
        heuristics=options.heuristics and options.protocol != FREE_FORM,
        strict=options.strict,
        gold=dict(item.gold),
        latitude=item.latitude,
        longitude=item.longitude,
    ).model_dump()


def photo_samples(
    directory: Path, items: Sequence[GeoItem], options: GeoPrivacyOptions
) -> list[Sample]:
    """Each photo present under each protocol or mode, in the evaluator's order."""
    figstep = directory / FIGSTEP_FILE
    samples: list[Sample] = []
    for item in present_items(directory, items):
        photo = image_path(directory, item.image_id)
        digest = _sha256(photo)
        for variant in options.variants:
            prompt = prompt_of(options, variant)
            if prompt.figstep and not figstep.is_file():
                raise UsageError(f"{figstep}: missing (the malicious request's second image; "
                                 "run privbench download geoprivacy)")  # fmt: skip
            samples.append(
                Sample(
                    id=sample_id(item.id, variant),
                    input=request(prompt, str(photo), str(figstep)),
                    metadata=_about(item, options, variant, digest),
                )
            )
    return samples


def _task(
    samples: list[Sample],
    solver: Solver,
    directory: Path,
    judge: str | None,
    config: GenerateConfig,
    **settings: object,
) -> Task:
    roles = parse_judge(judge).grader_role() if judge is not None else None
    return Task(
        dataset=MemoryDataset(samples, name="geoprivacy"),
        solver=solver,
        scorer=geoprivacy_scorer(judge=judge),
        config=config,
        model_roles=roles,
        metadata=task_metadata(
            "geoprivacy",
            directory,
            judge=judge,
            **settings,
            dataset_hash=annotation_hash(directory),  # the annotations; photos per sample
        ),
    )


@task
def geoprivacy(
    data: str,
    protocol: str = "mcq",
    modes: str = "zs",
    heuristics: bool = True,
    strict: bool = False,
    judge: str | None = None,
    cache: bool = False,
) -> Task:
    """VLM-GeoPrivacy: does the model disclose where a photo was taken at the granularity
    its context allows?

    Args:
        data: a downloaded copy (``privbench download geoprivacy``) or the reference's
            ``data/`` folder with its images.
        protocol: ``mcq`` (the seven questions), ``q7`` (the granularity question alone) or
            ``free-form`` ("Where is this photo taken?", judged for granularity).
        modes: free form: comma list of ``zs``, ``iter-cot``, ``malicious``.
        heuristics: multiple choice: each question's heuristics in the prompt.
        strict: multiple choice: the strict ``Q1: <label>`` instruction (open models').
        judge: free form: the judge model, or ``offline``; else the ``grader`` role.
        cache: use inspect's model cache for the model's calls.
    """
    options = read_options(protocol, modes if protocol == FREE_FORM else None, heuristics, strict)
    directory = Path(data)
    samples = photo_samples(directory, load_geoprivacy(directory), options)
    if not samples:
        raise UsageError(f"{directory}: no photo of the benchmark is present (run privbench "
                         "download geoprivacy)")  # fmt: skip
    judged = judge if options.protocol == FREE_FORM else None
    return _task(
        samples,
        answer(judged, cache),
        directory,
        judged,
        GenerateConfig(max_tokens=MAX_TOKENS, top_p=TOP_P),
    )


@task
def geoprivacy_grade(
    predictions: str,
    data: str,
    mode: str | None = None,
    judge: str | None = None,
) -> Task:
    """Grade answers made elsewhere: the reference's released response files or
    privbench's answers JSON (free-form answers are judged again).

    Args:
        predictions: the answers (see :mod:`privbench.suites.geoprivacy.predictions`).
        data: the annotations (a downloaded copy or the reference's ``data/`` folder).
        mode: free form: the mode the answers answered, where the file's name does not say.
        judge: free form: the judge model, or ``offline``; else the ``grader`` role.
    """
    directory = Path(data)
    items = load_geoprivacy(directory)
    given = load_answers(predictions, items, mode)
    options = GeoPrivacyOptions(given.protocol, given.variants if given.protocol == FREE_FORM
                                else (), given.heuristics)  # fmt: skip
    samples: list[Sample] = []
    for item in items:
        for variant in given.variants:
            key = sample_id(item.id, variant)
            if key not in given.ids:
                continue
            about = _about(item, options, variant)
            if item.id in given.coordinates:
                about["reference_coordinate"] = list(given.coordinates[item.id])
            samples.append(Sample(id=key, input=prompt_of(options, variant).user, metadata=about))
    judged = judge if given.protocol == FREE_FORM else None
    return _task(
        samples,
        stored_answers(given.texts, given.parsed),
        directory,
        judged,
        GenerateConfig(),
        predictions=predictions,
    )
