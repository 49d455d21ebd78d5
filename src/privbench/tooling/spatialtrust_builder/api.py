"""Python API of ``privbench build spatialtrust``: sources → captures → drafts → dataset.

Why a staging folder: a build writes everything into ``.<out>.partial`` beside the output
and moves it into place only once the dataset validates, so a bad source, a full disk or
Ctrl-C never leaves a half-written dataset where a complete one is expected. The one thing
kept after an interruption is what was paid for: the staging folder with its captures and
the drafting log, which ``--resume LOG`` continues (completed drafts are not asked again).
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Literal

from inspect_ai.log import EvalLog

from privbench.formatting import plural
from privbench.judges.choice import OFFLINE_JUDGE, parse_judge
from privbench.runtime.cost.plan import CallPlan
from privbench.runtime.cost.tokens import image_tokens, text_tokens
from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.runtime.running import RunOptions, read_log_header, resume_task, run_model_task
from privbench.suites.spatialtrust.annotation import Annotation
from privbench.suites.spatialtrust.boxes import get_convention
from privbench.suites.spatialtrust.dataset import (
    SpatialItem,
    validate_spatialtrust,
    write_dataset_file,
)
from privbench.suites.spatialtrust.drafts import review_summary
from privbench.suites.spatialtrust.prompts import SYSTEM_PROMPT
from privbench.suites.spatialtrust.question_design import QuestionTypes
from privbench.tooling.spatialtrust_builder.captures import (
    CAPTURE_SIZE,
    collect_captures,
    source_files,
    video_samples_at_most,
)
from privbench.tooling.spatialtrust_builder.drafting import (
    DRAFT_TASK,
    DraftRun,
    draft_prompt,
    draft_prompt_hash,
    is_draft_log,
    manifest_of,
    read_draft_log,
    spatialtrust_draft,
)
from privbench.tooling.spatialtrust_builder.manifest import (
    MANIFEST_FILE,
    BuildManifest,
    BuildSettings,
    DrafterEntry,
    is_build,
    write_manifest,
)
from privbench.tooling.spatialtrust_builder.questions import dataset_records

NO_DRAFTER = "none"
DEFAULT_DRAFT_CONNECTIONS = 10
"""Concurrent drafting requests unless ``--max-connections`` says otherwise."""


@dataclass(frozen=True)
class BuildRequest:
    """What ``build spatialtrust`` was asked to do."""

    sources: tuple[Path, ...]
    out: Path
    every: float = 2.0
    max_captures: int | None = None
    size: tuple[int, int] = CAPTURE_SIZE
    faces: Literal["keep", "blur"] = "keep"
    drafter: str = NO_DRAFTER
    box_format: str = "xyxy"
    seed: int = 0
    overwrite: bool = False
    max_connections: int | None = None
    max_tokens: int | None = None
    """The drafter's output limit per capture (None: the provider's)."""
    question_types: QuestionTypes = "paper"

    def settings(self) -> BuildSettings:
        """What the manifest records of this request: each of its settings' fields, read
        from the request's field of that name (the manifest's model is the one list)."""
        return BuildSettings(**{name: getattr(self, name) for name in BuildSettings.model_fields})


@dataclass
class BuildOutcome:
    """A finished build (``complete``), or one whose drafting stopped (resumable)."""

    out: Path
    staging: Path
    manifest: BuildManifest
    log: EvalLog | None = None
    complete: bool = False
    validation: str = ""
    drafts: DraftRun | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def log_location(self) -> str | None:
        return str(self.log.location) if self.log is not None else None

    @property
    def interrupted(self) -> bool:
        return self.log is not None and self.log.status == "cancelled"

    def terminal(self) -> list[str]:
        """The build's summary: every count, then where things are."""
        return summary_lines(self)

    def json(self) -> dict[str, object]:
        document = self.manifest.model_dump(mode="json")
        return {
            "complete": self.complete,
            "out": str(self.out),
            "staging": None if self.complete else str(self.staging),
            "log": self.log_location,
            "validation": self.validation or None,
            **{k: document[k] for k in ("settings", "sources", "frames", "drafter", "counts")},
            "captures": len(self.manifest.captures),
        }


def output_folder(out: Path) -> Path:
    """``--out`` as the real folder it names: symbolic links (of the folder or a parent)
    followed, so the build is staged beside, and moved onto, the folder the link points to.

    Why: a link cannot be replaced by a folder the way a folder can, and a build staged
    beside the link would finish with its dataset stranded in the hidden staging folder.
    The link itself is left as it is and shows the new dataset.
    """
    return out.expanduser().resolve()


