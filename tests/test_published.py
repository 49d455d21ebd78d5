"""The papers' published tables: the data as recorded, when they are shown, and how.

The data checks recompute what the papers' tables imply about each other (Table 5's
Totals are Table 3's; Table 5 weighted by Table 1's counts gives Table 3; SpatialTrust's
overall is the mean of five), so a mistyped cell fails a test. The runs are graded by the
offline judge: nothing is called, nothing downloads.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import statistics
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import (
    MODEL,
    PERFECT,
    item,
    privbench,
    run_options,
    spatial_record,
    write_json,
    write_predictions,
    write_priviq,
    write_spatial,
)
from inspect_ai.log import read_eval_log

from privbench.dataset_identity import dataset_hash
from privbench.published import PublishedTable, published_tables
from privbench.report.html import ReportSettings, build_report
from privbench.runtime.records.identity import RunIdentity
from privbench.shipped import PRIVIQ_SUITE
from privbench.suites.priviq.allocation import TABLE_1
from privbench.suites.priviq.api import grade_priviq, read_priviq_log
from privbench.suites.priviq.competencies import COMPETENCIES, Combination, combination_label
from privbench.suites.priviq.dataset import load_priviq
from privbench.suites.priviq.published import (
    TOTAL,
    ReleaseEvidence,
    has_release_shape,
    is_generated,
    is_public_priviq_release,
    paper_combination,
    priviq_published,
    release_evidence,
    release_reason,
)
from privbench.suites.spatialtrust.aggregate import TASKS
from privbench.suites.spatialtrust.api import grade_spatialtrust
from privbench.suites.spatialtrust.published import NOTE, OVERALL, PAPER_COLUMNS, spatial_published

# --- the data as recorded -----------------------------------------------------------


def _tables(benchmark: str) -> dict[int, PublishedTable]:
    return {t.table: t for t in published_tables(benchmark)}


def test_every_table_records_paper_number_caption_and_setting() -> None:
    priviq, spatial = _tables("priviq"), _tables("spatialtrust")
    assert sorted(priviq) == [3, 5] and sorted(spatial) == [2, 3]
    for table in [*priviq.values(), *spatial.values()]:
        assert table.paper and table.caption and table.setting
        assert table.label == f"published (paper Table {table.table})"
    assert {t.decimals for t in priviq.values()} == {1}
    assert {t.decimals for t in spatial.values()} == {2}
    assert spatial[3].row_heading == "Variant" and spatial[3].number(38.96) == "38.96"
    assert all("GPT-4o" in t.setting for t in priviq.values())
    assert all("IoU threshold 0.5" in t.setting for t in spatial.values())
    assert [len(priviq[3].rows), len(priviq[5].rows)] == [8, 7]  # Table 3 has an Average row
    assert [len(spatial[2].rows), len(spatial[3].rows)] == [9, 3]


def test_every_table5_heading_maps_onto_one_table1_combination() -> None:
    headings = [c for c in _tables("priviq")[5].columns if c != TOTAL]
    combinations = [paper_combination(h) for h in headings]
    assert len(headings) == 18
    assert sorted(combinations) == sorted(TABLE_1)  # each of the 18 exactly once
    assert paper_combination("MultLing NER CntxPriv") == ("NER", "CntxPriv", "MultLing")
    assert paper_combination("PET CntxPriv") == ("PET", "CntxPriv")
    with pytest.raises(ValueError, match="not a set of competency codes"):
        paper_combination("PET Crypto")


def test_renamed_columns_are_the_runs_columns() -> None:
    table3, table5 = priviq_published()
    assert table3.columns == (*COMPETENCIES, TOTAL)
    assert set(table5.columns) == {combination_label(c) for c in TABLE_1} | {TOTAL}
    assert table5.rows[0].scores["PET + CntxPriv"] == 55.0  # Claude 3 Opus, "PET CntxPriv"


def test_table5_totals_are_table3_totals() -> None:
    table3, table5 = priviq_published()
    totals3 = {row.model: row.scores[TOTAL] for row in table3.rows}
    assert {row.model: row.scores[TOTAL] for row in table5.rows} == {
        model: total for model, total in totals3.items() if model != "Average"
    }


def _weighted(scores: dict[str, float], wanted: str | None) -> float:
    """A Table 3 cell rebuilt from Table 5: combinations weighted by Table 1's counts."""
    parts = [
        (TABLE_1[combo], scores[combination_label(combo)])
        for combo in TABLE_1
        if wanted is None or wanted in combo
    ]
    return math.fsum(n * s for n, s in parts) / sum(n for n, _ in parts)


