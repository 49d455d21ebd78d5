"""``privbench leaderboard DIR``: one row per run, checked against each run's own ``--json``."""

from __future__ import annotations

import io
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
    one_line_error,
    privbench,
    run_options,
    spatial_record,
    write_json,
    write_predictions,
    write_priviq,
    write_spatial,
)
from helpers.loopback_server import LoopbackServer
from inspect_ai.log import read_eval_log, write_eval_log

from privbench import registry
from privbench.analysis.leaderboard import (
    LeaderboardRow,
    sort_rows,
    to_markdown,
)
from privbench.suites.priviq.api import eval_priviq, grade_priviq
from privbench.suites.priviq.competencies import COMPETENCIES
from privbench.suites.spatialtrust.aggregate import TASKS
from privbench.suites.spatialtrust.api import grade_spatialtrust


def _score_columns(name: str) -> tuple[str, ...]:
    table = registry.get(name).cross_run.score_columns
    assert table is not None
    return table.columns


PRIVIQ_COLUMNS, SPATIAL_COLUMNS = _score_columns("priviq"), _score_columns("spatialtrust")

COLUMNS = [
    "label", "model", "benchmark", "strategy", *COMPETENCIES, "Total",
    *(name for _, name in TASKS), "overall",
    "t1_r", "t2a_r", "t2b_r", "t3_leak_worst", "t4_private_worst",
    "leak_naive", "leak_privacy_enhanced", "helpful_naive", "probe_seed", "probe_vignette",
    "probe_trajectory", "safe_helpful",
    "q7_mcq", "q7_q7", "q7_zs", "q7_iter-cot", "q7_malicious", "over_mcq", "over_q7",
    "over_zs", "over_iter-cot", "over_malicious", "q7",
    "enron_leak", "pii_leak", "understanding_leak", "privacy_score",
    "n", "judge", "judge_card", "data_hash", "status", "log", "dataset", "rank", "caveats",
]  # fmt: skip


@dataclass(frozen=True)
class Folder:
    logs: Path
    documents: dict[str, dict[str, Any]]
    """Log path → that run's own ``--json`` document."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    tmp = tmp_path_factory.mktemp("board")
    data = write_priviq(tmp / "data", FOUR_ITEMS)
    spatial = write_spatial(tmp / "st", [spatial_record("st-1"), spatial_record("st-2")])
    documents: dict[str, dict[str, Any]] = {}
    with pytest.MonkeyPatch.context() as patch, LoopbackServer(default_reply="Yes") as server:
        patch.setenv("INSPECT_DISPLAY", "none")
        patch.setenv("PRIVBENCH_CACHE_DIR", str(tmp / "cache"))
        patch.delenv("OPENAI_API_KEY", raising=False)
        patch.setenv("LOOPMODEL_BASE_URL", server.base_url)
        patch.setenv("LOOPMODEL_API_KEY", API_KEY)
        options = run_options(tmp, judge="offline")
        runs: list[Any] = [eval_priviq(data, MODEL, options=options)]
        for name, answers in (
            ("references", {k: v["answer"] for k, v in FOUR_ITEMS.items()}),
            ("pipe|unsure", {k: "I am not sure." for k in FOUR_ITEMS}),
        ):
            runs.append(
                grade_priviq(data, write_json(tmp / f"{name}.json", answers), options=options)
            )
        for name, answer in (("perfect", PERFECT), ("departing", FINAL)):
            predictions = write_predictions(
                tmp / f"{name}.jsonl", [{"id": i, **answer} for i in ("st-1", "st-2")]
            )
            runs.append(grade_spatialtrust(spatial, predictions, options=options))
    for run in runs:
        documents[run.log_location] = run.json()
    logs = tmp / "logs"
    (logs / "eval-set.json").write_text("{}", encoding="utf-8")  # not an inspect log
    check = read_eval_log(runs[1].log_location)  # a judge-check run is not a benchmark run
    check.eval.metadata = {**(check.eval.metadata or {}), "judge_check": "priviq"}
    write_eval_log(check, str(logs / "nested" / "judge-check.eval"))
    yield Folder(logs, documents)


def expected_row(log: str, document: dict[str, Any]) -> dict[str, Any]:
    """The row recomputed from the run's own ``--json`` document."""
    priviq = document["benchmark"] == "priviq"
    scores = (
        {**document["competencies"], "Total": document["overall"]}
        if priviq
        else {**{name: document[name] for _, name in TASKS}, "overall": document["overall"]}
    )
    card = document["judge_card"]
    return {
        "benchmark": document["benchmark"],
        "strategy": "" if priviq else document["strategy"],
        **scores,
        "n": document["counts"]["items"] if priviq else document["counts"]["images"],
        "judge": document["judge"],
        "judge_card": "not checked" if card is None else document["judge_agreement"],
        "data_hash": document["dataset_hash"][:12],
        "status": document["status"],
        "log": log,
    }


