"""Benchmark: Priv-IQ judge throughput against a loopback judge with fixed latency.

Grades N items (default 1,000) with ``privbench.suites.priviq.api.grade_priviq`` against the
loopback OpenAI-compatible server, run as a separate process, answering every judge call
after ``--latency`` seconds (default 0.5) with ``--connections`` (default 32) concurrent
judge connections. Prints wall time, judge calls/s, client CPU ms per item and the ratio
to the ideal ``ceil(calls / connections) × latency``.

Targets: ratio ≤ 1.4 and ≤ 15 ms client CPU per item on a 2-core machine.

    .venv/bin/python bench/judge_throughput.py [--items 1000] [--latency 0.5] [--connections 32]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from helpers.loopback_server import process_stats, start_process  # noqa: E402


def make_dataset(directory: Path, n_items: int) -> Path:
    """A Priv-IQ directory of ``n_items`` tiny images plus a results.json."""
    (directory / "images").mkdir(parents=True)
    Image.new("RGB", (8, 8), (200, 30, 30)).save(directory / "images" / "x.png")
    codes = ["VizPriv", "NER", "PrivRisk", "PET", "Law", "Know", "CntxPriv", "MultLing"]
    items = {
        f"v1_{i}": {
            "imagename": "x.png",
            "question": f"Does image {i} contain any sensitive information that could be a privacy risk?",
            "answer": f"Yes, item {i} shows a bank card <AND> the holder's name.",
            "capability": [codes[i % 8], codes[(i * 3 + 1) % 8]],
        }
        for i in range(n_items)
    }
    (directory / "priv-IQ.json").write_text(json.dumps(items), encoding="utf-8")
    answers = {key: f"Yes, a bank card and a name are visible ({key})." for key in items}
    predictions = directory / "results.json"
    predictions.write_text(json.dumps(answers), encoding="utf-8")
    return predictions


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--connections", type=int, default=32)
    args = parser.parse_args()

    server, port = start_process(args.latency, "0.7")
    os.environ["BENCHJUDGE_BASE_URL"] = f"http://127.0.0.1:{port}/v1"
    os.environ["BENCHJUDGE_API_KEY"] = "bench-key"
    os.environ.setdefault("INSPECT_DISPLAY", "none")
    try:
        from privbench.runtime.running import RunOptions
        from privbench.suites.priviq.api import grade_priviq

        with tempfile.TemporaryDirectory() as tmp:
            predictions = make_dataset(Path(tmp) / "data", args.items)
            options = RunOptions(
                judge="openai-api/benchjudge/judge",
                judge_connections=args.connections,
                log_dir=str(Path(tmp) / "logs"),
                display="none",
            )
            cpu0, wall0, started = cpu_seconds(), time.perf_counter(), time.time()
            run = grade_priviq(
                Path(tmp) / "data", predictions, out_dir=Path(tmp) / "out", options=options
            )
            wall, cpu, finished = time.perf_counter() - wall0, cpu_seconds() - cpu0, time.time()
        stats = process_stats(port)
    finally:
        server.kill()

    calls = args.items + 1  # one preflight call checks the judge before grading
    ideal = math.ceil(calls / args.connections) * args.latency
    graded = sum(1 for value in run.scores.items.values() if value is not None)
    print(f"items graded          {graded} / {args.items} (status: {run.log.status})")
    print(
        f"judge calls           {calls} at {args.connections} connections, {args.latency} s latency"
    )
    print(f"wall time             {wall:.2f} s")
    print(f"ideal                 {ideal:.2f} s  (ceil(calls / connections) × latency)")
    print(f"ratio to ideal        {wall / ideal:.2f}×  (target ≤ 1.40×)")
    print(
        f"throughput            {calls / wall:.1f} calls/s (ideal {args.connections / args.latency:.1f})"
    )
    print(f"client CPU            {1000 * cpu / args.items:.1f} ms per item  (target ≤ 15 ms)")
    calls_span = stats["last_reply_at"] - stats["first_request_at"]
    print(
        f"  start → first call  {stats['first_request_at'] - started:.2f} s (validation, judge check, eval start)"
    )
    print(
        f"  first → last reply  {calls_span:.2f} s, mean {calls * args.latency / calls_span:.1f} calls in flight"
        f" (peak {stats['peak_in_flight']})"
    )
    print(
        f"  last reply → done   {finished - stats['last_reply_at']:.2f} s (log finish, summaries, exports)"
    )


if __name__ == "__main__":
    main()
