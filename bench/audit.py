"""Benchmark: ``privbench audit`` on a paper-sized SpatialTrust suite and on Priv-IQ with OCR.

1. Generates a 577-image SpatialTrust suite (the paper's size) into
   ``bench/out/spatialtrust-577`` with ``privbench generate spatialtrust --n 577`` — once;
   a suite already there is reused (``--regenerate`` makes a new one).
2. Times the SpatialTrust audit without OCR in a fresh process, as a user runs it
   (``privbench audit DIR --json``: start-up, loading and validating every image, the
   figures), and, in this process, loading and the figures apart. Wall and CPU times are
   printed: on a shared machine the CPU time is the better guide to an idle one (the
   audit runs on one core). Target: < 10 s.
3. Times the audit of the shipped Priv-IQ suite with ``--ocr`` (PP-OCR on every image).

Prints the times and the headline figures of both audits.

    .venv/bin/python bench/audit.py [--n 577] [--seed 0] [--regenerate] [--no-ocr]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from privbench.shipped import PRIVIQ_SUITE
from privbench.suites.priviq.audit import audit_priviq
from privbench.suites.spatialtrust.audit import audit_items
from privbench.suites.spatialtrust.dataset import DATASET_FILE, load_spatialtrust

OUT = Path(__file__).resolve().parent / "out"
TARGET_S = 10.0


def _privbench(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "privbench", *args]
    return subprocess.run(command, capture_output=True, text=True, check=True)


def ensure_suite(n: int, seed: int, regenerate: bool) -> Path:
    """The generated suite's directory, generating it unless it is already there."""
    directory = OUT / f"spatialtrust-{n}-seed{seed}"
    if (directory / DATASET_FILE).exists() and not regenerate:
        print(f"reusing {directory}")
        return directory
    start = time.perf_counter()
    _privbench("generate", "spatialtrust", "--n", str(n), "--seed", str(seed),
               "--out", str(directory), "--force")  # fmt: skip
    print(f"generated {n} images in {time.perf_counter() - start:.1f} s: {directory}")
    return directory


def spatial_lines(document: dict[str, Any]) -> list[str]:
    """The SpatialTrust headline figures: trivial baselines and option-name leakage."""
    trivial = document["baselines"]["trivial"]
    qids = ("q1", "q2", "q3", "q4", "q5")
    lines = [
        "trivial baselines: "
        + ", ".join(f"{q} {trivial[q]:.1f} ({trivial['answers'][q]})" for q in qids)
        + f"; overall {trivial['overall']:.1f}"
    ]
    details = document["leakage"]["details"]
    lines.append(
        "option-name leakage: "
        + "; ".join(
            f"{q} {d['gain']:+.1f} points ± {d['gain_sd']:.1f} "
            f"(texts only {d['predictor']:.1f} vs constant {d['trivial']:.1f})"
            for q, d in details.items()
        )
    )
    shares = document["shares"]
    lines.append(
        "direct only / indirect only / both / neither: "
        + " / ".join(
            str(shares[k]["n"]) for k in ("direct_only", "indirect_only", "both", "neither")
        )
    )
    return lines


def priviq_lines(document: dict[str, Any]) -> list[str]:
    """The Priv-IQ headline figures: duplicates, distinct questions, OCR share."""
    duplicates = document["duplicates"]
    lines = [
        f"items {document['items']}; distinct questions {duplicates['questions']['distinct']}; "
        f"items repeating a question {duplicates['questions']['duplicates']}; repeating a "
        f"question and answer {duplicates['question_answer_pairs']['duplicates']}; "
        f"Table 1 counts match: {document['table1']['matches_table1']}"
    ]
    ocr = document["ocr"]
    if ocr:
        by_code = ", ".join(
            f"{code} {cell['mean_percent']:.1f}"
            for code, cell in ocr["by_competency"].items()
            if cell["mean_percent"] is not None
        )
        lines.append(
            f"answer words printed in the image: mean {ocr['mean_percent']:.1f} %; "
            f"{ocr['above_half']} of {ocr['items']} items above 50 %; by competency: {by_code}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=577)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--regenerate", action="store_true")
    parser.add_argument("--no-ocr", action="store_true", help="Skip the Priv-IQ OCR audit.")
    args = parser.parse_args()

    directory = ensure_suite(args.n, args.seed, args.regenerate)
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    document = json.loads(_privbench("audit", str(directory), "--json").stdout)
    cli_s = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cli_cpu = after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
    start, start_cpu = time.perf_counter(), time.process_time()
    items = load_spatialtrust(directory)
    load_s, load_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    start, start_cpu = time.perf_counter(), time.process_time()
    audit_items(items)
    figures_s, figures_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    verdict = "ok" if cli_s < TARGET_S else "over"
    print(
        f"SpatialTrust audit, {len(items)} images: {cli_s:.2f} s end to end, {cli_cpu:.2f} s CPU "
        f"(target < {TARGET_S:.0f} s: {verdict}); loading + validating {load_s:.2f} s "
        f"({load_cpu:.2f} s CPU), figures {figures_s:.2f} s ({figures_cpu:.2f} s CPU)"
    )
    for line in spatial_lines(document):
        print(f"  {line}")

    start, start_cpu = time.perf_counter(), time.process_time()
    priviq = audit_priviq(PRIVIQ_SUITE, ocr=not args.no_ocr)
    ocr_s = time.perf_counter() - start
    ocr_cpu = time.process_time() - start_cpu
    mode = "without OCR" if args.no_ocr else "with --ocr"
    print(f"Priv-IQ audit {mode}, {priviq['items']} items: {ocr_s:.1f} s ({ocr_cpu:.1f} s CPU)")
    for line in priviq_lines(priviq):
        print(f"  {line}")


if __name__ == "__main__":
    main()
