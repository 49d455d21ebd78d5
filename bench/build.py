"""``build spatialtrust``: how fast are frames sampled and normalized, and drafts made?

1. **Sampling + normalization**: a 60-second 1920×1080 30 fps video (generated scenes with
   camera jitter) is sampled every 2 s and normalized to 1440×960; printed: sampled
   frames per second and video seconds per wall second (the capture stage of
   ``bench/build_captures.py``).
2. **Drafting**: 200 captures drafted against the loopback OpenAI-compatible drafter at
   0.5 s latency per request, through inspect as ``build`` runs it, at 10 and 20
   connections; printed: wall time, the ideal (⌈200 / connections⌉ × 0.5 s) and their ratio.

Run: ``PYTHONPATH=src .venv/bin/python bench/build.py``.
"""

from __future__ import annotations

import json
import math
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from build_captures import main as captures_bench  # noqa: E402
from loopback_server import LoopbackServer  # noqa: E402

from privbench.runtime.running import Generation, RunOptions, run_model_task  # noqa: E402
from privbench.shipped import SPATIALTRUST_SUITE  # noqa: E402
from privbench.spatialtrust.build.drafting import read_draft_log, spatialtrust_draft  # noqa: E402
from privbench.spatialtrust.build.manifest import (  # noqa: E402
    BuildManifest,
    BuildSettings,
    CaptureEntry,
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
            CaptureEntry(id=f"cap_{i + 1:04d}", image=name, source="bench", frame_time=None,
                         width=1440, height=960)
        )  # fmt: skip
    settings = BuildSettings(every=2.0, max_captures=None, size=(1440, 960), faces="keep",
                             drafter="openai-api/benchdrafter/d", box_format="xyxy", seed=0)  # fmt: skip
    manifest = BuildManifest(stage="captured", out=str(directory / "out"), settings=settings,
                             sources=[], captures=captures, frames={})  # fmt: skip
    write_manifest(directory, manifest)
    return directory


def drafting(connections: int, work: Path, staging: Path) -> None:
    options = RunOptions(judge="offline", log_dir=str(work / f"logs{connections}"),
                         display="none", generation=Generation(max_retries=1))  # fmt: skip
    task = spatialtrust_draft(captures=str(staging))
    started = time.monotonic()
    log = run_model_task(task, "openai-api/benchdrafter/d", options, model_connections=connections)
    wall = time.monotonic() - started
    drafts = read_draft_log(log)
    ideal = math.ceil(N_CAPTURES / connections) * LATENCY_S
    print(
        f"drafting {N_CAPTURES} captures, {connections} connections: {wall:.1f} s "
        f"(ideal {ideal:.1f} s, ratio {wall / ideal:.2f}); drafted {drafts.counts()['drafted']}, "
        f"unreadable {drafts.counts()['unreadable']}"
    )


def main() -> None:
    import os

    captures_bench()
    work = Path(tempfile.mkdtemp(prefix="privbench-build-bench-"))
    staging = _staging(work / "staging")
    with LoopbackServer(default_reply=REPLY, latency=LATENCY_S) as server:
        os.environ["BENCHDRAFTER_BASE_URL"] = server.base_url
        os.environ["BENCHDRAFTER_API_KEY"] = "none"
        for connections in (10, 20):
            drafting(connections, work, staging)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
