"""Recompute how often ``geoprivacy-rules v1`` agrees with VLM-GeoPrivacy's judge.

Why: :data:`privbench.suites.geoprivacy.offline.MEASURED_AGREEMENT` states the offline
granularity rules' agreement with the reference's released judge labels (GPT-4.1-mini's
``Q7-label``); this script recomputes it from a clone or mirror of the reference repository,
so the figure can be checked and re-measured after a rule change (bump
``DETECTOR_VERSION`` then). It reads the 27 released free-form files of the 9 API models
(3 methods) at the pinned commit, keeps rows whose label starts with A–D, splits them by
:func:`~privbench.suites.geoprivacy.offline.held_out`, and prints, per half, the agreement,
Cohen's κ and the 4×4 confusion matrix (judge rows, rules columns), overall and per method.
Nothing is written; exit status 1 when the held-out figures differ from the stored ones.

    .venv/bin/python bench/geoprivacy_offline_agreement.py \\
        /work/.mirror/99starman+VLM-GeoPrivacyBench/repo

Takes about 15 s (the rules read ~31,000 answers).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from privbench.suites.geoprivacy import offline
from privbench.suites.geoprivacy.layout import COMMIT

Measured = tuple[offline.GranularityAgreement, tuple[tuple[str, offline.GranularityAgreement], ...]]
"""Overall and per-method agreement."""

API_MODELS = (
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
METHODS = ("zs", "iter-cot", "malicious")


@dataclass(frozen=True)
class ReleasedAnswer:
    """One released free-form answer with the judge's letter."""

    model: str
    method: str
    item_id: str
    text: str
    judge: str


def released_path(method: str, model: str) -> str:
    """The repository path of one released free-form file."""
    return f"evaluation/main/{method}/responses/api_gen_{method}_free-form_{model}_combined.json"


def read_rows(git_dir: Path, commit: str) -> list[ReleasedAnswer]:
    """Every released answer whose label starts with A–D (its first letter, uppercased)."""
    rows: list[ReleasedAnswer] = []
    for method in METHODS:
        for model in API_MODELS:
            shown = subprocess.run(
                [
                    "git",
                    "--git-dir",
                    str(git_dir),
                    "show",
                    f"{commit}:{released_path(method, model)}",
                ],
                capture_output=True,
                check=True,
            )
            for record in json.loads(shown.stdout):
                letter = str(record.get("Q7-label") or "")[:1].upper()
                if letter and letter in offline.LEVELS:
                    text = str(record.get("Q7-gen") or "")
                    rows.append(ReleasedAnswer(model, method, str(record["id"]), text, letter))
    return rows


def measure(rows: list[ReleasedAnswer]) -> Measured:
    """The rules' agreement with the judge on ``rows``: overall and per method."""
    pairs = [(row.method, row.judge, offline.offline_granularity(row.text)) for row in rows]
    overall = offline.agreement((judge, rules) for _, judge, rules in pairs)
    by_method = tuple(
        (method, offline.agreement((j, r) for m, j, r in pairs if m == method))
        for method in METHODS
    )
    return overall, by_method


def table(
    title: str,
    overall: offline.GranularityAgreement,
    by_method: tuple[tuple[str, offline.GranularityAgreement], ...],
) -> str:
    """Agreement, κ and confusion matrices as plain text."""
    lines = [title]
    for name, found in (("all", overall), *by_method):
        lines.append(
            f"  {name:<10} n={found.n:<6} agreement={found.accuracy:.4f} kappa={found.cohen_kappa:.4f}"
        )
        lines.append("    judge\\rules " + "".join(f"{letter:>7}" for letter in offline.LEVELS))
        for letter, counts in zip(offline.LEVELS, found.confusion, strict=True):
            lines.append(f"    {letter:<12}" + "".join(f"{count:7d}" for count in counts))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("git_dir", type=Path, help="the reference repository's git directory")
    parser.add_argument("--commit", default=COMMIT, help="the reference commit (default: pinned)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    rows = read_rows(args.git_dir, args.commit)
    held = [row for row in rows if offline.held_out(row.model, row.method, row.item_id)]
    tuning = [row for row in rows if not offline.held_out(row.model, row.method, row.item_id)]
    print(f"{offline.DETECTOR_NAME} vs the released judge labels, reference {args.commit[:12]}")
    print(f"split: held out when {offline.HELD_OUT_RULE}")
    held_overall, held_methods = measure(held)
    print(table(f"held-out half ({len(held)} answers)", held_overall, held_methods))
    tuning_overall, tuning_methods = measure(tuning)
    print(
        table(
            f"tuning half ({len(tuning)} answers; the rules were tuned here)",
            tuning_overall,
            tuning_methods,
        )
    )
    print(f"({time.monotonic() - started:.1f} s)")
    stored = offline.MEASURED_AGREEMENT
    same = stored.overall == held_overall and stored.by_method == held_methods
    print("stored MEASURED_AGREEMENT: " + ("matches" if same else "DIFFERS from this measurement"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
