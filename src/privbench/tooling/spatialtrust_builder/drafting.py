"""A drafter model's first annotation of each capture, run through inspect like ``eval``.

Why a model drafts: the paper's annotators corrected drafts written by a model rather than
starting from an empty image; a draft is only a starting point, never ground truth (every
drafted image stays ``draft`` until a person reviews it). The drafter sees the capture with
the paper's system prompt and is asked, in one structured answer, for every visible
background or non-primary-subject element: a short name, its category (direct, indirect,
or near miss), an evidence box and one sentence why.

Replies are read the way SpatialTrust answers are (:mod:`~privbench.suites.spatialtrust.answer_text`,
:mod:`~privbench.suites.spatialtrust.box_values`): reasoning blocks dropped, the JSON found in
fences or prose, boxes in any written form, converted from the run's ``--box-format``. A
reply with no readable element list is counted as unreadable and its draft left empty; an
element without a readable name, category or box is counted and left out — neither is
ever silently turned into "nothing here".
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog, EvalSampleSummary
from inspect_ai.model import (
    CachePolicy,
    ChatMessageUser,
    ContentImage,
    get_model,
)
from inspect_ai.scorer import Score, Scorer, Target, accuracy, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from privbench.runtime.calls import generate_once, sample_call_counts
from privbench.runtime.log_reading import finished_samples
from privbench.suites.spatialtrust.annotation import CATEGORIES, Category, SceneElement
from privbench.suites.spatialtrust.answer_text import final_text, json_values
from privbench.suites.spatialtrust.box_values import box_values
from privbench.suites.spatialtrust.boxes import BoxConvention, check_box, get_convention
from privbench.suites.spatialtrust.prompts import SYSTEM_PROMPT
from privbench.suites.spatialtrust.reading import NAME_KEYS, WHY_KEYS
from privbench.suites.spatialtrust.solvers import sample_image, stage_messages
from privbench.tooling.spatialtrust_builder.manifest import BuildManifest, read_manifest
from privbench.tooling.spatialtrust_builder.record import (
    DRAFT_SCORER,
    DraftElementRecord,
    DraftScoreRecord,
)

DRAFT_TASK = "spatialtrust_draft"

DRAFT_INSTRUCTIONS = """{size_line}

List every visible element in the background or non-primary-subject area that matters for privacy in this verification capture:
- direct: a direct sensitive factor (it discloses sensitive information in this image);
- indirect: an indirect sensitive factor (it creates a possibility or risk of disclosure);
- near_miss: an element that looks like a sensitive factor but is not one (a switched-off screen, a camera facing away, a blank whiteboard).
Do not list the primary subject.

Answer with one JSON object and nothing else, in this shape:
{{"elements": [{{"name": "a short noun phrase", "category": "direct", "box": [x1, y1, x2, y2], "why": "one sentence"}}]}}
One box per element. If there is nothing to list, answer {{"elements": []}}.
Boxes are {boxes}."""


def draft_prompt(width: int, height: int, convention: BoxConvention) -> str:
    """The user turn beside the capture: the task, the answer shape, the box convention."""
    return DRAFT_INSTRUCTIONS.format(
        size_line=f"The image is {width}×{height} pixels.",
        boxes=convention.describe(width, height),
    )


def draft_prompt_hash() -> str:
    """The drafting prompts' identity (system prompt and instructions), for ``build.json``."""
    text = f"{SYSTEM_PROMPT}\n\n{DRAFT_INSTRUCTIONS}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# --- reading a draft -------------------------------------------------------------------------

UNREADABLE = "no element list found (no JSON object or list of elements)"

_CATEGORY_WORDS: tuple[tuple[re.Pattern[str], Category], ...] = (
    (re.compile(r"near[\s_-]*miss|not\s+a\s+(?:sensitive\s+)?factor|look[\s-]*alike|benign"), "near_miss"),
    (re.compile(r"\bindirect"), "indirect"),
    (re.compile(r"\bdirect"), "direct"),
)  # fmt: skip
"""Category spellings drafters use ("Direct sensitive factor", "near-miss", "indirect_factor");
checked in this order, since "indirect" contains "direct"."""
CATEGORY_KEYS = ("category", "type", "kind", "class", "role")
LIST_KEYS = ("elements", "factors", "items", "objects", "annotations", "detections")
BOX_KEYS = ("box", "bbox", "bbox_2d", "box_2d", "bounding_box", "evidence", "coordinates")


