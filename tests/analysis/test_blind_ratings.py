"""Blind rating forms: what raters get hides the judge and the models; agreement reads
what they send back.

The survey is exported from real graded logs (loopback judge) of two runs whose labels and
judge scores are distinctive strings, so a leak into any file a rater gets is found by
plain search. Chromium (Debian's, through Playwright) rates, reloads and downloads as a
rater does, from ``file://`` with no request leaving the page; the lab variant goes through
the FastAPI router with FastAPI's TestClient.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

import pandas as pd
import pytest
from fastapi import Depends, FastAPI
from fastapi.testclient import TestClient
from helpers import FOUR_ITEMS, JUDGE, one_line_error, privbench, run_options, write_json
from helpers import write_priviq as write_dataset
from helpers.loopback_server import LoopbackServer

from privbench.analysis.agreement import read_ratings
from privbench.analysis.rating_files import KEY_FILE, RATERS_FOLDER, read_key
from privbench.analysis.strata import stratum_of
from privbench.analysis.survey import SurveyFiles, export_survey, payload_of_form
from privbench.report.browser import CHROMIUM_FLAGS, find_chromium
from privbench.review.access import require_token
from privbench.review.app import create_app
from privbench.review.rating_routes import rating_router, write_lab_ratings
from privbench.review_store import ReviewStore
from privbench.runtime.errors import DatasetError, UsageError
from privbench.shipped import SPATIALTRUST_SUITE
from privbench.suites.priviq.api import grade_priviq

CHROMIUM = find_chromium()
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)"
)
RUNS = {"zorblax-vision-9000": "0.3", "quuxmodel-ultra": "0.8"}
"""Run labels (predictions file stems) and the judge's score of every answer of the run."""
JUDGE_NAME = JUDGE.split("/")[1]  # "loopjudge": the judge model's name
ATTACK = "<script>document.body.dataset.pwned = '1'</script><img src=x onerror=alert(1)>"
TOKEN = "t0ken-for-the-lab"


@pytest.fixture
def logs(server: LoopbackServer, tmp_path: Path) -> Path:
    """Two graded runs over four items; no answer text names its run."""
    data = write_dataset(tmp_path / "data", FOUR_ITEMS)
    for number, (run, score) in enumerate(RUNS.items()):
        answers = {item: f"answer {number}{item} {ATTACK}" for item in FOUR_ITEMS}
        for item in FOUR_ITEMS:
            server.script(f"answer {number}{item} ", score)
        grade_priviq(
            data, write_json(tmp_path / f"{run}.json", answers), options=run_options(tmp_path)
        )
    return tmp_path / "logs"


@pytest.fixture
def exported(logs: Path, tmp_path: Path) -> SurveyFiles:
    return export_survey([logs], tmp_path / "survey", n=6, seed=5, raters=2)


def _payload(files: SurveyFiles) -> dict[str, object]:
    return payload_of_form(files.form.read_text(encoding="utf-8"))


def _ids(files: SurveyFiles) -> list[str]:
    items = _payload(files)["items"]
    assert isinstance(items, list)
    return [str(item["id"]) for item in items]


def test_what_raters_get_names_neither_judge_nor_model(exported: SurveyFiles) -> None:
    raters = exported.form.parent
    assert raters.name == RATERS_FOLDER and exported.key.parent == raters.parent
    assert sorted(p.name for p in raters.iterdir()) == ["survey.csv", "survey.html"]
    key_text = exported.key.read_text(encoding="utf-8")
    key = read_key(exported.key)
    secrets = [*RUNS, JUDGE_NAME, JUDGE, exported.key.name, *(i.run for i in key.items.values())]
    assert all(run in key_text for run in RUNS)  # the key does hold them
    for path in raters.iterdir():
        text = path.read_text(encoding="utf-8")
        leaked = [s for s in secrets if s in text or s in path.name]
        assert not leaked, f"{path.name} names {leaked}"
        assert "::" not in text  # no run::item ids either
    payload = _payload(exported)
    assert set(payload) == {"survey", "title", "scale", "items"}
    assert payload["survey"] == key.survey and payload["scale"] == 1
    items = payload["items"]
    assert isinstance(items, list) and len(items) == 6
    assert [i["id"] for i in items] == list(key.items)
    for item in items:
        assert set(item) == {"id", "question", "reference", "answer", "image"}
        assert re.fullmatch(r"k-[0-9a-f]{12}", item["id"])
        assert str(item["image"]).startswith("data:image/jpeg;base64,")
        texts = " ".join(str(item[f]) for f in ("question", "reference", "answer"))
        assert not any(score in texts for score in RUNS.values())
    html = exported.form.read_text(encoding="utf-8")
    assert ATTACK not in html  # escaped: the answer's markup is text, not markup
    assert "http://" not in html and "https://" not in html  # nothing to fetch


