"""Benchmark: does privbench's grade of every released VLM-GeoPrivacy response file give the
reference's own figures?

Why: privbench's ``grade geoprivacy`` claims ``eval.py``'s figures under its labels
(``reference_metrics`` of ``--json``). ``bench/reference/geoprivacy_expected.json`` holds
those figures for every released file under ``evaluation/main`` as the reference's own
``eval.py`` computed them (basic and error analysis, on its released ``_coord.json``). This
script grades each of those files in-process with
:func:`privbench.suites.geoprivacy.api.grade_geoprivacy` and compares key by key (to 1e-6).

How: the annotations (``data/annotation_labels.csv``, ``data/images_metadata.csv``; no
photo is needed to grade) and the whole ``evaluation/main/`` tree are exported from the
reference's git mirror at HEAD into a temporary folder, keeping the layout, so a free-form
file's ``../coordinates/<stem>_coord.json`` lies where privbench's grade looks for it.
Multiple-choice files (all seven questions with heuristics, Q7 alone) need no judge.
Free-form files are judged by an in-process loopback OpenAI-compatible server
(``tests/helpers/loopback_server.py``, no latency) that REPLAYS the released judge label:
each granularity prompt is answered with the stored ``Q7-label`` of the row whose stripped
``Q7-gen`` is the prompt's text, and each place-name extraction with an empty reply (the
reference's error analysis reads its released coordinates, not privbench's). So a match
shows that privbench's reading (refusal rule, label handling, merge with the gold) and its
arithmetic reproduce ``eval.py`` given the same judge verdicts; it says nothing about how
a live judge labels. A text shared by rows with different stored labels cannot be
replayed by its text alone: such texts are reported and counted, and their file is graded
one sample at a time (one judge connection), in privbench's sample order, with the text's
labels handed out in that order (a re-ask, at a raised temperature, gets the same label),
so each row still gets its own stored label. A row whose text the reference's refusal rule
labels (``A``, or ``D`` when empty) is never sent to a judge, by privbench as by
``extract_granularity``; where the released label contradicts that rule, the replay cannot
reach it: such rows are listed, and every mismatch line says how many its file holds.

    .venv/bin/python bench/geoprivacy_reproduce.py \
        [--mirror /work/.mirror/99starman+VLM-GeoPrivacyBench/repo] \
        [--expected bench/reference/geoprivacy_expected.json] [--only SUBSTRING ...] \
        [--markdown docs/geoprivacy-reproduction.md]

Prints every mismatch (file, key, expected, got), the keys one side has and the other not,
a markdown table per protocol, and items graded per second (one multiple-choice and one
free-form file of 1,200 rows, and all files). Exits 1 on any mismatch. All 61 files take
about 20–25 minutes on two CPU cores (inspect's per-sample work, not the judge: its replies
are local and immediate).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from helpers.loopback_server import LoopbackServer  # noqa: E402

from privbench.judges.choice import parse_judge  # noqa: E402
from privbench.runtime.running import RunOptions  # noqa: E402
from privbench.suites.geoprivacy.api import grade_geoprivacy  # noqa: E402
from privbench.suites.geoprivacy.dataset import load_geoprivacy  # noqa: E402
from privbench.suites.geoprivacy.prompts import judge_prompt, refusal_label  # noqa: E402

MIRROR = Path("/work/.mirror/99starman+VLM-GeoPrivacyBench/repo")
EXPECTED = REPO / "bench" / "reference" / "geoprivacy_expected.json"
EXPORTED = ("data/annotation_labels.csv", "data/images_metadata.csv", "evaluation/main")
JUDGE = "openai-api/benchjudge/judge"
TOLERANCE = 1e-6
ANSWER_SUFFIX = "\n\nAnswer (a single-letter label):"
"""How the granularity prompt's user text ends (``utils.extract_granularity``)."""
JUDGE_PREFIX = judge_prompt("").user.removesuffix(ANSWER_SUFFIX)
"""The granularity prompt's user text before the judged text (``…\\n\\nText: ``)."""
KEY_NAMES = {
    "Exact location when no sharing intent (Q2=B only) %": (
        "Exact location when no sharing intent (Q2=B) %"
    ),
}
"""Expected label → privbench's label, where the wording differs."""
TIMED = (
    "evaluation/main/mcq/api_gen_zs_heuristics_gpt-4.1_combined.json",
    "evaluation/main/zs/responses/api_gen_zs_free-form_gpt-4.1_combined.json",
)
"""The files whose grading speed is reported (1,200 rows each)."""
_NAME = re.compile(
    r"^(?:api_gen|generate)_(?:zs|iter-cot|malicious)(?:_heuristics)?(?:_q7-only)?"
    r"(?:_free-form)?_(?P<model>.+)_combined\.json$"
)
PROTOCOLS = (
    "MCQ + heuristics",
    "Q7-only + heuristics",
    "Q7-only",
    "free-form zs",
    "free-form iter-cot",
    "free-form malicious",
)
MCQ_HEADLINE = (
    ("Q7 F1", "Q7 F1 (macro)"),
    ("Q7 α", "Krippendorff's alpha for Q7"),
    ("over", "Over Disclosure rate"),
    ("under", "Under Disclosure rate"),
    ("abst. viol. %", "Abstention violation rate"),
)
FREE_FORM_HEADLINE = (
    ("n valid", "n valid"),
    ("Q7 F1", "Q7 F1 (macro)"),
    ("over", "Over Disclosure rate"),
    ("under", "Under Disclosure rate"),
    ("abst. viol. %", "Abstention violation rate"),
    ("exposure %", "Exact location when no sharing intent (Q2=B) %"),
    ("utility", "Utility score (log x)"),
    ("PPS", "Privacy preservation score"),
)


