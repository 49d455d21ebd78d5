"""``build spatialtrust``: how fast are frames sampled and normalized, and drafts made?

1. **Sampling + normalization**: a 60-second 1920×1080 30 fps video (generated scenes with
   camera jitter) is sampled every 2 s and normalized to 1440×960; printed: sampled
   frames per second and video seconds per wall second (the capture stage of
   ``bench/build_captures.py``).
2. **Drafting**: 200 captures drafted against the loopback OpenAI-compatible drafter at
   0.5 s latency per request, through inspect as ``build`` runs it, at 10 and 20
   connections; printed: wall time, the ideal (⌈200 / connections⌉ × 0.5 s) and their ratio.
3. **What a built dataset gives away**: ``build spatialtrust`` on a folder of 240 generated
   scenes with a loopback drafter that writes varied free-text drafts (the paper's shares
   of direct only / indirect only / both / neither), then ``audit``; printed: option-name
   leakage of q2 and q3 (target ≤ 3 points) and the trivial baseline.

Run: ``PYTHONPATH=src .venv/bin/python bench/build.py``.
"""

from __future__ import annotations

import json
import math
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from build_captures import main as captures_bench  # noqa: E402
from helpers.loopback_server import LoopbackServer  # noqa: E402

from privbench.judges.choice import parse_judge  # noqa: E402
from privbench.runtime.running import Generation, RunOptions, run_model_task  # noqa: E402
from privbench.shipped import SPATIALTRUST_SUITE  # noqa: E402
from privbench.tooling.spatialtrust_builder.captures import CaptureFile  # noqa: E402
from privbench.tooling.spatialtrust_builder.drafting import read_draft_log, spatialtrust_draft  # noqa: E402
from privbench.tooling.spatialtrust_builder.manifest import (  # noqa: E402
    BuildManifest,
    BuildSettings,
    write_manifest,
)

N_CAPTURES = 200
LATENCY_S = 0.5
REPLY = json.dumps(
    {
        "elements": [
            {"name": "open door", "category": "indirect", "box": [900, 100, 1100, 700],
             "why": "Someone could walk in."},
        ]
    }
)  # fmt: skip


def _staging(directory: Path) -> Path:
    """A build's staging folder holding 200 captures (copies of the shipped suite's)."""
    images = sorted((SPATIALTRUST_SUITE / "images").glob("*.jpg"))
    (directory / "images").mkdir(parents=True)
    captures = []
    for i in range(N_CAPTURES):
        name = f"images/cap_{i + 1:04d}.jpg"
        shutil.copy(images[i % len(images)], directory / name)
        captures.append(
            CaptureFile(id=f"cap_{i + 1:04d}", image=name, source="bench", frame_time=None,
                         width=1440, height=960, faces_blurred=0)
        )  # fmt: skip
    settings = BuildSettings(every=2.0, max_captures=None, size=(1440, 960), faces="keep",
                             drafter="openai-api/benchdrafter/d", box_format="xyxy", seed=0)  # fmt: skip
    manifest = BuildManifest(stage="captured", out=str(directory / "out"), settings=settings,
                             sources=[], captures=captures, frames={})  # fmt: skip
    write_manifest(directory, manifest)
    return directory


def drafting(connections: int, work: Path, staging: Path) -> None:
    options = RunOptions(judge=parse_judge("offline"), log_dir=str(work / f"logs{connections}"),
                         display="none", generation=Generation(max_retries=1))  # fmt: skip
    task = spatialtrust_draft(captures=str(staging))
    started = time.monotonic()
    log = run_model_task(task, "openai-api/benchdrafter/d", options,
                         model_connections=connections)  # fmt: skip
    wall = time.monotonic() - started
    drafts = read_draft_log(log)
    ideal = math.ceil(N_CAPTURES / connections) * LATENCY_S
    print(
        f"drafting {N_CAPTURES} captures, {connections} connections: {wall:.1f} s "
        f"(ideal {ideal:.1f} s, ratio {wall / ideal:.2f}); drafted {drafts.counts()['drafted']}, "
        f"unreadable {drafts.counts()['unreadable']}"
    )


