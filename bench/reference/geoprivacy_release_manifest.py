"""Regenerate ``src/privbench/suites/geoprivacy/data/release.json`` from the reference.

The manifest pins the reference's released responses that ``privbench download geoprivacy``
fetches for "published results beside yours": for each of the nine API models, the MCQ run
with heuristics and the free-form runs of the three protocols (zero-shot, iterative
chain-of-thought, malicious) with their geocoded coordinates. Each entry is a repository
path, its SHA-256 and its size, read from the git directory of a snapshot (made by
``fetch github:99starman/VLM-GeoPrivacyBench``) at the pinned commit; a path the commit
does not hold is left out (and named on stderr), never guessed.

Usage: python bench/reference/geoprivacy_release_manifest.py GIT_DIR [--out FILE|-]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

REPOSITORY = "99starman/VLM-GeoPrivacyBench"
COMMIT = "7653e00489bc5b05d8ea2bbf1a51fa39014bd3f8"
OUT = Path(__file__).resolve().parents[2] / "src/privbench/suites/geoprivacy/data/release.json"
MODELS = (
    "gemini-2.5-flash",
    "claude-sonnet-4-20250514",
    "gpt-5",
    "o3",
    "o4-mini",
    "gpt-4.1",
    "gpt-4.1-mini",
    "gpt-4o",
    "Llama-4-Maverick-17B-128E-Instruct-FP8",
)
"""The API models of the paper's main tables (the reference's ``scripts/gen_api.sh``)."""
METHODS = ("zs", "iter-cot", "malicious")
"""The free-form protocols: zero-shot, iterative chain-of-thought, FigStep (malicious)."""


def wanted_paths() -> list[str]:
    """Every repository path the manifest should hold, in a stable order (model, file)."""
    paths: list[str] = []
    for model in MODELS:
        paths.append(f"evaluation/main/mcq/api_gen_zs_heuristics_{model}_combined.json")
        for method in METHODS:
            stem = f"api_gen_{method}_free-form_{model}_combined"
            paths.append(f"evaluation/main/{method}/responses/{stem}.json")
            paths.append(f"evaluation/main/{method}/coordinates/{stem}_coord.json")
    return paths


def _git(git_dir: str, *args: str) -> bytes:
    return subprocess.run(
        ["git", "--git-dir", git_dir, *args], check=True, capture_output=True
    ).stdout


def _tree(git_dir: str) -> dict[str, str]:
    """Blob id of every file under ``evaluation/main`` at :data:`COMMIT`."""
    listing = _git(git_dir, "ls-tree", "-r", COMMIT, "--", "evaluation/main").decode("utf-8")
    blobs: dict[str, str] = {}
    for line in listing.splitlines():
        meta, path = line.split("\t", 1)
        _mode, kind, blob = meta.split()
        if kind == "blob":
            blobs[path] = blob
    return blobs


def manifest(git_dir: str) -> dict[str, object]:
    """The manifest document: repository, commit and one entry per present file."""
    blobs = _tree(git_dir)
    files: list[dict[str, object]] = []
    for path in wanted_paths():
        blob = blobs.get(path)
        if blob is None:
            print(f"not at {COMMIT[:7]}: {path}", file=sys.stderr)
            continue
        data = _git(git_dir, "cat-file", "blob", blob)
        files.append({"path": path, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)})
    return {"repository": REPOSITORY, "commit": COMMIT, "files": files}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("git_dir", help="git directory of a VLM-GeoPrivacyBench snapshot")
    parser.add_argument("--out", default=str(OUT), help="where to write it ('-': stdout)")
    args = parser.parse_args()
    text = json.dumps(manifest(args.git_dir), indent=1) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
