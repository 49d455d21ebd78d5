"""Benchmark: does privbench's grade of DecodingTrust's released privacy generations give the
reference's own figures?

Why: ``privbench grade decodingtrust`` claims ``result_agg.py``'s figures under its keys
(``reference_metrics`` of ``--json``) and HELM's corrected privacy metric beside them
(``helm_metrics``). ``bench/reference/decodingtrust_expected.json`` holds those figures as
DecodingTrust's own ``result_agg.py`` (and a transcription of HELM's metric, checked against
HELM's code) computed them on the generations released in ``AI-secure/DecodingTrust`` at
the pinned commit: the per-file counts, the per-scenario figures, the 0.4 / 0.3 / 0.3
weighted aggregate and the HELM-semantics values. This script grades the same files
in-process and compares key by key (to 1e-6).

How: ``data/privacy/generations/{enron,pii,understanding}`` of the pinned commit is written
from the git directory (no work tree is needed) into a temporary folder under ``/tmp``; the
objects of 4 MiB or more are not carried by the snapshot and are listed and skipped (the
expected figures were computed without them too). For each model,
:func:`privbench.suites.decodingtrust.api.grade_decodingtrust` grades the folder (timed: this
is the suite's ``bench/`` throughput figure, completions graded per second) and its
``--json`` document is compared with the expectations:

* ``reference_metrics``: ``{enron,pii,understanding}_{key}`` against the scenario's
  ``result_agg`` record, ``all_{key}`` against the weighted aggregate;
* ``helm_metrics`` where the definitions agree: ``enron_leakage`` /
  ``enron_leakage_before_fix`` / ``enron_leakage_{email,local,domain}`` against HELM's value
  pooled over all Enron completions (privbench pools every Enron file); ``pii_leakage``
  against HELM's value pooled over the scored PII files (12 types x 3 settings, first 100
  records); ``understanding_q{q}_leakage`` against HELM's per-question value pooled over the
  eight ``s100`` topic files. Keys without a counterpart are listed, not compared;
* ``per_setting`` counts against the per-file counts ``get_enron_results`` /
  ``get_pii_results`` / ``get_topic_results`` returned, for the scored files and the
  released files the score never reads (PII 1-shot and other SSN spellings, understanding
  questions 2 and 3).

Run (from the repository root)::

    .venv/bin/python bench/decodingtrust_reproduce.py \\
        /work/.mirror/AI-secure+DecodingTrust/repo [--markdown FILE] \\
        [--expected bench/reference/decodingtrust_expected.json] [--model MODEL ...] \\
        [--log-buffer 500]

``--log-buffer`` overrides inspect's ``log_buffer`` for the grade (privbench sets 10). Every
flush copies the whole growing log file, so with the default a grade of ~100,000 completions
slows down as it goes (quadratic: ~24 completions/s over the first 45,000, falling). Too
large a buffer costs too (inspect's ``buffer_sample`` scans the pending samples): on the
40,800 understanding completions 500 gave 126/s and 5000 76/s (2 shared CPUs).

Prints every mismatch (file or setting, key, expected, got), a markdown table
(model | scenario | key | reference | privbench | HELM view) and completions graded per
second; exits 1 on any mismatch. The generations hold real people's names and e-mail
addresses: they stay in the temporary folder, and nothing but numbers and file names is
printed or written.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from privbench.runtime.running import RunOptions
from privbench.suites.decodingtrust.api import grade_decodingtrust

REPO = Path(__file__).resolve().parent.parent
COMMIT = "161ae8321ced62f45fcd9ceb412e05b47c603cd4"
GENERATIONS = "data/privacy/generations"
SCENARIOS = ("enron", "pii", "understanding")
MODELS = ("gpt-3.5-turbo-0301", "gpt-4-0314")
TOLERANCE = 1e-6
SCENARIO_KEYS = {
    "enron": (
        "leak_rate",
        "reject_rate",
        "leak_rate_wo_reject",
        "leak_rate_email",
        "leak_rate_local",
        "leak_rate_domain",
    ),
    "pii": ("leak_rate", "reject_rate", "leak_rate_wo_reject"),
    "understanding": ("leak_rate", "reject_rate", "leak_rate_wo_reject"),
    "all": (
        "privacy_score",
        "privacy_score_wo_reject",
        "leak_rate",
        "reject_rate",
        "leak_rate_wo_reject",
    ),
}
HELM_ROWS = {  # reference key -> the privbench HELM key shown beside it in the table
    "enron_leak_rate": "enron_leakage",
    "enron_leak_rate_email": "enron_leakage_email",
    "enron_leak_rate_local": "enron_leakage_local",
    "enron_leak_rate_domain": "enron_leakage_domain",
    "pii_leak_rate": "pii_leakage",
    "understanding_leak_rate": "understanding_q1_leakage",
}
_ENRON = re.compile(r"^(?P<mode>[a-z0-9-]+)_s\d+_(?P<model>.+)_1\.jsonl$")
_PII = re.compile(r"^(?P<type>.+)_(?P<mode>\dshot(?:attack|protect))_s100_(?P<model>.+)_1\.jsonl$")
_UNDERSTANDING = re.compile(
    r"^(?P<topic>[a-z]+)_t0_s(?P<n>\d+)_(?P<model>.+)_ques(?P<q>\d)_1\.jsonl$"
)


# ---------------------------------------------------------------- extraction
def extract(git_dir: str, root: Path) -> tuple[int, list[str]]:
    """Write the released generation files of ``COMMIT`` under ``root``; return how many were
    written and the paths (relative to the generations folder) whose objects are absent."""
    base = ["git", "--git-dir", git_dir]
    subprocess.run([*base, "cat-file", "-e", f"{COMMIT}^{{commit}}"], check=True)
    listing = subprocess.run(
        [*base, "ls-tree", "-r", "-z", COMMIT, *(f"{GENERATIONS}/{s}" for s in SCENARIOS)],
        check=True,
        capture_output=True,
    ).stdout.decode()
    entries: list[tuple[str, str]] = []
    for line in filter(None, listing.split("\0")):
        meta, path = line.split("\t", 1)
        kind, obj = meta.split()[1:3]
        if kind == "blob":
            entries.append((obj, path.removeprefix(GENERATIONS + "/")))
    request = "".join(f"{obj}\n" for obj, _ in entries).encode()
    with subprocess.Popen(
        [*base, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    ) as batch:
        assert batch.stdin is not None and batch.stdout is not None
        batch.stdin.write(request)
        batch.stdin.close()
        written, absent = 0, []
        for _obj, rel in entries:
            header = batch.stdout.readline().decode().split()
            if len(header) != 3:  # "<obj> missing": the object is not in the snapshot
                absent.append(rel)
                continue
            data = batch.stdout.read(int(header[2]))
            batch.stdout.read(1)  # the newline after each object
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            written += 1
    return written, sorted(absent)


# ---------------------------------------------------------------- file name -> setting
def _compact(pii_type: str) -> str:
    return pii_type.replace(" ", "").lower()


def setting_of(scenario: str, name: str) -> tuple[str, str] | None:
    """(model, normalised setting) of an expected (staged) file name; None for a name
    privbench's grade does not read (the understanding ``s20`` file)."""
    if scenario == "enron" and (m := _ENRON.match(name)):
        return m["model"], f"enron/{m['mode']}"
    if scenario == "pii" and (m := _PII.match(name)):
        return m["model"], f"pii/{_compact(m['type'])}_{m['mode']}"
    if scenario == "understanding" and (m := _UNDERSTANDING.match(name)):
        if m["n"] != "100":
            return None
        return m["model"], f"understanding/{m['topic']}_q{m['q']}"
    raise ValueError(f"unexpected file name in the expectations: {scenario}/{name}")


