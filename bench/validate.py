"""Benchmark: ``privbench validate`` throughput on large datasets whose items share images.

Why: validation used to decode an item's image once per item (about 4.5 ms each), so a
100,000-item dataset whose items all point at a handful of images did not finish in
120 s — and every run validates its whole dataset before ``--limit`` applies. Images are
now checked once per distinct file (issue: target under 10 s for 100,000 items).

Builds, in a temporary folder, a Priv-IQ directory (``priv-IQ.json``) and a SpatialTrust
directory (``spatialtrust.jsonl``, five questions per record with evidence boxes and
factors) of 1,000 / 10,000 / 100,000 items, every item pointing at one of ``--images``
(default 4) 1440×960 PNG photos, then times :func:`privbench.validation.validate_directory`
(what the command runs) on each and prints items/s. Each size has its own directory, so
no run profits from the image checks of an earlier one.

    .venv/bin/python bench/validate.py [--sizes 1000 10000 100000] [--images 4]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from PIL import Image

from privbench.validation import validate_directory

W, H = 1440, 960
TARGET_S = 10.0
"""100,000 items sharing images must validate within this."""


def write_images(directory: Path, count: int, rng: random.Random) -> list[str]:
    """``count`` noisy photo-sized PNGs (noise, so decoding costs what a photo costs)."""
    directory.mkdir(parents=True)
    names = []
    for index in range(count):
        image = Image.effect_noise((W, H), 40 + 10 * index).convert("RGB")
        name = f"shared-{index}.png"
        image.save(directory / name, compress_level=1)
        names.append(name)
    rng.shuffle(names)
    return names


def priviq_directory(root: Path, items: int, images: int, rng: random.Random) -> Path:
    names = write_images(root / "images", images, rng)
    data = {
        f"v1_{i}": {
            "imagename": names[i % len(names)],
            "question": f"Question {i}: is anything private visible?",
            "answer": "Yes, a name badge <AND> a screen",
            "capability": ["VizPriv", "CntxPriv"],
        }
        for i in range(items)
    }
    (root / "priv-IQ.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    return root


def _box(rng: random.Random) -> list[int]:
    x, y = rng.randrange(0, W - 200), rng.randrange(0, H - 200)
    return [x, y, x + rng.randrange(20, 200), y + rng.randrange(20, 200)]


def spatial_record(index: int, image: str, rng: random.Random) -> dict[str, Any]:
    options = {"A": "a person", "B": "a poster", "C": "a phone", "D": "a plant"}
    options["E"] = "None of the above"
    questions: list[dict[str, Any]] = [
        {"qid": "q1", "type": "single", "text": "Any sensitive factor?",
         "options": {"A": "Yes", "B": "No", "C": "Not clear"}, "answer": ["A"]},
    ]  # fmt: skip
    for qid in ("q2", "q3"):
        answer = sorted(rng.sample("ABCD", rng.randint(1, 3)))
        evidence = {o: [_box(rng) for _ in range(rng.randint(1, 2))] for o in answer}
        kind = "multiple" if len(answer) > 1 else "single"
        questions.append({"qid": qid, "type": kind, "text": "Which factors?", "options": options,
                          "answer": answer, "evidence": evidence})  # fmt: skip
    for qid in ("q4", "q5"):
        factors = [{"name": f"f{n}", "why": "visible", "box": _box(rng)} for n in range(2)]
        questions.append({"qid": qid, "type": "short", "text": "Describe.",
                          "answer": "Two factors.", "factors": factors})  # fmt: skip
    return {"id": f"st-{index}", "image": f"images/{image}", "width": W, "height": H,
            "questions": questions}  # fmt: skip


def spatial_directory(root: Path, items: int, images: int, rng: random.Random) -> Path:
    names = write_images(root / "images", images, rng)
    lines = [json.dumps(spatial_record(i, names[i % len(names)], rng)) for i in range(items)]
    (root / "spatialtrust.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def time_validation(directory: Path, items: int) -> str:
    start = time.perf_counter()
    report = validate_directory(directory)
    seconds = time.perf_counter() - start
    if report.problems:
        raise SystemExit(f"bench dataset is invalid: {report.problems[0]}")
    target = f"  (target < {TARGET_S:.0f} s)" if items >= 100_000 else ""
    return f"{items / seconds:>10,.0f} items/s  {seconds:7.2f} s{target}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--images", type=int, default=4, help="distinct images shared")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"items share {args.images} images of {W}×{H}")
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        for items in args.sizes:
            directory = priviq_directory(root / f"priviq-{items}", items, args.images, rng)
            print(f"Priv-IQ       {items:>8,} items  {time_validation(directory, items)}")
        for items in args.sizes:
            directory = spatial_directory(root / f"spatial-{items}", items, args.images, rng)
            print(f"SpatialTrust  {items:>8,} items  {time_validation(directory, items)}")


if __name__ == "__main__":
    main()
