"""Paper tables as LaTeX, Markdown and CSV (``show --format``, ``report --tables``).

Logs come from the offline pipeline (offline judge; SpatialTrust predictions scored by
IoU and the offline judge), so the tests need no server. Every number a formatted table
shows is checked against the frames of ``privbench.analysis.paper_tables`` computed here
from the same logs with the same seed: the expected values are recomputed, never copied.
LaTeX is checked without a TeX engine: column counts, balanced braces, escapes, booktabs
rules, bold on the column maxima.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import (
    PERFECT,
    item,
    one_line_error,
    privbench,
    run_options,
    spatial_record,
    write_json,
    write_predictions,
    write_priviq,
    write_spatial,
)

from privbench.analysis.groups import DatasetGroup
from privbench.analysis.paper_tables import OVERALL, TOTAL
from privbench.analysis.runs import load_results
from privbench.analysis.table_formats import (
    CSV_COLUMNS,
    PaperTable,
    Resampling,
    best_runs,
    latex_escape,
    log_tables,
    markdown_escape,
    paper_table,
    render,
    to_csv,
    to_latex,
    to_markdown,
)
from privbench.formatting import fmt
from privbench.report.html import ReportSettings, build_report
from privbench.runtime.errors import UsageError
from privbench.suites.priviq.api import grade_priviq
from privbench.suites.priviq.competencies import COMPETENCIES
from privbench.suites.priviq.cross_run import TABLE3
from privbench.suites.priviq.paper_tables import priviq_tables
from privbench.suites.spatialtrust.aggregate import TASK_LABELS, TASKS
from privbench.suites.spatialtrust.api import grade_spatialtrust
from privbench.suites.spatialtrust.paper_tables import spatial_table

NASTY = "we_ird%&#$ {x}~^\\model"
"""A model label with every character LaTeX reads as markup."""
ITEMS = {
    "a": item("Is there a card?", "Yes, a bank card and a name", ["VizPriv", "CntxPriv"]),
    "b": item("Which law applies?", "GDPR Article 33", ["Law"]),
    "c": item("List the entities.", "Maria (person) <OR> Acme (organization)", ["NER"]),
    "d": item("Linkage risk?", "Yes, Doug is re-identified", ["PrivRisk", "Know", "CntxPriv"]),
    "e": item("Which law governs health data?", "HIPAA", ["Law"]),
    "f": item("Whose name is shown?", "Maria Lopez", ["NER", "VizPriv"]),
}
MIXED = {"a": "Yes, a bank card and a name", "b": "no idea", "c": "Maria", "d": "No.",
         "e": "HIPAA", "f": "nobody"}  # fmt: skip


@dataclass(frozen=True)
class Logs:
    priviq: list[Path]
    spatial: list[Path]
    root: Path


def _run_logs(root: Path) -> Logs:
    data = write_priviq(root / "data", ITEMS)
    answers = {
        "good": {k: v["answer"] for k, v in ITEMS.items()},
        NASTY: MIXED,
        "poor": dict.fromkeys(ITEMS, "I cannot tell."),
    }
    priviq = []
    for name, given in answers.items():
        path = write_json(root / f"{name}.json", given)  # a grading run's label: the file's stem
        options = run_options(root, judge="offline", log_dir=str(root / "priviq-logs"))
        run = grade_priviq(data, path, options=options, out_dir=root / "x")
        priviq.append(Path(run.log_location))
    spatial_data = write_spatial(root / "st", [spatial_record(f"st-{i}") for i in range(1, 4)])
    wrong_q1 = {**PERFECT, "q1": "B"}
    predictions: dict[str, list[dict[str, object]]] = {
        "exact": [{"id": f"st-{i}", **PERFECT} for i in range(1, 4)],
        "guess_[2]": [{"id": "st-1", **PERFECT}, {"id": "st-2", **wrong_q1},
                      {"id": "st-3", **wrong_q1}],
    }  # fmt: skip
    spatial = []
    for name, records in predictions.items():
        path = write_predictions(root / f"{name}.jsonl", records)
        options = run_options(root, judge="offline", log_dir=str(root / "spatial-logs"))
        graded = grade_spatialtrust(spatial_data, path, options=options)
        spatial.append(Path(graded.log_location))
    return Logs(priviq, spatial, root)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Logs]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INSPECT_DISPLAY", "none")
        patch.setenv("PRIVBENCH_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        yield _run_logs(tmp_path_factory.mktemp("tables"))


def _expected_priviq(paths: list[Path], seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    results = load_results(paths)
    return priviq_tables(results.priviq, np.random.default_rng(seed))


def _expected_spatial(paths: list[Path], seed: int = 0) -> pd.DataFrame:
    results = load_results(paths)
    return spatial_table(results.spatial, np.random.default_rng(seed))


def _maxima(frame: pd.DataFrame) -> dict[str, set[str]]:
    """Per column, the runs whose printed score is the column's top (all runs are full
    runs over the same items here, so all are ranked); none when all print the same."""
    best: dict[str, set[str]] = {}
    for column, rows in frame.groupby("column"):
        shown = {str(r): fmt(float(s)) for r, s in zip(rows["run"], rows["score"], strict=True)}
        top = max(shown.values(), key=float)
        tied = {r for r, s in shown.items() if s == top}
        best[str(column)] = set() if len(set(shown.values())) == 1 else tied
    return best


# --- a LaTeX-free structural check --------------------------------------------------------

UNESCAPED_AMP = re.compile(r"(?<!\\)&")


def _split_row(line: str) -> list[str]:
    assert line.endswith(r" \\"), line
    return [cell.strip() for cell in UNESCAPED_AMP.split(line[: -len(r" \\")])]


def check_latex(text: str) -> tuple[list[str], list[list[str]]]:
    """Assert the fragment's structure; return the header cells and the body rows."""
    spec = re.search(r"\\begin\{tabular\}\{([lcr]+)\}", text)
    assert spec, text
    width = len(spec.group(1))
    for command in (r"\toprule", r"\midrule", r"\bottomrule", r"\caption{", r"\label{tab:"):
        assert command in text
    assert r"\begin{table}" in text and r"\end{table}" in text
    depth = 0
    for match in re.finditer(r"(?<!\\)[{}]", text):  # braces balance, never close early
        depth += 1 if match.group() == "{" else -1
        assert depth >= 0
    assert depth == 0
    body = text[text.index(r"\toprule") : text.index(r"\bottomrule")]
    rows = [
        _split_row(line)
        for line in body.splitlines()
        if line.strip() and not line.startswith(("\\toprule", "\\midrule"))
    ]
    assert all(len(row) == width for row in rows), (width, rows)
    # the tabular goes through a macro a document may define (to scale it); identity here
    assert "\\providecommand{\\privbenchfit}[1]{#1}\n\\privbenchfit{%\n\\begin{tabular}" in text
    assert "\\end{tabular}}\n\\end{table}" in text
    # past the comment line, no LaTeX special is left bare (math: only $n$ and $\times$)
    rest = text.split("\n", 1)[1].replace("$n$", "").replace("$\\times$", "")
    rest = rest.replace("[1]{#1}", "").replace("\\privbenchfit{%", "")
    assert not re.search(r"(?<!\\)[%#$_^~]", rest), rest
    return rows[0], rows[1:]


