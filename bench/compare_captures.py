"""Compare two output captures of ``bench/capture_outputs.py``: which files differ, and how.

Why: proving a restructuring changed nothing a user sees means listing every difference
between a capture made before and one made after, file by file; exit 0 only when there
is none.

    python bench/compare_captures.py BEFORE AFTER [--lines 40]

Prints the files only in one capture, then for each file whose content differs a unified
diff excerpt (the first ``--lines`` lines). ``README.md`` is compared too (it holds the
file and command counts). Exit 0: identical; 1: differences; 2: a folder is missing.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Sequence
from pathlib import Path


def files_of(root: Path) -> dict[str, Path]:
    """Every file under ``root`` by its path relative to it (POSIX form)."""
    return {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*")) if p.is_file()}


def read_lines(path: Path) -> list[str] | None:
    """The file's lines, or None if it is not UTF-8 text (then bytes are compared)."""
    try:
        return path.read_text(encoding="utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        return None


def diff_excerpt(name: str, before: Path, after: Path, limit: int) -> list[str] | None:
    """The first ``limit`` lines of the unified diff of two files, or None if equal."""
    if before.read_bytes() == after.read_bytes():
        return None
    old, new = read_lines(before), read_lines(after)
    if old is None or new is None:
        return [f"binary files differ ({before.stat().st_size} vs {after.stat().st_size} bytes)\n"]
    lines = list(difflib.unified_diff(old, new, f"before/{name}", f"after/{name}", n=2))
    excerpt = lines[:limit]
    if len(lines) > limit:
        excerpt.append(f"... ({len(lines) - limit} more diff lines)\n")
    return [line if line.endswith("\n") else line + "\n" for line in excerpt]


def compare(before: Path, after: Path, limit: int) -> int:
    """Print the differences of two captures; the number of differing files."""
    old, new = files_of(before), files_of(after)
    only_before = sorted(old.keys() - new.keys())
    only_after = sorted(new.keys() - old.keys())
    changed: list[tuple[str, list[str]]] = []
    for name in sorted(old.keys() & new.keys()):
        excerpt = diff_excerpt(name, old[name], new[name], limit)
        if excerpt is not None:
            changed.append((name, excerpt))
    for name in only_before:
        print(f"only in before: {name}")
    for name in only_after:
        print(f"only in after:  {name}")
    for name, _ in changed:
        print(f"differs:        {name}")
    for name, excerpt in changed:
        print(f"\n=== {name}")
        sys.stdout.writelines(excerpt)
    total = len(only_before) + len(only_after) + len(changed)
    print(
        f"\n{len(old)} files before, {len(new)} after: {len(changed)} differ, "
        f"{len(only_before)} only before, {len(only_after)} only after"
        + ("" if total else " — identical")
    )
    return total


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--lines", type=int, default=40, help="diff lines shown per file")
    args = parser.parse_args(argv)
    for folder in (args.before, args.after):
        if not folder.is_dir():
            print(f"error: {folder}: not a folder", file=sys.stderr)
            return 2
    return 1 if compare(args.before, args.after, args.lines) else 0


if __name__ == "__main__":
    sys.exit(main())
