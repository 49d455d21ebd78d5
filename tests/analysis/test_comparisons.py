"""Where runs stand side by side (report, leaderboard, diff, exports), one rule holds:
rows are compared only over the same benchmark, dataset and items, and a reference row is
computed over the items of the runs beside it.

The runs are real: a loopback model answers, the offline judge grades.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from helpers import (
    API_KEY,
    FINAL,
    FOUR_ITEMS,
    MODEL,
    PERFECT,
    privbench,
    run_options,
    spatial_record,
    write_priviq,
    write_spatial,
)
from helpers.loopback_server import LoopbackServer

from privbench.analysis.groups import ComparedRun, comparable_sets
from privbench.formatting import signed
from privbench.report.html import ReportSettings, build_report
from privbench.suites.priviq.api import eval_priviq
from privbench.suites.priviq.competencies import COMPETENCIES
from privbench.suites.spatialtrust.api import eval_spatialtrust

UNSURE = "I am not sure."
LAW = "GDPR Article 33 applies: the controller must notify the supervisory authority."


@dataclass(frozen=True)
class Logs:
    spatial: Path
    """Two ``--limit 2`` SpatialTrust runs over the first two of four images."""
    spatial_other: Path
    """A SpatialTrust run over other data, and one on unreviewed drafts."""
    priviq: Path
    """A ``--limit 2`` Priv-IQ run first, then two full runs over the same four items."""
    priviq_a: Path
    priviq_b: Path
    documents: dict[Path, dict[str, Any]]
    exports: Path


def _record(image_id: str, q1: str) -> dict[str, Any]:
    return spatial_record(image_id, q1=q1)


def _draft(record: dict[str, Any]) -> dict[str, Any]:
    record["annotation"] = {"status": "draft", "annotators": [], "elements": []}
    return record


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Logs]:
    tmp = tmp_path_factory.mktemp("compare")
    # q1's best constant is right on both of the first two images, on half of all four
    spatial = write_spatial(
        tmp / "st",
        [_record("st-1", "A"), _record("st-2", "A"), _record("st-3", "B"), _record("st-4", "B")],
    )
    other = write_spatial(tmp / "st-other", [_record("o-1", "B"), _record("o-2", "B")])
    drafts = write_spatial(tmp / "st-drafts", [_draft(_record("d-1", "A"))])
    data = write_priviq(tmp / "data", FOUR_ITEMS)
    documents: dict[Path, dict[str, Any]] = {}
    with pytest.MonkeyPatch.context() as patch, LoopbackServer(default_reply=UNSURE) as server:
        patch.setenv("INSPECT_DISPLAY", "none")
        patch.setenv("PRIVBENCH_CACHE_DIR", str(tmp / "cache"))
        patch.delenv("OPENAI_API_KEY", raising=False)
        patch.setenv("LOOPMODEL_BASE_URL", server.base_url)
        patch.setenv("LOOPMODEL_API_KEY", API_KEY)

        def keep(run: Any) -> Path:
            path = Path(run.log_location)
            documents[path] = run.json()
            return path

        limited = run_options(tmp, judge="offline", log_dir=str(tmp / "priviq"))
        keep(eval_priviq(data, MODEL, limit=2, options=limited, label="a-early"))
        priviq_a = keep(eval_priviq(data, MODEL, options=limited, label="alpha"))
        server.script("Which law applies", LAW)
        priviq_b = keep(eval_priviq(data, MODEL, options=limited, label="beta"))
        server.default_reply = json.dumps(PERFECT)
        st = run_options(tmp, judge="offline", log_dir=str(tmp / "spatial"))
        keep(eval_spatialtrust(spatial, MODEL, limit=2, options=st, label="perfect"))
        server.default_reply = json.dumps(FINAL)
        keep(eval_spatialtrust(spatial, MODEL, limit=2, options=st, label="final"))
        mixed = run_options(tmp, judge="offline", log_dir=str(tmp / "mixed"))
        out = tmp / "exports"
        # one model on two datasets: its exports must not take each other's names
        keep(eval_spatialtrust(spatial, MODEL, options=mixed, out_dir=out, overwrite=True))
        keep(eval_spatialtrust(other, MODEL, options=mixed, out_dir=out, overwrite=True))
        keep(eval_spatialtrust(drafts, MODEL, options=mixed, label="drafted", allow_drafts=True))
    yield Logs(
        tmp / "spatial", tmp / "mixed", tmp / "priviq", priviq_a, priviq_b, documents,
        tmp / "exports",
    )  # fmt: skip


def _table_after(html: str, heading: str) -> str:
    start = html.index(heading)
    return html[start : html.index("</table>", start)]


# --- one rule: groups ------------------------------------------------------------------


def test_comparable_sets_split_by_benchmark_dataset_and_items() -> None:
    runs = [
        ComparedRun("a", "h1", frozenset({"1", "2"}), benchmark="spatialtrust"),
        ComparedRun("b", "h1", frozenset({"1", "2"}), benchmark="spatialtrust"),
        ComparedRun("c", "h1", frozenset({"1"}), limit=1, benchmark="spatialtrust"),
        ComparedRun("d", "h2", frozenset({"1", "2"}), benchmark="spatialtrust"),
        ComparedRun("e", "h1", frozenset({"1", "2"}), benchmark="priviq"),
        ComparedRun("f", "", frozenset({"1", "2"}), benchmark="priviq"),
    ]
    sets = comparable_sets(runs)
    assert [sorted(s.runs) for s in sets] == [["a", "b"], ["c"], ["d"], ["e"], ["f"]]
    assert [s.items for s in sets][:2] == [frozenset({"1", "2"}), frozenset({"1"})]


# --- reference rows over the runs' own items ------------------------------------------


def test_trivial_baseline_is_over_the_items_of_the_runs_beside_it(logs: Logs) -> None:
    path = build_report([logs.spatial], logs.spatial.parent / "st.html", ReportSettings(n_boot=50))
    html = path.read_text()
    assert "2 images" in html
    table = _table_after(html, "Trivial baseline: best constant answer per question")
    # over the two images the runs answered, always "Yes" is right on both: 100 on q1
    assert re.search(r"<span class=\"score\">100\.0</span>", table), table
    show = privbench("show", *sorted(logs.spatial.rglob("*.eval"))[:1], "--json")
    assert show.returncode == 0, show.stderr
    baseline = json.loads(show.stdout)["baseline"]
    assert baseline["images"] == 2
    assert f"{baseline['overall']:.1f}" in table  # the figure `show` prints for the run


# --- canonical order -------------------------------------------------------------------


def test_table_columns_are_in_canonical_order_whatever_run_comes_first(logs: Logs) -> None:
    tables = logs.priviq.parent / "tables"
    html = build_report(
        [logs.priviq], logs.priviq.parent / "pq.html", ReportSettings(n_boot=50, tables=tables)
    ).read_text()
    table3 = _table_after(html, "Scores by competency (Table 3 layout)")
    header = table3[: table3.index("</tr>")]
    shown = re.findall(r"<th>([A-Za-z]+)<span", header)
    assert shown == [c for c in COMPETENCIES if c in shown] + ["Total"]
    markdown = (tables / "table3.md").read_text()
    heading = next(line for line in markdown.splitlines() if line.startswith("| Run"))
    assert [h.strip() for h in heading.strip("|").split("|")][1:] == shown
    table5 = _table_after(html, "Scores by competency combination (Table 5 layout)")
    header5 = re.findall(r"<th>([^<]+)<span", table5[: table5.index("</tr>")])
    assert header5[-1] == "Total"
    markdown5 = (tables / "table5.md").read_text()
    heading5 = next(line for line in markdown5.splitlines() if line.startswith("| Run"))
    assert [h.strip() for h in heading5.strip("|").split("|")][1:] == header5


# --- diff and report agree -------------------------------------------------------------


def test_diff_and_report_agree_on_the_same_pair(logs: Logs) -> None:
    result = privbench("diff", logs.priviq_a, logs.priviq_b, "--json")
    assert result.returncode == 0, result.stderr
    overall = json.loads(result.stdout)["overall"]
    assert overall["difference"] > 0  # B (beta) answered the law item, A did not
    html = build_report(
        [logs.priviq_a, logs.priviq_b], logs.priviq.parent / "pair.html", ReportSettings()
    ).read_text()
    pairs = html[html.index('<table class="pairs">') :]
    pairs = pairs[: pairs.index("</table>")]
    assert "B − A" in pairs
    row = re.search(r"<td>alpha</td><td>beta</td><td>4</td><td>([^<]+)</td>.*?>([^<]+)</span>"
                    r"</td><td>([^<]+)</td>", pairs)  # fmt: skip
    assert row, pairs
    difference, interval, p = row.groups()
    assert difference == f"+{overall['difference']:.1f}"
    assert interval == f"[{signed(overall['low'])}, {signed(overall['high'])}]"
    assert p == f"{overall['p']:.3g}"
    terminal = privbench("diff", logs.priviq_a, logs.priviq_b).stdout
    assert f"p = {overall['p']:.3g}" in terminal
    assert "Holm" in terminal


def test_diff_adjusts_per_competency_p_values(logs: Logs) -> None:
    result = privbench("diff", logs.priviq_a, logs.priviq_b, "--json")
    groups = json.loads(result.stdout)["by_competency"]
    tested = [g for g in groups.values() if g["p"] is not None]
    assert tested and all(g["p_holm"] >= g["p"] for g in tested)


# --- leaderboard -----------------------------------------------------------------------


def test_leaderboard_ranks_only_within_one_dataset_and_marks_drafts(logs: Logs) -> None:
    result = privbench("leaderboard", logs.spatial_other, "--format", "csv")
    assert result.returncode == 0, result.stderr
    board = pd.read_csv(io.StringIO(result.stdout), keep_default_na=False, na_values=[""])
    assert board["data_hash"].nunique() == 3
    assert list(board["rank"]) == [1, 1, 1]  # one run per dataset: each first of its own
    caveats = board.set_index("label")["caveats"]
    assert "draft annotations: 1 of 1 images not reviewed by a person" in caveats["drafted"]
    markdown = privbench("leaderboard", logs.spatial_other, "--format", "markdown").stdout
    assert markdown.count("## SpatialTrust") == 3
    assert "draft annotations" in markdown


def test_leaderboard_ranks_limit_runs_apart(logs: Logs) -> None:
    both = logs.spatial.parent / "both"
    both.mkdir(exist_ok=True)
    for log in [*logs.spatial.rglob("*.eval"), *logs.spatial_other.rglob("*.eval")]:
        (both / log.name).write_bytes(log.read_bytes())
    result = privbench("leaderboard", both, "--format", "csv")
    board = pd.read_csv(io.StringIO(result.stdout), keep_default_na=False, na_values=[""])
    limited = board[board["label"].str.contains("perfect|final")]
    assert len(limited) == 2 and limited["data_hash"].nunique() == 1
    same = board[board["data_hash"] == limited["data_hash"].iloc[0]]
    assert len(same) == 3  # the two --limit runs and the full run over the same data
    assert set(limited["caveats"].str.contains("limit 2")) == {True}
    assert list(limited["rank"].isna()) == [True, True]  # over other items: not ranked
    full = same[~same["label"].str.contains("perfect|final")]
    assert list(full["rank"]) == [1]


# --- exports ---------------------------------------------------------------------------


def test_export_names_carry_the_dataset(logs: Logs) -> None:
    names = sorted(p.name for p in logs.exports.iterdir())
    hashes = {
        document["dataset_hash"][:8]
        for path, document in logs.documents.items()
        if path.is_relative_to(logs.spatial_other) and document["label"] != "drafted"
    }
    assert len(hashes) == 2
    for short in hashes:
        assert any(short in name for name in names), (short, names)


def test_report_compares_runs_over_different_items_over_the_common_ones(logs: Logs) -> None:
    """Two --limit 2 runs and a full run of the same data: the full run is compared with
    each over the two images all answered, in a family of its own, and the view says so."""
    full = next(
        path
        for path, document in logs.documents.items()
        if path.is_relative_to(logs.spatial_other) and document["counts"]["images"] == 4
    )
    html = build_report(
        [logs.spatial, full], logs.spatial.parent / "mixed.html", ReportSettings(n_boot=50)
    ).read_text()
    pairs = html[html.index('<table class="pairs">') :]
    pairs = pairs[: pairs.index("</table>")]
    assert "different item sets, over the items both answered · 2 pairs" in pairs
    assert "only over the 2 images both answered" in html
    table = _table_after(html, "Trivial baseline: best constant answer per question")
    assert "(2 images)" in table  # the baseline over the images every run answered
    assert "The trivial baseline is computed over the 2 images every run here answered" in html


def test_published_tables_appear_once_holding_the_users_runs(logs: Logs) -> None:
    """Three datasets: the paper's SpatialTrust tables once, each run beside them marked
    with its dataset."""
    html = build_report(
        [logs.spatial_other],
        logs.spatial.parent / "published.html",
        ReportSettings(n_boot=50, compare_published=True),
    ).read_text()
    assert html.count("<h3>Published SpatialTrust figures</h3>") == 1
    assert html.count("<h4>published (paper Table 2)") == 1
    block = html[html.index("<h3>Published SpatialTrust figures</h3>") :]
    table = block[: block.index("</table>")]
    assert table.count('<tr class="run">') == 3  # the full run of each dataset
    hashes = {d["dataset_hash"][:12] for p, d in logs.documents.items()
              if p.is_relative_to(logs.spatial_other)}  # fmt: skip
    assert all(f"data {short}" in table for short in hashes)
    assert table.count('<tr class="published">') > 3