def normalised(key: str) -> str:
    """privbench's ``per_setting`` key with a PII type compacted as the staged names are."""
    scenario, setting = key.split("/", 1)
    if scenario != "pii":
        return key
    pii_type, mode = setting.rsplit("_", 1)
    return f"pii/{_compact(pii_type)}_{mode}"


def counts_of(scenario: str, document: Mapping[str, Any]) -> list[int]:
    """A ``per_setting`` entry as the reference's per-file counts: Enron [correct, local,
    domain, total, total - reject]; PII and understanding [leak, total, reject, total - reject]."""
    n = int(document["completions"])
    rejected = int(document["rejected"]["k"])
    if scenario == "enron":
        return [int(document[k]["k"]) for k in ("email", "local", "domain")] + [n, n - rejected]
    return [int(document["leaked"]["k"]), n, rejected, n - rejected]


# ---------------------------------------------------------------- comparison
@dataclass
class ModelResult:
    """One model's grade and what it was compared with."""

    model: str
    seconds: float
    completions: int
    document: dict[str, Any]
    mismatches: list[tuple[str, str, Any, Any]] = field(default_factory=list)
    compared: int = 0
    notes: list[str] = field(default_factory=list)

    def check(self, where: str, key: str, want: Any, got: Any) -> None:
        self.compared += 1
        if isinstance(want, float) or isinstance(got, float):
            same = (
                isinstance(want, int | float)
                and isinstance(got, int | float)
                and math.isclose(want, got, rel_tol=0, abs_tol=TOLERANCE)
            )
        else:
            same = want == got
        if not same:
            self.mismatches.append((where, key, want, got))


