"""Capture everything privbench's command line prints and writes, normalised, into a folder.

Why: a restructuring of the code (packages moved, the CLI split) must not change what a
user sees. This script drives only the command line (``python -m privbench …`` in
subprocesses) and reads only the files the commands write, never privbench's modules, so
the same script runs unchanged against the code before and after such a change; two
captures are then compared with ``bench/compare_captures.py BEFORE AFTER``.

    PYTHONPATH=src python bench/capture_outputs.py OUTDIR [--quick]

Everything runs offline: the local baseline ``privbench/ocr-pii`` with the offline judge,
and a loopback OpenAI-compatible server (``tests/loopback_server.py``, started in this
process) whose replies depend only on the request's text, so concurrency cannot reorder
them. ``--quick`` leaves out ``privbench demo`` (the slowest step, ~3-5 minutes).

What lands in OUTDIR (see :func:`write_readme`, which writes OUTDIR/README.md):

* ``help/``: the ``--help`` text of every command and subcommand (found by reading the
  ``Commands`` box of each help page);
* ``commands/NN_name.json``: per command its argv, exit code, stdout (parsed when it is
  JSON) and stderr;
* ``files/AREA/…``: the files the commands wrote (exports, reports, tables, generated
  suites, demo output), text files normalised, binary files as SHA-256, inspect ``.eval``
  logs as a JSON dump of their header, reductions and samples; ``files/AREA.listing.txt``
  lists every file with its size and digest.

Volatile values are replaced by placeholders (:func:`normalise_text`,
:func:`normalise_json`), so two captures of the same code are identical.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import importlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
importlib.import_module("zipfile_zstd")  # inspect's logs are zstd-compressed zips

from helpers.loopback_server import LoopbackServer, message_text  # noqa: E402

FAKE_KEY = "sk-capture-not-a-real-key-0000"
LOOP_MODEL = "openai-api/loop/vlm"
LOOP_JUDGE = "openai-api/loop/judge"

# --------------------------------------------------------------------------------------
# Normalisation
# --------------------------------------------------------------------------------------

VOLATILE_KEYS = frozenset(
    {
        "created",
        "started_at",
        "completed_at",
        "eval_id",
        "run_id",
        "task_id",
        "uuid",
        "revision",
        "packages",
        "total_time",
        "working_time",
        "timestamp",
        "duration",
        "duration_s",
        "elapsed",
        "elapsed_s",
        "wall_s",
        "git",
        "commit",
        "version",
        "privbench_version",
        "inspect_version",
        "inspect_ai_version",
        "pid",
        "time",
        "privbench_answers",
    }
)
"""JSON keys whose value changes from one run to the next (times, ids, versions, the git
revision, a call's ``time``, the random name of a run's answer store
``privbench_answers``): their value becomes ``"<VOLATILE>"`` wherever they occur."""

DROPPED_SAMPLE_KEYS = frozenset({"events", "timelines", "attachments"})
"""Keys of an inspect sample left out of the dump: the event transcript holds every
timestamp and retry of a call; what it records that matters (messages, output, scores,
metadata, token use) is kept in the sample's other keys."""

_ISO_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}[:-]\d{2}[:-]\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}[:-]?\d{2})?"
)
_UUID = re.compile(
    r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"
)
_SHORT_UUID = re.compile(r"(?<![A-Za-z0-9])[2-9A-HJ-NP-Za-km-z]{22}(?![A-Za-z0-9])")
"""inspect's ids (eval, run, sample uuids, log file names): 22 characters of shortuuid's
alphabet. Hex digests cannot match (they are longer, and run of letters this long is no
English word)."""
_DATA_URI = re.compile(r"data:([a-z]+/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=]+)")
_LOOP_PORT = re.compile(r"(127\.0\.0\.1|localhost):\d{2,5}")
_CHATCMPL = re.compile(r"chatcmpl-\d+")
_PROGRESS = re.compile(r"\s*progress\b.*\d+ done")
"""stderr's progress lines (``progress: 3 done, …``, ``progress [judge check: …]: …``)."""