def test_the_sheet_for_raters_is_blind_and_the_key_holds_the_judge(
    exported: SurveyFiles,
) -> None:
    sheet = pd.read_csv(exported.sheet)
    assert list(sheet.columns) == [
        "item_id", "rater", "score", "survey", "image", "question", "reference", "answer",
    ]  # fmt: skip
    assert set(sheet["rater"]) == {"rater1", "rater2"} and sheet["score"].isna().all()
    assert list(dict.fromkeys(sheet["item_id"])) == _ids(exported)  # the form's order
    key = read_key(exported.key)
    assert {i.run for i in key.items.values()} == set(RUNS)  # every model represented
    assert {i.judge_score for i in key.items.values()} == {float(s) for s in RUNS.values()}
    assert "do not send" in json.loads(exported.key.read_text())["warning"].lower()


def test_order_and_ids_follow_the_seed_and_the_survey(logs: Path, tmp_path: Path) -> None:
    def export(name: str, seed: int, folder: str) -> tuple[list[str], list[tuple[str, str]]]:
        files = export_survey([logs], tmp_path / folder, n=8, seed=seed, survey=name)
        key = read_key(files.key)
        return _ids(files), [(key.items[i].run, key.items[i].item) for i in _ids(files)]

    first, again = export("Survey 1", 5, "a"), export("Survey 1", 5, "b")
    assert first == again  # deterministic per seed
    other_survey, other_seed = export("Survey 2", 5, "c"), export("Survey 1", 6, "d")
    for other in (other_survey, other_seed):
        assert not set(first[0]) & set(other[0])  # fresh ids per survey and seed
    assert first[1] != other_survey[1]  # and another order
    runs = [run for run, _ in first[1]]
    assert runs != sorted(runs) and runs[:4] != [runs[0]] * 4  # shuffled, not grouped by run


def _filled_rating_file(files: SurveyFiles, path: Path, rater: str, shift: float) -> Path:
    key = read_key(files.key)
    ratings = {i: round(min(1.0, k.judge_score + shift), 2) for i, k in key.items.items()}
    document = {"survey": key.survey, "rater": rater, "scale": 1, "ratings": ratings}
    return write_json(path, document)


def test_agreement_reads_rating_files_with_their_key(exported: SurveyFiles, tmp_path: Path) -> None:
    folder = tmp_path / "returned"
    folder.mkdir()
    one = _filled_rating_file(exported, folder / "p1.json", "P1", 0.0)
    two = _filled_rating_file(exported, folder / "p2.json", "P2", 0.1)
    ratings = read_ratings([one, two], keys=[exported.key])
    assert ratings.raters == 2 and len(ratings.pairs) == 6 and ratings.blank == 0
    assert set(ratings.pairs["survey"]) == {"Survey 1"}
    # a folder of rating files, the key found beside the sheet, the CLI
    result = privbench(
        "agreement", "--ratings", folder, "--key", exported.key, "--json", "--plots", tmp_path / "p"
    )
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["human_raters"] == 2 and document["agreement"]["Overall"]["n"] == 6
    assert document["agreement"]["Overall"]["mae"] == pytest.approx(0.05, abs=0.01)


