"""Benchmark: the offline stack — baseline seconds per image, offline-judge speed and agreement.

* Baseline: ``privbench/ocr-pii`` answers the first ``--images`` items of the shipped
  Priv-IQ suite (OCR dominates), timed per image, sequentially.
* Offline judge, speed: grades every distinct (reference, answer, question) of the graded sets
  and of the shipped suite's baseline answers once with cold caches (every answer new),
  then ``--grades`` calls cycling over them (warm: references already read, as in a run).
* Offline judge, agreement: Spearman ρ, MAE and share within ±0.1 against the graded
  sets — the development part the rules were tuned on, the held-out part frozen before
  tuning and the independent sets (:data:`GRADED_FILES`; the last two were never tuned
  on) — and the share of agreeing q4/q5 verdict fields.

Target: offline judge ≥ 200 grades/s, so that grading stays a small part of an offline run.

    .venv/bin/python bench/offline.py [--images 30] [--grades 5000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from PIL import Image

from privbench.judges.offline import clear_caches, grade
from privbench.judges.offline.measured_agreement import GRADED_FILES, MEASURED, measure, read_graded
from privbench.judges.offline.spatial import graded_verdict_fields
from privbench.models.ocr_pii import answer_priviq, read_text
from privbench.shipped import JUDGE_CALIBRATION, PRIVIQ_SUITE
from privbench.suites.priviq.dataset import load_priviq

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SPATIAL = {
    "spatial dev": DATA / "judge_calibration_spatial_dev.jsonl",
    "spatial independent": JUDGE_CALIBRATION / "spatialtrust" / "independent.jsonl",
    "spatial fresh": JUDGE_CALIBRATION / "spatialtrust" / "fresh.jsonl",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--images", type=int, default=30)
    parser.add_argument("--grades", type=int, default=5000)
    args = parser.parse_args()
    items = load_priviq(PRIVIQ_SUITE)[: args.images]
    read_text(Image.new("RGB", (64, 32), "white"))  # load the OCR models before timing
    seconds = []
    answers = []
    for item in items:
        start = time.perf_counter()
        with Image.open(item.image) as image:
            answers.append(answer_priviq(item.question, read_text(image)))
        seconds.append(time.perf_counter() - start)
    print(f"baseline        {len(items)} images: mean {statistics.fmean(seconds):.2f} s/image, "
          f"median {statistics.median(seconds):.2f}, max {max(seconds):.2f}")  # fmt: skip

    rows = [row for path in GRADED_FILES.values() if path.exists() for row in read_graded(path)]
    pairs = list(
        dict.fromkeys(
            (str(r["reference"]), str(r["prediction"]), str(r.get("question", ""))) for r in rows
        )
    )
    pairs += [
        (item.answer, answer, item.question) for item, answer in zip(items, answers, strict=True)
    ]
    clear_caches()
    start = time.perf_counter()
    for reference, answer, question in pairs:
        grade(reference, answer, question)
    cold = len(pairs) / (time.perf_counter() - start)
    calls = [pairs[i % len(pairs)] for i in range(args.grades)]
    start = time.perf_counter()
    for reference, answer, question in calls:
        grade(reference, answer, question)
    warm = len(calls) / (time.perf_counter() - start)
    print(f"offline judge   {len(pairs)} distinct pairs cold: {cold:,.0f} grades/s; "
          f"{len(calls)} calls warm: {warm:,.0f} grades/s (target ≥ 200)")  # fmt: skip

    for part, path in GRADED_FILES.items():
        if not path.exists():
            print(f"agreement       {part:12s} (missing: {path.name})")
            continue
        got = measure(read_graded(path), grade)
        recorded = f"   recorded: {MEASURED[part].line()}" if part in MEASURED else ""
        print(f"agreement       {part:12s} {got.line()}{recorded}")
    for part, path in SPATIAL.items():
        if path.exists():
            rows_ = [
                json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line
            ]
            agree, total = graded_verdict_fields(rows_)
            print(
                f"q4/q5 verdicts  {part:20s} {agree}/{total} fields agree ({100 * agree / total:.0f} %)"
            )


if __name__ == "__main__":
    main()