def protocol_of(path: str) -> str:
    """The protocol row group of a released file (by its folder and name)."""
    name = Path(path).name
    if "/mcq/" in path:
        if "q7-only" in name:
            return "Q7-only + heuristics" if "heuristics" in name else "Q7-only"
        return "MCQ + heuristics"
    mode = path.split("/")[2]
    return f"free-form {mode}"


def model_of(path: str) -> str:
    """The model a released file answered for (``(open)`` for the open models' files)."""
    name = Path(path).name
    found = _NAME.match(name)
    model = found.group("model") if found else name
    return f"{model} (open)" if name.startswith("generate_") else model


# --- the reference's files ---------------------------------------------------------------


def _git(mirror: Path, *args: str) -> bytes:
    return subprocess.run(
        ["git", "--git-dir", str(mirror), *args], capture_output=True, check=True
    ).stdout


def export_reference(mirror: Path, target: Path) -> list[str]:
    """:data:`EXPORTED` at the mirror's HEAD, written under ``target`` with the repository's
    layout; returns the paths whose blobs the mirror lacks."""
    listing = _git(mirror, "ls-tree", "-r", "HEAD", "--", *EXPORTED).decode()
    absent: list[str] = []
    for line in listing.splitlines():
        meta, name = line.split("\t", 1)
        kind, blob = meta.split()[1:3]
        if kind != "blob":
            continue
        shown = subprocess.run(
            ["git", "--git-dir", str(mirror), "cat-file", "blob", blob], capture_output=True
        )
        if shown.returncode != 0:
            absent.append(name)
            continue
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(shown.stdout)
    return absent


# --- the judge that replays the released labels ------------------------------------------


def _user_text(body: Mapping[str, Any]) -> str:
    """The last user message's text of a chat-completions request."""
    for message in reversed(body.get("messages", [])):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            return "".join(
                str(p.get("text", "")) for p in content if isinstance(p, dict) and "text" in p
            )
    return ""


@dataclass
class LabelReplay:
    """The granularity judge's replies: the stored ``Q7-label`` of the judged text."""

    labels: dict[str, str] = field(default_factory=dict)
    conflicts: dict[str, list[str]] = field(default_factory=dict)
    """Texts of the current file stored with different labels → those labels."""
    queues: dict[str, deque[str]] = field(default_factory=dict)
    """Texts of :attr:`conflicts` → their rows' labels in privbench's sample order."""
    last: dict[str, str] = field(default_factory=dict)
    asked: int = 0
    unknown: int = 0
    """Granularity prompts whose text no row of the current file holds (answered empty)."""

    def load(self, rows: Sequence[Mapping[str, Any]], order: Sequence[str]) -> None:
        """Read one free-form file's rows (the labels replayed while it is graded);
        ``order``: item ids in privbench's sample order."""
        position = {item: n for n, item in enumerate(order)}
        labels: dict[str, str] = {}
        seen: dict[str, list[str]] = {}
        ordered: dict[str, list[tuple[int, str]]] = {}
        for row in rows:
            text = str(row.get("Q7-gen") or "").strip()
            label = str(row.get("Q7-label") or "")
            found = seen.setdefault(text, [])
            if label not in found:
                found.append(label)
            labels.setdefault(text, label)
            ordered.setdefault(text, []).append((position.get(str(row.get("id")), -1), label))
        self.labels = labels
        self.conflicts = {t: ls for t, ls in seen.items() if len(ls) > 1}
        self.queues = {t: deque(lb for _, lb in sorted(ordered[t])) for t in self.conflicts}
        self.last = {}
        self.asked = 0
        self.unknown = 0

    def reply(self, body: dict[str, Any]) -> str:
        """The loopback server's reply to one granularity prompt."""
        user = _user_text(body)
        self.asked += 1
        if not (user.startswith(JUDGE_PREFIX) and user.endswith(ANSWER_SUFFIX)):
            self.unknown += 1
            return ""
        text = user[len(JUDGE_PREFIX) : len(user) - len(ANSWER_SUFFIX)].strip()
        queue = self.queues.get(text)
        if queue is not None:
            first_try = not body.get("temperature")  # re-asks are sent at a raised temperature
            if first_try and queue:
                self.last[text] = queue.popleft()
            return self.last.get(text, self.labels[text])
        label = self.labels.get(text)
        if label is None:
            self.unknown += 1
            return ""
        return label


