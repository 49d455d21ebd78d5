"""``privbench validate`` of a PrivacyLens folder: every problem and a one-line summary.

Why the shipped manifest: a folder is the reference's data only if its ``main_data.json``
has the SHA-256 the shipped ``manifest.json`` records (the upstream commit's); any other
file (a subset, a user's own vignettes) is named as such, so its figures are not taken for
the paper's benchmark.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from privbench.runtime.download import sha256_file
from privbench.runtime.errors import Problem
from privbench.suites.privacylens.dataset import DATA_DIR, DATA_FILE, validate_privacylens

KEYWORD = "privacylens"
"""``--data privacylens``: the reference's data shipped with privbench."""
MANIFEST_FILE = "manifest.json"


def resolve_data(value: Path) -> tuple[Path, str | None]:
    """The folder ``privacylens`` means (the shipped data), unless a path of that name
    exists here: an existing path always means itself, with a note."""
    if value != Path(KEYWORD):
        return value, None
    if value.exists():
        return value, f"note: {KEYWORD}: using ./{KEYWORD} in this folder, not {DATA_DIR}"
    return DATA_DIR, None


def shipped_digest() -> tuple[str, str]:
    """The upstream commit and the SHA-256 of the shipped ``main_data.json``."""
    manifest = json.loads((DATA_DIR / MANIFEST_FILE).read_text(encoding="utf-8"))
    digest = next(e["sha256"] for e in manifest["files"] if e["path"] == DATA_FILE)
    return str(manifest["commit"]), str(digest)


def validate_with_summary(directory: Path) -> tuple[list[Problem], str]:
    """Every problem of ``directory``, and what it holds in one line."""
    cases, problems = validate_privacylens(directory)
    if not cases:
        return problems, f"{directory}: PrivacyLens, not readable"
    items = sum(len(c.trajectory.sensitive_info_items) for c in cases)
    apps = Counter(c.application for c in cases)
    spread = ", ".join(f"{name} {n}" for name, n in apps.most_common())
    commit, digest = shipped_digest()
    path = directory / DATA_FILE
    origin = (
        f"the reference's main_data.json (SALT-NLP/PrivacyLens@{commit[:12]})"
        if sha256_file(path) == digest
        else "not the reference's main_data.json (a subset or other vignettes)"
    )
    return problems, (
        f"{directory}: PrivacyLens, {len(cases)} cases, {items} sensitive items ({spread}); "
        f"{origin}"
    )
