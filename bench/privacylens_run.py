"""Benchmark: a full PrivacyLens grading run against a loopback model judge, and offline.

Writes the first ``--cases`` cases (default all 493 shipped, 1,487 sensitive items) of the
shipped ``main_data.json`` as a reference-format CSV of final actions (``name,final_action``;
each a bland message with the case's own final-action tool), starts the loopback
OpenAI-compatible server (tests/helpers/loopback_server.py) as a separate process answering
every call after ``--latency`` seconds (default 0.5) — a leakage question with
``Reasoning: … Answer: No.``, a helpfulness question with ``Answer: Good (2).`` — and runs
:func:`privbench.suites.privacylens.api.grade_privacylens` with the judge
``openai-api/benchjudge/judge`` and ``--connections`` (default 32) judge connections.

Prints the judge calls (one per sensitive item plus one per case: 1,487 + 493 = 1,980 for
all cases; any re-asked question shows as extra calls), the wall time, the concurrency
ideal ``(1 + ceil(calls / connections)) × latency`` (the reachability check, then the
graded calls), the ratio wall / ideal, calls per second, and the phases: start → first
request (imports, reading and checking the inputs), first graded call → last reply, last
reply → done (finishing the log, reading the figures). Then grades the same actions with
the offline judge (no server) and prints cases per second.

Fails (exit status 1) unless every figure is the one the replies imply: every case judged,
leakage rate 0 and helpfulness 2 for every case (privbench's and the reference's reading),
no unreadable judge reply, no error, and exactly the expected number of judge calls.

    .venv/bin/python bench/privacylens_run.py [--latency 0.5] [--connections 32] [--cases 493]
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from helpers.loopback_server import LoopbackServer, process_stats  # noqa: E402

LEAKAGE_TEXT = r"Judge whether the following action leaks the secret"
HELPFULNESS_TEXT = r"evaluate \[Agent\]'s helpfulness"
LEAKAGE_REPLY = (
    "judge whether the action leaks the secret information, we compare the two. The "
    "action sends a short generic note and mentions none of the secret.\n\nAnswer: No."
)
HELPFULNESS_REPLY = (
    "evaluate the helpfulness, we check the tool and its input. The action uses the "
    "requested tool with a filled message.\n\nAnswer: Good (2)."
)
JUDGE = "openai-api/benchjudge/judge"


class JudgeServer(LoopbackServer):
    """The loopback server with PrivacyLens's two judge prompts scripted, counted apart."""

    def __init__(self, latency: float) -> None:
        super().__init__(default_reply="1", latency=latency)
        self.first_graded_at: float | None = None
        self.script(LEAKAGE_TEXT, self._timed(LEAKAGE_REPLY))
        self.script(HELPFULNESS_TEXT, self._timed(HELPFULNESS_REPLY))

    def _timed(self, reply: str) -> Callable[[dict[str, Any]], str]:
        def answer(_: dict[str, Any]) -> str:
            self.first_graded_at = self.first_graded_at or time.time()
            return reply

        return answer

    def stats(self) -> dict[str, Any]:
        return {
            **super().stats(),
            "leakage": self.count(LEAKAGE_TEXT),
            "helpfulness": self.count(HELPFULNESS_TEXT),
            "first_graded_at": self.first_graded_at,
        }


def serve(latency: float) -> None:
    """Run :class:`JudgeServer` in this process; print ``PORT <n>`` once it listens."""
    server = JudgeServer(latency)

    async def run() -> None:
        await server.serve()
        print(f"PORT {server.port}", flush=True)
        await asyncio.Event().wait()

    asyncio.run(run())


def start_server(latency: float) -> tuple[subprocess.Popen[str], int]:
    """This script's ``--serve`` mode as a separate process, and its port."""
    process = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--latency", str(latency)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    return process, int(process.stdout.readline().split()[1])


def write_actions(path: Path, n_cases: int) -> tuple[int, int]:
    """The first ``n_cases`` cases' final actions as the reference's CSV; (cases, items)."""
    from privbench.suites.privacylens.dataset import DATA_DIR, load_privacylens

    cases = load_privacylens(DATA_DIR)[:n_cases]
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "final_action"])
        for case in cases:
            body = json.dumps({"to": "a@example.com", "body": "Hello, see you soon."})
            action = (
                "Thought: I will send the requested message.\n"
                f"Action: {case.trajectory.final_action}\nAction Input: {body}"
            )
            writer.writerow([case.name, action])
    return len(cases), sum(len(c.trajectory.sensitive_info_items) for c in cases)


@dataclass(frozen=True)
class Graded:
    wall: float
    started: float
    finished: float
    problems: list[str]


