"""Benchmark: ``privbench grade priviq`` against a loopback judge, beside the reference evaluator.

Writes a Priv-IQ directory of N items (default 146, the paper's size) and a ``results.json``,
starts the loopback OpenAI-compatible server (tests/loopback_server.py) as a separate
process answering every call after ``--latency`` seconds (default 0.3), and launches
``privbench grade priviq --judge-connections C`` (default 32) as a user would, ``--runs``
times (default 3), a fresh server each time. The clock starts before the launch and stops
when the process exits; the server records when it received the first request and sent
the last reply, so each run splits into:

* launch → first request: imports, reading and checking the inputs, up to the judge check;
* first request → first graded call: the judge check's reply, inspect starting the eval;
* graded calls: first graded call → last reply (ideal: ``ceil(items / C) × latency``);
* last reply → exit: finishing the log, exports, summaries, the tables, the process exit.

Then the reference evaluator grades the same answers against the same kind of server (one
request at a time, as it does) and the bench prints the speed ratio: the reference's median
time over privbench's median time (higher is better). ``--reference PATH`` runs the
reference's own ``Priv-IQ_evaluator.py`` (github.com/sakibsh/Priv-IQ; it needs openai,
pandas, numpy, tqdm); without it, bench/sequential_grader.py stands in for it: the same
request pattern (one call at a time, the grade file rewritten after each reply, CSVs with
pandas). ``--reference none`` skips the comparison (e.g. ``--items 1000 --latency 0.5`` to
measure throughput alone). ``--keep DIR`` keeps every run's outputs (exports, printed
output) to compare two versions of privbench.

    .venv/bin/python bench/judge_throughput.py [--items 146] [--latency 0.3] [--connections 32]
        [--runs 3] [--json] [--reference PATH|none] [--reference-runs 1] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from helpers.loopback_server import process_stats, start_process  # noqa: E402

STAND_IN = Path(__file__).resolve().parent / "sequential_grader.py"
JUDGE_REPLY = "0.7"

Command = Callable[[int, Path], tuple[list[str], dict[str, str]]]
"""Given the server's port and a fresh output folder: the command line and its environment."""


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


@dataclass(frozen=True)
class Timing:
    """One timed run, in seconds; the four phases add up to ``total``."""

    total: float
    to_first_request: float
    to_first_graded: float
    calls_span: float
    after_last_reply: float
    client_cpu: float
    requests: int
    peak_in_flight: int


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(command: Command, latency: float, out: Path) -> Timing:
    """Run ``command`` once against a fresh loopback server; its output goes to ``out``."""
    server, port = start_process(latency, JUDGE_REPLY)
    try:
        out.mkdir(parents=True)
        argv, env = command(port, out)
        cpu0, started = children_cpu(), time.time()
        with (out / "stdout.txt").open("w") as stdout, (out / "stderr.txt").open("w") as stderr:
            done = subprocess.run(argv, env=env, stdout=stdout, stderr=stderr, check=False)
        finished, cpu = time.time(), children_cpu() - cpu0
        stats = process_stats(port)
    finally:
        server.kill()
        server.wait()
    if done.returncode != 0:
        sys.exit(f"error: {argv[1]} exited with {done.returncode}; see {out / 'stderr.txt'}")
    first, graded = stats["first_request_at"], stats["first_judge_request_at"]
    last = stats["last_reply_at"]
    return Timing(
        total=finished - started,
        to_first_request=first - started,
        to_first_graded=graded - first,
        calls_span=last - graded,
        after_last_reply=finished - last,
        client_cpu=cpu,
        requests=int(stats["requests"]),
        peak_in_flight=int(stats["peak_in_flight"]),
    )


def privbench_command(data: Path, predictions: Path, connections: int, as_json: bool) -> Command:
    """``privbench grade priviq`` with the judge ``openai-api/benchjudge/judge``."""
    script = Path(sys.executable).parent / "privbench"
    launcher = [str(script)] if script.exists() else [sys.executable, "-m", "privbench"]

    def command(port: int, out: Path) -> tuple[list[str], dict[str, str]]:
        env = dict(os.environ)
        env.update(
            BENCHJUDGE_BASE_URL=f"http://127.0.0.1:{port}/v1",
            BENCHJUDGE_API_KEY="bench-key",
            INSPECT_DISPLAY="none",
        )
        argv = [
            *launcher,
            "grade",
            "priviq",
            "--data",
            str(data),
            "--predictions",
            str(predictions),
            "--judge",
            "openai-api/benchjudge/judge",
            "--judge-connections",
            str(connections),
            "--out",
            str(out / "exports"),
            "--log-dir",
            str(out / "logs"),
        ]
        return [*argv, "--json"] if as_json else argv, env

    return command


