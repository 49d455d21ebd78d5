"""Tables, comparisons, survey export and agreement from real logs with known numbers."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import FOUR_ITEMS, privbench, run_options, write_json, write_priviq
from helpers.loopback_server import LoopbackServer
from inspect_ai.log import read_eval_log, write_eval_log

from privbench.analysis.agreement import agreement_table, check_scale, format_stat, read_ratings
from privbench.analysis.groups import (
    ComparedRun,
    comparison_gaps,
    cross_dataset_note,
    dataset_groups,
)
from privbench.analysis.paper_tables import (
    AVERAGE,
    TOTAL,
    comparisons,
    item_scores,
    wide,
)
from privbench.analysis.runs import load_results, superseded, unique_labels
from privbench.analysis.survey import export_survey
from privbench.formatting import natural_key
from privbench.report.figures import radar_label_slot, top_shares, wrap
from privbench.runtime.errors import DatasetError, UsageError
from privbench.suites.priviq.api import grade_priviq
from privbench.suites.priviq.paper_tables import priviq_tables

SCORES = {
    "model-a": {"a": "1.0", "b": "0.4", "c": "0.7", "d": "0.0"},
    "model-b": {"a": "0.5", "b": "0.5", "c": "0.5", "d": "1.0"},
}


@pytest.fixture
def two_model_logs(server: LoopbackServer, tmp_path: Path) -> Path:
    """Two graded Priv-IQ runs whose every judge score is scripted."""
    data = write_priviq(tmp_path / "data", FOUR_ITEMS)
    for model, scores in SCORES.items():
        for item, score in scores.items():
            server.script(f"{model}-says-{item} ", score)
        answers = {item: f"{model}-says-{item} " for item in FOUR_ITEMS}
        answers_path = write_json(tmp_path / f"{model}.json", answers)
        grade_priviq(data, answers_path, options=run_options(tmp_path))
    return tmp_path / "logs"


def test_table_3_and_5_from_logs(two_model_logs: Path) -> None:
    results = load_results([two_model_logs])
    assert sorted(results.labels("priviq")) == ["model-a", "model-b"]
    table3, table5 = priviq_tables(results.priviq, np.random.default_rng(0), n_boot=200)
    scores = wide(table3)
    # d requires PrivRisk, Know and CntxPriv; a requires VizPriv and CntxPriv: both count twice
    assert scores.loc["model-a", "CntxPriv"] == pytest.approx(50.0)  # (1.0 + 0.0) / 2
    assert scores.loc["model-b", "CntxPriv"] == pytest.approx(75.0)  # (0.5 + 1.0) / 2
    assert scores.loc["model-a", "Know"] == pytest.approx(0.0)
    assert scores.loc["model-a", TOTAL] == pytest.approx(52.5)
    assert scores.loc["model-b", TOTAL] == pytest.approx(62.5)
    assert scores.loc[AVERAGE, TOTAL] == pytest.approx(57.5)
    assert scores.loc[AVERAGE, "CntxPriv"] == pytest.approx(62.5)
    counts = wide(table3, "n")
    assert counts.loc["model-a", "CntxPriv"] == 2 and counts.loc["model-a", TOTAL] == 4
    combos = wide(table5)
    assert combos.loc["model-a", "VizPriv + CntxPriv"] == pytest.approx(100.0)
    assert combos.loc["model-b", "PrivRisk + Know + CntxPriv"] == pytest.approx(100.0)
    row = table3[(table3["run"] == "model-a") & (table3["column"] == TOTAL)].iloc[0]
    assert row["low"] <= 52.5 <= row["high"]


def test_pairwise_comparison(two_model_logs: Path) -> None:
    results = load_results([two_model_logs])
    per_item = item_scores(results.priviq, "priviq")
    pairs = comparisons(per_item, 0, ["model-a", "model-b"], n_boot=200)
    (pair,) = pairs.to_dict("records")
    # differences b − a per item: −0.5, 0.1, −0.2, 1.0 → mean +0.1
    assert pair["difference"] == pytest.approx(10.0)
    assert pair["n"] == 4
    # exact sign-flip test over the 16 sign patterns of (0.5, −0.1, 0.2, −1.0): observed
    # |sum| 0.4. With the 1.0 positive, ±0.5 ±0.1 ±0.2 ∈ {0.8, 0.4, 0.6, 0.2, −0.2, −0.6,
    # −0.4, −0.8} gives sums 1.8, 1.4, 1.6, 1.2, 0.8, 0.4, 0.6, 0.2: all but 0.2 reach
    # 0.4 (the 0.4 is the observed pattern's mirror, a tie); the mirror half likewise.
    assert pair["p"] == 14 / 16
    assert pair["p_holm"] == 14 / 16  # one pair: Holm changes nothing


def test_survey_export_represents_every_model_and_round_trips(
    two_model_logs: Path, tmp_path: Path
) -> None:
    written = export_survey([two_model_logs], tmp_path / "survey", n=4, seed=3, raters=2)
    sheet = pd.read_csv(written.sheet)
    assert "judge" not in set(sheet["rater"]) and "model" not in sheet.columns  # blind
    assert sheet["score"].isna().all() and len(sheet) == 4 * 2
    key = json.loads(written.key.read_text())
    judged = {opaque: entry["judge_score"] for opaque, entry in key["items"].items()}
    assert {entry["run"] for entry in key["items"].values()} == {"model-a", "model-b"}
    html = written.form.read_text()
    assert "Rating form" in html and "model-a" not in html.replace("model-a-says", "")
    # raters fill it in; the judge agrees exactly with rater1 and rater2 is 0.1 higher
    judge = sheet["item_id"].map(judged)
    sheet["score"] = judge.where(sheet["rater"] == "rater1", (judge + 0.1).clip(upper=1.0))
    sheet.to_csv(written.sheet, index=False)
    ratings = read_ratings(written.sheet)  # the key is found beside the raters' folder
    assert ratings.raters == 2 and ratings.blank == 0
    overall = agreement_table(ratings, 0.1)["Overall"]
    assert overall.n == 4 and overall.agreement_rate == 1.0


def _icc_a1(x: np.ndarray) -> float:
    """ICC(2,1) (Shrout & Fleiss; McGraw & Wong's A,1) from the two-way ANOVA by hand."""
    n, k = x.shape
    grand = x.mean()
    ss_rows = k * ((x.mean(axis=1) - grand) ** 2).sum()
    ss_cols = n * ((x.mean(axis=0) - grand) ** 2).sum()
    ss_error = ((x - grand) ** 2).sum() - ss_rows - ss_cols
    ms_rows, ms_cols = ss_rows / (n - 1), ss_cols / (k - 1)
    ms_error = ss_error / ((n - 1) * (k - 1))
    return float(
        (ms_rows - ms_error) / (ms_rows + (k - 1) * ms_error + k * (ms_cols - ms_error) / n)
    )


RATINGS = """item_id,rater,score,survey
i1,judge,0.9,S1
i1,h1,0.8,S1
i1,h2,1.0,S1
i2,judge,0.2,S1
i2,h1,0.3,S1
i2,h2,0.3,S1
i3,judge,0.5,S1
i3,h1,0.7,S1
i3,h2,0.5,S1
i4,judge,0.0,S1
i4,h1,0.1,S1
i4,h2,0.0,S1
j1,judge,1.0,S2
j1,h1,0.9,S2
j2,judge,0.4,S2
j2,h1,0.7,S2
j3,judge,0.6,S2
j3,h1,0.6,S2
j4,judge,0.3,S2
j4,h1,,S2
j5,judge,0.8,S2
j5,h1,0.6,S2
"""


def test_agreement_matches_independent_computation(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text(RATINGS)
    ratings = read_ratings(path)
    assert ratings.blank == 1  # j4's human score is empty: skipped, counted
    table = agreement_table(ratings, tolerance=0.1)
    assert list(table) == ["S1", "S2", "Average", "Overall"]
    human = np.array([0.9, 0.3, 0.6, 0.05])  # means of h1 and h2
    judge = np.array([0.9, 0.2, 0.5, 0.0])
    s1 = table["S1"]
    assert s1.n == 4
    s1_icc = _icc_a1(np.column_stack([human, judge]))
    assert s1.icc == pytest.approx(s1_icc)
    # both sides rank the items 4, 2, 3, 1: ρ = 1, and its t-approximation p is 0
    assert (s1.spearman_rho, s1.spearman_p) == pytest.approx((1.0, 0.0))
    # human − judge = 0, 0.1, 0.1, 0.05
    assert s1.mae == pytest.approx(0.25 / 4)
    assert s1.agreement_rate == 1.0  # every |difference| ≤ 0.1 (two of them exactly 0.1)
    assert s1.bias == pytest.approx(0.0625)
    # deviations from 0.0625: −0.0625, 0.0375, 0.0375, −0.0125; squares sum to 0.006875
    sd = math.sqrt(0.006875 / 3)
    assert (s1.loa_low, s1.loa_high) == pytest.approx((0.0625 - 1.96 * sd, 0.0625 + 1.96 * sd))
    s2 = table["S2"]
    assert s2.n == 4 and s2.agreement_rate == pytest.approx(0.5)  # j2 and j5 differ by > 0.1
    # S2: j4 has no human score; j1, j2, j3, j5
    s2_human, s2_judge = np.array([0.9, 0.7, 0.6, 0.6]), np.array([1.0, 0.4, 0.6, 0.8])
    s2_icc = _icc_a1(np.column_stack([s2_human, s2_judge]))
    assert s2.icc == pytest.approx(s2_icc)
    average = table["Average"]
    assert average.icc == pytest.approx((s1_icc + s2_icc) / 2)  # the surveys' mean
    assert math.isnan(average.bias)
    assert table["Overall"].n == 8


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("item_id,score\ni1,0.5\n", "missing column(s): rater"),
        ("item_id,rater,score\ni1,h1,0.5\n", "no ratings by the judge rater 'judge'"),
        ("item_id,rater,score\ni1,judge,0.5\ni1,h1,high\n", "score 'high' is not a number in 0–1"),
        ("item_id,rater,score\ni1,judge,0.5\ni1,h1,17\n", "score '17' is not a number in 0–1"),
    ],
)
def test_bad_ratings_are_named(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text(text)
    with pytest.raises(DatasetError, match=re.escape(message)):
        read_ratings(path)


def test_agreement_cli_json(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text(RATINGS)
    result = privbench("agreement", "--ratings", path, "--json", "--plots", tmp_path / "plots")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["agreement"]["Average"]["bias"] is None
    assert document["blank_ratings_skipped"] == 1
    assert all(Path(p).exists() for p in document["plots"])
    assert (tmp_path / "plots" / "violins.svg").exists()


def test_agreement_scale_10_puts_the_judge_on_the_human_scale(tmp_path: Path) -> None:
    """Humans rate 0–10 (the paper's surveys); the judge's scores come from logs on 0–1."""
    path = tmp_path / "ratings.csv"
    path.write_text(
        "item_id,rater,score\n"
        "a,judge,0.9\na,h1,8\nb,judge,0.2\nb,h1,3\nc,judge,0.5\nc,h1,5\nd,judge,0.0\nd,h1,1\n"
    )
    ratings = read_ratings(path, scale=10)
    assert list(ratings.pairs["judge"]) == pytest.approx([9.0, 2.0, 5.0, 0.0])
    overall = agreement_table(ratings, tolerance=1.0)["Overall"]
    assert overall.mae == pytest.approx((1 + 1 + 0 + 1) / 4)  # points on the 0–10 scale
    assert overall.agreement_rate == pytest.approx(1.0)
    assert overall.bias == pytest.approx((-1 + 1 + 0 + 1) / 4)
    bad = tmp_path / "bad.csv"
    bad.write_text("item_id,rater,score\na,judge,7\na,h1,8\n")
    with pytest.raises(DatasetError, match=re.escape("judge scores are on 0–1")):
        read_ratings(bad, scale=10)


def test_stats_never_print_negative_zero() -> None:
    assert format_stat("icc", -0.0000001) == "0.000"
    assert format_stat("bias", -0.0002) == "0.000"
    assert format_stat("bias", -0.25) == "-0.250"
    assert format_stat("agreement_rate", 0.825) == "82.5 %"
    assert format_stat("icc", math.nan) == "n/a" and format_stat("mae", None) == "n/a"


def test_scales_accepted_alike() -> None:
    assert check_scale(1) == 1 and check_scale(10.0) == 10
    with pytest.raises(UsageError, match="--scale: 1 or 10"):
        check_scale(5)


def test_agreement_cli_scale_10_without_library_warnings(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text("item_id,rater,score\na,judge,1.0\na,h1,10\nb,judge,1.0\nb,h1,10\n")
    result = privbench("agreement", "--ratings", path, "--scale", "10", "--plots", tmp_path / "p")
    assert result.returncode == 0, result.stderr
    assert "-0.000" not in result.stdout and "Warning" not in result.stderr
    assert "ICC needs at least 3 items" in result.stderr  # said in words, not a library warning
    assert "0.000" in result.stdout  # MAE of identical scores, on the 0–10 scale
    rejected = privbench("agreement", "--ratings", path, "--scale", "5")
    assert rejected.returncode == 2 and "--scale: 1 or 10" in rejected.stderr


def test_natural_order_of_ids() -> None:
    ids = ["v1_10", "v1_1", "v1_100", "v1_2", "st-0010", "st-0002"]
    assert sorted(ids, key=natural_key) == ["st-0002", "st-0010", "v1_1", "v1_2", "v1_10", "v1_100"]


def _row(label: str, benchmark: str = "priviq", **fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "label": label,
        "benchmark": benchmark,
        "limit": None,
        "data": "/data/priviq-suite",
        "dataset_hash": "a" * 64,
        "judge": "offline",
        "epochs": 1,
        "created": "2026-01-01T10:00:00",
        "log": "/logs/one.eval",
    }
    return base | fields


def test_labels_are_unique_by_what_differs_not_by_a_counter() -> None:
    rows = [
        _row("m"),
        _row("m", "spatialtrust"),  # another benchmark: no clash
        _row("m", data="/tmp/gen6", dataset_hash="b" * 64),
        _row("m", limit=5),
        _row("m", created="2026-01-02T09:30:00", log="/logs/two.eval"),
    ]
    assert unique_labels(rows) == [
        "m · priviq-suite · 2026-01-01 10:00",
        "m",
        "m · gen6",
        "m · limit 5",
        "m · priviq-suite · 2026-01-02 09:30",
    ]


def test_superseded_logs_are_those_a_retry_replaced() -> None:
    headers = [
        ("t1", "2026-01-01T10:00", "cancelled", "a.eval"),
        ("t1", "2026-01-01T11:00", "success", "b.eval"),
        ("t2", "2026-01-01T10:00", "success", "c.eval"),
        ("t2", "2026-01-01T12:00", "success", "d.eval"),  # two finished runs: both kept
        ("t3", "2026-01-01T10:00", "error", "e.eval"),  # no retry: kept, status shown
    ]
    assert superseded(headers) == {0: 1}


def test_cancelled_log_superseded_by_its_retry_is_dropped(two_model_logs: Path) -> None:
    """inspect's eval-retry keeps ``eval.task_id`` (checked on a real retry, 0.3.285) and
    writes a new log with a later ``created``; the unfinished one is dropped with a note."""
    path = sorted(two_model_logs.glob("*.eval"))[0]
    log = read_eval_log(str(path))
    log.status = "cancelled"
    log.eval.created = "2000-01-01T00:00:00+00:00"
    write_eval_log(log, str(two_model_logs / "cancelled-first-attempt.eval"))
    (two_model_logs / "eval-set.json").write_text("{}")
    results = load_results([two_model_logs])
    assert len(results.runs) == 2 and "cancelled" not in set(results.runs["status"])
    assert any("superseded by its retry" in note for note in results.notes)
    assert any(note.startswith("Skipped 1 file(s)") for note in results.notes)
    with pytest.raises(UsageError, match="not a readable inspect log"):
        load_results([two_model_logs / "eval-set.json"])  # named explicitly: an error


def _identity(label: str, items: str, hash_: str = "h1", limit: int | None = None) -> ComparedRun:
    return ComparedRun(label, hash_, frozenset(items), limit)


def test_dataset_groups_pair_only_same_data_and_items() -> None:
    groups = dataset_groups(
        [
            _identity("a", "wxyz"),
            _identity("b", "wxyz"),
            _identity("c", "wx", limit=2),
            _identity("d", "wxyz", hash_="h2"),  # same ids, other data
            _identity("e", "wxyz", hash_=""),  # identity unknown
        ]
    )
    assert [g.runs for g in groups] == [["a", "b", "c"], ["d"], ["e"]]
    first = groups[0]
    assert first.partitions == [["a", "b"], ["c"]]
    assert first.averaged == ["a", "b"]  # not the --limit run
    assert first.limits == {"c": 2}
    assert comparison_gaps(first) == [
        "c answered another set (2 items); compared with the runs over the 4 items of a, b"
        " only over the 2 items both answered."
    ]
    assert not groups[2].known and groups[2].partitions == [["e"]]
    assert "never averaged or paired" in groups[2].notes[0]
    note = cross_dataset_note(groups, "Priv-IQ")
    assert note is not None and "2 dataset(s)" in note and "1 run(s) of unknown" in note
    assert cross_dataset_note(groups[:1], "Priv-IQ") is None


def test_wide_adds_an_average_only_over_two_or_more_runs(two_model_logs: Path) -> None:
    results = load_results([two_model_logs])
    table3, _ = priviq_tables(results.priviq, np.random.default_rng(0), n_boot=50)
    assert AVERAGE not in wide(table3, average_over=["model-a"]).index
    assert AVERAGE not in wide(table3[table3["run"] == "model-a"]).index
    assert wide(table3, average_over=["model-a", "model-b"]).loc[AVERAGE, TOTAL] == pytest.approx(
        57.5
    )


def test_contribution_legend_keeps_the_largest_shares() -> None:
    shares = pd.DataFrame(
        {f"c{i}": [float(10 - i), float(10 - i)] for i in range(10)} | {"zero": [0.0, 0.0]},
        index=["run-1", "run-2"],
    )
    grouped = top_shares(shares, keep=8)
    assert list(grouped.columns) == [*(f"c{i}" for i in range(7)), "other (3 combinations)"]
    assert grouped.loc["run-1", "other (3 combinations)"] == pytest.approx(3 + 2 + 1)
    assert grouped.sum(axis=1).tolist() == pytest.approx([55.0, 55.0])  # 10 + 9 + … + 1


def test_radar_scale_labels_go_where_the_data_reach_least() -> None:
    # four spokes; the gap between spokes 2 and 3 holds the smallest values
    slot, reach = radar_label_slot([[80.0, 90.0, 10.0, 10.0]])
    assert slot == 2 and reach == pytest.approx(10 * math.cos(math.pi / 4))


def test_tick_labels_wrap_at_natural_breaks() -> None:
    assert wrap("privbench/ocr-pii · limit 5", 12) == "privbench/\nocr-pii ·\nlimit 5"
    assert wrap("Law", 12) == "Law"


def test_a_limit_run_given_first_never_becomes_the_compared_set() -> None:
    """One full run and one --limit run: the full run's items are what the note names,
    whichever log was read first."""
    full = ComparedRun("full", "h", frozenset("abcd"))
    limited = ComparedRun("limited", "h", frozenset("ab"), limit=2)
    for runs in ([full, limited], [limited, full]):
        (group,) = dataset_groups(runs)
        assert comparison_gaps(group) == [
            "limited answered another set (2 items); compared with the runs over the"
            " 4 items of full only over the 2 items both answered."
        ]


def test_runs_started_in_the_same_second_come_in_label_order(
    two_model_logs: Path, tmp_path: Path
) -> None:
    """inspect names a log by its start, to the second, and a random id: two runs started
    in the same second are ordered by label, whatever the ids are."""
    logs = sorted(two_model_logs.glob("*.eval"))
    headers = [read_eval_log(str(path)) for path in logs]
    labels = sorted(Path(str(h.eval.task_args["predictions"])).stem for h in headers)
    for case, ids in (("ab", ("AAAA", "ZZZZ")), ("ba", ("ZZZZ", "AAAA"))):
        folder = tmp_path / case
        folder.mkdir()
        for log, random_id in zip(headers, ids, strict=True):
            log.eval.created = "2026-01-01T00:00:00+00:00"
            write_eval_log(
                log, str(folder / f"2026-01-01T00-00-00-00-00_priviq-grade_{random_id}.eval")
            )
        assert load_results([folder]).labels("priviq") == labels