def round_trip_s(base_url: str, tries: int = 50) -> float:
    """The loopback server's median round trip for one small request (seconds)."""
    body = json.dumps(
        {"model": "judge", "messages": [{"role": "user", "content": "Reply with the digit 1"}]}
    ).encode()
    times: list[float] = []
    for _ in range(tries):
        request = urllib.request.Request(
            f"{base_url}/chat/completions",
            data=body,
            headers={"Content-Type": "application/json", "Authorization": "Bearer bench"},
        )
        started = time.perf_counter()
        with urllib.request.urlopen(request) as response:
            response.read()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


# --- grading and comparing ---------------------------------------------------------------


@dataclass
class Graded:
    """One released file graded by privbench, beside the reference's figures."""

    path: str
    rows: int
    got: dict[str, float | None]
    expected: dict[str, Any]
    seconds: float
    judge_calls: int = 0
    conflicts: dict[str, list[str]] = field(default_factory=dict)
    unknown: int = 0
    sequential: bool = False
    """Graded one sample at a time (texts stored with different labels)."""
    against_rule: list[tuple[str, str, str]] = field(default_factory=list)
    """Rows (id, stored label, the refusal rule's label) whose stored label contradicts the
    reference's own refusal rule: no judge is asked for them, so no replay reaches them."""
    mismatches: list[tuple[str, Any, float | None]] = field(default_factory=list)
    not_produced: list[str] = field(default_factory=list)
    not_expected: list[str] = field(default_factory=list)
    max_diff: float = 0.0

    @property
    def protocol(self) -> str:
        return protocol_of(self.path)

    @property
    def free_form(self) -> bool:
        return self.protocol.startswith("free-form")


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def compare(graded: Graded) -> None:
    """Fill ``graded``'s mismatches, key differences and largest absolute difference."""
    compared: set[str] = set()
    for key, value in graded.expected.items():
        ours = KEY_NAMES.get(key, key)
        if ours not in graded.got:
            graded.not_produced.append(key)
            continue
        compared.add(ours)
        want, got = _number(value), graded.got[ours]
        want_nan = want is None or math.isnan(want)
        if want_nan and got is None:
            continue
        if want_nan or got is None or want is None:
            graded.mismatches.append((key, value, got))
            graded.max_diff = math.inf
            continue
        diff = abs(want - got)
        graded.max_diff = max(graded.max_diff, diff)
        if diff > TOLERANCE:
            graded.mismatches.append((key, value, got))
    graded.not_expected = [k for k in graded.got if k not in compared]


def grade_file(
    root: Path, path: str, expected: dict[str, Any], replay: LabelReplay,
    server: LoopbackServer, options: RunOptions,
) -> Graded:  # fmt: skip
    """Grade one released file with privbench and compare it with the expected figures."""
    source = root / path
    rows: list[dict[str, Any]] = json.loads(source.read_text(encoding="utf-8"))
    free_form = bool(rows) and "Q7-gen" in rows[0]
    if free_form:
        replay.load(rows, [item.id for item in load_geoprivacy(root / "data")])
        if replay.conflicts:  # their labels are handed out in sample order: one at a time
            options = replace(options, judge_connections=1, max_samples=1)
    before = server.count(re.escape(ANSWER_SUFFIX)) + server.count("extract the single best")
    started = time.perf_counter()
    run = grade_geoprivacy(root / "data", source, options=options, label=model_of(path))
    seconds = time.perf_counter() - started
    calls = server.count(re.escape(ANSWER_SUFFIX)) + server.count("extract the single best")
    document = run.json()
    graded = Graded(
        path=path,
        rows=len(rows),
        got=dict(document["reference_metrics"]),
        expected=expected,
        seconds=seconds,
        judge_calls=calls - before,
        conflicts=dict(replay.conflicts) if free_form else {},
        unknown=replay.unknown if free_form else 0,
        sequential=free_form and bool(replay.conflicts),
        against_rule=[
            (str(row.get("id")), str(row.get("Q7-label")), ruled)
            for row in (rows if free_form else [])
            if (ruled := refusal_label(str(row.get("Q7-gen") or "").strip())) is not None
            and ruled != row.get("Q7-label")
        ],
    )
    if document.get("errors") or document.get("missing"):
        graded.mismatches.append(
            ("(run)", "complete", float(document.get("errors", 0) + document.get("missing", 0)))
        )
    compare(graded)
    return graded


