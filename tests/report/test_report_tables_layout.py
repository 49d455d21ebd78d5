"""A benchmark whose report section is its paper tables alone (the ``tables`` layout).

Why: a new benchmark should reach the report by declaring its tables, without a page
section written for it. The test gives Priv-IQ that declaration (its own tables, marked
lower-is-better with two decimals) and reads the page back.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import FOUR_ITEMS, run_options, write_json, write_priviq

from privbench import registry
from privbench.report.html import ReportSettings, build_report
from privbench.runtime.cross_run import ReportSection
from privbench.suites.priviq.api import grade_priviq


@pytest.fixture
def tables_priviq(monkeypatch: pytest.MonkeyPatch) -> None:
    suite = registry.get("priviq")
    paper = suite.cross_run.paper_tables
    assert paper is not None
    kinds = tuple(replace(kind, lower_is_better=True, decimals=2) for kind in paper.kinds)
    cross_run = replace(
        suite.cross_run,
        report=ReportSection(layout="tables"),
        paper_tables=replace(paper, kinds=kinds),
    )
    monkeypatch.setattr(
        registry, "SUITES", {**registry.SUITES, "priviq": replace(suite, cross_run=cross_run)}
    )


def _section(html: str, anchor: str) -> str:
    start = html.index(f'<section id="{anchor}">')
    return html[start : html.index("</section>", start)]


def test_a_benchmark_is_shown_by_its_declared_tables(tables_priviq: None, tmp_path: Path) -> None:
    data = write_priviq(tmp_path / "data", FOUR_ITEMS)
    for name, answer in (("strong", "Yes, a bank card and a name"), ("empty", "")):
        answers = write_json(tmp_path / f"{name}.json", dict.fromkeys(FOUR_ITEMS, answer))
        grade_priviq(data, answers, options=run_options(tmp_path, judge="offline"))
    out = build_report([tmp_path / "logs"], tmp_path / "r.html", ReportSettings(n_boot=100))
    section = _section(out.read_text(), "priviq")
    assert "Dataset: data" in section
    assert "Priv-IQ scores by competency (Priv-IQ Table 3 layout)" in section
    assert "Comparisons (paired, same items)" in section and "<td>strong</td>" in section
    scores = re.findall(r'<span class="score">([^<]+)</span>', section)
    assert scores and all(s == "–" or re.fullmatch(r"\d+\.\d\d", s) for s in scores)
    # the best mark follows the declared direction: the lower Total (the last cell) is best
    first = section[section.index('<table class="scores">') : section.index("</table>")]
    rows = {
        m[1]: re.findall(r'<td class="(best)?"><span class="score">', m[2])
        for m in re.finditer(r'<tr class="run"><td>(\w+)</td>(.*?)</tr>', first, flags=re.S)
    }
    assert rows["empty"][-1] == "best" and rows["strong"][-1] == ""
    assert (tmp_path / "r_figures" / "priviq-totals.png").is_file()
    assert 'href="#priviq"' in out.read_text()


def test_the_best_run_of_a_lower_is_better_column_is_the_lowest() -> None:
    from privbench.analysis.table_formats import best_runs

    scores = {"a": 12.0, "b": 40.0, "c": None}
    assert best_runs(scores, ["a", "b", "c"]) == {"b"}
    assert best_runs(scores, ["a", "b", "c"], lowest=True) == {"a"}
    assert best_runs({"a": 0.13, "b": 0.12}, ["a", "b"], decimals=2) == {"a"}
    assert best_runs({"a": 0.13, "b": 0.12}, ["a", "b"], decimals=1) == set()