def helm_expected(helm: Mapping[str, Any]) -> dict[str, float]:
    """The expected HELM values under privbench's ``helm_metrics`` keys (same definitions)."""
    enron = helm["enron"]["pooled"]
    full, local, domain, n = enron["counts"]
    out = {
        "enron_leakage": float(enron["fixed"]),
        "enron_leakage_before_fix": float(enron["pre_fix"]),
        "enron_leakage_email": full / n,
        "enron_leakage_local": local / n,
        "enron_leakage_domain": domain / n,
        "pii_leakage": float(helm["pii"]["pooled"]["leak_rate"]),
    }
    for run, figures in helm["understanding"]["per_run"].items():
        out[f"understanding_q{run.removeprefix('ques')}_leakage"] = float(figures["leak_rate"])
    return out


def compare(result: ModelResult, expected: Mapping[str, Any]) -> None:
    """Every comparison of one model's grade with the expectations."""
    model, doc = result.model, result.document
    ours: dict[str, Any] = doc["reference_metrics"]
    theirs = expected["decodingtrust"][model]
    wanted: dict[str, float] = {}
    for scenario in SCENARIO_KEYS:
        record = theirs["weighted"] if scenario == "all" else theirs[scenario]["scores"]
        for key in SCENARIO_KEYS[scenario]:
            wanted[f"{scenario}_{key}"] = float(record[key])
    for key, want in wanted.items():
        result.check("reference_metrics", key, want, ours.get(key))
    for key in sorted(set(ours) - set(wanted)):
        result.mismatches.append(("reference_metrics", key, "(no such key)", ours[key]))

    helm_ours: dict[str, Any] = doc["helm_metrics"]
    helm_wanted = helm_expected(expected["helm"][model])
    for key, want in helm_wanted.items():
        result.check("helm_metrics", key, want, helm_ours.get(key))
    extra = sorted(set(helm_ours) - set(helm_wanted))
    if extra:
        result.notes.append(f"helm_metrics not compared (no expected value): {', '.join(extra)}")

    files: dict[tuple[str, str], Any] = {}
    for scenario in SCENARIOS:
        files |= {(scenario, n): c for n, c in theirs[scenario]["files"].items()}
        files |= {(scenario, n): c for n, c in expected["unscored_files"][scenario].items()}
    per_setting: dict[str, Any] = doc["per_setting"]
    by_norm: dict[str, str] = {}
    for key in per_setting:
        if (norm := normalised(key)) in by_norm:
            result.mismatches.append(("per_setting", key, "one file per setting", by_norm[norm]))
        by_norm[norm] = key
    seen: set[str] = set()
    for (scenario, name), want in sorted(files.items()):
        found = setting_of(scenario, name)
        if found is None:
            if model in name:
                result.notes.append(f"not read by privbench's grade (name): {scenario}/{name}")
            continue
        if found[0] != model:
            continue
        setting = by_norm.get(found[1])
        if setting is None:
            result.mismatches.append((f"{scenario}/{name}", "per_setting", want, "(absent)"))
            continue
        seen.add(setting)
        got = counts_of(scenario, per_setting[setting])
        result.check(f"{scenario}/{name} = {setting}", "counts", [int(v) for v in want], got)
    for key in sorted(set(per_setting) - seen):
        result.mismatches.append((key, "per_setting", "(no expected file)", "present"))


# ---------------------------------------------------------------- table
def _number(value: Any, scale: float = 1.0) -> str:
    return f"{value * scale:.6f}" if isinstance(value, int | float) else "—"


def table(results: Sequence[ModelResult], expected: Mapping[str, Any]) -> list[str]:
    """model | scenario | key | reference | privbench | HELM view (HELM in percent: privbench's
    value, the expected one in brackets)."""
    lines = [
        "| model | scenario | key | reference | privbench | HELM view (privbench [expected], %) |",
        "|---|---|---|---|---|---|",
    ]
    for result in results:
        theirs = expected["decodingtrust"][result.model]
        helm_wanted = helm_expected(expected["helm"][result.model])
        helm_ours: dict[str, Any] = result.document["helm_metrics"]
        ours: dict[str, Any] = result.document["reference_metrics"]
        for scenario, keys in SCENARIO_KEYS.items():
            record = theirs["weighted"] if scenario == "all" else theirs[scenario]["scores"]
            for key in keys:
                full = f"{scenario}_{key}"
                helm = "—"
                if (helm_key := HELM_ROWS.get(full)) is not None:
                    helm = (f"{helm_key} {_number(helm_ours.get(helm_key), 100)} "
                            f"[{_number(helm_wanted.get(helm_key), 100)}]")  # fmt: skip
                lines.append(f"| {result.model} | {scenario} | {key} | {_number(record[key])} "
                             f"| {_number(ours.get(full))} | {helm} |")  # fmt: skip
        for helm_key in sorted(set(helm_wanted) - set(HELM_ROWS.values())):
            scenario = helm_key.split("_", 1)[0]
            lines.append(f"| {result.model} | {scenario} | (HELM only) | — | — | {helm_key} "
                         f"{_number(helm_ours.get(helm_key), 100)} "
                         f"[{_number(helm_wanted[helm_key], 100)}] |")  # fmt: skip
    return lines


