"""privbench's cache directory: judge cards and downloaded datasets live under one root.

Why one module: the judge cards (``judges/cards.py``) and the downloaded public Priv-IQ
release (``priviq/release.py``) both keep files between runs; one function decides where,
so ``$PRIVBENCH_CACHE_DIR`` moves both (tests point it at a temporary folder per test).
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

CACHE_ENV = "PRIVBENCH_CACHE_DIR"
"""Overrides the cache directory (default: the platform's user cache, ``privbench``)."""


def cache_dir() -> Path:
    """privbench's cache directory (``$PRIVBENCH_CACHE_DIR``, else the user cache)."""
    configured = os.environ.get(CACHE_ENV)
    return Path(configured) if configured else Path(platformdirs.user_cache_dir("privbench"))
