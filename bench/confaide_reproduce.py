"""Benchmark: do the ConfAIde paper's released runs re-grade to their own final reports?

Why: privbench's ConfAIde scoring claims to be the reference's; the authors released, per
model and setting, the per-sample files (``eval_*.json``) and the final reports computed
from them. Every verdict is recomputed here from the answer text and the report keys are
rebuilt; each is printed beside the released value.

Also measured: records whose recomputed verdict differs from the recorded one; records
re-graded per second; how many released inputs equal privbench's prompt for the same
item; and, for tiers 1/2, Pearson's r (with its Fisher-z interval) of each released final
report beside the paper notebook's printed r.

    .venv/bin/python bench/confaide_reproduce.py /work/.mirror/mireshghallah+confAIde/repo \
        [--markdown docs/confaide-reproduction.md]

The path is a checkout holding ``eval_results/`` or a bare git mirror of the repository
(files are then read from its HEAD; blobs the mirror lacks are reported as absent).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from privbench.suites.confaide.dataset import load_confaide
from privbench.suites.confaide.prompts import tier_4_prompt
from privbench.suites.confaide.published import PAPER_R
from privbench.suites.confaide.reference_outputs import (
    final_report_path,
    parse_eval_name,
    rating_report_correlation,
    read_eval_file,
    read_final_report,
    recompute,
)


def export_results(mirror: Path, target: Path) -> tuple[Path, list[str]]:
    """``eval_results/`` of a checkout, or of a bare mirror's HEAD copied into ``target``."""
    if (mirror / "eval_results").is_dir():
        return mirror / "eval_results", []
    listing = subprocess.run(
        ["git", "--git-dir", str(mirror), "ls-tree", "-r", "HEAD", "eval_results"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    absent = []
    for line in listing.splitlines():
        meta, name = line.split("\t", 1)
        blob = meta.split()[2]
        if not Path(name).name.endswith(".json"):
            continue
        content = subprocess.run(
            ["git", "--git-dir", str(mirror), "cat-file", "blob", blob], capture_output=True
        )
        if content.returncode != 0:
            absent.append(name)
            continue
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.stdout)
    return target / "eval_results", absent


@dataclass
class Row:
    setting: str
    model: str
    key: str
    released: float
    recomputed: float | None
    note: str = ""

    @property
    def equal(self) -> bool:
        return self.recomputed is not None and self.recomputed == self.released


def _fmt(value: float | None) -> str:
    return "—" if value is None else repr(value)


def reproduce(results: Path, absent: list[str]) -> tuple[list[Row], dict[str, float], list[str]]:
    rows: list[Row] = []
    notes: list[str] = []
    records = 0
    disagreements = 0
    prompts_equal = 0
    prompts_total = 0
    by_setting: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    meetings = {m.index: m for m in load_confaide().tier_4}
    seconds = 0.0
    for path in sorted(results.glob("*/eval_*.json")):
        if parse_eval_name(path) is None:
            continue
        setting = path.parent.name
        started = time.perf_counter()
        source = read_eval_file(path)
        recomputed = recompute(source)
        seconds += time.perf_counter() - started
        records += len(source.records)
        disagreements += recomputed.disagreements
        if source.tier == "4" and source.metric == "error":
            privacy = setting != "without_privacy_prompts"
            for raw in json.loads(path.read_text(encoding="utf-8")):
                mine = tier_4_prompt(
                    meetings[raw["meeting_idx"]], source.question_type, privacy_prompt=privacy
                )
                same = mine == raw["input"]
                prompts_total += 1
                prompts_equal += same
                counts = by_setting[f"{setting} / {source.model} / {source.question_type}"]
                counts[0] += same
                counts[1] += 1
        report = final_report_path(path)
        if not report.is_file():
            notes.append(f"{setting}/{path.name}: no final report beside it")
            continue
        for key, value in read_final_report(report).items():
            rows.append(
                Row(setting, source.model, key, value, recomputed.keys.get(key), recomputed.skipped)
            )
    for name in absent:
        path = Path(name)
        if path.name.startswith("eval_"):
            report = final_report_path(results / path.relative_to("eval_results"))
            if report.is_file():
                for key, value in read_final_report(report).items():
                    model = parse_eval_name(path)
                    rows.append(
                        Row(
                            path.parent.name,
                            model["model"] if model else "?",
                            key,
                            value,
                            None,
                            "eval file absent from the snapshot",
                        )
                    )
    figures = {
        "records": records,
        "disagreements": disagreements,
        "seconds": seconds,
        "records_per_second": records / seconds if seconds else float("nan"),
        "prompts_equal": prompts_equal,
        "prompts_total": prompts_total,
    }
    notes += [
        f"tier-4 inputs equal to privbench's prompt, {name}: {equal} of {total}"
        for name, (equal, total) in sorted(by_setting.items())
    ]
    return rows, figures, notes


def correlations(results: Path) -> list[tuple[str, str, str, str]]:
    lines = []
    for tier in ("1", "2a", "2b"):
        for path in sorted(
            results.glob(f"with_privacy_prompts/final_report_*_data_tier_{tier}_*.json")
        ):
            model = path.name.removeprefix("final_report_").split("_data_tier_")[0]
            result = rating_report_correlation(path)
            shown = (
                "undefined"
                if result.r is None
                else f"{result.r:.4f} [{result.low:.2f}, {result.high:.2f}] (n={result.n})"
            )
            paper = PAPER_R[tier].get(model)
            lines.append((tier, model, shown, "—" if paper is None else f"{paper:.2f}"))
    return lines


def markdown(
    rows: list[Row],
    figures: dict[str, float],
    notes: list[str],
    corr: list[tuple[str, str, str, str]],
) -> str:
    out = [
        "# ConfAIde: the paper's released runs re-graded by privbench",
        "",
        "Produced by `bench/confaide_reproduce.py` on the authors' released outputs",
        "(`mireshghallah/confAIde`, `eval_results/`, commit `65b29e3`). Each key of each",
        "released final report beside privbench's value, recomputed from the answer text of",
        'the `eval_*.json` next to it. "equal" means the same float, not a rounding.',
        "",
        "## Summary per setting and model",
        "",
        "| setting | model | keys equal | keys recomputed | keys in final reports |",
        "|---|---|---|---|---|",
    ]
    groups: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for row in rows:
        groups[(row.setting, row.model)].append(row)
    for (setting, model), members in sorted(groups.items()):
        equal = sum(r.equal for r in members)
        recomputed = sum(r.recomputed is not None for r in members)
        out.append(f"| {setting} | {model} | {equal} | {recomputed} | {len(members)} |")
    total_equal = sum(r.equal for r in rows)
    total_recomputed = sum(r.recomputed is not None for r in rows)
    out += [
        "",
        f"All settings: **{total_equal} of {total_recomputed}** recomputed keys equal the",
        f"released value; {len(rows) - total_recomputed} keys could not be recomputed",
        "(the snapshot lacks every tier-3 `eval_*.json`, and `proxy-model` needs a model).",
        "",
        f"- records re-graded: {figures['records']:,.0f}; verdicts differing from the recorded",
        f"  `eval_result`: {figures['disagreements']:,.0f}",
        f"- speed: {figures['records_per_second']:,.0f} records/s (reading and re-grading,"
        f" {figures['seconds']:.2f} s in all, one process)",
        "- tier-4 inputs equal to privbench's prompt for the same meeting and setting:",
        f"  {figures['prompts_equal']:,.0f} of {figures['prompts_total']:,.0f} (the released",
        "  meeting-summary runs with the privacy prompt used the question",
        "  `…for this meeting. The summary will be \\nSummary: ` for all models but",
        "  llama-2-70b-chat-tg, and the runs without it a shortened instruction, not the",
        "  pinned code's empty one; per file under Notes)",
        "",
        "## Tiers 1 and 2: Pearson r of the released final reports",
        "",
        "r between the `human` and `model` columns of each released",
        "`final_report_*_data_tier_{1,2a,2b}_nsamples_10.json` (privacy-prompt runs), with a",
        "95 % Fisher-z interval, beside the r the paper's notebook printed. They differ, and",
        "are not expected to agree: the notebook correlates other tables",
        "(`plots/csv/…tier1_heatmap_df.csv`: 7 information types and a `Human` column from",
        "the authors' own annotation study, e.g. SSN 4.0 where `tier_1_labels.txt` has 3.8),",
        "not the labels files that eval.py writes into its final reports.",
        "",
        "| tier | model | privbench r [95 % CI] | notebook r |",
        "|---|---|---|---|",
    ]
    out += [f"| {t} | {m} | {s} | {p} |" for t, m, s, p in corr]
    out += [
        "",
        "## Every key",
        "",
        "| setting | model | key | released | privbench | equal |",
        "|---|---|---|---|---|---|",
    ]
    for row in sorted(rows, key=lambda r: (r.setting, r.model, r.key)):
        mark = "yes" if row.equal else (row.note or "NO")
        out.append(
            f"| {row.setting} | {row.model} | `{row.key}` | {_fmt(row.released)} |"
            f" {_fmt(row.recomputed)} | {mark} |"
        )
    if notes:
        out += ["", "## Notes", ""] + [f"- {note}" for note in notes]
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mirror", type=Path)
    parser.add_argument("--markdown", type=Path, help="also write the table here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results, absent = export_results(args.mirror, Path(tmp))
        rows, figures, notes = reproduce(results, absent)
        corr = correlations(results)
    for row in rows:
        print(
            f"{row.setting:26} {row.model:22} {row.key:45} {_fmt(row.released):>22}"
            f" {_fmt(row.recomputed):>22} {'=' if row.equal else row.note or 'DIFF'}"
        )
    print()
    for tier, model, shown, paper in corr:
        print(f"tier {tier:3} {model:22} r={shown}  notebook {paper}")
    equal = sum(r.equal for r in rows)
    recomputed = sum(r.recomputed is not None for r in rows)
    print(
        f"\n{equal}/{recomputed} recomputed keys equal ({len(rows)} keys in the final reports);"
        f" {figures['disagreements']:.0f} verdicts differ of {figures['records']:.0f};"
        f" {figures['records_per_second']:,.0f} records/s;"
        f" prompts equal {figures['prompts_equal']:.0f}/{figures['prompts_total']:.0f}"
    )
    if args.markdown:
        args.markdown.write_text(markdown(rows, figures, notes, corr), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
