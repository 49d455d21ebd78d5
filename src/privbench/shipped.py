"""Paths of the data shipped inside the package.

``priviq-suite`` / ``spatialtrust-suite``: the default generated suites (``privbench
generate ... --seed 0``: 146 Priv-IQ items with Table 1's counts, 100 SpatialTrust
captures), used whenever a command or task is given no data directory, and by
``privbench demo``.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
PRIVIQ_SUITE = DATA / "priviq-suite"
SPATIALTRUST_SUITE = DATA / "spatialtrust-suite"
PUBLISHED = DATA / "published"
"""The papers' published score tables (:mod:`privbench.published`; its ``README.md``
says how they were recorded)."""
JUDGE_CALIBRATION = DATA / "judge-calibration"
"""The calibration set ``privbench judge check`` grades when given no reference file:
independently written answers with their grades, and its dataset card (``README.md``)."""