LATEX_CELL = re.compile(
    r"^(?:\\textbf\{(?P<bold>[\d.]+)\}|(?P<plain>[\d.]+))"
    r"\\,\{\\scriptsize\[(?P<low>[\d.]+), (?P<high>[\d.]+)\](?: n=(?P<n>\d+))?\}$"
)


def _latex_values(
    table: list[list[str]], header: list[str]
) -> dict[tuple[str, str], dict[str, str]]:
    values = {}
    for row in table:
        if row[0] == "$n$":
            continue
        for name, cell in zip(header[1:], row[1:], strict=True):
            match = LATEX_CELL.match(cell)
            assert match, cell
            values[(row[0], name)] = match.groupdict()
    return values


def _check_against(
    values: dict[tuple[str, str], dict[str, str]],
    frame: pd.DataFrame,
    headers: dict[str, str],
    labels: dict[str, str],
) -> None:
    best = _maxima(frame)
    assert len(values) == len(frame)
    for row in frame.to_dict("records"):
        shown = values[(labels[row["run"]], headers[row["column"]])]
        score = shown["bold"] or shown["plain"]
        assert score == fmt(row["score"])
        assert (shown["low"], shown["high"]) == (fmt(row["low"]), fmt(row["high"]))
        assert bool(shown["bold"]) == (row["run"] in best[row["column"]]), row