def test_table5_weighted_by_table1_gives_table3() -> None:
    table3, table5 = priviq_published()
    by_model = {row.model: row.scores for row in table3.rows}
    for row in table5.rows:
        for code in COMPETENCIES:
            assert abs(_weighted(row.scores, code) - by_model[row.model][code]) <= 0.1, (
                row.model,
                code,
            )
        assert abs(_weighted(row.scores, None) - row.scores[TOTAL]) <= 0.1, row.model


def test_table3_average_row_is_the_mean_of_the_models() -> None:
    table3 = priviq_published()[0]
    models = [row for row in table3.rows if row.model != "Average"]
    average = next(row for row in table3.rows if row.model == "Average")
    assert len(models) == 7
    for column in table3.columns:
        mean = statistics.fmean(row.scores[column] for row in models)
        assert abs(mean - average.scores[column]) <= 0.05, column


def _overall_off(table: PublishedTable) -> list[str]:
    """Rows whose overall is not the mean of their five task scores (to 0.01)."""
    names = [name for _, name in TASKS]
    return [
        row.model
        for row in table.rows
        if abs(statistics.fmean(row.scores[n] for n in names) - row.scores[OVERALL]) > 0.01
    ]


def test_spatial_overall_is_the_mean_of_the_five() -> None:
    table2, table3 = spatial_published()
    assert _overall_off(table2) == [] and _overall_off(table3) == []
    typo = table2.rows[0].model_copy(
        update={"scores": {**table2.rows[0].scores, "detection": 86.8}}
    )
    assert _overall_off(table2.model_copy(update={"rows": (typo,)})) == ["GPT-5.4"]


def test_spatial_columns_are_the_task_names_and_the_ablation_ends_are_table2_rows() -> None:
    assert sorted(PAPER_COLUMNS.values()) == [qid for qid, _ in TASKS]
    table2, table3 = spatial_published()
    assert table2.columns == (*(name for _, name in TASKS), OVERALL)
    rows2 = {row.model: row.scores for row in table2.rows}
    assert table3.rows[0].scores == rows2["Qwen3-VL-30B-A3B-Instruct"]
    assert table3.rows[-1].scores == rows2["SpatialTrustGuard"]
    assert rows2["Gemini-2.5-flash"]["direct_identification"] == 40.81


# --- recognising the public Priv-IQ release ------------------------------------------


def _release() -> dict[str, Combination]:
    """The release's ids with Table 1's combination counts."""
    order = [combo for combo, n in TABLE_1.items() for _ in range(n)]
    return {f"v1_{i}": combo for i, combo in enumerate(order)}


def _evidence(combinations: dict[str, Combination], **change: object) -> ReleaseEvidence:
    fields: dict[str, object] = {
        "combinations": combinations,
        "dataset_hash": "0" * 64,
        "data_found": True,
        "generated": False,
        "origin": "/data/release",
    }
    return ReleaseEvidence(**(fields | change))  # type: ignore[arg-type]


UNVERIFIED = "data from /data/release, not verified against the release"


def test_the_release_is_its_shape_and_the_pinned_content_hash() -> None:
    assert is_public_priviq_release(_evidence(_release(), verified=True))
    assert release_reason(_evidence(_release(), verified=True)) == ""
    assert _evidence(_release(), verified=True).note == "same data: the public Priv-IQ release"
    # the release's ids and Table 1's counts alone: a mirror's copy with one answer changed
    unverified = _evidence(_release())
    assert not is_public_priviq_release(unverified)
    assert release_reason(unverified) == f"{UNVERIFIED} (privbench pins no release hash)"
    assert unverified.note == release_reason(unverified)


