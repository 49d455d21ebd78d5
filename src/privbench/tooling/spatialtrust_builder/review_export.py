"""``privbench review export``: the annotations people accepted, as a dataset of their own.

Why a new dataset rather than editing the built one: the built dataset and its
``review.sqlite`` stay as they were (reviewing may go on), and the export is rebuilt from
the reviewed annotations with the build's own question rules
(:func:`~privbench.tooling.spatialtrust_builder.questions.dataset_records`), so a corrected box or
category reaches every question. Only images a person accepted are exported; every other
image is counted and left out, so ``eval`` never refuses the export as drafts.

Which annotation of an image is exported: ``--annotator NAME``'s latest, or with
``--merge`` one merged from every annotator who accepted it (:mod:`.merge`); without
either, the one annotator's if only one reviewed. The export is written into a folder
beside ``out`` and moved into place once it validates, so a failure never leaves half a
dataset; ``out/review.json`` records the store, the annotators, the counts, the agreement
figures (:mod:`.agreement`) and every merge decision.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from privbench.formatting import plural
from privbench.review_store import STORE_FILE, ReviewStore, SavedAnnotation
from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.suites.spatialtrust.annotation import CATEGORIES, Annotation, Category, SceneElement
from privbench.suites.spatialtrust.dataset import (
    DATASET_FILE,
    load_spatialtrust,
    validate_spatialtrust,
    write_dataset_file,
)
from privbench.suites.spatialtrust.drafts import review_summary
from privbench.tooling.spatialtrust_builder.manifest import build_provenance, build_question_types
from privbench.tooling.spatialtrust_builder.questions import dataset_records, pixel_box
from privbench.tooling.spatialtrust_builder.review_agreement import AnnotatorAgreement, agreement
from privbench.tooling.spatialtrust_builder.review_merge import MergeDecision, merge_image

REVIEW_RECORD = "review.json"
VERDICTS = ("accepted", "needs_work", "discarded")
"""The statuses a reviewer saves; ``unreviewed`` (no save) and ``unreadable`` (a save that
is not an annotation) are counted beside them."""
COUNTED = (*VERDICTS, "unreviewed", "unreadable")
Mode = Literal["annotator", "merge"]


@dataclass(frozen=True)
class Review:
    """One annotator's latest save of one image, read."""

    status: str
    elements: tuple[SceneElement, ...] = ()
    problem: str | None = None
    """Why the save could not be read (status ``unreadable``)."""


@dataclass(frozen=True)
class _DatasetImage:
    """What the export needs of a dataset record."""

    id: str
    image: str
    width: int
    height: int


@dataclass
class ExportOutcome:
    """A finished export: what was exported, what was left out and why, and the figures."""

    out: Path
    source: Path
    store: Path
    mode: Mode
    annotators: tuple[str, ...]
    """Everyone with a save in the store."""
    exported_from: tuple[str, ...]
    """Whose annotations the export holds (one with ``--annotator``, those merged)."""
    seed: int
    images: int
    statuses: dict[str, dict[str, int]]
    """Annotator → how many of the dataset's images they left in each status."""
    exported: list[str]
    left_out: list[tuple[str, str]]
    """Images someone accepted that were not exported, with the reason."""
    agreement: AnnotatorAgreement
    decisions: list[MergeDecision] = field(default_factory=list)
    ignored_saves: int = 0
    """Saves naming an image the dataset does not have."""
    validation: str = ""

    def json(self) -> dict[str, object]:
        return {
            "out": str(self.out),
            "source": str(self.source),
            "store": str(self.store),
            "mode": self.mode,
            "annotators": list(self.annotators),
            "exported_from": list(self.exported_from),
            "seed": self.seed,
            "images": self.images,
            "statuses": self.statuses,
            "exported": len(self.exported),
            "exported_images": self.exported,
            "left_out": [{"image": i, "reason": r} for i, r in self.left_out],
            "ignored_saves": self.ignored_saves,
            "agreement": self.agreement.json(),
            "merge": (
                {"rule": MERGE_RULE, "decisions": [d.json() for d in self.decisions]}
                if self.mode == "merge"
                else None
            ),
            "validation": self.validation,
        }

    def lines(self) -> list[str]:
        """What the export did, before the agreement table (the CLI prints that)."""
        lines = [f"store: {self.store} (annotators: {', '.join(self.annotators)})"]
        for annotator, counts in self.statuses.items():
            said = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in counts.items())
            lines.append(f"{annotator}: {said}")
        how = (
            f"annotator {self.exported_from[0]}"
            if self.mode == "annotator"
            else "merged: accepted by at least two annotators, settled"
        )
        lines.append(f"exported: {len(self.exported)} of {self.images} images ({how})")
        lines += [f"left out {image}: {reason}" for image, reason in self.left_out]
        if self.mode == "merge":
            lines += [
                f"{d.image}: {note}" for d in self.decisions if d.exported for note in d.unsettled
            ]
        if self.ignored_saves:
            lines.append(f"ignored: {self.ignored_saves} save(s) of images not in the dataset")
        return lines


