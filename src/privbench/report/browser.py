"""How privbench opens its report in a headless browser (tests and ``bench/report.py``).

Why one place: the report must be checked as a reader sees it, in Debian's Chromium,
with nothing reaching the network — these flags stop Chromium's own background traffic
(updates, sync, component downloads) on a machine without a network.
"""

from __future__ import annotations

import shutil

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def find_chromium() -> str | None:
    """Debian's Chromium, if installed (``.ci/run`` installs it)."""
    return shutil.which("chromium") or shutil.which("chromium-browser")