N_AUDIT = 240
DRAFT_NAMES = {
    "direct": [
        "sticky note with a password", "Password written on a sticky note",
        "monitor showing an email inbox", "second laptop with a bank statement open",
        "whiteboard with login credentials", "printed letter with a name and address",
        "ID card on the desk", "phone screen showing a one-time code",
        "calendar with named appointments", "mirror reflecting the laptop screen",
    ],
    "indirect": [
        "person standing behind the user", "open door to the corridor",
        "window facing the street", "security camera in the corner", "smart speaker",
        "colleague walking past", "webcam on a shelf pointed at the desk",
        "glass wall to a meeting room", "person sitting at the next table",
    ],
    "near_miss": [
        "switched-off TV", "blank whiteboard", "camera facing the wall",
        "poster of a mountain", "closed door", "framed family photo",
    ],
}  # fmt: skip
SHARES = {"direct only": 111, "indirect only": 171, "both": 109, "neither": 186}


def _varied_draft(rng: random.Random) -> str:
    """One drafter reply: categories drawn at the paper's shares, 1–3 elements each."""
    kind = rng.choices(list(SHARES), weights=list(SHARES.values()))[0]
    wanted = {
        "direct": kind in ("direct only", "both"),
        "indirect": kind in ("indirect only", "both"),
    }
    elements = []
    for category, names in DRAFT_NAMES.items():
        count = rng.randint(1, 3) if wanted.get(category, rng.random() < 0.4) else 0
        for name in rng.sample(names, min(count, len(names))):
            x, y = rng.randrange(0, 1200), rng.randrange(0, 700)
            elements.append({"name": name, "category": category,
                             "box": [x, y, x + rng.randrange(40, 240), y + rng.randrange(40, 260)],
                             "why": f"The {name} is visible in the background."})  # fmt: skip
    return json.dumps({"elements": elements})


def audit_of_a_build(work: Path) -> None:
    import subprocess

    from privbench.tooling.spatialtrust_scenes.plan import plan_suite
    from privbench.tooling.spatialtrust_scenes.render import render_scene

    photos = work / "scenes"
    photos.mkdir()
    for plan in plan_suite(N_AUDIT, 11):
        render_scene(plan).convert("RGB").save(photos / f"{plan.image_id}.png")
    rng = random.Random(7)
    with LoopbackServer(default_reply=lambda body: _varied_draft(rng)) as server:
        env = {
            **os.environ,
            "BENCHDRAFTER_BASE_URL": server.base_url,
            "BENCHDRAFTER_API_KEY": "none",
        }
        built = work / "built"
        started = time.monotonic()
        result = subprocess.run(
            [sys.executable, "-m", "privbench", "build", "spatialtrust", str(photos), "--out",
             str(built), "--drafter", "openai-api/benchdrafter/d", "--log-dir", str(work / "blogs"),
             "--json"],
            env=env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        wall = time.monotonic() - started
    document = json.loads(result.stdout)
    audit = subprocess.run(
        [sys.executable, "-m", "privbench", "audit", str(built), "--json"],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    figures = json.loads(audit.stdout)
    leakage = figures["leakage"]["details"]
    print(
        f"built {document['captures']} captures from {N_AUDIT} scenes in {wall:.1f} s "
        f"(frames {document['frames']}); drafter counts {document['drafter']['counts']}"
    )
    for qid in ("q2", "q3"):
        entry = leakage[qid]
        print(
            f"option-name leakage {qid}: {entry['gain']:+.2f} points (text-only "
            f"{entry['predictor']:.1f} vs best constant {entry['trivial']:.1f}; target ≤ 3)"
        )


def main() -> None:
    captures_bench()
    work = Path(tempfile.mkdtemp(prefix="privbench-build-bench-"))
    staging = _staging(work / "staging")
    with LoopbackServer(default_reply=REPLY, latency=LATENCY_S) as server:
        os.environ["BENCHDRAFTER_BASE_URL"] = server.base_url
        os.environ["BENCHDRAFTER_API_KEY"] = "none"
        for connections in (10, 20):
            drafting(connections, work, staging)
    audit_of_a_build(work)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