# --- pure rules ------------------------------------------------------------------------


def test_best_runs_ties_all_bold_single_run_and_all_equal_none() -> None:
    ranked = ["a", "b", "c"]
    assert best_runs({"a": 70.0, "b": 80.0, "c": 80.0}, ranked) == {"b", "c"}
    assert best_runs({"a": 70.0, "b": 80.04, "c": 79.96}, ranked) == {"b", "c"}  # both "80.0"
    assert best_runs({"a": 70.0, "b": 80.06, "c": 79.96}, ranked) == {"b"}  # "80.1" > "80.0"
    assert best_runs({"a": 55.0}, ["a"]) == set()  # one run is best of nothing
    assert best_runs({"a": 90.0, "b": 90.0}, ["a", "b"]) == set()  # nothing stands out
    assert best_runs({"a": 90.0, "b": None, "c": 10.0}, ranked) == {"a"}
    assert best_runs({"a": 90.0, "b": None}, ["a", "b"]) == set()
    # a run that is not ranked (a --limit run) is never best, even when higher
    assert best_runs({"a": 50.0, "b": 60.0, "lim": 99.0}, ["a", "b"]) == {"b"}


def test_latex_escape_every_special_character() -> None:
    escaped = latex_escape(NASTY + " <|> · – ×")
    assert escaped == (
        r"we\_ird\%\&\#\$ \{x\}\textasciitilde{}\textasciicircum{}\textbackslash{}model"
        r" \textless{}\textbar{}\textgreater{} \textperiodcentered{} -- $\times$"
    )
    assert markdown_escape("a|b*c_d\n[e]") == r"a\|b\*c\_d \[e\]"


def _group(runs: list[str], averaged: list[str], limits: dict[str, int]) -> DatasetGroup:
    return DatasetGroup(
        dataset_hash="abc123",
        data="/x/suite",
        runs=runs,
        partitions=[runs],
        averaged=averaged,
        limits=limits,
        n_items=dict.fromkeys(runs, 4),
    )