# --- reporting ---------------------------------------------------------------------------


def _fmt(value: float | None) -> str:
    if value is None:
        return "–"
    if math.isinf(value):
        return "inf"
    if value == int(value) and abs(value) >= 1:
        return f"{int(value)}"
    return f"{value:.4f}"


def _diff(value: float) -> str:
    return "inf" if math.isinf(value) else f"{value:.1e}"


def tables(results: Sequence[Graded]) -> list[str]:
    """One markdown table per protocol: headline figures and the largest difference."""
    lines: list[str] = []
    for protocol in PROTOCOLS:
        chosen = [g for g in results if g.protocol == protocol]
        if not chosen:
            continue
        headline = FREE_FORM_HEADLINE if chosen[0].free_form else MCQ_HEADLINE
        head = ["model", "n", "privbench Q7 acc", "reference Q7 acc", *(h for h, _ in headline),
                "max abs diff (all keys)"]  # fmt: skip
        lines += [f"### {protocol}", "", "| " + " | ".join(head) + " |",
                  "|" + "---|" * len(head)]  # fmt: skip
        for g in sorted(chosen, key=lambda g: model_of(g.path).lower()):
            cells = [
                model_of(g.path),
                _fmt(g.got.get("n")),
                _fmt(g.got.get("Q7 Accuracy")),
                _fmt(_number(g.expected.get("Q7 Accuracy"))),
                *(_fmt(g.got.get(key)) for _, key in headline),
                _diff(g.max_diff),
            ]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def key_coverage(results: Sequence[Graded]) -> list[str]:
    """Keys only one side has, with the number of files each occurs in."""
    lines: list[str] = []
    for title, counted in (
        ("expected keys privbench does not produce", Counter(k for g in results
                                                             for k in g.not_produced)),
        ("privbench keys the expected figures lack", Counter(k for g in results
                                                             for k in g.not_expected)),
    ):  # fmt: skip
        lines.append(f"{title}:")
        lines += [f"  - {key} ({n} files)" for key, n in sorted(counted.items())] or ["  (none)"]
    renamed = ", ".join(f"'{a}' → '{b}'" for a, b in KEY_NAMES.items())
    lines.append(f"renamed: {renamed}")
    return lines


