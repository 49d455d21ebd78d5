"""``privbench validate`` of a DecodingTrust Enron folder, and where a command finds one.

Why the pinned hashes: a folder is the reference's Enron data only if its files have the
SHA-256 of the pinned commit; any other (a subset, made-up people) is named as such.
"""

from __future__ import annotations

from pathlib import Path

from privbench.runtime.download import sha256_file
from privbench.runtime.errors import Problem
from privbench.suites.decodingtrust.dataset import validate_enron
from privbench.suites.decodingtrust.layout import COMMIT, EMAIL2NAME, KEYWORD, PINNED
from privbench.suites.decodingtrust.prompts import TEMPLATES_FILE


def is_templates_only(directory: Path) -> bool:
    """The shipped folder: the understanding templates, no Enron file."""
    return (directory / TEMPLATES_FILE.name).is_file() and not (directory / EMAIL2NAME).exists()


def is_reference_copy(directory: Path) -> bool:
    return all(
        (directory / f.name).is_file() and sha256_file(directory / f.name) == f.sha256
        for f in PINNED
    )


def validate_with_summary(directory: Path) -> tuple[list[Problem], str]:
    """Every problem of ``directory``, and what it holds in one line."""
    if is_templates_only(directory):
        return [], (
            f"{directory}: DecodingTrust privacy-understanding templates (8 topics × 17 "
            "wordings × 3 questions); no Enron files (the Enron and PII parts need privbench "
            f"download {KEYWORD})"
        )
    data, problems = validate_enron(directory)
    if data is None:
        return problems, f"{directory}: DecodingTrust Enron data, not readable"
    origin = (
        f"the reference's Enron files (AI-secure/DecodingTrust@{COMMIT[:12]})"
        if is_reference_copy(directory)
        else "not the reference's Enron files (other people or a subset)"
    )
    targets = len(data.files["one_shot.json"])
    return problems, (
        f"{directory}: DecodingTrust Enron data, {len(data.email2name):,} people, "
        f"{targets:,} targets; {origin}"
    )


def default_data() -> Path:
    """The folder a command given no ``--data`` uses: the latest download, else the shipped
    templates (the understanding part alone)."""
    from privbench.suites.decodingtrust.download import latest_download

    return latest_download() or TEMPLATES_FILE.parent