def test_layout_of_a_hand_made_frame_limit_run_never_bold_own_n_shown() -> None:
    rows = [
        ("a", "NER", 50.0, 40.0, 60.0, 4), ("b", "NER", 75.0, 50.0, 100.0, 4),
        ("lim · limit 2", "NER", 100.0, 100.0, 100.0, 2),
        ("a", TOTAL, 62.5, 50.0, 75.0, 8), ("b", TOTAL, 62.5, 40.0, 80.0, 8),
        ("lim · limit 2", TOTAL, 90.0, 80.0, 100.0, 2),
        ("a", "VizPriv", None, None, None, 0), ("b", "VizPriv", 10.0, 0.0, 20.0, 1),
    ]  # fmt: skip
    frame = pd.DataFrame(rows, columns=["run", "column", "score", "low", "high", "n"])
    runs = ["a", "b", "lim · limit 2"]
    table = paper_table(TABLE3, frame, _group(runs, ["a", "b"], {"lim · limit 2": 2}), index=1)
    assert table.name == "table3-d2" and table.label == "tab:priviq-table3-d2"
    assert table.columns == ("VizPriv", "NER", TOTAL)  # canonical order, Total last
    assert table.counts == {"VizPriv": 1, "NER": 4, TOTAL: 8}
    latex = to_latex(table)
    header, body = check_latex(latex)
    assert header == ["Run", "VizPriv", "NER", "Total"]
    by_run = {row[0]: row[1:] for row in body}
    assert by_run["b"][1] == r"\textbf{75.0}\,{\scriptsize[50.0, 100.0]}"
    assert (
        by_run["lim \\textperiodcentered{} limit 2"][1] == r"100.0\,{\scriptsize[100.0, 100.0] n=2}"
    )
    assert by_run["a"][0] == "--"  # nothing scored: a dash, never 0
    assert by_run["b"][2] == r"62.5\,{\scriptsize[40.0, 80.0]}"  # a tie of all ranked runs
    assert by_run["$n$"] == ["1", "4", "8"]
    # only b and a have VizPriv cells, one of them unscored: b is best of one, not bold
    assert not by_run["b"][0].startswith(r"\textbf")
    markdown = to_markdown(table)
    assert "| b | 10.0 [0.0, 20.0] | **75.0** [50.0, 100.0] | 62.5 [40.0, 80.0] |" in markdown
    assert "| a | – | 50.0 [40.0, 60.0] | 62.5 [50.0, 75.0] |" in markdown
    assert "| lim · limit 2 | – | 100.0 [100.0, 100.0] n=2 | 90.0 [80.0, 100.0] n=2 |" in markdown
    lines = markdown.strip().splitlines()[2:]
    assert {line.count("|") for line in lines} == {len(table.columns) + 2}
    parsed = list(csv.DictReader(io.StringIO(to_csv([table]))))
    assert tuple(parsed[0]) == CSV_COLUMNS
    assert len(parsed) == len(frame)
    vizpriv_a = next(r for r in parsed if r["run"] == "a" and r["column"] == "VizPriv")
    assert (vizpriv_a["score"], vizpriv_a["low"], vizpriv_a["n"]) == ("", "", "0")


# --- from real logs ---------------------------------------------------------------------