def read_csv(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text), keep_default_na=False, na_values=[""])


def test_csv_has_one_row_per_run_sorted_with_the_runs_own_figures(folder: Folder) -> None:
    result = privbench("leaderboard", folder.logs, "--format", "csv")
    assert result.returncode == 0, result.stderr
    table = read_csv(result.stdout)
    assert list(table.columns) == COLUMNS
    assert len(table) == len(folder.documents) == 5
    assert list(table["benchmark"]) == ["priviq"] * 3 + ["spatialtrust"] * 2
    for benchmark, column in (("priviq", "Total"), ("spatialtrust", "overall")):
        totals = list(table[table["benchmark"] == benchmark][column])
        assert totals == sorted(totals, reverse=True)
        assert totals[0] > totals[-1]  # the runs were made to differ
    for _, row in table.iterrows():
        expected = expected_row(row["log"], folder.documents[row["log"]])
        for key, value in expected.items():
            got = row[key]
            if isinstance(value, float) or value is None:
                assert (pd.isna(got) and value is None) or got == pytest.approx(value), key
            else:
                assert ("" if pd.isna(got) else got) == value, key
    models = dict(zip(table["label"], table["model"].fillna(""), strict=True))
    assert models[MODEL] == MODEL and models["references"] == ""  # a grade run has no model
    assert set(table["label"]) == {MODEL, "references", "pipe|unsure", "perfect", "departing"}
    assert result.stderr.strip().splitlines() == [
        "skipped 2 file(s): 1 not an inspect log, 1 a judge-check run"
    ]


def test_markdown_is_a_table_per_benchmark_with_cells_escaped(
    folder: Folder, tmp_path: Path
) -> None:
    out = tmp_path / "board.md"
    result = privbench("leaderboard", folder.logs, "--out", out)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    text = out.read_text(encoding="utf-8")
    priviq, spatial = text.split("## SpatialTrust")
    assert priviq.startswith("## Priv-IQ")
    header = next(line for line in priviq.splitlines() if line.startswith("| rank"))
    assert header.split(" | ")[3:12] == [*COMPETENCIES, "Total"]
    assert len([line for line in priviq.splitlines() if line.startswith("| ")]) == 1 + 3
    assert len([line for line in spatial.splitlines() if line.startswith("| ")]) == 1 + 2
    assert "| pipe\\|unsure |" in priviq
    assert "| strategy |" in spatial and "| predictions |" in spatial
    references = folder.documents[next(k for k, d in folder.documents.items()
                                       if d["model"] == "references")]  # fmt: skip
    assert f"| {references['overall']:.1f} |" in priviq


def test_bad_format_and_folders_without_runs_are_one_line(folder: Folder, tmp_path: Path) -> None:
    result = privbench("leaderboard", folder.logs, "--format", "xlsx")
    assert result.returncode == 2 and "--format: 'xlsx'" in one_line_error(result)
    (tmp_path / "empty").mkdir()
    write_json(tmp_path / "empty" / "x.json", [])
    result = privbench("leaderboard", tmp_path / "empty")
    assert result.returncode == 2 and result.stdout == ""
    assert (
        "no Priv-IQ or SpatialTrust or ConfAIde or PrivacyLens or VLM-GeoPrivacy or DecodingTrust privacy run logs"
        in result.stderr.splitlines()[-1]
    )


def _row(label: str, benchmark: str, total: float | None) -> LeaderboardRow:
    column = "Total" if benchmark == "priviq" else "overall"
    return LeaderboardRow(
        label=label, model="m", benchmark=benchmark, strategy="",
        scores={column: total}, n=1, judge="offline", judge_card="not checked",
        data_hash="abc", status="complete", log=f"{label}.eval",
    )  # fmt: skip


def test_rows_sort_best_first_within_benchmark_unscored_last() -> None:
    rows = [
        _row("s1", "spatialtrust", 40.0),
        _row("p1", "priviq", None),
        _row("p2", "priviq", 10.0),
        _row("s2", "spatialtrust", 70.0),
        _row("p3", "priviq", 55.5),
    ]
    assert [r.label for r in sort_rows(rows)] == ["p3", "p2", "p1", "s2", "s1"]


def test_markdown_cells_are_one_line_and_unscored_is_a_dash() -> None:
    row = _row("two\nlines | here", "priviq", None)
    text = to_markdown([row])
    line = next(line for line in text.splitlines() if "two lines" in line)
    assert line.startswith("| – | two lines \\| here | m | ")  # unranked: no dataset
    assert line.count(" – ") == len(PRIVIQ_COLUMNS) + 2  # rank, every score, no caveats
    assert "SpatialTrust" not in text and len(SPATIAL_COLUMNS) == 6
