"""Benchmark: generator throughput for both suites on this machine.

Times ``generate_priviq(146)`` (Table 1's counts), ``generate_spatialtrust(100)`` (the
shipped suite's size) and ``generate_spatialtrust(577)`` (the paper's size) end to end —
planning, rendering, image compression and writing — and prints items/s. It also times
the SpatialTrust *plan* alone for 577 captures (records and boxes without pixels, what
the audit and the leakage tests use).
Targets: the 146-item Priv-IQ suite in under 60 s and 100 SpatialTrust captures in
under 60 s; the 577-capture plan in under 5 s.

Priv-IQ is also timed at 1,000 items (its photographs and diagrams vary per family).

    .venv/bin/python bench/generate.py [--seed 0] [--skip-577] [--skip-1000]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from privbench.tooling.priviq_generator.suite import generate_priviq
from privbench.tooling.spatialtrust_scenes.plan import suite_records
from privbench.tooling.spatialtrust_scenes.suite import generate_spatialtrust


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-577", action="store_true", help="Skip the paper-size suite.")
    parser.add_argument("--skip-1000", action="store_true", help="Skip 1,000 Priv-IQ items.")
    args = parser.parse_args()
    start = time.perf_counter()
    suite_records(577, args.seed)
    print(f"SpatialTrust plan  577 captures in {time.perf_counter() - start:5.1f} s (target < 5 s)")
    runs: list[tuple[str, int, Callable[..., Path], str]] = [
        ("Priv-IQ", 146, generate_priviq, "target < 60 s"),
        ("SpatialTrust", 100, generate_spatialtrust, "target < 60 s"),
    ]
    if not args.skip_1000:
        runs.append(("Priv-IQ", 1000, generate_priviq, "1,000 items"))
    if not args.skip_577:
        runs.append(("SpatialTrust", 577, generate_spatialtrust, "the paper's size"))
    with tempfile.TemporaryDirectory() as tmp:
        for name, n, generate, note in runs:
            out = Path(tmp) / f"{name}-{n}"
            start = time.perf_counter()
            generate(n, args.seed, out)
            seconds = time.perf_counter() - start
            size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) / 1e6
            print(f"{name:13s} {n:4d} items in {seconds:5.1f} s = {n / seconds:5.1f} items/s "
                  f"({size:.1f} MB; {note})")  # fmt: skip


if __name__ == "__main__":
    main()
