"""Benchmark: generator throughput for both suites on this machine.

Times ``generate_priviq(146)`` (Table 1's counts) and ``generate_spatialtrust(100)``
end to end — rendering, PNG compression and writing — and prints items/s.
Targets (issue 4): the 146-item Priv-IQ suite in under 60 s and 100 SpatialTrust
captures in under 60 s.

    .venv/bin/python bench/generate.py [--seed 0]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from privbench.priviq.generate.suite import generate_priviq
from privbench.spatialtrust.generate.suite import generate_spatialtrust


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name, n, generate in (
            ("Priv-IQ", 146, generate_priviq),
            ("SpatialTrust", 100, generate_spatialtrust),
        ):
            out = Path(tmp) / name
            start = time.perf_counter()
            generate(n, args.seed, out)
            seconds = time.perf_counter() - start
            size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) / 1e6
            print(f"{name:13s} {n:4d} items in {seconds:5.1f} s = {n / seconds:5.1f} items/s "
                  f"({size:.1f} MB; target < 60 s)")  # fmt: skip


if __name__ == "__main__":
    main()
