"""Where the tests' shared files are, wherever a test file sits under tests/."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
"""The tests folder (helpers/ and data/ live here)."""
DATA = TESTS / "data"
"""Frozen test data: expected prompts, answer corpora, reference grades."""
REPO = TESTS.parent
"""The repository root (src/, docs/)."""