MERGE_RULE = (
    "an image is exported when at least two annotators accepted it and all of them agree on "
    "presence; an element is kept when every one of them has a box matched to it (Hungarian "
    "assignment, IoU >= 0.5) with the same category, its box the mean of theirs and its name "
    "and why the first annotator's by name; a contested factor leaves the image out, a "
    "contested near miss is dropped"
)


def read_review(annotation: Mapping[str, object]) -> Review:
    """A store's annotation as a :class:`Review` (status ``unreadable`` with the problem
    when it is not one: the app wrote it, so this is a defect to report, not to crash on)."""
    status = annotation.get("status")
    if status not in VERDICTS:
        return Review("unreadable", problem=f"unknown status {status!r}")
    if status != "accepted":  # only accepted elements are exported, merged or compared
        return Review(str(status))
    factors = annotation.get("factors", [])
    if not isinstance(factors, list):
        return Review("unreadable", problem="'factors' is not a list")
    elements: list[SceneElement] = []
    for index, raw in enumerate(factors):
        element = _element(raw)
        if isinstance(element, str):
            return Review("unreadable", problem=f"factor {index}: {element}")
        elements.append(element)
    return Review(str(status), tuple(elements))


_CATEGORIES: dict[str, Category] = {c: c for c in CATEGORIES}


def _element(raw: object) -> SceneElement | str:
    if not isinstance(raw, dict):
        return "not an object"
    raw_category = raw.get("category")
    category = _CATEGORIES.get(raw_category) if isinstance(raw_category, str) else None
    if category is None:
        return f"category must be one of {', '.join(CATEGORIES)}"
    box = raw.get("box")
    if (
        not isinstance(box, list)
        or len(box) != 4
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in box)
        or not all(math.isfinite(v) for v in box)
    ):
        return "box must be four numbers"
    name, why = raw.get("name", ""), raw.get("why", "")
    x1, y1, x2, y2 = (float(v) for v in box)
    return SceneElement(
        name if isinstance(name, str) else "",
        category,
        why if isinstance(why, str) else "",
        (x1, y1, x2, y2),
    )


def incomplete(capture: _DatasetImage, elements: Sequence[SceneElement]) -> str | None:
    """Why an accepted annotation cannot become a record (a name or why left empty, a box
    with no area inside the image), or None."""
    for index, element in enumerate(elements):
        label = f"element {index} ({element.name.strip() or 'no name'})"
        if not element.name.strip():
            return f"{label} has no name"
        if not element.why.strip():
            return f"{label} has no why"
        try:
            pixel_box(element.box, capture.width, capture.height)
        except ValueError:
            return f"{label}: box {list(element.box)} has no area inside the image"
    return None


def _captures(directory: Path) -> list[_DatasetImage]:
    """The dataset's records (validated first: a broken dataset is reported as such)."""
    return [
        _DatasetImage(item.id, item.image_name, item.width, item.height)
        for item in load_spatialtrust(directory)
    ]


