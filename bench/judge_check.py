"""Benchmark: ``judge check`` on N reference grades against a loopback judge with latency.

Writes N (default 500) reference-graded answers, starts the loopback OpenAI-compatible
server as a separate process answering every judge call after ``--latency`` seconds
(default 0.5), and runs :func:`privbench.judgecheck.api.check_judge` with
``--connections`` (default 32) judge connections, without probes and verdicts (their calls
are measured apart: ``--probes``). Prints wall time, calls, the ratio to the concurrency
ideal ``ceil(calls / connections) × latency`` and the time the statistics (bootstrap
intervals overall and per competency) take after the last reply.

    .venv/bin/python bench/judge_check.py [--items 500] [--latency 0.5] [--connections 32]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from helpers.loopback_server import process_stats, start_process  # noqa: E402

CODES = ("VizPriv", "NER", "PrivRisk", "PET", "Law", "Know", "CntxPriv", "MultLing")


def write_references(path: Path, n_items: int) -> Path:
    """``n_items`` reference-graded answers over every competency and grade level."""
    rows = [
        {
            "id": f"b{i:04d}",
            "question": f"Does image {i} contain any sensitive information?",
            "reference": f"Yes, item {i} shows a bank card <AND> the holder's name.",
            "prediction": f"Yes, a bank card is visible ({i}).",
            "score": (i % 11) / 10,
            "competency": CODES[i % len(CODES)],
        }
        for i in range(n_items)
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--items", type=int, default=500)
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--probes", action="store_true", help="also run the bias probes")
    args = parser.parse_args()

    server, port = start_process(args.latency, "0.7")
    os.environ["BENCHJUDGE_BASE_URL"] = f"http://127.0.0.1:{port}/v1"
    os.environ["BENCHJUDGE_API_KEY"] = "bench-key"
    os.environ.setdefault("INSPECT_DISPLAY", "none")
    try:
        from privbench.judgecheck.api import CheckRequest, check_judge
        from privbench.runtime.judge_choice import ModelJudge
        from privbench.runtime.running import RunOptions

        with tempfile.TemporaryDirectory() as tmp:
            os.environ["PRIVBENCH_CACHE_DIR"] = str(Path(tmp) / "cache")
            reference = write_references(Path(tmp) / "ref.jsonl", args.items)
            options = RunOptions(
                judge=ModelJudge("openai-api/benchjudge/judge"),
                judge_connections=args.connections,
                log_dir=str(Path(tmp) / "logs"),
                display="none",
            )
            request = CheckRequest(against=[reference], verdicts=(), probes=args.probes)
            started = time.time()
            wall0 = time.perf_counter()
            result = check_judge(request, options)
            wall = time.perf_counter() - wall0
            finished = time.time()
        stats = process_stats(port)
    finally:
        server.kill()

    calls, checks = int(stats["judge"]), int(stats["check"])  # one check per inspect run
    probe_runs = len(result.logs) - 1
    per_run = [args.items] + (
        [(calls - args.items) // probe_runs] * probe_runs if probe_runs else []
    )
    ideal = checks * args.latency + sum(
        math.ceil(n / args.connections) * args.latency for n in per_run
    )
    assert result.grades is not None
    print(f"reference items       {args.items} (n scored {result.grades.figures.n})")
    print(f"judge calls           {calls} (+ {checks} reachability) at {args.connections} "
          f"connections, {args.latency} s latency")  # fmt: skip
    print(f"wall time             {wall:.2f} s")
    print(
        f"ideal                 {ideal:.2f} s  (per run: check + ceil(calls / connections) × latency)"
    )
    print(f"ratio to ideal        {wall / ideal:.2f}×")
    print(f"  start → first call  {stats['first_request_at'] - started:.2f} s")
    print(f"  last reply → done   {finished - stats['last_reply_at']:.2f} s "
          "(log finish, statistics with 1000 bootstrap draws overall and per competency, card)")  # fmt: skip


if __name__ == "__main__":
    main()
