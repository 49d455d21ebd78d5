"""Where a benchmark's downloaded copies are, and which one a keyword such as
``--data geoprivacy`` means.

Why a list of copies and not one path: a user may download into several folders
(``--dir``); the latest is the one a keyword means, and when it is deleted the one before it
is the latest again. Each benchmark's list is ``<cache>/datasets/<name>-downloads.json``.

Why an existing path wins over the keyword: a folder the user made with that name (a
generated suite, their own data) is never swapped for a download behind their back; a note
says where the download is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from privbench.runtime.cache import cache_dir
from privbench.runtime.errors import UsageError


@dataclass(frozen=True)
class DownloadedCopies:
    """The recorded copies of one benchmark's download."""

    name: str
    """The benchmark (``geoprivacy``): its list is ``<name>-downloads.json``."""
    default_root: Callable[[], Path]
    """Where a download goes without ``--dir`` (always listed, first)."""

    def registry(self) -> Path:
        return cache_dir() / "datasets" / f"{self.name}-downloads.json"

    def registered(self) -> list[Path]:
        """Every copy ever recorded, oldest first, the default folder always included."""
        try:
            listed = json.loads(self.registry().read_text(encoding="utf-8")).get("copies", [])
        except (OSError, ValueError, AttributeError):
            listed = []
        roots = [Path(entry) for entry in listed if isinstance(entry, str)]
        default = self.default_root().resolve()
        return roots if default in roots else [default, *roots]

    def register(self, root: Path) -> None:
        """Record ``root`` as the latest copy (moved to the end if listed before)."""
        root = root.resolve()
        roots = [entry for entry in self.registered() if entry != root] + [root]
        registry = self.registry()
        registry.parent.mkdir(parents=True, exist_ok=True)
        partial = registry.with_name(f".{registry.name}.partial")
        document = {"copies": [str(entry) for entry in roots]}
        partial.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        partial.replace(registry)

    def latest(self, complete: Callable[[Path], bool]) -> Path | None:
        """The copy recorded last that is still ``complete``, if any."""
        for root in reversed(self.registered()):
            if complete(root):
                return root
        return None


def resolve_keyword(
    value: Path, keyword: str, latest: Path | None, what: str, missing: str
) -> tuple[Path, str | None]:
    """The folder ``value`` means: ``keyword`` stands for ``latest`` (the download, called
    ``what`` in the note) unless a path of that name exists here; with neither, one line
    ending in ``missing`` (how to download)."""
    if value != Path(keyword):
        return value, None
    if value.exists():
        if latest is None:
            return value, None
        return value, (
            f"note: {keyword}: using ./{keyword} in this folder, not the {what} (give {latest} "
            f"for the {what})"
        )
    if latest is None:
        raise UsageError(f"{keyword}: {missing}")
    return latest, None