def test_anything_else_is_not_the_release() -> None:
    short = dict(list(_release().items())[:-1])
    renamed = {("v1_0a" if k == "v1_0" else k): v for k, v in _release().items()}
    moved = {**_release(), "v1_0": ("Know",)}  # v1_0 is a Law item: Law 28, Know 20
    assert _release()["v1_0"] == ("Law",)
    for combinations in (short, renamed, moved):
        assert not is_public_priviq_release(_evidence(combinations))
        assert "not the public release's" in release_reason(_evidence(combinations))
    assert not is_public_priviq_release(_evidence(_release(), generated=True))
    assert not is_public_priviq_release(_evidence(_release(), data_found=False))


def test_a_download_is_the_release_only_by_the_pinned_hash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import privbench.suites.priviq.published as published
    import privbench.suites.priviq.release as release

    url = "https://mirror.example/Priv-IQ.zip"
    origins = {"ab" * 32: url}
    monkeypatch.setattr(published, "download_origin", origins.get)
    gone = "/nonexistent/priviq-release"
    downloaded = release_evidence(_release(), gone, "ab" * 32)
    assert not downloaded.verified and not is_public_priviq_release(downloaded)
    assert downloaded.note == (
        f"data from {url}, not verified against the release (privbench pins no release hash)"
    )
    assert release_evidence(_release(), gone, "cd" * 32).origin == gone  # no download
    monkeypatch.setattr(release, "RELEASE_DATASET_HASH", "ab" * 32)
    assert is_public_priviq_release(release_evidence(_release(), gone, "ab" * 32))
    short = dict(list(_release().items())[:-1])
    assert not is_public_priviq_release(release_evidence(short, gone, "ab" * 32))
    other = release_evidence(_release(), gone, "cd" * 32)
    assert not is_public_priviq_release(other)
    assert other.note.endswith(
        "not verified against the release (its content hash is not the release's)"
    )


def test_the_shipped_generated_suite_is_never_the_release() -> None:
    items = load_priviq(PRIVIQ_SUITE)
    combinations = {i.id: i.combination for i in items}
    # the generated suite copies the release's ids and counts: those alone cannot tell
    assert has_release_shape(combinations)
    evidence = release_evidence(combinations, str(PRIVIQ_SUITE), dataset_hash(PRIVIQ_SUITE))
    assert evidence.generated and not is_public_priviq_release(evidence)
    assert "generated" in release_reason(evidence)
    # by its hash even where its folder is gone, and by its manifest under any hash
    assert is_generated(None, dataset_hash(PRIVIQ_SUITE))
    assert is_generated(PRIVIQ_SUITE, "")


def test_a_release_folder_without_the_manifest_is_not_generated(tmp_path: Path) -> None:
    shutil.copy(PRIVIQ_SUITE / "priv-IQ.json", tmp_path / "priv-IQ.json")
    assert not is_generated(tmp_path, "")
    shutil.copy(PRIVIQ_SUITE / "suite.json", tmp_path / "suite.json")
    assert is_generated(tmp_path, "")


# --- shown beside runs ---------------------------------------------------------------


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """Offline-graded logs: Priv-IQ over a release-shaped fixture and over the shipped
    suite, SpatialTrust over two captures."""
    root = tmp_path_factory.mktemp("published")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INSPECT_DISPLAY", "none")
        patch.setenv("PRIVBENCH_CACHE_DIR", str(root / "cache"))
        options = run_options(root, judge="offline")
        release = {
            key: item(f"Question {key}?", f"Answer {key}", list(combo))
            for key, combo in _release().items()
        }
        data = write_priviq(root / "release", release)
        answers = write_json(root / "answers.json", {key: f"Answer {key}" for key in release})
        found = grade_priviq(data, answers, options=options, model_name="fixture")
        shipped_ids = [i.id for i in load_priviq(PRIVIQ_SUITE)]
        shipped_answers = write_json(root / "shipped.json", {key: "No." for key in shipped_ids})
        shipped = grade_priviq(PRIVIQ_SUITE, shipped_answers, options=options)
        captures = write_spatial(root / "st", [spatial_record("st-1"), spatial_record("st-2")])
        predictions = write_predictions(
            root / "preds.jsonl", [{"id": "st-1", **PERFECT}, {"id": "st-2", **PERFECT}]
        )
        spatial = grade_spatialtrust(captures, predictions, options=options)
    yield {
        "release": Path(found.log_location),
        "shipped": Path(shipped.log_location),
        "spatial": Path(spatial.log_location),
        "root": root,
    }