def test_priviq_tables_match_the_frames_in_every_format(logs: Logs) -> None:
    table3, table5 = _expected_priviq(logs.priviq)
    assert table3["score"].nunique() > 2  # the runs differ: there is a best to mark
    tables, notes = log_tables(logs.priviq)
    assert [t.name for t in tables] == ["table3", "table5"]
    assert any("offline judge" in note for note in notes)
    labels = {run: latex_escape(run) for run in table3["run"]}
    for table, frame in zip(tables, (table3, table5), strict=True):
        latex = to_latex(table)
        header, body = check_latex(latex)
        assert header[1:] == list(table.headers)
        if table.kind is TABLE3:
            codes = [c for c in COMPETENCIES if c in set(frame["column"])]
            assert header[1:] == [*codes, TOTAL]
        headers = {c: c for c in frame["column"]}
        _check_against(_latex_values(body, header), frame, headers, labels)
        assert latex_escape(NASTY) in latex and NASTY not in latex
        counts = dict(zip(header[1:], body[-1][1:], strict=True))
        for column, rows in frame.groupby("column"):
            assert counts[str(column)] == str(int(rows["n"].max()))
        # markdown: the same numbers, bold the same cells
        markdown = to_markdown(table)
        md_rows = [
            [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            for line in markdown.splitlines()
            if line.startswith("| ")
        ]
        md_header = md_rows[0]
        assert markdown.splitlines()[3].count("---") == len(md_header)
        md_values = {}
        for row in md_rows[1:-1]:
            for name, cell in zip(md_header[1:], row[1:], strict=True):
                match = re.match(r"^(?:\*\*(?P<bold>[\d.]+)\*\*|(?P<plain>[\d.]+)) "
                                 r"\[(?P<low>[\d.]+), (?P<high>[\d.]+)\]$", cell)  # fmt: skip
                assert match, cell
                md_values[(row[0], name)] = match.groupdict()
        _check_against(
            md_values, frame, {c: markdown_escape(c) for c in frame["column"]},
            {r: markdown_escape(r) for r in frame["run"]},
        )  # fmt: skip
        # csv: the frame's own numbers, not strings rounded for print
        parsed = list(csv.DictReader(io.StringIO(to_csv([table]))))
        assert len(parsed) == len(frame)
        expected = {(r["run"], r["column"]): r for r in frame.to_dict("records")}
        best = _maxima(frame)
        for line in parsed:
            want = expected[(line["run"], line["column"])]
            assert float(line["score"]) == want["score"]
            assert (float(line["low"]), float(line["high"])) == (want["low"], want["high"])
            assert int(line["n"]) == want["n"] and float(line["std"]) == want["std"]
            assert line["best"] == ("1" if line["run"] in best[line["column"]] else "0")


def test_spatial_table_matches_the_frame_with_task_columns(logs: Logs) -> None:
    frame = _expected_spatial(logs.spatial)
    tables, _ = log_tables(logs.spatial)
    assert [t.name for t in tables] == ["table2"]
    latex = to_latex(tables[0])
    header, body = check_latex(latex)
    names = {name: TASK_LABELS[name] for _, name in TASKS} | {OVERALL: "Overall"}
    assert header[1:] == [names[name] for _, name in TASKS] + ["Overall"]
    _check_against(
        _latex_values(body, header), frame, names, {r: latex_escape(r) for r in frame["run"]}
    )
    assert r"guess\_[2]" in latex
    assert "images" in tables[0].caption
    parsed = list(csv.DictReader(io.StringIO(render(tables, "csv"))))
    assert {r["column"] for r in parsed} == {name for _, name in TASKS} | {OVERALL}
    assert all(r["std"] == "" for r in parsed)  # no judge runs in SpatialTrust


def test_show_format_prints_one_table_of_several_logs(logs: Logs) -> None:
    result = privbench("show", *logs.priviq, "--format", "csv")
    assert result.returncode == 0, result.stderr
    parsed = list(csv.DictReader(io.StringIO(result.stdout)))
    table3, table5 = _expected_priviq(logs.priviq)
    assert len(parsed) == len(table3) + len(table5)
    assert {r["table"] for r in parsed} == {"table3", "table5"}
    runs = list(dict.fromkeys(r["run"] for r in parsed))
    assert runs == ["good", NASTY, "poor"]  # the order the logs were given
    total = {r["run"]: float(r["score"]) for r in parsed if r["column"] == TOTAL}
    expected = table3[table3["column"] == TOTAL].set_index("run")["score"]
    assert total == expected.to_dict()
    latex = privbench("show", *logs.priviq, "--format", "latex")
    assert latex.returncode == 0, latex.stderr
    assert latex.stdout.count(r"\begin{tabular}") == 2
    assert "note: scores by privbench's offline judge" in latex.stderr


def test_show_format_errors_are_one_line(logs: Logs, tmp_path: Path) -> None:
    mixed = privbench("show", logs.priviq[0], logs.spatial[0], "--format", "markdown")
    assert mixed.returncode == 2
    line = one_line_error(mixed)
    assert "mix benchmarks" in line and logs.priviq[0].name in line
    assert logs.spatial[0].name in line
    unknown = privbench("show", logs.priviq[0], "--format", "html")
    assert unknown.returncode == 2 and "--format html" in one_line_error(unknown)
    both = privbench("show", logs.priviq[0], "--format", "csv", "--json")
    assert both.returncode == 2 and "--json" in one_line_error(both)


def test_show_format_out_writes_files_and_keeps_existing_ones(logs: Logs, tmp_path: Path) -> None:
    out = tmp_path / "tables"
    first = privbench("show", *logs.spatial, "--format", "latex", "--out", out)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == f"table: {out / 'table2.tex'}"
    check_latex((out / "table2.tex").read_text(encoding="utf-8"))
    again = privbench("show", *logs.spatial, "--format", "latex", "--out", out)
    assert again.returncode == 2 and "--overwrite" in one_line_error(again)
    replaced = privbench("show", *logs.spatial, "--format", "latex", "--out", out, "--overwrite")
    assert replaced.returncode == 0, replaced.stderr


def test_show_several_logs_without_format(logs: Logs) -> None:
    text = privbench("show", *logs.spatial)
    assert text.returncode == 0, text.stderr
    assert text.stdout.count("== ") == 2 and "exact" in text.stdout and "guess_[2]" in text.stdout
    document = privbench("show", *logs.spatial, "--json")
    assert document.returncode == 0, document.stderr
    shown = json.loads(document.stdout)
    assert [d["benchmark"] for d in shown["logs"]] == ["spatialtrust", "spatialtrust"]
    out = privbench("show", *logs.spatial, "--out", logs.root / "exports")
    assert out.returncode == 2 and "--out" in one_line_error(out)


def test_report_tables_equal_the_reports_frames(logs: Logs, tmp_path: Path) -> None:
    directory = tmp_path / "tables"
    (directory).mkdir()
    (directory / "table3-d2.tex").write_text("stale", encoding="utf-8")
    (directory / "notes.txt").write_text("mine", encoding="utf-8")
    settings = ReportSettings(n_boot=200, seed=3, browse=0, tables=directory)
    build_report(logs.priviq, tmp_path / "report.html", settings)
    names = sorted(p.name for p in directory.iterdir())
    assert names == sorted(
        [f"table{n}{s}" for n in (3, 5) for s in (".tex", ".md", ".csv")] + ["notes.txt"]
    )
    # the report draws Table 3 and 5 first from its seeded generator: recomputed here
    results = load_results(logs.priviq)
    table3, table5 = priviq_tables(results.priviq, np.random.default_rng(3), 200)
    for name, frame in (("table3", table3), ("table5", table5)):
        parsed = list(csv.DictReader(io.StringIO((directory / f"{name}.csv").read_text())))
        got = {(r["run"], r["column"]): (float(r["low"]), float(r["high"])) for r in parsed}
        want = {
            (r, c): (lo, hi)
            for r, c, lo, hi in zip(frame["run"], frame["column"], frame["low"], frame["high"],
                                    strict=True)
        }  # fmt: skip
        assert got == want and len(parsed) == len(frame)
        assert list(dict.fromkeys(r["run"] for r in parsed)) == results.labels("priviq")
        caption = (directory / f"{name}.tex").read_text(encoding="utf-8")
        assert "200 resamples, seed 3" in caption
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    total = table3[table3["column"] == TOTAL].iloc[0]
    assert f"[{fmt(total['low'])}, {fmt(total['high'])}]" in html  # the report shows the same


def test_report_cli_tables_for_both_benchmarks(logs: Logs, tmp_path: Path) -> None:
    result = privbench(
        "report", *logs.priviq, *logs.spatial, "-o", tmp_path / "r.html",
        "--tables", tmp_path / "t", "--bootstrap", "100", "--browse", "0",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert f"tables: {tmp_path / 't'}" in result.stdout
    assert {p.stem for p in (tmp_path / "t").iterdir()} == {"table2", "table3", "table5"}
    assert len(list((tmp_path / "t").iterdir())) == 9


def test_render_rejects_an_unknown_format() -> None:
    table = PaperTable(TABLE3, "table3", "d", "", Resampling(), (), (TOTAL,), (TOTAL,), {},
                       {TOTAL: 0})  # fmt: skip
    with pytest.raises(UsageError, match="--format rtf"):
        render([table], "rtf")