def test_report_takes_the_key_and_checks_ratings_before_computing(
    exported: SurveyFiles, logs: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "returned"
    folder.mkdir()
    rating = _filled_rating_file(exported, folder / "p1.json", "P1", 0.0)
    out = tmp_path / "report" / "report.html"
    figures = out.with_name("report_figures")
    args = ("report", logs, "-o", out, "--bootstrap", "100", "--ratings", folder)
    # no key beside the rating file: one line naming it and --key; nothing computed or written
    line = one_line_error(privbench(*args))
    assert str(rating) in line and "--key FILE" in line
    assert not out.exists() and not figures.exists()
    # an unreadable ratings file stops it the same way
    broken = write_json(tmp_path / "broken.csv", {"not": "a sheet"})
    line = one_line_error(privbench(*args[:-1], broken))
    assert str(broken) in line and "missing column" in line
    assert not figures.exists()
    # with --key, as agreement takes it, the report has the agreement section
    result = privbench(*args, "--key", exported.key)
    assert result.returncode == 0, result.stderr
    html = out.read_text(encoding="utf-8")
    assert "Judge–human agreement" in html and "1 human rater(s)" in html


def test_the_filled_blind_sheet_finds_its_key(exported: SurveyFiles) -> None:
    sheet = pd.read_csv(exported.sheet)
    sheet["score"] = [0.5 if rater == "rater1" else 0.6 for rater in sheet["rater"]]
    sheet.to_csv(exported.sheet, index=False)
    ratings = read_ratings(exported.sheet)  # survey_key.json is one folder up
    assert ratings.raters == 2 and len(ratings.pairs) == 6
    assert list(ratings.pairs["human"]) == pytest.approx([0.55] * 6)


def test_wrong_rating_files_are_one_line_errors(exported: SurveyFiles, tmp_path: Path) -> None:
    good = _filled_rating_file(exported, tmp_path / "good.json", "P1", 0.0)
    document = json.loads(good.read_text())

    def fails(name: str, content: object, *extra: str | Path) -> str:
        path = tmp_path / name
        path.write_text(content if isinstance(content, str) else json.dumps(content))
        result = privbench("agreement", "--ratings", path, *extra)
        assert result.returncode in (1, 2)
        return one_line_error(result)

    key = ("--key", exported.key)
    assert "this is a survey key, not a ratings file" in fails(
        "k.json", exported.key.read_text(), *key
    )
    first = next(iter(document["ratings"]))
    bad = {**document, "ratings": {**document["ratings"], first: 1.7}}
    assert f"bad.json: item {first}: ratings: 1.7 is not a number in 0–1" in fails(
        "bad.json", bad, *key
    )
    assert "field 'scale' must be 1 or 10" in fails("s.json", {**document, "scale": 5}, *key)
    assert "broken.json:1:" in fails("broken.json", "{", *key)
    assert "rates survey s-0, which no key covers" in fails(
        "other.json", {**document, "survey": "s-0"}, *key
    )
    assert "not an item of" in fails(
        "extra.json", {**document, "ratings": {"k-000000000000": 0.5}}, *key
    )
    lonely = tmp_path / "alone"
    lonely.mkdir()
    assert "pass the survey's key with --key FILE" in fails("alone/p.json", document)
    assert "rated twice by 'P1'" in one_line_error(
        privbench("agreement", "--ratings", good, "--ratings", good, *key)
    )
    assert "rated on 0–1 (its field 'scale'), but --scale 10" in one_line_error(
        privbench("agreement", "--ratings", good, "--scale", "10", *key)
    )


def test_ratings_on_0_to_10_without_scale_say_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text(
        "item_id,rater,score\n"
        "a,judge,0.9\na,h1,8\nb,judge,0.2\nb,h1,3\nc,judge,0.5\nc,h1,5\nd,judge,0.0\nd,h1,1\n"
    )
    result = privbench("agreement", "--ratings", path)
    line = one_line_error(result)
    assert result.returncode == 2
    assert "--scale 10" in line and "validate" not in line
    assert line == (
        f"error: {path}:3: human scores go up to 8, above 1: for ratings on 0–10 rerun with "
        "--scale 10"
    )
    with pytest.raises(UsageError, match="instead of --scale 1"):
        read_ratings(path, scale=1)
    assert read_ratings(path, scale=10).scale == 10
    ten = tmp_path / "ten.json"
    write_json(ten, {"survey": "s", "rater": "r", "scale": 10, "ratings": {"x": 11}})
    with pytest.raises(DatasetError, match="11 is not a number in 0–10"):
        read_ratings(ten, keys=[tmp_path / "none.json"])


def _client(exported: SurveyFiles, store: ReviewStore) -> TestClient:
    """The router mounted as the review app mounts it: behind the token check."""
    app = FastAPI()
    app.include_router(
        rating_router(exported.key.parent.parent, store),
        dependencies=[Depends(require_token(TOKEN))],
    )
    return TestClient(app)


def test_the_lab_form_saves_into_the_store(exported: SurveyFiles, tmp_path: Path) -> None:
    store = ReviewStore(tmp_path / "review.sqlite")
    client = _client(exported, store)
    survey, ids = exported.survey, _ids(exported)
    assert client.get(f"/rate/{survey}").status_code == 401
    page = client.get(f"/rate/{survey}", params={"token": TOKEN})
    assert page.status_code == 200
    assert f'<script src="{survey}/form.js?token={TOKEN}"></script>' in page.text
    assert payload_of_form(page.text) == _payload(exported)  # the same form and data
    assert not any(run in page.text for run in RUNS)
    script = client.get(f"/rate/{survey}/form.js", params={"token": TOKEN})
    assert script.status_code == 200 and "privbench-ratings" in script.text

    def put(item: str, score: object, rater: str = "P 1") -> int:
        url = f"/api/ratings/{survey}/{item}"
        params = {"rater": rater, "token": TOKEN}
        return client.put(url, params=params, json={"score": score}).status_code

    assert put(ids[0], 0.4) == 200 and put(ids[0], 0.6) == 200 and put(ids[1], 0.9) == 200
    assert put(ids[2], 0.3, rater="P2") == 200
    assert put(ids[0], 1.5) == 422 and put("k-nothere", 0.5) == 404 and put(ids[0], 0.5, "") == 422
    back = client.get(f"/api/ratings/{survey}", params={"rater": "P 1", "token": TOKEN}).json()
    assert back["ratings"] == {ids[0]: 0.6, ids[1]: 0.9} and back["scale"] == 1
    assert client.get("/rate/s-unknown", params={"token": TOKEN}).status_code == 404
    written = write_lab_ratings(exported.key.parent, store, tmp_path / "lab")
    assert [p.name for p in written] == [
        f"ratings-{survey}-01-P_1.json",
        f"ratings-{survey}-02-P2.json",
    ]
    ratings = read_ratings(written, keys=[exported.key])
    assert ratings.raters == 2 and len(ratings.pairs) == 3
    collect = privbench(
        "survey", "collect", "--surveys", exported.key.parent, "--store", store.path,
        "--out", tmp_path / "collected",
    )  # fmt: skip
    assert collect.returncode == 0 and "2 rating file(s)" in collect.stdout


@needs_chromium
def test_a_rater_rates_reloads_and_downloads_offline(
    exported: SurveyFiles, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from playwright.sync_api import sync_playwright

    shots = tmp_path / "screenshots"
    shots.mkdir()
    requests: list[str] = []
    problems: list[str] = []
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        browser = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True,
            accept_downloads=True,
        )  # fmt: skip
        page = browser.new_page()
        page.set_viewport_size({"width": 1280, "height": 900})
        page.on("request", lambda request: requests.append(request.url))
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto(exported.form.as_uri())
        assert page.evaluate("document.body.dataset.ready") == "1"
        page.screenshot(path=str(shots / "start.png"), full_page=True)
        page.fill("#rater", "Participant 7")
        page.click("#begin")
        assert page.locator("#answer").inner_text().startswith("answer ")
        assert page.evaluate("document.body.dataset.pwned") is None  # the answer's script is text
        page.fill("#score", "1.4")
        page.click("#next")
        assert "from 0 to 1" in page.locator("#message").inner_text()  # refused, not moved
        for score in ("0.3", "0,8", "1"):
            page.fill("#score", score)
            page.press("#score", "Enter")
        assert page.locator("#progress").inner_text() == "3 of 6 rated"
        page.screenshot(path=str(shots / "rating.png"), full_page=True)
        page.reload()
        assert page.locator("#progress").inner_text() == "3 of 6 rated"  # kept across reloads
        assert page.locator("#who").inner_text() == "Participant 7"
        page.click(".jump button >> nth=1")
        assert page.input_value("#score") == "0.8"
        with page.expect_download() as info:
            page.click("#download")
        downloaded = tmp_path / info.value.suggested_filename
        info.value.save_as(downloaded)
        page.screenshot(path=str(shots / "downloaded.png"), full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth")
        browser.close()
    assert overflow <= 1280
    assert problems == []
    assert all(url.startswith(("file://", "data:", "blob:")) for url in requests), requests
    assert downloaded.name == f"ratings-{exported.survey}-Participant_7.json"
    document = json.loads(downloaded.read_text())
    ids = _ids(exported)
    assert document["ratings"] == {ids[0]: 0.3, ids[1]: 0.8, ids[2]: 1}
    assert (document["survey"], document["rater"], document["scale"]) == (
        exported.survey, "Participant 7", 1,
    )  # fmt: skip
    result = privbench(
        "agreement", "--ratings", downloaded, "--key", exported.key, "--plots", tmp_path / "p"
    )
    assert result.returncode == 0, result.stderr
    assert "1 human rater(s) on 0–1; 3 blank rating(s) skipped" in result.stdout
    with capsys.disabled():
        print(f"\nscreenshots: {shots}")
    assert KEY_FILE not in {p.name for p in exported.form.parent.iterdir()}


def test_the_review_app_serves_the_rating_forms(exported: SurveyFiles, tmp_path: Path) -> None:
    """``privbench review DIR --surveys S``: the forms behind the app's token, ratings in
    the dataset's review store, the app's security headers on the form."""
    dataset = tmp_path / "ds"
    (dataset / "images").mkdir(parents=True)
    line = (SPATIALTRUST_SUITE / "spatialtrust.jsonl").read_text(encoding="utf-8").splitlines()[0]
    record = json.loads(line)
    shutil.copy(SPATIALTRUST_SUITE / record["image"], dataset / record["image"])
    (dataset / "spatialtrust.jsonl").write_text(line + "\n", encoding="utf-8")
    app = create_app(dataset, TOKEN, "alice", surveys=exported.key.parent.parent)
    client = TestClient(app)
    survey, ids = exported.survey, _ids(exported)
    assert client.get(f"/rate/{survey}").status_code == 401
    page = client.get(f"/rate/{survey}", params={"token": TOKEN})
    assert page.status_code == 200 and "Content-Security-Policy" in page.headers
    saved = client.put(
        f"/api/ratings/{survey}/{ids[0]}", params={"rater": "P1", "token": TOKEN},
        json={"score": 0.7},
    )  # fmt: skip
    assert saved.status_code == 200
    assert ReviewStore.of(dataset).ratings(survey)  # kept in the dataset's review.sqlite


def test_the_ratings_api_takes_only_a_score_from_a_named_rater(
    exported: SurveyFiles, tmp_path: Path
) -> None:
    """Strict types, bounded bodies, printable names, and no server path in an answer."""
    store = ReviewStore(tmp_path / "review.sqlite")
    app = FastAPI()
    app.include_router(
        rating_router(exported.key.parent.parent, store),
        dependencies=[Depends(require_token(TOKEN))],
    )
    client = TestClient(app, raise_server_exceptions=False)
    survey, item = exported.survey, _ids(exported)[0]
    url = f"/api/ratings/{survey}/{item}"

    def put(content: bytes, rater: str = "P1") -> int:
        params = {"rater": rater, "token": TOKEN}
        headers = {"Content-Type": "application/json"}
        return client.put(url, params=params, content=content, headers=headers).status_code

    assert put(b'{"score": 0.5}') == 200 and put(b'{"score": null}') == 200
    assert put(b'{"score": true}') == 422  # not 1.0
    assert put(b'{"score": "0.5"}') == 422  # a string is not a number
    assert put(b'{"score": 0.5, "note": "x"}') == 422
    assert put(b'{"score": 0.5, "pad": "' + b"x" * 1_000_000 + b'"}') == 413
    assert put(b"[" * 2000 + b"]" * 2000) == 400  # deeper than the parser goes
    assert put(b'{"score": ' + b"9" * 5000 + b"}") == 400
    assert put(b'{"score": 0.5, "\\ud800": 1}') == 422
    for name in ("P\x001", "P\x1b[31m1", "P\u202e1", "P\u200f1"):
        assert put(b'{"score": 0.5}', rater=name) == 422, repr(name)
    assert list(store.ratings(survey)) == ["P1"]  # only the good saves were kept
    assert store.ratings(survey)["P1"][item] is None  # the last good one cleared it
    missing = client.get("/rate/s-unknown", params={"token": TOKEN})
    unknown_item = client.put(
        f"/api/ratings/{survey}/k-nothere",
        params={"rater": "P1", "token": TOKEN},
        json={"score": 0.5},
    )
    for response in (missing, unknown_item):
        assert response.status_code == 404
        assert str(tmp_path) not in response.text and "survey_key" not in response.text


WEAK_SCORES = [0.0] * 32 + [0.3] * 4 + [0.7] * 2 + [1.0] * 2
"""A weak model's judge scores: most answers 0.0, a few across the rest of the scale."""


@pytest.fixture
def weak_logs(server: LoopbackServer, tmp_path: Path) -> Path:
    """One graded run of 40 items, 32 of them 0.0 (as a weak model's run looks)."""
    codes = ["VizPriv", "Law", "NER", "Know", "PrivRisk"]
    items = {
        f"w{k:02d}": {"imagename": "", "question": f"Question {k}?", "answer": f"Ref {k}",
                      "capability": [codes[k % len(codes)]]}
        for k in range(len(WEAK_SCORES))
    }  # fmt: skip
    data = write_dataset(tmp_path / "data", items)
    for k, score in enumerate(WEAK_SCORES):
        server.script(f"weak answer w{k:02d} ", str(score))
    answers = {item: f"weak answer {item} " for item in items}
    grade_priviq(data, write_json(tmp_path / "weak.json", answers), options=run_options(tmp_path))
    return tmp_path / "logs"


def test_a_draw_from_a_mostly_zero_run_spans_the_score_strata(
    weak_logs: Path, tmp_path: Path
) -> None:
    for seed in range(3):
        files = export_survey([weak_logs], tmp_path / f"s{seed}", n=10, seed=seed, raters=1)
        key = read_key(files.key)
        scores = [item.judge_score for item in key.items.values()]
        assert len(scores) == 10
        assert scores.count(0.0) <= 3  # a plain random draw holds about 8 zeros
        assert {0.0, 0.3, 0.7, 1.0} <= set(scores)
        assert {item.stratum for item in key.items.values()} == {
            "0.0", "0.1–0.4", "0.5–0.9", "1.0",
        }  # fmt: skip
        for item in key.items.values():
            assert item.stratum == stratum_of(item.judge_score)
        strata = {s["stratum"]: s for s in key.strata}
        assert [strata[s]["available"] for s in ("0.0", "0.1–0.4", "0.5–0.9", "1.0")] == [
            32, 4, 2, 2,
        ]  # fmt: skip
        assert sum(int(str(s["drawn"])) for s in key.strata) == 10
        assert strata["0.5–0.9"]["drawn"] == 2 and strata["1.0"]["drawn"] == 2
        document = json.loads(files.key.read_text(encoding="utf-8"))
        assert document["draw"].startswith("stratified by judge score")
        sheet = pd.read_csv(files.sheet)
        by_id = {opaque: item.item for opaque, item in key.items.items()}
        assert list(sheet["image"]) == [f"{by_id[i]}.png" for i in sheet["item_id"]]