def _show_json(*args: str | Path) -> dict[str, object]:
    result = privbench("show", *args, "--json")
    assert result.returncode == 0, result.stderr
    document: dict[str, object] = json.loads(result.stdout)
    return document


def test_unverified_data_shows_the_rows_only_on_request_and_says_so(
    logs: dict[str, Path],
) -> None:
    data = logs["root"] / "release"
    note = f"data from {data}, not verified against the release (privbench pins no release hash)"
    plain = _show_json(logs["release"])
    assert plain["published"] == [] and plain["release_note"] == note
    terminal = privbench("show", logs["release"])
    assert terminal.returncode == 0, terminal.stderr
    assert "published (paper" not in terminal.stdout
    assert "same data" not in terminal.stdout and f"data: {note}" in terminal.stdout
    asked = _show_json(logs["release"], "--compare-published")
    rows = asked["published"]
    assert isinstance(rows, list) and len(rows) == 8 + 7
    assert {r["note"] for r in rows} == {note}


def test_show_json_has_the_published_rows_over_the_pinned_release(
    logs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import privbench.suites.priviq.release as release

    recorded = RunIdentity.from_log(read_eval_log(str(logs["release"]))).dataset_hash
    monkeypatch.setattr(release, "RELEASE_DATASET_HASH", recorded)
    document = read_priviq_log(logs["release"]).json()
    assert document["release_note"] == "same data: the public Priv-IQ release"
    rows = document["published"]
    assert isinstance(rows, list)
    assert [(r["table"], r["model"]) for r in rows][:2] == [
        (3, "Claude 3 Opus"),
        (3, "Claude 3.5 Sonnet"),
    ]
    assert len(rows) == 8 + 7
    assert {r["note"] for r in rows} == {"same data: the public Priv-IQ release"}
    gpt4o = next(r for r in rows if r["table"] == 3 and r["model"] == "GPT-4o")
    assert gpt4o["label"] == "published (paper Table 3)"
    assert gpt4o["scores"] == dict(zip((*COMPETENCIES, TOTAL), (84.5, 68.1, 70.8, 69.6, 84.5, 78.2, 74.5, 55.6, 77.7), strict=True))  # fmt: skip
    table5 = next(r for r in rows if r["table"] == 5)
    assert table5["label"] == "published (paper Table 5)"
    assert set(table5["scores"]) == {combination_label(c) for c in TABLE_1} | {TOTAL}


def test_show_has_no_published_rows_over_the_shipped_suite(logs: dict[str, Path]) -> None:
    assert _show_json(logs["shipped"])["published"] == []
    result = privbench("show", logs["shipped"], "--compare-published")
    assert result.returncode == 0, result.stderr
    assert "published (paper" not in result.stdout
    assert "suite privbench generated" in result.stderr


def test_spatial_published_rows_only_with_the_flag(logs: dict[str, Path]) -> None:
    assert _show_json(logs["spatial"])["published"] == []
    rows = _show_json(logs["spatial"], "--compare-published")["published"]
    assert isinstance(rows, list) and len(rows) == 9 + 3
    assert {r["note"] for r in rows} == {NOTE}
    assert [r["model"] for r in rows if r["table"] == 3] == [
        "Qwen3-VL-30B-A3B-Instruct",
        "+ Staged QA Decomposition",
        "+ Conservative Self-Verification",
    ]
    terminal = privbench("show", logs["spatial"], "--compare-published")
    assert terminal.returncode == 0, terminal.stderr
    assert "published (paper Table 2)" in terminal.stdout and NOTE in terminal.stdout
    assert "published (paper" not in privbench("show", logs["spatial"]).stdout


def test_report_shows_the_published_tables_with_their_captions(logs: dict[str, Path]) -> None:
    paths = [logs["release"], logs["shipped"], logs["spatial"]]
    out = logs["root"] / "report.html"
    settings = ReportSettings(n_boot=100, browse=5, compare_published=True)
    html = build_report(paths, out, settings).read_text(encoding="utf-8")
    # once each: beside the release's runs, not beside the shipped suite's
    assert html.count("published (paper Table 3): The performance comparison") == 1
    assert html.count("published (paper Table 5): Breakdown of model performance") == 1
    assert html.count("published (paper Table 2): Model performance on SpatialTrust") == 1
    assert "No published Priv-IQ rows: the run&#39;s data is a suite privbench generated" in html
    # dataset and paper text is escaped like every other text of the page
    assert "different data: the paper&#39;s own captures" in html
    assert "different data: the paper's own captures" not in html
    assert "Data: data from " in html and "not verified against the release" in html
    plain = build_report(paths, out, ReportSettings(n_boot=100, browse=5)).read_text("utf-8")
    assert "published (paper Table 2)" not in plain
    # the release-shaped data are not verified: no paper rows unless asked, and it says so
    assert "published (paper Table 3)" not in plain
    assert "No published Priv-IQ rows: data from " in plain


def _published_names(html: str, table: int) -> list[str]:
    """The row names of the page's published Table ``table`` (a transposed table's column
    names: Table 5 has a column per model), the user's runs first."""
    start = html.index(f"<h4>published (paper Table {table}): ")
    block = html[start : html.index("</table>", start)]
    if table == 5:
        header = block[block.index("<tr>") : block.index("</tr>")]
        return re.findall(r"<th>([^<]*)", header)[1:]
    return re.findall(r'<tr class="(?:run|published)"><td>([^<]*)', block)


def test_published_priviq_rows_stand_beside_the_full_run_only(
    logs: dict[str, Path], server: object, tmp_path: Path
) -> None:
    """Data of the release's shape that no generator made, evaluated over every item and
    with ``--limit 10``: the paper's rows hold the full run as the user's row, never the
    ``--limit`` run, under the note that the data are not verified against the release."""
    data = logs["root"] / "release"
    runs = {}
    for label, limit in (("full run", ()), ("limited run", ("--limit", "10"))):
        result = privbench(
            "eval", "priviq", "--model", MODEL, "--data", data, "--judge", "offline",
            "--label", label, *limit, "--log-dir", tmp_path / "logs", "--json",
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        runs[label] = Path(json.loads(result.stdout)["log"])
    note = f"data from {data}, not verified against the release (privbench pins no release hash)"
    html = tmp_path / "report.html"
    report = privbench(
        "report", *runs.values(), "--compare-published", "-o", html, "--bootstrap", "100"
    )
    assert report.returncode == 0, report.stderr
    page = html.read_text(encoding="utf-8")
    for table in (3, 5):
        names = _published_names(page, table)
        assert names[0] == "full run" and "GPT-4o" in names, names
        assert "limited run" not in names, names
    assert page.count("published (paper Table 3): ") == 1
    assert f"{note}. " in page and "same data" not in page
    assert note in report.stderr
    shown = privbench("show", *runs.values(), "--compare-published", "--json")
    assert shown.returncode == 0, shown.stderr
    full, limited = json.loads(shown.stdout)["logs"]
    assert len(full["published"]) == 8 + 7 and {r["note"] for r in full["published"]} == {note}
    assert limited["published"] == [] and limited["release_note"] == note
    assert "answered 10 of its data's 146 items (--limit)" in shown.stderr
    alone = privbench(
        "report", runs["limited run"], "--compare-published", "-o", html, "--bootstrap", "100"
    )
    assert alone.returncode == 0, alone.stderr
    assert "published (paper Table" not in html.read_text(encoding="utf-8")
    assert "no run answered all 146 items of the data (--limit)" in alone.stderr
    assert f"Data: {note}." in alone.stderr