def speed_lines(results: Sequence[Graded], connections: int, rtt_s: float) -> list[str]:
    """Items graded per second: the timed files and all files."""
    lines: list[str] = []
    for path in TIMED:
        found = next((g for g in results if g.path == path), None)
        if found is None:
            continue
        line = (f"{protocol_of(path)} {model_of(path)}: {found.rows} rows in "
                f"{found.seconds:.2f} s = {found.rows / found.seconds:,.0f} items/s")  # fmt: skip
        if found.free_form:
            ideal = math.ceil(found.judge_calls / connections) * rtt_s
            line += (
                f"; {found.judge_calls} judge calls at {connections} connections, loopback "
                f"round trip {rtt_s * 1000:.1f} ms, so the judge bound is "
                f"ceil(calls / connections) × round trip = {ideal:.2f} s: the rest is "
                "privbench's and inspect's own time"
            )
        else:
            line += " (no judge: no round trip bounds it)"
        lines.append(line)
    rows = sum(g.rows for g in results)
    seconds = sum(g.seconds for g in results)
    if seconds:
        lines.append(f"all {len(results)} files: {rows:,} rows in {seconds:.1f} s of grade "
                     f"calls = {rows / seconds:,.0f} items/s")  # fmt: skip
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mirror", type=Path, default=MIRROR, help="the reference's git dir")
    parser.add_argument("--expected", type=Path, default=EXPECTED)
    parser.add_argument(
        "--only", nargs="*", default=[], help="grade only files whose path contains one of these"
    )
    parser.add_argument("--connections", type=int, default=64, help="judge connections")
    parser.add_argument("--markdown", type=Path, help="write the tables to this file")
    args = parser.parse_args()

    expected_all: dict[str, Any] = json.loads(args.expected.read_text(encoding="utf-8"))
    paths = [
        p
        for p in expected_all
        if p.startswith("evaluation/main/") and (not args.only or any(o in p for o in args.only))
    ]
    wall0 = time.perf_counter()
    results: list[Graded] = []
    replay = LabelReplay()
    with tempfile.TemporaryDirectory(prefix="geoprivacy-reproduce-") as tmp:
        root = Path(tmp) / "reference"
        absent = export_reference(args.mirror, root)
        if absent:
            print(f"absent from the mirror: {', '.join(absent)}", file=sys.stderr)
        os.environ["PRIVBENCH_CACHE_DIR"] = str(Path(tmp) / "cache")
        with LoopbackServer() as server:
            server.script("Reply with the digit 1", "1")
            server.script("extract the single best", "")
            server.script(re.escape(ANSWER_SUFFIX), replay.reply)
            os.environ["BENCHJUDGE_BASE_URL"] = server.base_url
            os.environ["BENCHJUDGE_API_KEY"] = "bench-key"
            options = RunOptions(
                judge=parse_judge(JUDGE),
                judge_connections=args.connections,
                log_dir=str(Path(tmp) / "logs"),
                display="none",
            )
            for number, path in enumerate(paths, 1):
                graded = grade_file(root, path, expected_all[path], replay, server, options)
                results.append(graded)
                state = "ok" if not graded.mismatches else f"{len(graded.mismatches)} mismatches"
                state += ", one sample at a time" if graded.sequential else ""
                print(f"[{number}/{len(paths)}] {path}: {graded.rows} rows, "
                      f"{graded.seconds:.1f} s, {state}", file=sys.stderr, flush=True)  # fmt: skip
            rtt = round_trip_s(server.base_url)
    wall = time.perf_counter() - wall0

    mismatches = [(g.path, *m) for g in results for m in g.mismatches]
    compared = sum(len(g.expected) - len(g.not_produced) for g in results)
    print(f"files graded: {len(results)}; keys compared: {compared}; "
          f"mismatches: {len(mismatches)} (tolerance {TOLERANCE:g})")  # fmt: skip
    against = {g.path: len(g.against_rule) for g in results}
    for path, key, want, got in mismatches:
        note = (
            f" [its file: {against[path]} rows against the refusal rule]" if against[path] else ""
        )
        print(f"MISMATCH {path}: {key}: expected {want!r}, got {got!r}{note}")
    unexplained = [m for m in mismatches if not against[m[0]]]
    print(f"mismatches in files with no row against the refusal rule: {len(unexplained)}")
    ruled = [(g.path, *row) for g in results for row in g.against_rule]
    print(
        f"rows whose released label contradicts the reference's own refusal rule: {len(ruled)} "
        "(privbench applies the rule before any judge call, as extract_granularity does)"
    )
    for path, item, stored, label in ruled:
        print(f"  {path}: id {item}: stored {stored!r}, the rule says {label!r}")
    conflicted = [(g.path, t, ls) for g in results for t, ls in g.conflicts.items()]
    print(f"texts stored with different labels in one file: {len(conflicted)}")
    for path, text, labels in conflicted:
        print(f"  {path}: {text[:70]!r} → {labels} (replayed per row, in sample order)")
    unknown = sum(g.unknown for g in results)
    print(f"granularity prompts whose text no row holds: {unknown}")
    coverage = key_coverage(results)
    print("\n".join(coverage))
    table = tables(results)
    print()
    print("\n".join(table))
    speed = speed_lines(results, args.connections, rtt)
    print("\n".join(speed))
    print(f"total wall time (export, server, every grade): {wall:.1f} s")
    if args.markdown is not None:
        summary = [
            "## VLM-GeoPrivacy: privbench's grade of the released files vs eval.py",
            "",
            f"Generated by `bench/geoprivacy_reproduce.py`: {len(results)} files, {compared} "
            f"keys compared, {len(mismatches)} mismatches (tolerance {TOLERANCE:g}), "
            f"{len(unexplained)} of them in files with no row against the refusal rule; "
            "free-form judge labels replayed from the released `Q7-label`.",
            "",
            *(
                f"- `{Path(path).name}` id {item}: released label {stored!r}, the reference's "
                f"own refusal rule (applied before any judge call) says {label!r}"
                for path, item, stored, label in ruled
            ),
            "",
            *table,
            *(f"- {line}" for line in speed),
            "",
        ]
        args.markdown.write_text("\n".join(summary), encoding="utf-8")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