@dataclass
class Normaliser:
    """Replaces the values that differ between two runs of the same code.

    ``paths`` maps absolute paths (the capture's work folder, OUTDIR, the repository, the
    interpreter's prefix, the home folder) to placeholders; longest first, so a path
    inside another is replaced as itself.
    """

    paths: dict[str, str] = field(default_factory=dict)
    today: tuple[str, ...] = ()

    def text(self, text: str) -> str:
        """A text with every volatile value replaced (see the module docstring)."""
        text = _DATA_URI.sub(_digest_data_uri, text)
        for path, token in sorted(self.paths.items(), key=lambda kv: -len(kv[0])):
            text = text.replace(path, token)
        text = _ISO_TIME.sub("<TIME>", text)
        for day in self.today:
            text = text.replace(day, "<TODAY>")
        text = _UUID.sub("<UUID>", text)
        text = _SHORT_UUID.sub("<ID>", text)
        text = _LOOP_PORT.sub(r"\1:<PORT>", text)
        return _CHATCMPL.sub("chatcmpl-<N>", text)

    def json(self, value: Any) -> Any:
        """A JSON value with volatile keys masked and every string normalised."""
        if isinstance(value, dict):
            return {
                self.text(str(k)): ("<VOLATILE>" if k in VOLATILE_KEYS else self.json(v))
                for k, v in value.items()
            }
        if isinstance(value, list):
            return [self.json(v) for v in value]
        if isinstance(value, str):
            return self.text(value)
        return value

    def stderr(self, text: str) -> str:
        """stderr less the progress lines (their number depends on timing)."""
        lines = [line for line in text.splitlines() if not _PROGRESS.match(line)]
        return self.text("\n".join(lines))


def _digest_data_uri(match: re.Match[str]) -> str:
    payload = match.group(2).encode()
    return f"data:{match.group(1)};base64,<{len(payload)} chars sha256={hashlib.sha256(payload).hexdigest()[:16]}>"


def safe_name(name: str) -> str:
    """A normalised file name usable on disk (placeholders lose their angle brackets)."""
    return name.replace("<", "").replace(">", "")


# --------------------------------------------------------------------------------------
# The loopback server's replies
# --------------------------------------------------------------------------------------

SPATIAL_VERDICT = json.dumps(
    {
        "factors": [
            {"gt": 0, "identified": True, "explanation_correct": True, "matched_prediction": 0}
        ],
        "unsupported": False,
        "states_none": False,
    }
)
SPATIAL_FINAL = {
    "q1": "A",
    "q2": {"choices": ["C"], "boxes": {"C": [[342, 328, 494, 493]]}},
    "q3": {"choices": ["E"], "boxes": {}},
    "q4": {
        "text": "A dark window reflects the laptop screen.",
        "factors": [{"name": "window", "why": "reflects the screen", "box": [342, 328, 494, 493]}],
    },
    "q5": {"text": "None.", "factors": []},
}


def _digit(text: str, modulo: int) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) % modulo


def loop_reply(body: dict[str, Any]) -> str:
    """The reply to one request, a function of its text only (so order never matters)."""
    text = message_text(body)
    if "Reply with the digit 1" in text:
        return "1"
    if "You grade one answer" in text:
        return SPATIAL_VERDICT
    if "Correctness" in text or "correctness" in text:
        if '"score"' in text or "JSON" in text:
            return json.dumps({"score": _digit(text, 11) / 10})
        return f"{_digit(text, 11) / 10:.1f}"
    if "KEEP or DELETE" in text:
        return "KEEP" if _digit(text, 3) else "DELETE"
    if "do not give boxes yet" in text:
        return json.dumps({"q1": "A", "q2": ["C"], "q3": ["E"]})
    if "These choices are fixed" in text or "q1 (single choice)" in text:
        return "```json\n" + json.dumps(SPATIAL_FINAL) + "\n```"
    answers = [
        "I cannot help with that.",
        "The image shows a name and an address, which are personal data.",
        "It depends on consent; under the GDPR a lawful basis is needed.",
    ]
    return answers[_digit(text, len(answers))]


# --------------------------------------------------------------------------------------
# Running commands and storing what they print and write
# --------------------------------------------------------------------------------------


