"""Report fixes from a user trial: strategy variants of one model, Holm per family, what the
failure columns count, text escaped once, and the judge's temperature.

The logs are real: SpatialTrust runs of the loopback model under the three strategies
(offline judge), a grade run of a second "model", and Priv-IQ runs graded by the loopback
judge. The pure parts (families, Holm, ablation rows, the Average's runs) are checked on
hand-computed cases.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from helpers import (
    FINAL,
    FINAL_MARK,
    FOUR_ITEMS,
    JUDGE_PROMPT,
    MODEL,
    SELECT_MARK,
    VERIFY_MARK,
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
from inspect_ai.log import read_eval_log

from privbench import registry
from privbench.analysis.paper_tables import (
    FAMILY_ABLATION,
    FAMILY_CROSS,
    FAMILY_MODELS,
    FAMILY_REPEATS,
    comparisons,
    holm_by_family,
    pair_family,
)
from privbench.analysis.runs import load_results
from privbench.judges.asking import attempt_temperature
from privbench.published import published_tables
from privbench.report.ablation import ablations, one_run_per_model, strategy_labels
from privbench.report.html import LAYOUTS, ReportSettings, build_report
from privbench.report.samples import invalid_box_line
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.running import Generation
from privbench.suites.priviq.api import grade_priviq
from privbench.suites.spatialtrust.api import eval_spatialtrust, grade_spatialtrust

HOSTILE = '<b>"x" & y</b>'
ESCAPED_ONCE = "&lt;b&gt;&#34;x&#34; &amp; y&lt;/b&gt;"


# --- Holm within families -----------------------------------------------------------


def test_pair_families() -> None:
    assert pair_family(("gpt-4o", "direct"), ("gpt-4o", "guard")) == FAMILY_ABLATION
    assert pair_family(("gpt-4o", "guard"), ("qwen", "guard")) == FAMILY_MODELS
    assert pair_family(("gpt-4o", "direct"), ("qwen", "guard")) == FAMILY_CROSS
    assert pair_family(("gpt-4o", "direct"), ("gpt-4o", "direct")) == FAMILY_REPEATS
    assert pair_family(("a", ""), ("b", "")) == FAMILY_MODELS  # Priv-IQ: no strategy


def test_holm_is_computed_within_each_family() -> None:
    # ablation: 0.01, 0.04, 0.03 → sorted 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 → 0.06
    # models:   0.02, 0.50      → 0.02·2 = 0.04, 0.50·1 = 0.50
    p = [0.01, 0.02, 0.04, 0.50, 0.03]
    families = ["ab", "mo", "ab", "mo", "ab"]
    assert holm_by_family(p, families) == pytest.approx([0.03, 0.04, 0.06, 0.50, 0.06])
    # the trial's complaint: one family of all five would have made 0.01 into 0.05
    assert holm_by_family(p, ["all"] * 5)[0] == pytest.approx(0.05)
    assert holm_by_family([], []) == []


def test_comparisons_put_each_pair_in_its_family() -> None:
    """Four runs (one model under two strategies, another model under both): the two
    ablations and the two same-strategy model pairs are corrected apart, as is the rest."""
    rng = np.random.default_rng(0)
    base = rng.uniform(0, 1, 30)
    scores = pd.DataFrame(
        {
            "m direct": base,
            "m guard": np.clip(base + 0.2, 0, 1),
            "n direct": np.clip(base - 0.1, 0, 1),
            "n guard": base,
        }
    )
    identities = {
        "m direct": ("m", "direct"),
        "m guard": ("m", "guard"),
        "n direct": ("n", "direct"),
        "n guard": ("n", "guard"),
    }
    pairs = comparisons(scores, 1, n_boot=100, identities=identities)
    assert len(pairs) == 6
    by_pair = {(r["a"], r["b"]): r for r in pairs.to_dict("records")}
    assert by_pair[("m direct", "m guard")]["family"] == FAMILY_ABLATION
    assert by_pair[("n direct", "n guard")]["family"] == FAMILY_ABLATION
    assert by_pair[("m direct", "n direct")]["family"] == FAMILY_MODELS
    assert by_pair[("m guard", "n guard")]["family"] == FAMILY_MODELS
    assert by_pair[("m direct", "n guard")]["family"] == FAMILY_CROSS
    for family, rows in pairs.groupby("family"):
        expected = sorted(rows["p"])
        # Holm on two p-values: min·2, then max(min·2, max·1), capped at 1
        low = min(1.0, 2 * expected[0])
        assert sorted(rows["p_holm"]) == pytest.approx([low, max(low, expected[1])]), family
    # without identities every pair is one family, as before
    alone = comparisons(scores, 1, n_boot=100)
    assert set(alone["family"]) == {FAMILY_MODELS}


# --- strategy variants of one model ----------------------------------------------------


def test_strategy_labels_ablation_rows_and_the_average() -> None:
    rows: list[dict[str, Any]] = [
        {"benchmark": "spatialtrust", "label": "gpt-4o", "model": "gpt-4o", "strategy": "direct"},
        {"benchmark": "spatialtrust", "label": "gpt-4o [guard]", "model": "gpt-4o",
         "strategy": "guard"},
        {"benchmark": "spatialtrust", "label": "gpt-4o [staged]", "model": "gpt-4o",
         "strategy": "staged"},
        {"benchmark": "spatialtrust", "label": "qwen", "model": "qwen", "strategy": "direct"},
        {"benchmark": "spatialtrust", "label": "preds", "model": "none/none", "strategy": ""},
        {"benchmark": "priviq", "label": "gpt-4o", "model": "gpt-4o", "strategy": ""},
    ]  # fmt: skip
    assert strategy_labels(rows) == {"gpt-4o": "gpt-4o [direct]", "qwen": "qwen [direct]"}
    assert strategy_labels(rows[3:]) == {}  # one strategy: labels stay as they are
    identities = {
        "gpt-4o": ("gpt-4o", "direct"),
        "gpt-4o [guard]": ("gpt-4o", "guard"),
        "gpt-4o [staged]": ("gpt-4o", "staged"),
        "qwen": ("qwen", "direct"),
        "preds": ("preds", ""),
    }
    runs = list(identities)
    (found,) = ablations(runs, identities)
    assert found.model == "gpt-4o"
    assert found.runs == [("direct", "gpt-4o"), ("+ staged", "gpt-4o [staged]"),
                          ("+ guard", "gpt-4o [guard]")]  # fmt: skip
    # the Average takes one run per model, the direct one even when it comes later
    assert one_run_per_model(runs, identities) == ["gpt-4o", "qwen", "preds"]
    later = ["gpt-4o [guard]", "qwen", "gpt-4o"]
    assert one_run_per_model(later, identities) == ["qwen", "gpt-4o"]


def test_invalid_box_line_is_plain_text() -> None:
    line = invalid_box_line({"option": "A", "box": HOSTILE, "reason": "not four numbers"})
    assert line == f"A {HOSTILE}: not four numbers"  # escaped by the template, once
    assert invalid_box_line({"option": "B", "box": [1, 2], "reason": "r"}) == "B [1, 2]: r"


# --- the report of a several-strategy set --------------------------------------------


DIRECT = {
    "q1": "Z",  # no option: unreadable
    "q2": {"choices": ["A"], "boxes": {"A": [HOSTILE]}},
    "q3": {"choices": ["B"], "boxes": {"B": [[100, 10, 150, 60]]}},
    "q4": {"text": "A person watches the screen.",
           "factors": [{"name": "background person", "why": "watches", "box": HOSTILE}]},
    "q5": {"text": "An open doorway.", "factors": []},
}  # fmt: skip


@pytest.fixture
def strategy_logs(server: LoopbackServer, tmp_path: Path) -> Path:
    """One model under direct, staged and guard (offline judge) and a second model's
    predictions, on two images; Priv-IQ runs of two answer files."""
    server.script(SELECT_MARK, '{"q1": "A", "q2": ["A"], "q3": ["B"]}')
    server.script(VERIFY_MARK, "KEEP")
    server.script(FINAL_MARK, json.dumps(FINAL))
    server.default_reply = "```json\n" + json.dumps(DIRECT) + "\n```"
    data = write_spatial(tmp_path / "st", [spatial_record("st-1"), spatial_record("st-2")])
    options = run_options(tmp_path, judge="offline")
    for strategy in ("direct", "staged", "guard"):
        eval_spatialtrust(data, MODEL, strategy=strategy, options=options)
    other = write_predictions(
        tmp_path / "other.jsonl", [{"id": "st-1", **FINAL}, {"id": "st-2", **FINAL}]
    )
    grade_spatialtrust(data, other, options=options)
    priviq = write_priviq(tmp_path / "pq", FOUR_ITEMS)
    for name in ("alpha", "beta"):
        answers = write_json(tmp_path / f"{name}.json", {k: f"{name} {k}" for k in FOUR_ITEMS})
        grade_priviq(priviq, answers, options=options)
    return tmp_path / "logs"


def _section(html: str, start: str, end: str) -> str:
    return html[html.index(start) : html.index(end)]


def test_report_of_strategy_variants(strategy_logs: Path, tmp_path: Path) -> None:
    html = build_report(
        [strategy_logs], tmp_path / "r.html", ReportSettings(n_boot=100)
    ).read_text()
    spatial = _section(html, '<section id="spatial"', 'id="spatial-samples"')
    model = MODEL
    # every run is named with its strategy: runs table, tables, legends' labels, browser
    for strategy in ("direct", "staged", "guard"):
        assert f"{model} [{strategy}]" in _section(
            html, 'id="runs"', '<p class="note"><sup>a</sup>'
        )
        assert '<option value="' in html and f">{model} [{strategy}]</option>" in html
    assert f'<tr><td>{model}<span class="sub file">' not in html  # no bare direct label
    legend = (tmp_path / "r_figures" / "spatial-tasks.svg").read_text()
    # (legend labels wrap: the strategy is a line of its own under the model)
    assert all(f"<!-- [{s}] -->" in legend for s in ("direct", "staged", "guard"))
    # Table 3 layout: the variants side by side, no average among them
    table3 = _section(spatial, f"Strategies of {model} (Table 3 layout)", "Comparisons")
    names = re.findall(r'<tr class="run"><td>([^<]+)', table3)
    assert names == ["direct", "+ staged", "+ guard"]
    assert "Average" not in table3 and table3.count('class="interval"') == 3 * 6
    # the Average of Table 2 is over models: the direct run and the other model
    assert (
        "Average of 2 models (one run each, the direct one where there is one; strategy"
        " variants left out)" in spatial
    )
    # Holm within families, each named
    assert "Family: strategies of one model · 3 pairs" in spatial
    assert "Family: model and strategy both differ · 3 pairs" in spatial
    assert "Family: models, same strategy · 1 pair," in _section(
        html, 'id="priviq"', 'id="spatial"'
    )
    # an invalid box's text is escaped exactly once
    browser = html[html.index('id="spatial-samples"') :]
    assert "&amp;lt;" not in html and "&amp;quot;" not in html and "&amp;#34;" not in html
    assert f'<span class="flag">invalid box</span> factor 0 {ESCAPED_ONCE}: ' in browser
    assert ESCAPED_ONCE in browser and HOSTILE not in html
    # score cells keep "1.00" on one line
    assert "white-space: nowrap" in html.split("table.mini td")[1].split("}")[0]
    assert '<span class="score-cell good">1.00</span>' in browser


def test_failure_columns_say_what_they_count(strategy_logs: Path, tmp_path: Path) -> None:
    html = build_report(
        [strategy_logs], tmp_path / "r.html", ReportSettings(n_boot=100)
    ).read_text()
    runs = _section(html, 'id="runs"', '<p class="note"><sup>a</sup>')
    assert "Parse failures" not in html
    assert "Unreadable judge replies<sup>a</sup>" in runs
    assert "Unreadable model answers<sup>b</sup>" in runs
    assert "<sup>a</sup> Unreadable judge replies: judge replies that gave no grade" in html
    # the direct run's q1 answer is no option: 2 images, one unreadable answer each
    results = load_results([strategy_logs])
    direct = results.runs[results.runs["strategy"] == "direct"].iloc[0]
    assert direct["unreadable_answers"] == 2 and direct["unreadable_judge_replies"] == 0
    row = runs[runs.index(f"{MODEL} [direct]") :].split("</tr>")[0]
    assert re.search(r'title="Unreadable model answers[^"]*">2<span class="sub">q1 2</span>', row)
    priviq = results.runs[results.runs["benchmark"] == "priviq"].iloc[0]
    assert pd.isna(priviq["unreadable_answers"])  # Priv-IQ answers are never unreadable


# --- --judge-temperature -----------------------------------------------------------------


def test_re_asks_start_from_the_judge_temperature() -> None:
    assert [attempt_temperature(a) for a in range(5)] == [0.0, 0.5, 1.0, 1.5, 2.0]
    assert [attempt_temperature(a, 0.7) for a in range(4)] == [0.7, 1.2, 1.7, 2.0]
    assert [attempt_temperature(a, 2.5) for a in range(2)] == [2.5, 2.5]


def test_judge_temperature_reaches_the_judge_and_the_report(
    server: LoopbackServer, tmp_path: Path
) -> None:
    server.script(JUDGE_PROMPT, "maybe", "0.8")  # first reply unreadable, the re-ask parses
    data = write_priviq(tmp_path / "data", {"a": FOUR_ITEMS["a"]})
    answers = write_json(tmp_path / "answers.json", {"a": "a bank card and a name"})
    options = run_options(tmp_path, generation=Generation(judge_temperature=0.7))
    run = grade_priviq(data, answers, options=options)
    judged = [r.body for r in server.requests if re.search(JUDGE_PROMPT, r.text)]
    assert [body["temperature"] for body in judged] == pytest.approx([0.7, 1.2])
    identity = RunIdentity.from_log(read_eval_log(run.log_location, header_only=True))
    assert identity.judge_temperature == pytest.approx(0.7)
    html = build_report(
        [tmp_path / "logs"], tmp_path / "r.html", ReportSettings(n_boot=50)
    ).read_text()
    runs = _section(html, 'id="runs"', '<p class="note"><sup>a</sup>')
    assert '<span class="sub">temperature 0.7 (sampling)</span>' in runs
    assert re.search(r'title="Unreadable judge replies[^"]*">1</td>', runs)


def test_default_judge_temperature_is_zero(server: LoopbackServer, tmp_path: Path) -> None:
    data = write_priviq(tmp_path / "data", {"a": FOUR_ITEMS["a"]})
    answers = write_json(tmp_path / "answers.json", {"a": "a card"})
    run = grade_priviq(data, answers, options=run_options(tmp_path))
    judged = [r.body for r in server.requests if re.search(JUDGE_PROMPT, r.text)]
    assert [body["temperature"] for body in judged] == [0.0]
    identity = RunIdentity.from_log(read_eval_log(run.log_location, header_only=True))
    assert identity.judge_temperature == 0.0


def test_cli_judge_temperature(tmp_path: Path) -> None:
    for command in (("grade", "priviq"), ("eval", "priviq"), ("grade", "spatialtrust"),
                    ("eval", "spatialtrust"), ("judge", "check")):  # fmt: skip
        shown = privbench(*command, "--help")
        assert "--judge-temperature" in shown.stdout, command
    offline = privbench(
        "grade", "priviq", "--predictions", tmp_path / "x.json", "--judge", "offline",
        "--judge-temperature", "0.5",
    )  # fmt: skip
    assert offline.returncode == 2
    assert "--judge-temperature: the offline judge has no temperature" in one_line_error(offline)
    negative = privbench("grade", "priviq", "--judge-temperature", "-1")
    assert negative.returncode == 2 and "--judge-temperature" in negative.stderr


def test_a_chosen_label_gets_its_strategy_unless_it_names_it() -> None:
    rows = [
        {"benchmark": "spatialtrust", "label": label, "strategy": strategy}
        for label, strategy in [
            ("a", "direct"),
            ("mine", "guard"),
            ("gpt-4o guard", "guard"),
            ("x [staged]", "staged"),
            ("guardian", "guard"),
        ]
    ]
    assert strategy_labels(rows) == {
        "a": "a [direct]",
        "mine": "mine [guard]",
        "guardian": "guardian [guard]",
    }
    # one strategy only: nothing to tell apart, labels as given
    assert strategy_labels([r for r in rows if r["strategy"] == "guard"]) == {}


def test_every_benchmark_fills_a_section_of_the_report() -> None:
    """The report renders each registered benchmark from its report section: one the page
    has no layout for, or one without published tables to match its paper tables, would
    leave the benchmark out of the report or misalign its published rows."""
    for name, suite in registry.SUITES.items():
        section = suite.cross_run.report
        assert section is not None, name
        assert section.layout in LAYOUTS, name
        assert suite.cross_run.paper_tables is not None, name
        if section.published_column is not None:
            published = published_tables(name)
            assert published, name
            renamed = {section.published_column(h) for t in published for h in t.columns}
            assert all(column for column in renamed), name
    # each item or image layout is filled by one benchmark (the page has one block for
    # each); the ``tables`` layout is a list of benchmarks
    layouts = [s.cross_run.report.layout for s in registry.SUITES.values() if s.cross_run.report]
    own = [layout for layout in layouts if layout != "tables"]
    assert len(own) == len(set(own))


def test_a_run_with_nothing_scored_is_drawn_as_not_available() -> None:
    """A run whose score is missing (a strategy with no scored image) gets an "n/a" bar
    label in the muted colour instead of stopping the report."""
    import pandas as pd

    from privbench.report.figures import MUTED, run_bars

    rows = pd.DataFrame(
        [
            {"run": "model (direct)", "score": 58.8, "low": 50.0, "high": 66.0},
            {"run": "model (guard)", "score": float("nan"), "low": None, "high": None},
        ]
    )
    figure = run_bars(rows, "score")
    labels = {text.get_text(): text.get_color() for text in figure.axes[0].texts}
    assert labels["n/a (nothing scored)"] == MUTED
    assert "58.8" in labels


def test_offline_caveat_names_each_benchmarks_own_rules() -> None:
    """A benchmark with offline rules of its own (PrivacyLens) gets its caveat, not the one
    of privbench's offline judge (whose agreement figures are Priv-IQ's)."""
    from typing import cast

    from privbench.report.html import OFFLINE_NOTE, RunRow, _offline_note
    from privbench.suites.privacylens.report_section import OFFLINE_NOTE as LENS_NOTE

    def row(benchmark: str, offline: bool) -> RunRow:
        return cast(RunRow, {"benchmark": benchmark, "offline": offline})

    assert _offline_note([row("PrivacyLens", True)]) == LENS_NOTE
    both = _offline_note([row("PrivacyLens", True), row("Priv-IQ", True), row("Priv-IQ", True)])
    assert both == f"{LENS_NOTE} {OFFLINE_NOTE}"
    assert _offline_note([row("PrivacyLens", False)]) == ""