def _check_out(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a folder")
    if out.is_dir() and any(out.iterdir()):
        raise UsageError(f"--out {out}: exists and is not empty; choose a new folder")


def _store(directory: Path) -> tuple[ReviewStore, list[SavedAnnotation]]:
    """The dataset's store and its latest saves; one line when nothing was reviewed (the
    store is never created here: a missing one means nobody reviewed)."""
    nothing = (
        f"{directory}: nothing reviewed yet (no saves in {directory / STORE_FILE}); "
        f"review it first with `privbench review {directory}`"
    )
    if not (directory / STORE_FILE).is_file():
        raise UsageError(nothing)
    store = ReviewStore.of(directory)
    saved = store.all_latest()
    if not saved:
        raise UsageError(nothing)
    return store, saved


def _choose(annotators: Sequence[str], annotator: str | None, merge: bool, store: Path) -> Mode:
    if annotator is not None and merge:
        raise UsageError("--annotator and --merge: give one of them")
    if annotator is not None and annotator not in annotators:
        raise UsageError(
            f"--annotator {annotator}: no saves by that name in {store} "
            f"(annotators: {', '.join(annotators)})"
        )
    if annotator is None and not merge and len(annotators) > 1:
        raise UsageError(
            f"{store}: {len(annotators)} annotators ({', '.join(annotators)}); choose one with "
            "--annotator NAME or combine them with --merge"
        )
    return "merge" if merge else "annotator"


def _status_counts(
    captures: Sequence[_DatasetImage], reviews: Mapping[str, Mapping[str, Review]], annotator: str
) -> dict[str, int]:
    counts = Counter(
        reviews.get(c.id, {}).get(annotator, Review("unreviewed")).status for c in captures
    )
    return {status: counts[status] for status in COUNTED}


def _chosen(
    captures: Sequence[_DatasetImage],
    reviews: Mapping[str, Mapping[str, Review]],
    mode: Mode,
    annotator: str,
) -> tuple[dict[str, tuple[tuple[SceneElement, ...], tuple[str, ...]]], list[MergeDecision]]:
    """Per exported image: its elements and whose they are; and the merge decisions."""
    chosen: dict[str, tuple[tuple[SceneElement, ...], tuple[str, ...]]] = {}
    decisions: list[MergeDecision] = []
    for capture in captures:
        by_annotator = reviews.get(capture.id, {})
        if mode == "annotator":
            review = by_annotator.get(annotator)
            if review is not None and review.status == "accepted":
                chosen[capture.id] = (review.elements, (annotator,))
            continue
        accepted = {a: r.elements for a, r in by_annotator.items() if r.status == "accepted"}
        if not accepted:
            continue
        statuses = {a: r.status for a, r in by_annotator.items()}
        decision = merge_image(capture.id, statuses, accepted)
        decisions.append(decision)
        if decision.elements is not None:
            chosen[capture.id] = (decision.elements, decision.annotators)
    return chosen, decisions


def _write(
    staging: Path,
    directory: Path,
    captures: Sequence[_DatasetImage],
    annotations: Sequence[Annotation],
    seed: int,
) -> None:
    records = dataset_records(
        annotations, seed=seed, question_types=build_question_types(directory)
    )
    by_id = {c.id: c for c in captures}
    for annotation in annotations:
        target = staging / by_id[annotation.image_id].image
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(directory / annotation.image, target)
    write_dataset_file(staging, records)


def export_reviewed(
    directory: Path,
    out: Path,
    *,
    annotator: str | None = None,
    merge: bool = False,
    seed: int = 0,
) -> ExportOutcome:
    """Export the accepted annotations of ``directory`` (a built dataset with its
    ``review.sqlite``) as a new dataset in ``out`` (new or empty). See the module docstring."""
    directory, out = directory.absolute(), out.absolute()
    _check_out(out)
    captures = _captures(directory)
    store, saved = _store(directory)
    names = {c.id: c.id for c in captures} | {c.image: c.id for c in captures}
    reviews: dict[str, dict[str, Review]] = {}
    ignored = 0
    for save in saved:
        image = names.get(save.image)
        if image is None:
            ignored += 1
            continue
        reviews.setdefault(image, {})[save.annotator] = (
            read_review(save.annotation)
            if save.problem is None
            else Review("unreadable", problem=save.problem)
        )
    annotators = tuple(sorted({s.annotator for s in saved}))
    mode = _choose(annotators, annotator, merge, store.path)
    single = annotator or annotators[0]
    figures = agreement(
        {
            image: {a: r.elements for a, r in by.items() if r.status == "accepted"}
            for image, by in reviews.items()
        }
    )
    chosen, decisions = _chosen(captures, reviews, mode, single)
    left_out = [(d.image, "; ".join(d.unsettled)) for d in decisions if not d.exported]
    annotations: list[Annotation] = []
    for capture in captures:
        if capture.id not in chosen:
            if mode == "annotator":
                review = reviews.get(capture.id, {}).get(single)
                if review is not None and review.problem is not None:
                    left_out.append((capture.id, f"unreadable save: {review.problem}"))
            continue
        elements, by = chosen[capture.id]
        problem = incomplete(capture, elements)
        if problem is not None:
            left_out.append((capture.id, problem))
            continue
        annotations.append(
            Annotation(
                capture.id, capture.image, capture.width, capture.height, elements, "accepted", by
            )
        )
    order = {c.id: i for i, c in enumerate(captures)}
    left_out.sort(key=lambda entry: order[entry[0]])
    if not annotations:
        raise UsageError(
            f"{directory}: nothing to export: no image was "
            + (
                "accepted by two annotators and settled"
                if mode == "merge"
                else f"accepted by {single}"
            )
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".partial", dir=out.parent))
    try:
        _write(staging, directory, captures, annotations, seed)
        items, problems = validate_spatialtrust(staging)
        if problems:  # a defect of the export itself, not of the reviews
            raise PrivbenchError(
                f"the exported dataset in {staging} does not validate: {problems[0]}"
            )
        outcome = ExportOutcome(
            out=out,
            source=directory,
            store=store.path,
            mode=mode,
            annotators=annotators,
            exported_from=(single,)
            if mode == "annotator"
            else tuple(sorted({name for a in annotations for name in a.annotators})),
            seed=seed,
            images=len(captures),
            statuses={a: _status_counts(captures, reviews, a) for a in annotators},
            exported=[a.image_id for a in annotations],
            left_out=left_out,
            agreement=figures,
            decisions=decisions,
            ignored_saves=ignored,
            validation=f"{out}: SpatialTrust, {plural(len(items), 'image')}; {review_summary(items)}",
        )
        document = {
            **outcome.json(),
            "source_sha256": hashlib.sha256((directory / DATASET_FILE).read_bytes()).hexdigest(),
            "build": build_provenance(directory),
        }
        (staging / REVIEW_RECORD).write_text(
            json.dumps(document, ensure_ascii=False, indent=1, allow_nan=False) + "\n",
            encoding="utf-8",
        )
        _check_out(out)  # nothing appeared there meanwhile
        if out.exists():
            out.rmdir()
        os.replace(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return outcome
