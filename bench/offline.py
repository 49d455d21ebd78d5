"""Benchmark: the offline stack — baseline seconds per image and offline-judge grades/s.

* Baseline: ``privbench/ocr-pii`` answers the first ``--images`` items of the shipped
  Priv-IQ suite (OCR dominates), timed per image, sequentially.
* Offline judge: grades every (reference, answer) pair of the calibration set and of the
  shipped suite's references against themselves, repeated to ``--grades`` calls.

Target (issue 5): offline judge ≥ 200 grades/s.

    .venv/bin/python bench/offline.py [--images 30] [--grades 5000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from PIL import Image

from privbench.judges.offline import grade
from privbench.models.ocr_pii import answer_priviq, read_text
from privbench.priviq.dataset import load_priviq
from privbench.shipped import PRIVIQ_SUITE

CALIBRATION = Path(__file__).resolve().parent.parent / "tests" / "data" / "judge_calibration.jsonl"


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

    rows = [json.loads(line) for line in CALIBRATION.read_text().splitlines()]
    pairs = [(r["reference"], r["answer"]) for r in rows]
    pairs += [(item.answer, answer) for item, answer in zip(items, answers, strict=True)]
    calls = [pairs[i % len(pairs)] for i in range(args.grades)]
    start = time.perf_counter()
    for reference, answer in calls:
        grade(reference, answer)
    elapsed = time.perf_counter() - start
    print(f"offline judge   {len(calls)} grades in {elapsed:.2f} s = {len(calls) / elapsed:,.0f} grades/s "
          f"(target ≥ 200)")  # fmt: skip


if __name__ == "__main__":
    main()
