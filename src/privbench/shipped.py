"""Paths of the data shipped inside the package.

* ``priviq-suite`` / ``spatialtrust-suite``: the default generated suites (``privbench
  generate ... --seed 0``: 146 Priv-IQ items with Table 1's counts, 100 SpatialTrust
  captures), used whenever a command or task is given no data directory;
* ``priviq-sample`` / ``spatialtrust-sample``: small hand-written samples with example
  predictions, used by ``privbench demo`` to show grading.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
PRIVIQ_SUITE = DATA / "priviq-suite"
SPATIALTRUST_SUITE = DATA / "spatialtrust-suite"
PRIVIQ_SAMPLE = DATA / "priviq-sample"
SPATIALTRUST_SAMPLE = DATA / "spatialtrust-sample"
