"""Benchmark: the review app's save latency and page load, as a reviewer meets them.

* save latency: 500 sequential saves (each from the version the last returned) through a
  real ``privbench review`` server over HTTP, p50/p95 — every save is one SQLite
  transaction with ``synchronous=FULL``, so this is mostly an fsync;
* page load: a 1440×960 capture with 10 drafted boxes in Debian's headless Chromium, from
  navigation to the page's script having mounted the annotator (``data-ready``);
* export: 577 captures (the paper's count; the shipped suite's 100 images repeated under
  new ids), each accepted by one annotator in the store, exported as a reviewed dataset
  (questions built again, images copied, validated).

    .venv/bin/python bench/review.py [--saves 500] [--loads 5]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from privbench.report.browser import CHROMIUM_FLAGS, find_chromium
from privbench.review_store import ReviewStore
from privbench.shipped import SPATIALTRUST_SUITE
from privbench.tooling.spatialtrust_builder.review_export import export_reviewed

REPO = Path(__file__).resolve().parent.parent


def make_dataset(directory: Path, boxes: int = 10) -> Path:
    """One shipped 1440×960 capture whose record carries ``boxes`` drafted elements."""
    (directory / "images").mkdir(parents=True)
    record = json.loads((SPATIALTRUST_SUITE / "spatialtrust.jsonl").read_text().splitlines()[0])
    shutil.copy(SPATIALTRUST_SUITE / record["image"], directory / record["image"])
    elements = [
        {
            "name": f"element {i}",
            "category": ("direct", "indirect", "near_miss")[i % 3],
            "why": "bench",
            "box": [20 + 130 * i, 40 + 60 * i, 120 + 130 * i, 140 + 60 * i],
        }
        for i in range(boxes)
    ]
    record["annotation"] = {"status": "draft", "annotators": [], "elements": elements}
    (directory / "spatialtrust.jsonl").write_text(json.dumps(record) + "\n")
    return directory


EXPORT_IMAGES = 577


def reviewed_dataset(directory: Path, count: int) -> Path:
    """``count`` draft records (the shipped suite's, repeated under new ids) and a store in
    which one annotator accepted each with its ground-truth factors."""
    (directory / "images").mkdir(parents=True)
    lines = (SPATIALTRUST_SUITE / "spatialtrust.jsonl").read_text().splitlines()
    records = []
    store = ReviewStore.of(directory)
    for i in range(count):
        record = json.loads(lines[i % len(lines)])
        record["id"], image = f"cap_{i + 1:04d}", f"images/cap_{i + 1:04d}.jpg"
        shutil.copy(SPATIALTRUST_SUITE / record["image"], directory / image)
        record["image"] = image
        record["annotation"] = {"status": "draft", "annotators": [], "elements": []}
        records.append(json.dumps(record))
        questions = {q["qid"]: q for q in record["questions"]}
        factors = [
            {**f, "category": category}
            for qid, category in (("q4", "direct"), ("q5", "indirect"))
            for f in questions[qid]["factors"]
        ]
        store.save(record["id"], "ana", 0, {"status": "accepted", "factors": factors})
    (directory / "spatialtrust.jsonl").write_text("\n".join(records) + "\n")
    return directory


def start(directory: Path) -> tuple[subprocess.Popen[str], str, int, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "privbench", "review", str(directory), "--no-browser"],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    found = re.search(r"(http://127\.0\.0\.1:(\d+)/\?token=([\w-]+)\S*)", process.stdout.readline())
    assert found, "the server printed no URL"
    return process, found[1], int(found[2]), found[3]


def save_latency(port: int, token: str, image: str, saves: int) -> list[float]:
    timings: list[float] = []
    version = 0
    factor = {"name": "a badge", "category": "indirect", "why": "bench", "box": [1, 2, 300, 400]}
    for _ in range(saves):
        data = json.dumps(
            {"version": version, "annotation": {"status": "accepted", "factors": [factor]}}
        )
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/images/{image}",
            data=data.encode(),
            method="PUT",
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        started = time.perf_counter()
        with urllib.request.urlopen(request, timeout=10) as response:
            version = json.loads(response.read())["version"]
        timings.append(time.perf_counter() - started)
    return timings


def page_loads(url: str, loads: int) -> list[float]:
    from playwright.sync_api import sync_playwright

    timings: list[float] = []
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        browser = playwright.chromium.launch_persistent_context(
            profile, executable_path=find_chromium(), args=CHROMIUM_FLAGS, headless=True
        )
        page = browser.new_page()
        page.set_viewport_size({"width": 1280, "height": 900})
        for _ in range(loads):
            started = time.perf_counter()
            page.goto(url.split("&annotator=")[0] + "&annotator=bench-viewer")
            page.wait_for_selector("body[data-ready='1']", state="attached")
            timings.append(time.perf_counter() - started)
            assert page.locator("#boxes li").count() == 10
        browser.close()
    return timings


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=500)
    parser.add_argument("--loads", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        directory = make_dataset(Path(scratch) / "ds")
        process, url, port, token = start(directory)
        try:
            saves = save_latency(port, token, "st-0001", options.saves)
            print(
                f"save latency over {len(saves)} saves: p50 {percentile(saves, 50) * 1000:.1f} ms, "
                f"p95 {percentile(saves, 95) * 1000:.1f} ms, max {max(saves) * 1000:.1f} ms"
            )
            if find_chromium() is None:
                print("page load: skipped (no chromium)")
            else:
                loads = page_loads(url, options.loads)
                print(
                    f"page load (1440×960, 10 boxes, headless Chromium): first "
                    f"{loads[0] * 1000:.0f} ms, median of {len(loads)} "
                    f"{statistics.median(loads) * 1000:.0f} ms"
                )
        finally:
            process.terminate()
            process.wait(timeout=15)
        reviewed = reviewed_dataset(Path(scratch) / "ds577", EXPORT_IMAGES)
        started = time.perf_counter()
        outcome = export_reviewed(reviewed, Path(scratch) / "reviewed")
        wall = time.perf_counter() - started
        print(
            f"export of {EXPORT_IMAGES} reviewed captures: {wall:.2f} s "
            f"({EXPORT_IMAGES / wall:.0f} captures/s); {len(outcome.exported)} exported"
        )


if __name__ == "__main__":
    main()
