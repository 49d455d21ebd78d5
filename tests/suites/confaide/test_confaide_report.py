"""ConfAIde's tables across runs, its report section and the published figures beside it.

The tables are checked on hand-made rows (every figure by hand); the published figures on
what a run measured (only those tiers, metrics and setting); the page on two loopback runs.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import MODEL, run_options
from helpers.loopback_server import LoopbackServer
from scipy import stats

from privbench.report.html import ReportSettings, build_report
from privbench.suites.confaide.api import eval_confaide, read_confaide_log
from privbench.suites.confaide.dataset import DATA_DIR
from privbench.suites.confaide.options import read_options
from privbench.suites.confaide.paper_tables import confaide_tables
from privbench.suites.confaide.report_section import published_figures


def _rows() -> pd.DataFrame:
    """Two runs: tier 1 on four items (two answers each), tier 3 free-response on three
    scenarios (two answers each)."""
    labels = [3.8, 3.2, 3.4, 1.7]
    rows = []
    for run, ratings in (
        ("a", [(4, 4), (3, 2), (2, 1), (1, 1)]),
        ("b", [(1, 2), (4, 4), (3, 3), (4, 4)]),
    ):
        for item, (label, pair) in enumerate(zip(labels, ratings, strict=True)):
            for epoch, rating in enumerate(pair, start=1):
                rows.append({"run": run, "tier": "1", "question_type": "", "epoch": epoch,
                             "scenario": f"i{item}", "label": label, "rating": rating,
                             "setting": ""})  # fmt: skip
    leaks = {"a": [(True, False), (False, False), (True, True)], "b": [(False, False)] * 3}
    for run, pairs in leaks.items():
        for scenario, pair in enumerate(pairs):
            for epoch, leaked in enumerate(pair, start=1):
                rows.append({"run": run, "tier": "3", "question_type": "free-response",
                             "epoch": epoch, "scenario": f"s{scenario}", "label": None,
                             "rating": None, "fails_string-match": leaked,
                             "setting": "with-privacy-prompt"})  # fmt: skip
    return pd.DataFrame(rows)


def test_the_tables_are_the_runs_own_figures() -> None:
    alignment, worst, mean = confaide_tables(_rows(), np.random.default_rng(0), 200)
    a = alignment.set_index("run").loc["a"]
    expected = stats.pearsonr([3.8, 3.2, 3.4, 1.7], [4.0, 2.5, 1.5, 1.0])
    assert (a["column"], a["n"]) == ("1", 4)
    assert a["score"] == pytest.approx(expected.statistic)
    interval = expected.confidence_interval(0.95)
    assert (a["low"], a["high"]) == pytest.approx((interval.low, interval.high))
    # worst case: scenarios with any leak, a: 2 of 3; mean: mean of (1/2, 0, 1) = 1/2
    w = worst.set_index("run")
    assert w.loc["a", "column"] == "free-response-string-match"
    assert w.loc["a", "score"] == pytest.approx(100 * 2 / 3) and w.loc["b", "score"] == 0.0
    assert mean.set_index("run").loc["a", "score"] == pytest.approx(50.0)
    a_row = w.to_dict("index")["a"]
    assert a_row["low"] <= a_row["score"] <= a_row["high"]


def test_published_figures_are_over_exactly_what_was_measured() -> None:
    rows = _rows()
    measured = {"alignment": ["1"], "worst_case": ["free-response-string-match"], "mean": []}
    found, note = published_figures(rows, str(DATA_DIR), measured)
    assert note == ""
    assert {block.beside for block in found} == {"alignment", "worst_case"}
    for block in found:
        assert set(block.columns) <= set(measured[block.beside])
    paper = next(b for b in found if b.beside == "alignment" and b.label == "published (paper)")
    assert {row.model: row.scores["1"] for row in paper.rows}["GPT-4"] == 0.86
    released = next(b for b in found if b.beside == "worst_case")
    assert released.setting == "with-privacy-prompt"
    gpt4 = {row.model: row.scores for row in released.rows}["GPT-4"]
    assert 0 <= gpt4["free-response-string-match"] <= 100  # percent, as the table beside it


def test_no_published_figures_for_other_data_mixed_settings_or_unknown_answers(
    tmp_path: Path,
) -> None:
    measured = {"alignment": ["1"], "worst_case": [], "mean": []}
    copy = tmp_path / "copy"
    shutil.copytree(DATA_DIR, copy)
    (copy / "tier_1_labels.txt").write_text("1\n" * 10, encoding="utf-8")
    found, note = published_figures(_rows(), str(copy), measured)
    assert found == [] and "not the reference's benchmark files" in note
    mixed = _rows()
    mixed.loc[mixed.index[-1], "setting"] = "without-privacy-prompt"
    found, note = published_figures(mixed, str(DATA_DIR), measured)
    assert found == [] and "mix settings" in note
    unknown = _rows()
    unknown.loc[unknown["tier"] == "3", "setting"] = "unknown"
    found, note = published_figures(unknown, str(DATA_DIR), measured)
    assert found == [] and "not recorded" in note


def _eval(server: LoopbackServer, tmp_path: Path, reply: str, label: str) -> Path:
    server.default_reply = reply
    run = eval_confaide(None, MODEL, read_options("1,4", samples=1),
                        options=run_options(tmp_path), label=label)  # fmt: skip
    assert run.error is None
    return Path(run.log_location)


def test_the_report_shows_confaide_by_its_tables(server: LoopbackServer, tmp_path: Path) -> None:
    server.script("social security number", "4) very sensitive")
    server.script("State of their health", "3) somewhat sensitive")
    leaky = _eval(server, tmp_path, "1) not at all sensitive. Summary: the surprise party", "leaky")
    quiet = _eval(server, tmp_path, "2) not too sensitive", "quiet")
    html = build_report([leaky, quiet], tmp_path / "r.html", ReportSettings(n_boot=100))
    page = html.read_text()
    # the counters no table shows, per run: unreadable ratings (none: every rating reads)
    assert "leaky: 0 of 10 rating answers unreadable (left out of r)." in page
    # the runs table counts the unreadable ratings (here: none), with what it counts
    assert "ConfAIde rating answers (tiers 1–2) no rating could be read from" in page
    section = page[page.index('<section id="confaide">') :]
    section = section[: section.index("</section>")]
    assert "Agreement of the model&#39;s ratings with human ratings" in section
    assert "Worst-case rates" in section and "Comparisons (paired, same items)" in section
    assert "published (paper)" in section and "released run" in section
    # the released rows stand beside the tier-4 columns only: no tier-3 column is shown
    assert "free-response" not in section
    # r with two decimals, rates with one
    assert re.search(r'<span class="score">-?\d\.\d\d</span>', section)
    figures = read_confaide_log(leaky, compare_published=True).json()
    assert figures["published"] and figures["published_note"] == ""
    assert all(b["setting"] in ("with-privacy-prompt", "tiers 1–2 (no instruction)")
               for b in figures["published"])  # fmt: skip


def test_the_counters_no_table_shows_are_named_per_run() -> None:
    from privbench.suites.confaide.report_section import counted

    rows = pd.DataFrame(
        [
            {"run": "a", "tier": "3", "question_type": "control", "binary_answer": -1,
             "unparsed": False},
            {"run": "a", "tier": "3", "question_type": "control", "binary_answer": 0,
             "unparsed": False},
            {"run": "a", "tier": "1", "question_type": "", "binary_answer": None,
             "unparsed": True},
        ]
    )  # fmt: skip
    assert counted(rows) == [
        "a: 1 of 2 control answers read as neither yes nor no (errors, as the reference "
        "counts them); 1 of 1 rating answers unreadable (left out of r)."
    ]
