"""``privbench validate`` of a ConfAIde directory: every problem and a one-line summary.

Why the shipped manifest: a directory is the reference's benchmark only if every file has
the SHA-256 the shipped ``manifest.json`` records (the upstream commit's); a copy whose
files differ is named as a modified copy, file by file, so figures over it are not taken
for the paper's benchmark.
"""

from __future__ import annotations

import json
from pathlib import Path

from privbench.runtime.download import sha256_file
from privbench.runtime.errors import Problem
from privbench.suites.confaide.dataset import DATA_DIR, MANIFEST_FILE, validate_confaide

KEYWORD = "confaide"
"""``--data confaide`` (or ``validate confaide``): the reference's files shipped with privbench."""


def resolve_data(value: Path) -> tuple[Path, str | None]:
    """The folder ``confaide`` means (the shipped files), unless a path of that name exists
    here: an existing path always means itself, with a note saying where the shipped copy is."""
    if value != Path(KEYWORD):
        return value, None
    if value.exists():
        return value, f"note: {KEYWORD}: using ./{KEYWORD} in this folder, not {DATA_DIR}"
    return DATA_DIR, None


def shipped_manifest() -> tuple[str, dict[str, str]]:
    """The upstream commit and, per file, the SHA-256 of the shipped benchmark files."""
    manifest = json.loads((DATA_DIR / MANIFEST_FILE).read_text(encoding="utf-8"))
    return str(manifest["commit"]), {str(e["path"]): str(e["sha256"]) for e in manifest["files"]}


def differing_files(directory: Path) -> list[str]:
    """The benchmark files of ``directory`` whose content differs from the shipped ones."""
    _, digests = shipped_manifest()
    return [
        name
        for name, digest in digests.items()
        if not (directory / name).is_file() or sha256_file(directory / name) != digest
    ]


def validate_with_summary(directory: Path) -> tuple[list[Problem], str]:
    """Every problem of ``directory``, and what it holds in one line (the reference's files,
    or a modified copy and which files differ)."""
    found, problems = validate_confaide(directory)
    if not found:
        return problems, f"{directory}: ConfAIde, not readable"
    data = found[0]
    counts = (
        f"tier 1 {len(data.tier_1)}, tier 2a {len(data.tier_2a)}, tier 2b {len(data.tier_2b)} "
        f"items; tier 3 {len(data.tier_3)} scenarios; tier 4 {len(data.tier_4)} meetings"
    )
    commit, _ = shipped_manifest()
    changed = differing_files(directory)
    origin = (
        f"the reference's benchmark files (skywalker023/confaide@{commit[:12]})"
        if not changed
        else f"a modified copy (differs from the reference's files in {', '.join(changed)})"
    )
    return problems, f"{directory}: ConfAIde, {counts}; {origin}"
