"""The HTML report as a user sees it, in headless Chromium (Debian's, driven by Playwright).

The report is built from real graded logs (loopback judge): two Priv-IQ runs over the same
four items, one of them hostile (script and markup in every answer), and one SpatialTrust
run with predicted boxes. The Chromium test measures what a reader would notice: no
horizontal overflow at 1280 and 1400 px, every figure loaded, both box sets drawn on the
SpatialTrust card, no console error, no request leaving the file; it writes screenshots of
the top, a Priv-IQ card and a SpatialTrust card to a folder it prints.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest
from helpers import (
    FOUR_ITEMS,
    JUDGE_MARK,
    PERFECT,
    VERDICT,
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
from PIL import Image

from privbench.analysis.runs import load_results
from privbench.formatting import signed
from privbench.report.browser import CHROMIUM_FLAGS, find_chromium
from privbench.report.html import ReportSettings, build_report, scripts_present
from privbench.report.samples import Overlay, stack_labels
from privbench.runtime.errors import UsageError
from privbench.suites.priviq.api import grade_priviq
from privbench.suites.spatialtrust.api import grade_spatialtrust

CHROMIUM = find_chromium()
SCRIPT_ATTACK = "<script>document.body.dataset.pwned = 'script'</script>"
IMG_ATTACK = "<img src=x onerror=\"document.body.dataset.pwned = 'img'\">"
RUNS_LAYOUT = """() => Array.from(document.querySelectorAll('#runs table.runs')).map(t => ({
  width: t.getBoundingClientRect().width,
  room: t.parentElement.clientWidth,
  cut: Array.from(t.querySelectorAll('td, th'))
    .filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent.trim().slice(0, 60)),
  rows: Array.from(t.rows).slice(1).map(r => r.getBoundingClientRect().height),
  line: parseFloat(getComputedStyle(t).lineHeight),
}))"""
"""Per runs table: its width and its container's, cells whose content is cut, row heights
and the line height (px)."""
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)"
)


@pytest.fixture
def report(server: LoopbackServer, tmp_path: Path) -> Path:
    server.script(JUDGE_MARK, VERDICT)
    server.default_reply = "0.6"
    data = write_priviq(tmp_path / "data", FOUR_ITEMS)
    honest = write_json(  # a long model name, as a local server names it
        tmp_path / "openai-api-local-Qwen2.5-VL-72B-Instruct-AWQ-honest.json",
        {k: f"answer {k}" for k in FOUR_ITEMS},
    )
    hostile = write_json(
        tmp_path / "hostile.json",
        {k: f"{SCRIPT_ATTACK} {IMG_ATTACK} </pre></div><b>bold</b> {k}" for k in FOUR_ITEMS},
    )
    for answers in (honest, hostile):
        grade_priviq(data, answers, options=run_options(tmp_path, judge_runs=2))
    spatial = write_spatial(tmp_path / "st", [spatial_record("st-1"), spatial_record("st-2")])
    hostile_q4 = {
        **PERFECT,
        "q4": {
            "text": SCRIPT_ATTACK,
            "factors": [{"name": IMG_ATTACK, "why": "x", "box": [10, 10, 50, 50]}],
        },
    }
    predictions = write_predictions(
        tmp_path / "preds.jsonl", [{"id": "st-1", **PERFECT}, {"id": "st-2", **hostile_q4}]
    )
    grade_spatialtrust(spatial, predictions, options=run_options(tmp_path))
    return build_report([tmp_path / "logs"], tmp_path / "report.html", ReportSettings(n_boot=200))


def test_report_is_self_contained_and_escapes_text(report: Path) -> None:
    html = report.read_text()
    assert SCRIPT_ATTACK not in html and IMG_ATTACK not in html
    assert "&lt;script&gt;document.body.dataset.pwned" in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
    assert not re.search(r"@import|url\(\s*['\"]?https?:", html)  # no web fonts, no fetches
    assert "default-src 'none'" in html
    figures = report.with_name("report_figures")
    assert (figures / "priviq-totals.png").exists() and (figures / "priviq-totals.svg").exists()
    assert (figures / "spatial-tasks.svg").exists()


def test_figures_are_print_quality_and_captioned(report: Path) -> None:
    html = report.read_text()
    figures = sorted(report.with_name("report_figures").glob("*.png"))
    assert len(figures) >= 6
    for png in figures:
        with Image.open(png) as image:
            dpi = image.info["dpi"]
            assert min(dpi) >= 199.5, (png.name, dpi)
            assert png.with_suffix(".svg").exists()
    captions = re.findall(r"<figcaption><strong>Figure (\d+)\. ([^<]+)</strong>([^<]*)", html)
    assert [int(n) for n, _, _ in captions] == list(range(1, len(captions) + 1))
    assert len(captions) == html.count("<figure ")
    assert all("mirrors " in rest or "no paper counterpart" in rest for _, _, rest in captions)
    assert "mirrors Priv-IQ Fig. 5" in html and "mirrors Priv-IQ Fig. 10" in html


def test_layout_rules_in_the_html(report: Path) -> None:
    html = report.read_text()
    # two runs over the same items: Average row over both; judge runs shown as std
    assert "Average of 2 runs" in html
    assert "its std over 2 judge runs" in html
    # the runs: a table per benchmark; the judge's agreement a short cell, its sentence on
    # hover and as the table's numbered note
    start = html.index('<section id="runs"')
    runs = html[start : html.index("</section>", start)]
    assert runs.count('<table class="runs runs-') == 2 and "<th>Benchmark</th>" not in runs
    sentence = "judge not checked (privbench judge check --judge JUDGE measures it)"
    assert f'title="{sentence}">not checked<sup><a href="#agreement-priviq-1">1</a>' in runs
    assert f'<li id="agreement-priviq-1">{sentence}</li>' in runs
    assert f'<li id="agreement-spatialtrust-1">{sentence}</li>' in runs
    # the single SpatialTrust run has no Average row, no best marking, no comparison
    spatial = html[html.index('<section id="spatial"') : html.index('id="spatial-samples"')]
    assert "Average of" not in spatial and 'class="best"' not in spatial
    assert "One run on this dataset: nothing to compare." in spatial
    # the font stack names CJK, Arabic and Cyrillic-capable system families; no web font
    for family in ('"Noto Sans CJK JP"', '"Microsoft YaHei"', '"Noto Sans Arabic"', "Tahoma"):
        assert family in html
    # each distinct image is embedded once
    assert html.count("data:image/webp") + html.count("data:image/jpeg") == 4 + 2


def test_scripts_needing_fonts_are_named() -> None:
    assert scripts_present(["plain", "東京の個人情報", "Привет", "بيانات"]) == [
        "CJK (Chinese, Japanese, Korean)",
        "Arabic",
        "Cyrillic",
    ]
    assert scripts_present(["only Latin, café"]) == []


def test_labels_of_boxes_at_one_place_are_stacked() -> None:
    box: Overlay = {"tx": 10.0, "ty": 20.0, "anchor": "start", "kind": "truth"}
    stacked = stack_labels([dict(box), dict(box), {**box, "tx": 99.0}], scale=0.5)
    assert [b["ty"] for b in stacked] == pytest.approx([20.0, 20.0 + 1.2 * 13 / 0.5, 20.0])


@needs_chromium
def test_report_in_headless_chromium(report: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from playwright.sync_api import sync_playwright

    shots = report.with_name("screenshots")
    shots.mkdir(exist_ok=True)
    problems: list[str] = []
    requests: list[str] = []
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        browser = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True
        )
        for width in (1280, 1400):
            page = browser.new_page()
            page.set_viewport_size({"width": width, "height": 900})
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.on("request", lambda request: requests.append(request.url))
            page.goto(report.as_uri())
            page.wait_for_load_state("load")
            assert page.evaluate("document.body.dataset.ready") == "1"  # the page's script ran
            assert page.evaluate("document.body.dataset.pwned") is None  # no injected one did
            overflow = page.evaluate("document.documentElement.scrollWidth")
            assert overflow <= width, f"page is {overflow} px wide at a {width} px window"
            sizes = page.evaluate(
                "Array.from(document.querySelectorAll('figure img'))"
                ".map(i => [i.alt, i.complete, i.naturalWidth])"
            )
            assert len(sizes) >= 6
            assert all(complete and natural > 0 for _, complete, natural in sizes), sizes
            for table in page.evaluate(RUNS_LAYOUT):  # the runs tables fit, rows stay short
                assert table["width"] <= table["room"] and table["cut"] == [], table
                assert max(table["rows"]) <= 8 * table["line"], table
            page.close()
        page = browser.new_page()
        page.set_viewport_size({"width": 1400, "height": 900})
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.goto(report.as_uri())
        page.wait_for_load_state("load")
        page.screenshot(path=str(shots / "top.png"))
        assert page.locator("text=<script>document.body.dataset.pwned").count() > 0
        assert page.locator("b", has_text="bold").count() == 0
        # the SpatialTrust card: one image, ground truth and prediction boxes both drawn
        card = page.locator(".spatial-card").first
        assert card.locator("svg.picture").count() == 1
        picture = card.locator("svg.picture").bounding_box()
        assert picture is not None and picture["width"] >= 640
        for kind in ("truth", "pred"):
            boxes = card.locator(f"g.{kind} rect")
            assert boxes.count() > 0 and boxes.first.is_visible()
            first = boxes.first.bounding_box()
            assert first is not None and first["width"] > 5 and first["height"] > 5
            label = card.locator(f"g.{kind} text").first.bounding_box()
            assert label is not None and label["height"] >= 12  # legible on screen
        # per-question toggles hide and show boxes
        page.uncheck("input[data-toggle=q2]")
        assert not card.locator("g.truth.box-q2 rect").first.is_visible()
        assert card.locator("g.truth.box-q3 rect").first.is_visible()
        page.check("input[data-toggle=q2]")
        assert card.locator("g.truth.box-q2 rect").first.is_visible()
        page.locator(".priviq-card").first.screenshot(path=str(shots / "priviq-card.png"))
        card.screenshot(path=str(shots / "spatial-card.png"))
        # the filter works across pages
        page.fill("input[data-filter=priviq-card]", "Which law")
        assert page.locator(".priviq-card:not(.hidden)").count() == 1
        browser.close()
    assert problems == []
    assert all(url.startswith(("file:", "data:")) for url in requests), requests
    assert all((shots / name).stat().st_size > 10_000 for name in ("top.png", "spatial-card.png"))
    with capsys.disabled():
        print(f"\nreport screenshots: {shots}")


def test_skipped_logs_are_named_with_why(report: Path, tmp_path: Path) -> None:
    """Logs of judge check and of other tasks in the folder: the note says which and why."""
    folder = tmp_path / "mixed"
    run = next((tmp_path / "logs").glob("*priviq*.eval"))
    folder.mkdir(exist_ok=True)
    shutil.copy(run, folder / run.name)
    log = read_eval_log(str(run))
    for n in range(4):
        checked = log.model_copy(deep=True)
        checked.eval.metadata = {**(log.eval.metadata or {}), "judge_check": "priviq"}
        write_eval_log(checked, str(folder / f"check-{n}.eval"))
    other = log.model_copy(deep=True)
    other.eval.task, other.eval.metadata, other.results = "my_task", {}, None
    write_eval_log(other, str(folder / "mine.eval"))
    notes = load_results([folder]).notes
    skipped = next(note for note in notes if note.startswith("Skipped 5 inspect log(s)"))
    assert (
        "4 of privbench judge check" in skipped
        and "check-0.eval, check-1.eval, check-2.eval, …" in skipped
    )
    assert "1 of task my_task: mine.eval" in skipped


def test_report_cli(report: Path, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    (logs / "eval-set.json").write_text('{"eval_set_id": "x"}')  # an eval-set folder's index
    (logs / "logs.json").write_text("{}")
    (logs / "notes.txt").write_text("not a log")
    out = tmp_path / "cli.html"
    result = privbench("report", logs, "-o", out, "--bootstrap", "100", "--browse", "1")
    assert result.returncode == 0, result.stderr
    html = out.read_text()
    assert "1 of 4 items" in html and "1 of 2 images" in html
    assert "Skipped 2 file(s)" in html and "eval-set.json" in html
    broken = privbench("report", tmp_path / "nothing-here", "-o", out)
    assert broken.returncode == 2
    assert broken.stderr.strip().startswith("error: ") and "no such log" in broken.stderr
    scale = privbench("report", logs, "-o", out, "--scale", "5")
    assert scale.returncode == 2 and "--scale: 1 or 10" in scale.stderr


def test_report_says_why_it_does_not_compare(server: LoopbackServer, tmp_path: Path) -> None:
    """Two suites sharing item ids, a --limit run and a log without dataset identity."""
    server.default_reply = "0.5"
    same_ids = {k: {**v, "answer": v["answer"] + " (second suite)"} for k, v in FOUR_ITEMS.items()}
    first = write_priviq(tmp_path / "suite-a", FOUR_ITEMS)
    second = write_priviq(tmp_path / "suite-b", same_ids)
    answers = write_json(tmp_path / "model.json", {k: f"answer {k}" for k in FOUR_ITEMS})
    options = run_options(tmp_path)
    grade_priviq(first, answers, options=options)
    grade_priviq(second, answers, options=options)
    limited = grade_priviq(first, answers, options=run_options(tmp_path, eval_args={"limit": 2}))
    old = read_eval_log(str(limited.log_location))
    old.eval.metadata = {k: v for k, v in (old.eval.metadata or {}).items() if k != "dataset_hash"}
    old.eval.task_id = "written-before-dataset-identity"
    write_eval_log(old, str(tmp_path / "logs" / "old.eval"))
    out = build_report([tmp_path / "logs"], tmp_path / "r.html", ReportSettings(n_boot=100))
    html = out.read_text()
    assert html.count("<h3>Dataset: suite-a · sha256") == 1
    assert html.count("<h3>Dataset: suite-b · sha256") == 1
    assert html.count("<h3>Dataset: suite-a (identity unknown") == 1
    assert "span 2 dataset(s) with different content hashes and 1 run(s) of unknown" in html
    assert "never averaged or paired with another run" in html
    assert "ran with --limit 2 (2 items): marked, kept out of the Average" in html
    assert "only over the 2 items both answered" in html
    assert "Average of" not in html  # no dataset has two full runs over the same items
    pairs = html[html.index('class="pairs"') :]
    pairs = pairs[: pairs.index("</table>")]
    # the --limit run and the full run of suite-a, over their two common items; nothing
    # across datasets, nothing with the run of unknown identity
    assert pairs.count("<td>2</td>") == 1 and "different item sets" in pairs
    assert "model #2" not in html


def test_scale_is_checked_like_agreement(report: Path, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="--scale: 1 or 10"):
        build_report([tmp_path / "logs"], tmp_path / "x.html", ReportSettings(scale=5))


def test_differences_never_show_a_signed_zero() -> None:
    assert signed(-0.04) == "0.0" and signed(0.04) == "0.0"
    assert signed(-1.25) == "-1.2" and signed(3.0) == "+3.0"


def test_reference_rows_and_offline_judge_note(tmp_path: Path) -> None:
    """Offline-judged runs: the empty-answer floor and the trivial baseline are in the
    tables, labelled as such, with the note that the offline judge approximates an LLM's."""
    data = write_priviq(tmp_path / "data", FOUR_ITEMS)
    answers = write_json(tmp_path / "model.json", {k: f"answer {k}" for k in FOUR_ITEMS})
    options = run_options(tmp_path, judge="offline")
    grade_priviq(data, answers, options=options)
    spatial = write_spatial(tmp_path / "st", [spatial_record("st-1"), spatial_record("st-2")])
    predictions = write_predictions(
        tmp_path / "preds.jsonl", [{"id": "st-1", **PERFECT}, {"id": "st-2", **PERFECT}]
    )
    grade_spatialtrust(spatial, predictions, options=options)
    html = build_report(
        [tmp_path / "logs"], tmp_path / "r.html", ReportSettings(n_boot=100)
    ).read_text()
    assert "Empty answer (offline-judge score)" in html
    assert "Trivial baseline: best constant answer per question" in html
    assert "a property of the dataset, not a run" in html
    assert "approximates an LLM judge" in html
    assert html.count('class="badge off"') == 2  # the judge column marks both runs


def test_llm_judged_runs_only_mention_the_offline_floor(report: Path) -> None:
    html = report.read_text()
    assert "Empty answer (offline-judge score)" not in html
    assert "so that floor does not apply to them" in html
    assert "approximates an LLM judge" not in html