def grade(actions: Path, judge: str, connections: int, work: Path, n_cases: int) -> Graded:
    """One ``grade_privacylens`` run, timed, and what is wrong with its figures."""
    from privbench.judges.choice import parse_judge
    from privbench.runtime.running import RunOptions
    from privbench.suites.privacylens.api import grade_privacylens

    options = RunOptions(
        judge=parse_judge(judge),
        judge_connections=connections,
        log_dir=str(work / "logs"),
        display="none",
    )
    started = time.time()
    wall0 = time.perf_counter()
    run = grade_privacylens(None, actions, options=options)
    wall = time.perf_counter() - wall0
    finished = time.time()
    logged = run.logged
    problems = []
    if logged.errors or logged.missing:
        problems.append(f"{len(logged.errors)} errors, {len(logged.missing)} missing")
    if logged.unreadable_judge:
        problems.append(f"{logged.unreadable_judge} unreadable judge questions")
    if [f.prompt_type for f in logged.actions] != ["naive"]:
        problems.append(f"prompt types {[f.prompt_type for f in logged.actions]}")
    for f in logged.actions:
        ref = f.reference
        if (f.cases, f.no_action, f.unscored, f.helpfulness_scored) != (n_cases, 0, 0, n_cases):
            problems.append(
                f"cases {f.cases}, no action {f.no_action}, unscored {f.unscored}, "
                f"helpfulness scored {f.helpfulness_scored} (expected {n_cases}, 0, 0, {n_cases})"
            )
        if (f.leakage.k, f.leakage.n, f.helpfulness_mean) != (0, n_cases, 2.0):
            problems.append(
                f"leakage {f.leakage.k}/{f.leakage.n}, helpfulness {f.helpfulness_mean}"
                f" (expected 0/{n_cases}, 2.0)"
            )
        if (ref.leakage_rate, ref.helpfulness, ref.binary_helpfulness_rate) != (0.0, 2.0, 1.0):
            problems.append(f"reference figures {ref.record()}")
    wrong = [
        v.case
        for v in logged.verdicts
        if v.leaked is not False
        or v.reference_leaked
        or v.helpfulness != 2
        or v.reference_helpfulness != 2
    ]
    if wrong:
        problems.append(f"{len(wrong)} cases not 'no leak, Good (2)', e.g. {wrong[:3]}")
    return Graded(wall, started, finished, problems)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--cases", type=int, default=493, help="the first N shipped cases")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.latency)
        return
    if min(args.cases, args.connections) < 1:
        parser.error("--cases and --connections: at least 1")

    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="privacylens-run-") as tmp:
        work = Path(tmp)
        os.environ["PRIVBENCH_CACHE_DIR"] = str(work / "cache")
        os.environ["INSPECT_CACHE_DIR"] = str(work / "inspect-cache")
        os.environ.setdefault("INSPECT_DISPLAY", "none")
        actions = work / "final_actions.csv"
        n_cases, n_items = write_actions(actions, args.cases)

        server, port = start_server(args.latency)
        try:
            os.environ["BENCHJUDGE_BASE_URL"] = f"http://127.0.0.1:{port}/v1"
            os.environ["BENCHJUDGE_API_KEY"] = "bench-key"
            model = grade(actions, JUDGE, args.connections, work / "model", n_cases)
            stats = process_stats(port)
        finally:
            server.kill()
            server.wait()
        offline = grade(actions, "offline", args.connections, work / "offline", n_cases)

    leakage, helpfulness = int(stats["leakage"]), int(stats["helpfulness"])
    calls, checks = leakage + helpfulness, int(stats["check"])
    other = int(stats["requests"]) - calls - checks
    if (leakage, helpfulness, other) != (n_items, n_cases, 0):
        failures.append(
            f"judge calls: leakage {leakage}, helpfulness {helpfulness}, other {other} "
            f"(expected {n_items}, {n_cases}, 0)"
        )
    failures += [f"model judge: {p}" for p in model.problems]
    failures += [f"offline judge: {p}" for p in offline.problems]

    ideal = (checks + math.ceil(calls / args.connections)) * args.latency
    print(
        f"PrivacyLens grading: {n_cases} cases, {n_items} sensitive items; model judge at "
        f"{args.latency} s latency, {args.connections} judge connections"
    )
    print(
        f"judge calls           {calls} (leakage {leakage} + helpfulness {helpfulness};"
        f" expected {n_items + n_cases}) + {checks} reachability check"
    )
    print(f"wall time             {model.wall:.2f} s")
    print(f"ideal                 {ideal:.2f} s  ((check + ceil(calls / connections)) × latency)")
    print(f"ratio wall / ideal    {model.wall / ideal:.2f}×")
    print(
        f"calls per second      {calls / model.wall:.1f}  (ideal while grading"
        f" {args.connections / args.latency:.1f})"
    )
    print(f"  start → first call  {stats['first_request_at'] - model.started:.2f} s")
    print(f"  graded calls        {stats['last_reply_at'] - stats['first_graded_at']:.2f} s")
    print(f"  last reply → done   {model.finished - stats['last_reply_at']:.2f} s")
    print(
        f"offline judge         {offline.wall:.2f} s for {n_cases} cases:"
        f" {n_cases / offline.wall:.1f} cases/s (whole grade run, no server)"
    )
    if failures:
        for failure in failures:
            print(f"FAIL: {failure}", file=sys.stderr)
        sys.exit(1)
    print("figures               leakage rate 0, helpfulness 2.0 for every case: as expected")


if __name__ == "__main__":
    main()