def read_category(value: object) -> Category | None:
    """A drafter's category as ``direct`` / ``indirect`` / ``near_miss``, or None."""
    if not isinstance(value, str):
        return None
    text = value.strip().lower()
    for pattern, category in _CATEGORY_WORDS:
        if pattern.search(text):
            return category
    return None


@dataclass(frozen=True)
class DraftReading:
    """What one reply gave: the elements read, and what could not be read."""

    elements: tuple[SceneElement, ...]
    failure: str | None = None
    """Why the reply gave no element list at all (the draft is then empty)."""
    skipped: tuple[str, ...] = field(default=())
    """Per element left out: why (no name, unknown category, invalid box)."""


def _first_text(entry: Mapping[object, object], keys: Sequence[str]) -> str:
    for key in keys:
        value = entry.get(key)
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())
    return ""


def _element_list(text: str) -> list[object] | None:
    """The reply's list of element objects: under an element key, or a bare list."""
    values = json_values(final_text(text))
    for value in reversed(values):  # the last answer wins, as for SpatialTrust answers
        if isinstance(value, dict):
            for key in LIST_KEYS:
                listed = value.get(key)
                if isinstance(listed, list):
                    return listed
            if any(k in value for k in NAME_KEYS) and any(k in value for k in CATEGORY_KEYS):
                return [value]  # one element written on its own
        if isinstance(value, list) and all(isinstance(v, dict) for v in value):
            return list(value)
    return None


def _element(
    entry: object, width: int, height: int, convention: BoxConvention
) -> SceneElement | str:
    """One element, or why it was left out."""
    if not isinstance(entry, dict):
        return "not an object"
    name = _first_text(entry, NAME_KEYS)
    if not name:
        return "no name"
    category = next(
        (c for key in CATEGORY_KEYS if (c := read_category(entry.get(key))) is not None), None
    )
    if category is None:
        return f"{name[:40]}: no category among {', '.join(CATEGORIES)}"
    raw = next((entry[key] for key in BOX_KEYS if key in entry), None)
    boxes = box_values(raw)
    if not boxes:
        return f"{name[:40]}: no box"
    box = check_box(boxes[0], convention, width, height)
    if isinstance(box, str):
        return f"{name[:40]}: box {box}"
    why = _first_text(entry, WHY_KEYS) or name
    rounded = (round(box[0]), round(box[1]), round(box[2]), round(box[3]))
    if not (rounded[0] < rounded[2] and rounded[1] < rounded[3]):
        return f"{name[:40]}: box has no area in whole pixels"
    return SceneElement(name, category, why, tuple(float(v) for v in rounded))  # type: ignore[arg-type]


def read_draft(text: str, width: int, height: int, convention: BoxConvention) -> DraftReading:
    """A drafter's reply as elements (pixel boxes on the capture)."""
    listed = _element_list(text)
    if listed is None:
        return DraftReading((), UNREADABLE)
    elements: list[SceneElement] = []
    skipped: list[str] = []
    for entry in listed:
        read = _element(entry, width, height, convention)
        if isinstance(read, str):
            skipped.append(read)
        else:
            elements.append(read)
    return DraftReading(tuple(elements), None, tuple(skipped))


# --- the inspect task ------------------------------------------------------------------------


def _sample(directory: Path, entry_id: str, image: str, width: int, height: int) -> Sample:
    return Sample(
        id=entry_id,
        input=[ChatMessageUser(content=[ContentImage(image=str(directory / image))])],
        metadata={"width": width, "height": height},
    )


@solver
def draft_solver(box_format: str, cache: bool) -> Solver:
    """Ask the drafter once per capture; keep the reply (read by :func:`draft_scorer`)."""
    convention = get_convention(box_format)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        width, height = int(state.metadata["width"]), int(state.metadata["height"])
        messages = stage_messages(sample_image(state), draft_prompt(width, height, convention))
        policy = CachePolicy(expiry=None) if cache else False
        state.output = await generate_once(get_model(), messages, role="model", cache=policy)
        state.messages = [*messages, state.output.message]
        return state

    return solve