def staging_dir(out: Path) -> Path:
    """Where a build of ``out`` is made before it is moved into place."""
    return out.with_name(f".{out.name}.partial")


def _check_out(out: Path, overwrite: bool) -> None:
    """The output folder may be new, empty, or (with ``overwrite``) an earlier build."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a folder")
    if out.is_dir() and any(out.iterdir()):
        if not is_build(out):
            raise UsageError(
                f"--out {out}: exists and is not a privbench build (no build.json); "
                "choose a new folder"
            )
        if not overwrite:
            raise UsageError(f"--out {out}: already holds a build; --overwrite replaces it")
    staging = staging_dir(out)
    if staging.exists():
        raise UsageError(
            f"{staging}: an unfinished build of {out} is there; continue its drafting with "
            "`privbench build spatialtrust --resume LOG`, or remove that folder to start again"
        )


def _check_request(request: BuildRequest) -> None:
    if not request.sources:
        raise UsageError("build spatialtrust: give at least one video, image or folder")
    if request.every <= 0:
        raise UsageError(f"--every: must be above 0 seconds, not {request.every}")
    width, height = request.size
    if width < 64 or height < 64:
        raise UsageError(f"--size: {width}×{height} is too small (at least 64×64)")
    try:
        get_convention(request.box_format)
    except ValueError as error:
        raise UsageError(f"--box-format: {error}") from None


TYPICAL_DRAFT_TOKENS = 300
"""Expected output of one draft (a JSON list of a few elements with boxes; docs/cost.md)."""


def draft_plan(request: BuildRequest) -> CallPlan:
    """The drafter calls :func:`build_spatialtrust` would make (nothing is read but the
    sources' headers, nothing is written): one per capture. An image gives at most one
    capture, a video at most one per ``--every`` seconds; dark, blurry and near-duplicate
    frames are dropped (which only the build can tell), so the expected count is that
    bound; ``--max`` caps it."""
    _check_request(request)
    plan = CallPlan(
        "build spatialtrust", None if request.drafter == NO_DRAFTER else request.drafter, None
    )
    if plan.model is None:
        plan.notes.append("--drafter none: no model call")
        return plan
    images = videos = 0
    for path, kind in source_files(list(request.sources)):
        if kind == "image":
            images += 1
        else:
            videos += video_samples_at_most(path, request.every)
    captures = images + videos
    if request.max_captures is not None:
        captures = min(captures, request.max_captures)
    width, height = request.size
    prompt = draft_prompt(width, height, get_convention(request.box_format))
    plan.add(
        "model",
        text_tokens(SYSTEM_PROMPT) + text_tokens(prompt) + image_tokens(plan.model, width, height),
        captures,
        at_least=0,
        output_typical=TYPICAL_DRAFT_TOKENS,
        output_limit=request.max_tokens,
    )
    return plan


def build_spatialtrust(request: BuildRequest, options: RunOptions | None = None) -> BuildOutcome:
    """Make a SpatialTrust dataset from videos and images (docs/build.md).

    Captures are sampled and normalized into a staging folder; the drafter (unless
    ``none``) drafts each capture through inspect; questions are built from the drafts;
    the validated dataset is moved to ``request.out``. A drafting run that stops (Ctrl-C,
    failed calls) returns an outcome with ``complete`` False and the log to resume.
    """
    options = options or RunOptions(judge=parse_judge(OFFLINE_JUDGE))
    _check_request(request)
    out = output_folder(request.out)
    _check_out(out, request.overwrite)
    staging = staging_dir(out)
    staging.mkdir(parents=True)
    try:
        sources, captures, frames = collect_captures(
            list(request.sources),
            staging,
            every=request.every,
            max_captures=request.max_captures,
            size=request.size,
            faces=request.faces,
        )
        frame_counts = {k: int(v) for k, v in asdict(frames).items()}
        if not captures:
            raise UsageError(
                "no usable frame in the sources: "
                + ", ".join(f"{k} {v}" for k, v in frame_counts.items())
            )
        manifest = BuildManifest(
            stage="captured",
            out=str(out),
            settings=request.settings(),
            sources=sources,
            captures=captures,
            frames=frame_counts,
        )
        write_manifest(staging, manifest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)  # nothing was paid for yet
        raise
    if request.drafter == NO_DRAFTER:
        return _finish(staging, manifest, None, None)
    task = spatialtrust_draft(
        captures=str(staging), box_format=request.box_format, cache=options.generation.cache
    )
    log = run_model_task(
        task,
        request.drafter,
        replace(options, judge=parse_judge(OFFLINE_JUDGE)),  # drafting is not judged
        model_connections=request.max_connections or DEFAULT_DRAFT_CONNECTIONS,
    )
    return _after_drafting(staging, manifest, log)


def resume_build(location: str | Path, options: RunOptions | None = None) -> BuildOutcome:
    """Continue a build whose drafting stopped, from its drafting log."""
    options = options or RunOptions(judge=parse_judge(OFFLINE_JUDGE))
    header, _ = read_log_header(location)
    if not is_draft_log(header):
        raise UsageError(f"--resume {location}: not a log of a build's drafting")
    staging = Path(str((header.eval.task_args or {}).get("captures", "")))
    if not (staging / MANIFEST_FILE).is_file():
        raise UsageError(
            f"--resume {location}: nothing to resume ({staging} is gone: a finished build "
            "is moved from there to its --out)"
        )
    staging, manifest = manifest_of(header)
    if manifest.stage == "complete":
        # finished and paid for, but not moved into place (a failed move): move it now
        out = _move_into_place(staging, manifest)
        drafts = read_draft_log(header)
        items, _ = validate_spatialtrust(out)
        validation = _validation_line(out, items)
        outcome = BuildOutcome(out, staging, manifest, header, True, validation, drafts)
        outcome.notes.append(f"the finished build was in {staging}; moved to {out}")
        return outcome
    log = resume_task(location, (DRAFT_TASK,), options, DEFAULT_DRAFT_CONNECTIONS)
    return _after_drafting(staging, manifest, log)


def _after_drafting(staging: Path, manifest: BuildManifest, log: EvalLog) -> BuildOutcome:
    drafts = read_draft_log(log)
    missing = [c.id for c in manifest.captures if c.id not in drafts.elements]
    if log.status != "success" or drafts.failed or missing:
        outcome = BuildOutcome(Path(manifest.out), staging, manifest, log, drafts=drafts)
        outcome.notes.append(
            f"drafting incomplete: {len(missing)} of {plural(len(manifest.captures), 'capture')} not "
            f"drafted ({len(drafts.failed)} failed); the captures are kept in {staging}"
        )
        return outcome
    return _finish(staging, manifest, drafts, log)


def _counts(annotations: list[Annotation], manifest: BuildManifest) -> dict[str, int]:
    by_category = Counter(e.category for a in annotations for e in a.elements)
    return {
        "images": len(annotations),
        "upscaled": sum(c.upscaled_from is not None for c in manifest.captures),
        "reviewed": sum(a.reviewed for a in annotations),
        "elements_direct": by_category["direct"],
        "elements_indirect": by_category["indirect"],
        "elements_near_miss": by_category["near_miss"],
        "images_with_direct": sum(bool(a.of("direct")) for a in annotations),
        "images_with_indirect": sum(bool(a.of("indirect")) for a in annotations),
    }


def _finish(
    staging: Path, manifest: BuildManifest, drafts: DraftRun | None, log: EvalLog | None
) -> BuildOutcome:
    """Questions from the drafts, the dataset file, ``build.json``; validate; move into place."""
    annotations = [
        Annotation(
            c.id,
            c.image,
            c.width,
            c.height,
            drafts.elements.get(c.id, ()) if drafts else (),
            "draft",
        )
        for c in manifest.captures
    ]
    settings = manifest.settings
    records = dataset_records(
        annotations, seed=settings.seed, question_types=settings.question_types
    )
    write_dataset_file(staging, records)
    drafter = None
    if drafts is not None:
        drafter = DrafterEntry(
            model=manifest.settings.drafter,
            reported_models=drafts.reported_models,
            prompt_hash=draft_prompt_hash(),
            log=str(log.location) if log is not None else None,
            counts=drafts.counts(),
        )
    manifest = manifest.model_copy(
        update={"stage": "complete", "drafter": drafter, "counts": _counts(annotations, manifest)}
    )
    write_manifest(staging, manifest)
    items, problems = validate_spatialtrust(staging)
    if problems:  # a defect of the build itself, not of the user's input
        raise PrivbenchError(
            f"the built dataset in {staging} does not validate: {problems[0].file}: "
            f"{problems[0].message}"
        )
    out = _move_into_place(staging, manifest)
    validation = _validation_line(out, items)
    return BuildOutcome(out, staging, manifest, log, True, validation, drafts)


def _validation_line(out: Path, items: Sequence[SpatialItem]) -> str:
    """What the finished dataset holds, as ``validate`` says it."""
    return f"{out}: SpatialTrust, {plural(len(items), 'image')}; {review_summary(items)}"


def _move_into_place(staging: Path, manifest: BuildManifest) -> Path:
    """Move a finished build from ``staging`` onto its output folder; that folder.

    Anything that stops the move is one line saying where the finished (paid-for) build
    is and how to finish the move, never a traceback that leaves it only in the hidden
    staging folder.
    """
    out = output_folder(Path(manifest.out))
    where = (
        f"the finished dataset is in {staging}; `privbench build spatialtrust --resume LOG` "
        "(its drafting log) moves it into place"
    )
    if out.is_dir() and any(out.iterdir()) and not is_build(out):
        raise UsageError(
            f"--out {out}: a folder that is not a build appeared there during the build; {where}"
        )
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: a file appeared there during the build; {where}")
    try:
        if out.exists():
            shutil.rmtree(out)  # empty, or an earlier build the user asked to replace
        os.replace(staging, out)
    except OSError as error:
        raise PrivbenchError(
            f"--out {out}: could not move the build there ({error}); {where}"
        ) from None
    return out


UPSCALED_LISTED = 10
"""Enlarged captures named in the summary (``build.json`` lists every one)."""


def upscaled_lines(manifest: BuildManifest) -> list[str]:
    """Which captures were enlarged to ``--size`` from a smaller photo or frame, if any."""
    enlarged = [c for c in manifest.captures if c.upscaled_from is not None]
    if not enlarged:
        return []
    width, height = manifest.settings.size
    named = ", ".join(
        f"{c.id} from {c.upscaled_from[0]}×{c.upscaled_from[1]}"
        for c in enlarged[:UPSCALED_LISTED]
        if c.upscaled_from is not None
    )
    more = len(enlarged) - UPSCALED_LISTED
    rest = f" and {more} more (build.json lists each)" if more > 0 else ""
    return [
        f"upscaled to {width}×{height} (source smaller than --size, no added detail): "
        f"{plural(len(enlarged), 'capture')} — {named}{rest}"
    ]


def summary_lines(outcome: BuildOutcome) -> list[str]:
    """Sources, frames by fate, drafting counts, the dataset, and what to do next."""
    manifest = outcome.manifest
    kinds = Counter(s.kind for s in manifest.sources)
    lines = [
        "sources: " + ", ".join(plural(n, kind) for kind, n in sorted(kinds.items())),
        "frames: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in manifest.frames.items()),
    ]
    lines += upscaled_lines(manifest)
    blurred = sum(c.faces_blurred for c in manifest.captures)
    if manifest.settings.faces == "blur":
        lines.append(f"faces blurred (all but the primary subject's): {blurred}")
    drafts = outcome.drafts
    if drafts is None:
        lines.append("drafter: none (empty drafts: annotators start from scratch)")
    else:
        counts = drafts.counts()
        lines.append(
            f"drafter {manifest.settings.drafter}: {counts['drafted']} of "
            f"{len(manifest.captures)} drafted, {counts['unreadable']} unreadable (left empty), "
            f"{plural(counts['elements'], 'element')}, "
            f"{plural(counts['elements_skipped'], 'element')} left out "
            f"(no name, category or box), {plural(counts['failed'], 'failed call')}, "
            f"{plural(counts['calls_retried'], 'call')} retried"
        )
        if drafts.reported_models:
            lines.append(f"drafter reported as: {', '.join(drafts.reported_models)}")
    lines += outcome.notes
    if outcome.log_location:
        lines.append(f"drafting log: {outcome.log_location}")
    if outcome.complete:
        c = manifest.counts
        lines.append(
            f"elements: direct {c['elements_direct']}, indirect {c['elements_indirect']}, "
            f"near miss {c['elements_near_miss']}"
        )
        lines.append(outcome.validation)
        lines.append(
            f"every image is a draft: review them (privbench review {outcome.out}), then "
            f"privbench review export {outcome.out} --out DATASET; eval refuses drafts "
            "unless --allow-drafts"
        )
    return lines
