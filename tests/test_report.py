"""The HTML report as a user sees it, in headless Chromium (Debian's, driven by Playwright)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import (
    FOUR_ITEMS,
    run_options,
    spatial_record,
    write_json,
    write_priviq,
    write_spatial,
)
from loopback_server import LoopbackServer
from test_spatial_grade import PERFECT, write_predictions
from test_spatial_strategies import JUDGE_MARK, VERDICT

from privbench.priviq.api import grade_priviq
from privbench.report.html import ReportSettings, build_report
from privbench.spatialtrust.api import grade_spatialtrust

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCRIPT_ATTACK = "<script>document.body.dataset.pwned = 'script'</script>"
IMG_ATTACK = "<img src=x onerror=\"document.body.dataset.pwned = 'img'\">"


@pytest.fixture
def report(server: LoopbackServer, tmp_path: Path) -> Path:
    server.script(JUDGE_MARK, VERDICT)
    server.default_reply = "0.6"
    data = write_priviq(tmp_path / "data", FOUR_ITEMS)
    honest = write_json(tmp_path / "honest.json", {k: f"answer {k}" for k in FOUR_ITEMS})
    hostile = write_json(
        tmp_path / "hostile.json",
        {k: f"{SCRIPT_ATTACK} {IMG_ATTACK} </pre></div><b>bold</b> {k}" for k in FOUR_ITEMS},
    )
    for answers in (honest, hostile):
        grade_priviq(data, answers, options=run_options(tmp_path, epochs=2))
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
    assert "default-src 'none'" in html
    figures = report.with_name("report_figures")
    assert (figures / "priviq-totals.png").exists() and (figures / "priviq-totals.svg").exists()
    assert (figures / "spatial-tasks.svg").exists()


@pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)"
)
def test_report_in_headless_chromium(report: Path, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    requests: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.on("request", lambda request: requests.append(request.url))
        page.goto(report.as_uri())
        page.wait_for_load_state("load")
        assert page.evaluate("document.body.dataset.ready") == "1"  # the page's own script ran
        assert page.evaluate("document.body.dataset.pwned") is None  # no injected one did
        assert page.locator("text=<script>document.body.dataset.pwned").count() > 0
        assert page.locator("b", has_text="bold").count() == 0
        page.fill("input[data-filter=priviq-card]", "Which law")
        visible = page.locator(".priviq-card:not(.hidden)").count()
        assert visible == 1
        shot = tmp_path / "report.png"
        page.screenshot(path=str(shot), full_page=False)
        browser.close()
    assert problems == []
    assert all(url.startswith(("file:", "data:")) for url in requests), requests
    assert shot.stat().st_size > 10_000


def test_report_cli(report: Path, tmp_path: Path) -> None:
    from test_cli import privbench

    out = tmp_path / "cli.html"
    result = privbench(
        "report", tmp_path / "logs", "-o", out, "--bootstrap", "100", "--browse", "1"
    )
    assert result.returncode == 0, result.stderr
    html = out.read_text()
    assert "1 of 4 items" in html and "1 of 2 images" in html
    broken = privbench("report", tmp_path / "nothing-here", "-o", out)
    assert broken.returncode == 2
    assert broken.stderr.strip().startswith("error: ") and "no such log" in broken.stderr