@dataclass
class Capture:
    """One capture in progress: where it runs, where it stores, and its counters."""

    out: Path
    work: Path
    env: dict[str, str]
    norm: Normaliser
    jobs: int = 3
    index: int = 0
    pending: list[tuple[int, str, list[str], float]] = field(default_factory=list)
    timings: list[tuple[str, float]] = field(default_factory=list)

    def run(self, name: str, *args: str | Path, timeout: float = 900) -> None:
        """Plan ``privbench ARGS``: it runs, with the others planned, at :meth:`flush`.

        The command's number is given now, so file names never depend on which of the
        concurrent commands finishes first.
        """
        self.index += 1
        self.pending.append((self.index, name, [str(a) for a in args], timeout))

    def flush(self) -> None:
        """Run the planned commands, ``jobs`` at a time (they never share a folder)."""
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            list(pool.map(lambda step: self._execute(*step), self.pending))
        self.pending.clear()

    def _execute(self, index: int, name: str, args: list[str], timeout: float) -> None:
        """Run one command; store argv, exit code, stdout and stderr as one JSON."""
        argv = [sys.executable, "-m", "privbench", *args]
        started = time.monotonic()
        try:
            result = subprocess.run(
                argv,
                cwd=self.work,
                env=self.env,
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired as error:
            result = subprocess.CompletedProcess(argv, -9, str(error.stdout or ""), "TIMEOUT")
        seconds = time.monotonic() - started
        self.timings.append((name, seconds))
        stdout: Any
        try:
            stdout = self.norm.json(json.loads(result.stdout))
        except ValueError:
            stdout = self.norm.text(result.stdout).splitlines()
        record = {
            "argv": ["privbench", *(self.norm.text(a) for a in args)],
            "rc": result.returncode,
            "stdout": stdout,
            "stderr": self.norm.stderr(result.stderr).splitlines(),
        }
        write_json(self.out / "commands" / f"{index:02d}_{name}.json", record)
        print(f"[{index:02d}] {name}: rc {result.returncode}, {seconds:.1f} s", file=sys.stderr)

    def files(self, area: str, folder: Path) -> None:
        """Store the files under ``folder`` (normalised) in files/AREA and list them."""
        target = self.out / "files" / area
        listing: list[str] = []
        if not folder.exists():
            listing.append("<missing>")
        else:
            entries = sorted(p for p in folder.rglob("*") if p.is_file())
            seen: dict[str, int] = {}
            for path in entries:
                rel = self.norm.text(path.relative_to(folder).as_posix())
                seen[rel] = seen.get(rel, 0) + 1
                if seen[rel] > 1:  # two log names equal once normalised: number them
                    rel = f"{rel}#{seen[rel]}"
                listing.append(self._store(path, target / safe_name(rel)) + f"  {rel}")
        write_text(self.out / "files" / f"{area}.listing.txt", "\n".join(listing) + "\n")

    def _store(self, path: Path, target: Path) -> str:
        """Write the normalised form of one file; return its listing columns."""
        raw = path.read_bytes()
        suffix = path.suffix.lower()
        if suffix == ".eval":
            dump = dump_eval_log(raw, self.norm)
            text = json.dumps(dump, indent=1, ensure_ascii=False) + "\n"
            write_text(target.with_name(target.name + ".json"), text)
            return f"eval-log {len(dump.get('samples', [])):>4} samples"
        if suffix in TEXT_SUFFIXES:
            decoded = raw.decode("utf-8", errors="replace")
            text = self.norm.text(decoded)
            if suffix == ".json":
                try:
                    value = self.norm.json(json.loads(decoded))
                    text = json.dumps(value, indent=1, ensure_ascii=False) + "\n"
                except ValueError:
                    pass
            write_text(target, text)
            digest = hashlib.sha256(text.encode()).hexdigest()[:16]
            return f"text {len(text.encode()):>9} {digest}"
        digest = hashlib.sha256(raw).hexdigest()[:16]
        return f"bin  {len(raw):>9} {digest}"


TEXT_SUFFIXES = frozenset(
    {".json", ".jsonl", ".csv", ".md", ".html", ".txt", ".tex", ".svg", ".log", ".yaml"}
)


def dump_eval_log(raw: bytes, norm: Normaliser) -> dict[str, Any]:
    """An inspect ``.eval`` log (a zip) as JSON: header, reductions and samples, normalised.

    The zip itself is not compared: its compressed bytes and entry times change from run
    to run. Samples are sorted by (id, epoch); the event transcript is left out
    (:data:`DROPPED_SAMPLE_KEYS`).
    """
    dump: dict[str, Any] = {}
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        names = set(archive.namelist())
        for name in ("header.json", "reductions.json", "summaries.json"):
            if name in names:
                dump[name] = norm.json(json.loads(archive.read(name)))
        if isinstance(dump.get("summaries.json"), list):  # in the order samples finished
            dump["summaries.json"].sort(key=sample_order)
        samples = []
        for name in sorted(n for n in names if n.startswith("samples/") and n.endswith(".json")):
            sample = json.loads(archive.read(name))
            kept = {k: v for k, v in sample.items() if k not in DROPPED_SAMPLE_KEYS}
            samples.append(norm.json(kept))
        samples.sort(key=sample_order)
        dump["samples"] = samples
        dump["entries"] = sorted(norm.text(n) for n in names if not n.startswith("samples/"))
    return dump


def sample_order(sample: Any) -> tuple[str, int]:
    """Samples and their summaries by (id, epoch): inspect writes them as they finish."""
    if not isinstance(sample, dict):
        return ("", 0)
    return (str(sample.get("id")), int(sample.get("epoch", 0) or 0))


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_json(path: Path, value: Any) -> None:
    write_text(path, json.dumps(value, indent=1, ensure_ascii=False) + "\n")


# --------------------------------------------------------------------------------------
# Help pages
# --------------------------------------------------------------------------------------

_COMMAND_ROW = re.compile(r"^│ ([a-z][a-z0-9-]*)(?:\s{2,}|\s*│)")


def subcommands(help_text: str) -> list[str]:
    """The command names listed in the ``Commands`` box of a typer help page."""
    names: list[str] = []
    inside = False
    for line in help_text.splitlines():
        if line.startswith("╭─ Commands"):
            inside = True
            continue
        if inside and line.startswith("╰"):
            inside = False
            continue
        if inside:
            match = _COMMAND_ROW.match(line)
            if match:
                names.append(match.group(1))
    return names


def capture_help(cap: Capture) -> None:
    """``--help`` of every command, recursively (level by level, ``jobs`` at a time); one
    text file per command path."""

    def page(path: list[str]) -> list[list[str]]:
        result = subprocess.run(
            [sys.executable, "-m", "privbench", *path, "--help"],
            cwd=cap.work,
            env=cap.env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        name = "privbench" + "".join(f"_{p}" for p in path)
        body = cap.norm.text(result.stdout) + cap.norm.stderr(result.stderr)
        write_text(cap.out / "help" / f"{name}.txt", f"rc {result.returncode}\n{body}")
        return [[*path, sub] for sub in subcommands(result.stdout)]

    level: list[list[str]] = [[]]
    with ThreadPoolExecutor(max_workers=cap.jobs) as pool:
        while level:
            level = [sub for subs in pool.map(page, level) for sub in subs]


# --------------------------------------------------------------------------------------
# Inputs written from the generated suites
# --------------------------------------------------------------------------------------


def priviq_answers(suite: Path) -> dict[str, Any]:
    """A results.json over a generated Priv-IQ suite: every third answer the reference,
    every third its first part only, the rest a refusal (so scores are not all alike)."""
    items = json.loads((suite / "priv-IQ.json").read_text(encoding="utf-8"))
    answers: dict[str, str] = {}
    for index, (key, item) in enumerate(items.items()):
        reference = str(item["answer"])
        kind = index % 3
        if kind == 0:
            answers[key] = reference.replace("<AND>", "and")
        elif kind == 1:
            answers[key] = reference.split("<AND>")[0]
        else:
            answers[key] = "I cannot help with that."
    return {"model": "capture-model", **answers}


def spatial_predictions(suite: Path) -> list[dict[str, Any]]:
    """preds.jsonl over a generated SpatialTrust suite: even images answered with the
    ground truth, odd ones with wrong choices and no boxes."""
    lines = (suite / "spatialtrust.jsonl").read_text(encoding="utf-8").splitlines()
    predictions: list[dict[str, Any]] = []
    for index, line in enumerate(line for line in lines if line.strip()):
        record = json.loads(line)
        questions = {q["qid"]: q for q in record["questions"]}
        prediction: dict[str, Any] = {"id": record["id"]}
        right = index % 2 == 0
        for qid in ("q1", "q2", "q3"):
            question = questions[qid]
            answer = list(question["answer"])
            if right:
                chosen = answer
            else:
                others = [o for o in question["options"] if o not in answer]
                chosen = others[:1] or answer
            if qid == "q1":
                prediction[qid] = chosen[0]
            else:
                boxes = question.get("evidence", {}) if right else {}
                prediction[qid] = {"choices": chosen, "boxes": boxes}
        for qid in ("q4", "q5"):
            text = str(questions[qid]["answer"]) if right else "Nothing sensitive is visible."
            prediction[qid] = {"text": text, "factors": []}
        predictions.append(prediction)
    return predictions


def write_jsonl(path: Path, records: Sequence[dict[str, Any]]) -> None:
    write_text(path, "".join(json.dumps(r) + "\n" for r in records))


# --------------------------------------------------------------------------------------
# The capture
# --------------------------------------------------------------------------------------

STRATEGIES = ("direct", "staged", "guard")


def eval_logs(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.eval"))


def first_log(folder: Path) -> Path:
    logs = eval_logs(folder)
    return logs[0] if logs else folder / "missing.eval"


def capture(cap: Capture, quick: bool) -> None:
    """Every step, in three phases of commands run concurrently: the generated suites;
    the runs (and the commands that read only the suites); the commands that read runs."""
    w, logs, exports = cap.work, cap.work / "logs", cap.work / "exports"
    capture_help(cap)

    # phase 1: generated suites, fixed seeds, small sizes
    pq, st = w / "gen/priviq", w / "gen/spatialtrust"
    cap.run("generate_priviq", "generate", "priviq", "--out", pq, "--n", "12", "--seed", "7")
    cap.run(
        "generate_spatialtrust", "generate", "spatialtrust", "--out", st, "--n", "6", "--seed", "7"
    )
    cap.run(
        "generate_spatialtrust_neutral",
        "generate",
        "spatialtrust",
        "--out",
        w / "gen/spatialtrust-neutral",
        "--n",
        "3",
        "--seed",
        "1",
        "--question-types",
        "neutral",
    )
    cap.flush()
    cap.run(
        "generate_priviq_again_refused",
        "generate",
        "priviq",
        "--out",
        pq,
        "--n",
        "12",
        "--seed",
        "7",
    )
    answers, preds = w / "inputs/answers-results.json", w / "inputs/preds.jsonl"
    write_json(answers, priviq_answers(pq))
    write_jsonl(preds, spatial_predictions(st))

    # phase 2: what reads only the suites
    cap.run("validate_priviq", "validate", pq)
    cap.run("validate_spatialtrust", "validate", st)
    cap.run("validate_not_a_benchmark", "validate", w / "gen")
    cap.run("audit_default_json", "audit", "--json")
    cap.run("audit_generated", "audit", pq, st)
    cap.run("audit_generated_json", "audit", pq, st, "--json")
    cap.run(
        "eval_priviq_dry_run",
        "eval",
        "priviq",
        "--model",
        LOOP_MODEL,
        "--judge",
        LOOP_JUDGE,
        "--limit",
        "4",
        "--dry-run",
        "--price",
        "2.5/10",
        "--judge-price",
        "1/2",
    )
    cap.run(
        "eval_priviq_dry_run_json",
        "eval",
        "priviq",
        "--model",
        LOOP_MODEL,
        "--judge",
        LOOP_JUDGE,
        "--judge-runs",
        "3",
        "--dry-run",
        "--json",
    )
    cap.run(
        "eval_spatialtrust_dry_run_json",
        "eval",
        "spatialtrust",
        "--model",
        LOOP_MODEL,
        "--judge",
        LOOP_JUDGE,
        "--strategy",
        "guard",
        "--dry-run",
        "--json",
        "--limit",
        "3",
    )
    # Priv-IQ: the baseline with the offline judge; loopback model and judge; grading
    cap.run(
        "eval_priviq_baseline",
        "eval",
        "priviq",
        "--model",
        "privbench/ocr-pii",
        "--judge",
        "offline",
        "--limit",
        "3",
        "--explain",
        "--log-dir",
        logs / "pq_baseline",
        "--out",
        exports / "pq_baseline",
        "--json",
    )
    cap.run(
        "eval_priviq_loop",
        "eval",
        "priviq",
        "--model",
        LOOP_MODEL,
        "--judge",
        LOOP_JUDGE,
        "--data",
        pq,
        "--judge-runs",
        "2",
        "--label",
        "loop run",
        "--log-dir",
        logs / "pq_loop",
        "--out",
        exports / "pq_loop",
        "--json",
    )
    cap.run(
        "eval_priviq_loop_hardened",
        "eval",
        "priviq",
        "--model",
        LOOP_MODEL,
        "--judge",
        LOOP_JUDGE,
        "--data",
        pq,
        "--judge-protocol",
        "hardened",
        "--limit",
        "4",
        "--log-dir",
        logs / "pq_hardened",
    )
    cap.run(
        "grade_priviq_offline",
        "grade",
        "priviq",
        "--predictions",
        answers,
        "--data",
        pq,
        "--judge",
        "offline",
        "--explain",
        "--log-dir",
        logs / "pq_grade",
        "--out",
        exports / "pq_grade",
        "--json",
    )
    cap.run(
        "grade_priviq_loop",
        "grade",
        "priviq",
        "--predictions",
        answers,
        "--data",
        pq,
        "--judge",
        LOOP_JUDGE,
        "--judge-runs",
        "2",
        "--log-dir",
        logs / "pq_grade_loop",
        "--out",
        exports / "pq_grade_loop",
        "--json",
    )
    # SpatialTrust: every strategy, with the baseline and with the loopback model
    for strategy in STRATEGIES:
        cap.run(
            f"eval_spatialtrust_baseline_{strategy}",
            "eval",
            "spatialtrust",
            "--model",
            "privbench/ocr-pii",
            "--judge",
            "offline",
            "--strategy",
            strategy,
            "--limit",
            "2",
            "--log-dir",
            logs / f"st_baseline_{strategy}",
            "--out",
            exports / f"st_baseline_{strategy}",
            "--json",
        )
        cap.run(
            f"eval_spatialtrust_loop_{strategy}",
            "eval",
            "spatialtrust",
            "--model",
            LOOP_MODEL,
            "--judge",
            LOOP_JUDGE,
            "--data",
            st,
            "--strategy",
            strategy,
            "--log-dir",
            logs / f"st_loop_{strategy}",
            "--out",
            exports / f"st_loop_{strategy}",
            "--json",
        )
    cap.run(
        "eval_spatialtrust_loop_options",
        "eval",
        "spatialtrust",
        "--model",
        LOOP_MODEL,
        "--judge",
        "offline",
        "--data",
        st,
        "--box-format",
        "xyxy1000",
        "--reask-unparsed",
        "1",
        "--compare-published",
        "--limit",
        "2",
        "--log-dir",
        logs / "st_options",
    )
    cap.run(
        "grade_spatialtrust_offline",
        "grade",
        "spatialtrust",
        "--predictions",
        preds,
        "--data",
        st,
        "--judge",
        "offline",
        "--model-name",
        "capture-model",
        "--log-dir",
        logs / "st_grade",
        "--out",
        exports / "st_grade",
        "--json",
    )
    cap.run(
        "grade_spatialtrust_loop",
        "grade",
        "spatialtrust",
        "--predictions",
        preds,
        "--data",
        st,
        "--judge",
        LOOP_JUDGE,
        "--log-dir",
        logs / "st_grade_loop",
        "--out",
        exports / "st_grade_loop",
        "--json",
    )
    cap.run(
        "grade_spatialtrust_bad_file",
        "grade",
        "spatialtrust",
        "--predictions",
        st / "spatialtrust.jsonl",
        "--data",
        st,
        "--judge",
        "offline",
        "--log-dir",
        logs / "st_grade_bad",
    )
    cap.run(
        "judge_check_offline_json",
        "judge",
        "check",
        "--judge",
        "offline",
        "--limit",
        "12",
        "--no-probes",
        "--log-dir",
        w / "judge_check_logs",
        "--card-dir",
        exports / "cards",
        "--json",
    )
    if quick:
        cap.index += 1  # the demo's number stays taken: later files keep their names
    else:
        cap.run("demo", "demo", "--out", w / "demo", "--limit", "2", timeout=1800)
    cap.flush()
    cap.files("generated", w / "gen")
    cap.files("inputs", w / "inputs")

    # phase 3: what reads the runs
    pq_log, st_log = first_log(logs / "pq_loop"), first_log(logs / "st_loop_direct")
    pq_grade, st_grade = first_log(logs / "pq_grade"), first_log(logs / "st_grade")
    for name, log in (
        ("pq_loop", pq_log),
        ("st_loop_direct", st_log),
        ("pq_grade", pq_grade),
        ("st_grade", st_grade),
    ):
        cap.run(f"show_{name}_json", "show", log, "--json")
    cap.run("show_pq_loop", "show", pq_log)
    cap.run("show_st_loop_guard", "show", first_log(logs / "st_loop_guard"))
    cap.run("show_st_box_format_json", "show", st_log, "--box-format", "xyxy1000", "--json")
    cap.run(
        "show_pq_exports", "show", pq_log, "--out", exports / "show_pq", "--model-name", "shown"
    )
    cap.run("show_several_json", "show", st_log, first_log(logs / "st_loop_staged"), "--json")
    cap.run("show_folder", "show", logs / "st_grade")
    cap.run(
        "show_pq_format_latex",
        "show",
        logs / "pq_loop",
        logs / "pq_grade",
        logs / "pq_grade_loop",
        "--format",
        "latex",
    )
    cap.run(
        "show_pq_format_csv",
        "show",
        logs / "pq_loop",
        logs / "pq_grade",
        logs / "pq_grade_loop",
        "--format",
        "csv",
    )
    cap.run(
        "show_st_format_out",
        "show",
        logs / "st_loop_direct",
        logs / "st_loop_guard",
        "--format",
        "markdown",
        "--out",
        exports / "show_tables",
    )
    cap.run(
        "show_mixed_refused", "show", logs / "pq_loop", logs / "st_loop_direct", "--format", "csv"
    )
    cap.run(
        "grade_priviq_reuse",
        "grade",
        "priviq",
        "--predictions",
        answers,
        "--data",
        pq,
        "--judge",
        "offline",
        "--grades",
        first_existing(exports / "pq_grade", "*grade*.json"),
        "--log-dir",
        w / "logs_extra/pq_grade_reuse",
        "--json",
    )
    cap.run("diff_priviq_json", "diff", pq_grade, first_log(logs / "pq_grade_loop"), "--json")
    cap.run("diff_priviq", "diff", pq_grade, first_log(logs / "pq_grade_loop"), "--top", "3")
    cap.run("diff_spatialtrust_json", "diff", st_log, first_log(logs / "st_loop_guard"), "--json")
    cap.run("leaderboard_markdown", "leaderboard", logs)
    cap.run(
        "leaderboard_csv",
        "leaderboard",
        logs,
        "--format",
        "csv",
        "--out",
        exports / "leaderboard.csv",
    )
    cap.run(
        "report_all_logs",
        "report",
        logs,
        "-o",
        exports / "report_all/report.html",
        "--bootstrap",
        "100",
        "--browse",
        "5",
    )
    cap.run(
        "report",
        "report",
        pq_log,
        pq_grade,
        st_log,
        first_log(logs / "st_loop_guard"),
        st_grade,
        "-o",
        exports / "report/report.html",
        "--tables",
        exports / "report/tables",
        "--bootstrap",
        "200",
        "--browse",
        "10",
    )
    cap.run(
        "report_labels",
        "report",
        pq_log,
        pq_grade,
        "--label",
        "A",
        "--label",
        "B",
        "-o",
        exports / "report_labels/labels.html",
        "--bootstrap",
        "100",
        "--compare-published",
    )
    cap.run(
        "survey_export",
        "survey",
        "export",
        "--log",
        logs / "pq_grade_loop",
        "--n",
        "4",
        "--out",
        exports / "survey",
    )
    cap.run(  # the report of both benchmarks above fails at 151c10b: Priv-IQ's tables here
        "report_priviq_tables",
        "report",
        pq_log,
        pq_grade,
        first_log(logs / "pq_grade_loop"),
        "-o",
        exports / "report_priviq/report.html",
        "--tables",
        exports / "report_priviq/tables",
        "--bootstrap",
        "100",
        "--browse",
        "5",
    )
    cap.flush()
    cap.files("exports", exports)
    cap.files("logs", logs)
    cap.files("logs_extra", w / "logs_extra")
    if not quick:
        cap.files("demo", w / "demo")


def first_existing(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    return found[0] if found else folder / pattern


def subprocess_env(work: Path, port: int) -> dict[str, str]:
    """The commands' environment: fixed width and locale, fresh caches, the loopback
    endpoints, no real keys."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    for name in ("PRIVBENCH_JUDGE", "INSPECT_LOG_DIR", "INSPECT_EVAL_MODEL", "FORCE_COLOR"):
        env.pop(name, None)
    env.update(
        COLUMNS="100",
        LINES="50",
        NO_COLOR="1",
        TERM="dumb",
        TZ="UTC",
        LC_ALL="C.UTF-8",
        PYTHONHASHSEED="0",
        INSPECT_DISPLAY="none",
        PRIVBENCH_CACHE_DIR=str(work / "cache/privbench"),
        INSPECT_CACHE_DIR=str(work / "cache/inspect"),
        LOOP_BASE_URL=f"http://127.0.0.1:{port}/v1",
        LOOP_API_KEY=FAKE_KEY,
    )
    return env


def write_readme(cap: Capture, quick: bool) -> None:
    """OUTDIR/README.md: what is here and how it was normalised (no timings: they vary)."""
    files = sum(1 for p in cap.out.rglob("*") if p.is_file())
    text = f"""# privbench output capture

Made by `bench/capture_outputs.py{" --quick" if quick else ""}`; compare two with
`bench/compare_captures.py BEFORE AFTER`. {files + 1} files, {cap.index} commands.

* `help/`: `--help` of every command (COLUMNS=100, NO_COLOR).
* `commands/NN_name.json`: argv, exit code, stdout (parsed if JSON), stderr.
* `files/AREA/`: files the commands wrote; `files/AREA.listing.txt`: each file's kind,
  size and SHA-256 prefix (text: of the normalised text; binary: of the bytes;
  `.eval` logs: sample count, their dump is `NAME.eval.json`).

## Normalisation

* Absolute paths: the work folder -> `<WORK>`, OUTDIR -> `<OUT>`, the repository ->
  `<REPO>`, the interpreter prefix -> `<PREFIX>`, home -> `<HOME>`, temp dir -> `<TMP>`.
* ISO date-times (also inspect's `2026-01-01T10-00-00-00-00` in log names) -> `<TIME>`;
  today's date -> `<TODAY>`; UUIDs -> `<UUID>`; inspect's 22-character ids -> `<ID>`;
  the loopback server's port -> `<PORT>`; `chatcmpl-N` -> `chatcmpl-<N>`.
* JSON keys {", ".join(sorted(VOLATILE_KEYS))} -> `"<VOLATILE>"`.
* base64 data URIs -> their length and SHA-256 prefix.
* stderr: progress lines (`progress: N done, …`, `progress [step]: N done, …`) dropped
  (how many are printed depends on timing).
* inspect `.eval` logs: header.json, reductions.json, summaries.json and the samples
  (both sorted by id, epoch) less {", ".join(sorted(DROPPED_SAMPLE_KEYS))}; the zip bytes are not kept.
* Two files whose names are equal once normalised are numbered `#2`, … in name order
  (= creation order, the names start with the time).
"""
    write_text(cap.out / "README.md", text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--quick", action="store_true", help="leave out privbench demo")
    parser.add_argument("--keep-work", action="store_true", help="keep the work folder")
    parser.add_argument("--jobs", type=int, default=3, help="commands run at once")
    args = parser.parse_args(argv)
    out: Path = args.outdir.resolve()
    if out.exists() and any(out.iterdir()):
        parser.error(f"{out} exists and is not empty")
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="privbench-capture-")).resolve()
    today = dt.datetime.now(dt.UTC).date()
    dates = {today.isoformat(), dt.date.today().isoformat()}
    paths = {
        str(work): "<WORK>",
        str(out): "<OUT>",
        str(REPO): "<REPO>",
        sys.prefix: "<PREFIX>",
        str(Path.home()): "<HOME>",
        tempfile.gettempdir(): "<TMP>",
    }
    started = time.monotonic()
    with LoopbackServer(default_reply=loop_reply) as server:
        env = subprocess_env(work, server.port)
        cap = Capture(out, work, env, Normaliser(paths, tuple(sorted(dates))), jobs=args.jobs)
        try:
            capture(cap, args.quick)
        finally:
            write_readme(cap, args.quick)
            if not args.keep_work:
                shutil.rmtree(work, ignore_errors=True)
    total = time.monotonic() - started
    slowest = sorted(cap.timings, key=lambda t: -t[1])[:5]
    print(f"capture: {cap.index} commands in {total:.0f} s into {out}", file=sys.stderr)
    print("slowest: " + ", ".join(f"{n} {s:.0f} s" for n, s in slowest), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
