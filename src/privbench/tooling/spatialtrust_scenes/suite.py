"""``privbench generate spatialtrust``: a SpatialTrust-format suite (docs/datasets.md).

:func:`generate_spatialtrust` plans the suite (:func:`~.plan.plan_suite`: shares,
options, boxes, explanations — see that module for how the options are kept free of
answer information), draws every capture (:mod:`.render`) and writes

* ``images/st-NNNN.jpg`` — 1440×960 baseline JPEGs at the capture's own quality (the
  camera set-up is part of the scene), no metadata, so the same arguments give the same
  bytes on the same installation;
* ``spatialtrust.jsonl`` — one record per capture;
* ``suite.json`` — the generator, ``n``, ``seed`` and counts (shares, multiple-answer
  questions, evidence boxes, rooms, factor types present and offered absent).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from privbench.json_files import dump_json
from privbench.suites.spatialtrust.dataset import DATASET_FILE, write_dataset_file
from privbench.suites.spatialtrust.question_design import CaptureRecord, QuestionTypes
from privbench.tooling.drawing.writing import prepare
from privbench.tooling.spatialtrust_scenes.plan import (
    CATEGORY,
    PAPER_SHARES,
    ScenePlan,
    categories,
    plan_suite,
    record,
)
from privbench.tooling.spatialtrust_scenes.render import render_scene, save_jpeg
from privbench.tooling.spatialtrust_scenes.vocabulary import KINDS

MANIFEST = "suite.json"

__all__ = ["MANIFEST", "PAPER_SHARES", "categories", "counts", "generate_spatialtrust"]


def counts(plans: list[ScenePlan], records: Sequence[CaptureRecord]) -> dict[str, object]:
    """What a suite contains, for its manifest and the dataset card."""
    totals: Counter[str] = Counter()
    offered: dict[str, Counter[str]] = {"q2": Counter(), "q3": Counter()}
    present: Counter[str] = Counter()
    for plan, entry in zip(plans, records, strict=True):
        totals[plan.category] += 1
        totals[f"room: {plan.room.kind}"] += 1
        questions = {q["qid"]: q for q in entry["questions"]}
        for qid in ("q2", "q3"):
            question = questions[qid]
            totals["multiple-answer q2/q3"] += question["type"] == "multiple"
            if "evidence" in question:  # always: q2 and q3 are choice questions
                totals["evidence boxes"] += sum(len(b) for b in question["evidence"].values())
            here = {e.key for e in plan.elements}
            for key in plan.options[qid]:
                if KINDS[key].role == CATEGORY[qid] and key not in here:
                    offered[qid][key] += 1
        present.update({e.key for e in plan.elements if e.kind.sensitive})
        totals["near-misses drawn"] += sum(e.kind.role == "near-miss" for e in plan.elements)
        totals["occluded factors"] += sum(
            e.kind.sensitive and e.occluder is not None for e in plan.elements
        )
    return {
        **dict(sorted(totals.items())),
        "factor types": {
            key: {
                "category": KINDS[key].role,
                "present": present[key],
                "offered absent": offered["q2" if KINDS[key].role == "direct" else "q3"][key],
            }
            for key in sorted(k for k, e in KINDS.items() if e.sensitive)
        },
    }


def generate_spatialtrust(
    n: int, seed: int, out: Path, *, force: bool = False, question_types: QuestionTypes = "paper"
) -> Path:
    """Write ``n`` captures generated from ``seed`` into ``out`` (q2/q3 typed as
    ``question_types`` says: :data:`~privbench.suites.spatialtrust.question_design.QUESTION_TYPES`)."""
    plans = plan_suite(n, seed)
    images = prepare(out, DATASET_FILE, force)
    records: list[CaptureRecord] = []
    for plan in plans:
        entry = record(plan, question_types)
        save_jpeg(render_scene(plan), str(out / entry["image"]), plan.look.quality)
        records.append(entry)
    del images
    write_dataset_file(out, records)
    dump_json(
        {
            "generator": "privbench generate spatialtrust",
            "n": n,
            "seed": seed,
            "question_types": question_types,
            "image": "1440x960 JPEG",
            "counts": counts(plans, records),
        },
        out / MANIFEST,
    )
    return out