@scorer(metrics=[accuracy()], name=DRAFT_SCORER)
def draft_scorer(box_format: str = "xyxy") -> Scorer:
    """1 when the reply held an element list (even an empty one), 0 when it was unreadable;
    the elements and what was skipped go to the score's metadata."""
    convention = get_convention(box_format)

    async def score(state: TaskState, target: Target) -> Score:
        width, height = int(state.metadata["width"]), int(state.metadata["height"])
        reading = read_draft(state.output.completion, width, height, convention)
        record = DraftScoreRecord(
            elements=[
                DraftElementRecord(name=e.name, category=e.category, why=e.why, box=list(e.box))
                for e in reading.elements
            ],
            unreadable=reading.failure,
            skipped=list(reading.skipped),
            reported_model=state.output.model or None,
            **sample_call_counts().model_dump(),
        )
        return Score(value=0.0 if reading.failure else 1.0, metadata=record.metadata())

    return score


@task
def spatialtrust_draft(captures: str, box_format: str = "xyxy", cache: bool = False) -> Task:
    """Draft the annotations of a build's captures (the ``build.json`` in ``captures``).

    Args:
        captures: the build's staging directory (``build.json`` + ``images/``).
        box_format: the drafter's box convention (``xyxy``, ``xyxy1000``, ``qwen25``, ...).
        cache: inspect's model cache (a rerun of the same drafts is free).
    """
    directory = Path(captures)
    manifest = read_manifest(directory)
    samples = [_sample(directory, c.id, c.image, c.width, c.height) for c in manifest.captures]
    return Task(
        dataset=MemoryDataset(samples, name="spatialtrust_draft"),
        solver=draft_solver(box_format, cache),
        scorer=draft_scorer(box_format),
        metadata={
            "captures": captures,
            "box_format": box_format,
            "prompt_hash": draft_prompt_hash(),
        },
    )


# --- reading a drafting run back -------------------------------------------------------------


@dataclass
class DraftRun:
    """The drafts of a finished drafting log, per capture id, with every count shown."""

    elements: dict[str, tuple[SceneElement, ...]]
    unreadable: dict[str, str]
    """Capture id → why its reply gave no element list (its draft is empty)."""
    skipped: dict[str, list[str]]
    """Capture id → elements left out and why."""
    failed: dict[str, str]
    """Capture id → error of a call that failed after retries."""
    reported_models: list[str]
    """The model versions the provider reported (e.g. ``gpt-4o-2024-08-06``)."""
    call_retries: int = 0

    def counts(self) -> dict[str, int]:
        """What ``build.json``, the summary and ``--json`` show about drafting."""
        return {
            "drafted": len(self.elements),
            "unreadable": len(self.unreadable),
            "elements": sum(len(e) for e in self.elements.values()),
            "elements_skipped": sum(len(s) for s in self.skipped.values()),
            "failed": len(self.failed),
            "calls_retried": self.call_retries,
        }


def read_draft_log(log: EvalLog) -> DraftRun:
    """Every finished capture's draft from a drafting log (summaries, else full samples)."""
    samples, errors = finished_samples(log, _summary_is_complete)
    run = DraftRun({}, {}, {}, dict(errors), [])
    reported: set[str] = set()
    for sample in samples:
        record = DraftScoreRecord.from_metadata(_metadata(sample.scores))
        image_id = str(sample.id)
        run.elements[image_id] = tuple(
            SceneElement(e.name, e.category, e.why, (e.box[0], e.box[1], e.box[2], e.box[3]))
            for e in record.elements
        )
        if record.unreadable:
            run.unreadable[image_id] = record.unreadable
        if record.skipped:
            run.skipped[image_id] = list(record.skipped)
        if record.reported_model:
            reported.add(record.reported_model)
        run.call_retries += sum(record.call_retries.values())
    run.reported_models = sorted(reported)
    return run


def _summary_is_complete(summary: EvalSampleSummary) -> bool:
    metadata = _metadata(summary.scores)
    return "elements" in metadata and DraftScoreRecord.holds_whole(metadata)


def _metadata(scores: Mapping[str, Score] | None) -> dict[str, object]:
    score = (scores or {}).get(DRAFT_SCORER)
    return dict(score.metadata or {}) if score is not None else {}


def is_draft_log(log: EvalLog) -> bool:
    """Whether ``log`` is a drafting run (``build spatialtrust --resume`` accepts no other)."""
    return log.eval.task.split("/")[-1] == DRAFT_TASK


def manifest_of(log: EvalLog) -> tuple[Path, BuildManifest]:
    """The staging directory a drafting log worked on, and its manifest."""
    directory = Path(str((log.eval.task_args or {}).get("captures", "")))
    return directory, read_manifest(directory)