# ---------------------------------------------------------------- main
def grade(folder: Path, model: str, log_dir: Path, log_buffer: int | None) -> ModelResult:
    """Grade one model's files in-process, timing the grade call. ``log_buffer`` overrides
    inspect's ``log_buffer`` (privbench's own setting when None)."""
    eval_args: dict[str, Any] = {} if log_buffer is None else {"log_buffer": log_buffer}
    options = RunOptions(log_dir=str(log_dir), display="none", eval_args=eval_args)
    start = time.perf_counter()
    run = grade_decodingtrust(folder, model_name=model, options=options)
    seconds = time.perf_counter() - start
    document = run.json()
    result = ModelResult(model, seconds, int(document["completions"]), document)
    result.check("grade", "status", "complete", document["status"])
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("git_dir", help="git directory of an AI-secure/DecodingTrust snapshot")
    parser.add_argument(
        "--expected",
        type=Path,
        default=REPO / "bench" / "reference" / "decodingtrust_expected.json",
    )
    parser.add_argument("--model", action="append", choices=MODELS, help="default: both")
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    parser.add_argument(
        "--log-buffer",
        type=int,
        help="inspect's log_buffer for the grade (default: privbench's, 10); each flush "
        "copies the whole log, so a 100,000-completion grade slows down as its log grows "
        "(500 is a good value)",
    )
    args = parser.parse_args(argv)
    expected: dict[str, Any] = json.loads(args.expected.read_text(encoding="utf-8"))
    models: list[str] = args.model or list(MODELS)

    wall0 = time.perf_counter()
    results: list[ModelResult] = []
    with tempfile.TemporaryDirectory(prefix="decodingtrust-reproduce-", dir="/tmp") as tmp:
        folder = Path(tmp) / "generations"
        written, absent = extract(args.git_dir, folder)
        print(f"extracted {written} generation files; {len(absent)} absent from the snapshot "
              "(objects of 4 MiB or more):")  # fmt: skip
        for rel in absent:
            print(f"  absent: {rel}")
        want_absent = sorted(expected["_source"]["absent_generation_files"])
        if absent != want_absent:
            print(f"note: the expectations list {len(want_absent)} absent files, "
                  f"this snapshot lacks {len(absent)}")  # fmt: skip
        os.environ["PRIVBENCH_CACHE_DIR"] = str(Path(tmp) / "cache")
        for model in models:
            result = grade(folder, model, Path(tmp) / "logs", args.log_buffer)
            compare(result, expected)
            results.append(result)
            print(f"{model}: {result.completions:,} completions graded in "
                  f"{result.seconds:.1f} s; {result.compared} comparisons, "
                  f"{len(result.mismatches)} mismatches", file=sys.stderr, flush=True)  # fmt: skip
    wall = time.perf_counter() - wall0

    mismatches = [(r.model, *m) for r in results for m in r.mismatches]
    print(f"\nmodels: {len(results)}; comparisons: {sum(r.compared for r in results)}; "
          f"mismatches: {len(mismatches)} (tolerance {TOLERANCE:g})")  # fmt: skip
    for model, where, key, want, got in mismatches:
        print(f"MISMATCH {model} {where}: {key}: expected {want!r}, got {got!r}")
    for result in results:
        for note in result.notes:
            print(f"note {result.model}: {note}")

    lines = table(results, expected)
    speed = [
        f"- {r.model}: {r.completions:,} completions in {r.seconds:.1f} s = "
        f"{r.completions / r.seconds:,.0f} completions graded per second"
        for r in results
    ]
    buffer = "privbench's default" if args.log_buffer is None else str(args.log_buffer)
    summary = [
        *lines,
        "",
        f"Grade throughput (wall time of `grade_decodingtrust`, log_buffer {buffer}):",
        *speed,
    ]
    print("\n" + "\n".join(summary))
    print(f"\ntotal wall time (extraction, grades, comparison): {wall:.1f} s")
    if args.markdown is not None:
        args.markdown.write_text("\n".join(summary) + "\n", encoding="utf-8")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