def reference_command(script: Path, data: Path, predictions: Path) -> Command:
    """The reference evaluator (or its stand-in) with the judge model ``judge``."""

    def command(port: int, out: Path) -> tuple[list[str], dict[str, str]]:
        env = dict(os.environ)
        env.update(OPENAI_BASE_URL=f"http://127.0.0.1:{port}/v1", OPENAI_API_KEY="bench-key")
        (out / "exports").mkdir()
        argv = [
            sys.executable,
            str(script),
            "--priviq_path",
            str(data),
            "--result_file",
            str(predictions),
            "--result_path",
            str(out / "exports"),
            "--gpt_model",
            "judge",
        ]
        return argv, env

    return command


def median_timing(timings: Sequence[Timing]) -> Timing:
    """Each figure's median over the runs (so the phases need not add up exactly)."""

    def med(pick: Callable[[Timing], float]) -> float:
        return statistics.median(pick(t) for t in timings)

    return Timing(
        total=med(lambda t: t.total),
        to_first_request=med(lambda t: t.to_first_request),
        to_first_graded=med(lambda t: t.to_first_graded),
        calls_span=med(lambda t: t.calls_span),
        after_last_reply=med(lambda t: t.after_last_reply),
        client_cpu=med(lambda t: t.client_cpu),
        requests=timings[0].requests,
        peak_in_flight=max(t.peak_in_flight for t in timings),
    )


def row(name: str, t: Timing) -> str:
    return (
        f"{name:<20}{t.total:>7.2f} s{t.to_first_request:>9.2f} s{t.to_first_graded:>9.2f} s"
        f"{t.calls_span:>9.2f} s{t.after_last_reply:>9.2f} s{t.client_cpu:>8.2f} s"
        f"{t.requests:>6}{t.peak_in_flight:>5}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--items", type=int, default=146)
    parser.add_argument("--latency", type=float, default=0.3)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--runs", type=int, default=3, help="privbench runs (median shown)")
    parser.add_argument("--json", action="store_true", help="run privbench with --json")
    parser.add_argument(
        "--reference",
        default="",
        help="the reference's Priv-IQ_evaluator.py; 'none' skips it (default: the stand-in)",
    )
    parser.add_argument("--reference-runs", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="keep every run's outputs in this folder")
    args = parser.parse_args()
    if min(args.runs, args.reference_runs, args.items) < 1:
        parser.error("--runs, --reference-runs and --items: at least 1")

    work = Path(tempfile.mkdtemp(prefix="judge-throughput-"))
    runs_dir = args.keep or work / "runs"
    if args.keep and args.keep.exists() and any(args.keep.iterdir()):
        sys.exit(f"error: --keep {args.keep}: not empty")
    try:
        predictions = make_dataset(work / "data", args.items)
        command = privbench_command(work / "data", predictions, args.connections, args.json)
        ours = [
            timed_run(command, args.latency, runs_dir / f"privbench-{i + 1}")
            for i in range(args.runs)
        ]
        reference: list[Timing] = []
        if args.reference != "none":
            script = Path(args.reference) if args.reference else STAND_IN
            command = reference_command(script, work / "data", predictions)
            reference = [
                timed_run(command, args.latency, runs_dir / f"reference-{i + 1}")
                for i in range(args.reference_runs)
            ]
    finally:
        shutil.rmtree(work)

    ideal = math.ceil(args.items / args.connections) * args.latency
    print(
        f"Priv-IQ grading: {args.items} items (+ 1 judge check), {args.latency} s latency, "
        f"{args.connections} judge connections; ideal graded calls {ideal:.2f} s"
    )
    print(
        f"{'':<20}{'total':>9}{'→ 1st req':>11}{'→ graded':>11}{'graded':>11}{'→ exit':>11}"
        f"{'CPU':>10}{'calls':>6}{'peak':>5}"
    )
    for i, timing in enumerate(ours):
        print(row(f"privbench run {i + 1}", timing))
    mine = median_timing(ours)
    print(row("privbench median", mine))
    print(
        f"graded calls / ideal {mine.calls_span / ideal:.2f}×  ({args.items / mine.calls_span:.1f}"
        f" calls/s; ideal {args.connections / args.latency:.1f})"
    )
    if reference:
        name = "reference" if args.reference else "stand-in"
        for i, timing in enumerate(reference):
            print(row(f"{name} run {i + 1}", timing))
        theirs = median_timing(reference)
        print(row(f"{name} median", theirs))
        print(
            f"speed ratio           {theirs.total / mine.total:.1f}×  "
            f"(the {'reference evaluator' if args.reference else 'stand-in'}'s median total "
            "time over privbench's)"
        )
    if args.keep:
        print(f"outputs kept in {args.keep}")


if __name__ == "__main__":
    main()
