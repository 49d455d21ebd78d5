"""``privbench review DIR``: the API through TestClient, then the page in headless Chromium.

Why both: the API's refusals (token, stale versions, bad bodies, paths that try to leave
the dataset) are quick to check exhaustively in-process; whether a reviewer can actually
draw, resize, label and save a box, and whether a kill -9 loses an acknowledged save,
only a real server and a real browser show.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from helpers.paths import REPO

from privbench.report.browser import CHROMIUM_FLAGS, find_chromium
from privbench.review.access import OneTimeCode
from privbench.review.app import MAX_BODY_BYTES, create_app
from privbench.review.shortcuts import PAGE_KEYS, SHORTCUTS, markdown_rows
from privbench.review_store import ReviewStore, StoreError
from privbench.shipped import SPATIALTRUST_SUITE

CHROMIUM = find_chromium()
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)"
)
TOKEN = "test-token-0123456789"
SRC = REPO / "src"
DRAFT = {
    "name": "a <img src=x onerror=document.body.dataset.pwned=1> screen",
    "category": "direct",
    "why": "it shows an e-mail",
    "box": [100, 100, 400, 300],
}


def make_dataset(directory: Path, count: int = 3) -> Path:
    """``count`` records of the shipped suite, the first with a drafted annotation."""
    (directory / "images").mkdir(parents=True)
    lines = (SPATIALTRUST_SUITE / "spatialtrust.jsonl").read_text(encoding="utf-8").splitlines()
    records = []
    for index, line in enumerate(lines[:count]):
        record = json.loads(line)
        shutil.copy(SPATIALTRUST_SUITE / record["image"], directory / record["image"])
        elements = [DRAFT] if index == 0 else []
        record["annotation"] = {"status": "draft", "annotators": [], "elements": elements}
        records.append(json.dumps(record))
    (directory / "spatialtrust.jsonl").write_text("\n".join(records) + "\n", encoding="utf-8")
    return directory


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    return make_dataset(tmp_path / "ds")


@pytest.fixture
def client(dataset: Path) -> Iterator[TestClient]:
    with TestClient(create_app(dataset, TOKEN, "alice")) as test_client:
        test_client.headers["Authorization"] = f"Bearer {TOKEN}"
        yield test_client


def body(status: str = "accepted", version: int = 0, **factor: Any) -> dict[str, Any]:
    one: dict[str, Any] = {"name": "a badge", "category": "indirect", "why": "names the employer"}
    one.update({"box": [10, 20, 110, 220], **factor})
    return {"version": version, "annotation": {"status": status, "factors": [one]}}


# ---- the API ----


def test_token_is_required_by_query_or_header(dataset: Path) -> None:
    with TestClient(create_app(dataset, TOKEN, "alice")) as bare:
        for path in ("/", "/api/images", "/api/stats", "/images/st-0001", "/static/review.js"):
            assert bare.get(path).status_code == 401, path
            assert bare.get(path, params={"token": "wrong"}).status_code == 403, path
            assert bare.get(path, params={"token": TOKEN}).status_code == 200, path
            header = {"Authorization": f"Bearer {TOKEN}"}
            assert bare.get(path, headers=header).status_code == 200, path
        refused = bare.get("/api/images")
        assert refused.headers["content-security-policy"].startswith("default-src 'self'")


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    for path in (
        "/",
        "/api/images",
        "/images/st-0001",
        "/nowhere",
        "/static/vendor/annotorious.js",
    ):
        response = client.get(path)
        assert "script-src 'self'" in response.headers["content-security-policy"], path
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
    assert client.get("/docs").status_code == 404  # the interactive docs would load a CDN


def test_get_put_and_a_stale_save(client: TestClient) -> None:
    listed = client.get("/api/images").json()
    assert listed == [{"id": f"st-000{i}", "status": "draft", "annotators": []} for i in (1, 2, 3)]
    image = client.get("/api/images/st-0001").json()
    assert (image["width"], image["height"], image["version"]) == (1440, 960, 0)
    assert image["draft"] == [DRAFT] and image["annotation"] is None
    assert client.put("/api/images/st-0001", json=body()).json() == {"version": 1}
    again = client.get("/api/images/st-0001").json()
    assert again["version"] == 1 and again["annotation"]["status"] == "accepted"
    assert again["annotation"]["factors"][0]["box"] == [10, 20, 110, 220]
    stale = client.put("/api/images/st-0001", json=body("needs_work", version=0))
    assert stale.status_code == 409
    assert "saved elsewhere since" in stale.json()["detail"] and stale.json()["latest"] == 1
    assert client.put("/api/images/st-0001", json=body("needs_work", version=1)).json() == {
        "version": 2
    }
    assert client.get("/api/images").json()[0] == {
        "id": "st-0001",
        "status": "needs_work",
        "annotators": ["alice"],
    }


def test_two_annotators_each_see_their_own(client: TestClient) -> None:
    client.put("/api/images/st-0002?annotator=bob", json=body("accepted"))
    client.put("/api/images/st-0002?annotator=carol", json=body("discarded"))
    bob = client.get("/api/images/st-0002", params={"annotator": "bob"}).json()
    carol = client.get("/api/images/st-0002", params={"annotator": "carol"}).json()
    alice = client.get("/api/images/st-0002").json()
    assert (
        bob["annotation"]["status"] == "accepted" and carol["annotation"]["status"] == "discarded"
    )
    assert alice["annotation"] is None and alice["version"] == 0
    stats = client.get("/api/stats", params={"annotator": "bob"}).json()
    assert stats["total"] == 3 and stats["reviewed"] == 1 and stats["accepted"] == 1
    assert stats["statuses"] == {
        "draft": 2,
        "accepted": 1,
        "needs_work": 0,
        "discarded": 0,
        "unreadable": 0,
    }
    assert stats["annotators"]["bob"]["reviewed"] == 1
    assert stats["annotators"]["carol"] == {
        "reviewed": 1,
        "accepted": 0,
        "needs_work": 0,
        "discarded": 1,
        "unreadable": 0,
    }
    assert client.get("/api/stats").json()["reviewed"] == 0  # alice's own progress


def test_reviewed_counts_every_verdict_with_accepted_apart(tmp_path: Path) -> None:
    """Six verdicts are six reviewed images, whichever verdicts they are."""
    directory = make_dataset(tmp_path / "six", count=6)
    with TestClient(create_app(directory, TOKEN, "alice")) as six:
        six.headers["Authorization"] = f"Bearer {TOKEN}"
        verdicts = ["accepted"] * 4 + ["needs_work", "discarded"]
        for number, verdict in enumerate(verdicts, start=1):
            assert six.put(f"/api/images/st-000{number}", json=body(verdict)).status_code == 200
        stats = six.get("/api/stats").json()
    assert (stats["reviewed"], stats["accepted"], stats["total"]) == (6, 4, 6)
    assert stats["annotators"]["alice"] == {
        "reviewed": 6,
        "accepted": 4,
        "needs_work": 1,
        "discarded": 1,
        "unreadable": 0,
    }


def test_a_box_without_a_category_cannot_be_accepted(client: TestClient) -> None:
    """A drawn box keeps no category until one is chosen: saved as null when the image is
    sent back or discarded, refused when it is accepted (never filled in for the user)."""
    refused = client.put("/api/images/st-0001", json=body("accepted", category=None))
    assert refused.status_code == 422 and "no category" in refused.json()["detail"]
    kept = client.put("/api/images/st-0001", json=body("needs_work", category=None))
    assert kept.status_code == 200, kept.text
    saved = client.get("/api/images/st-0001").json()
    assert saved["annotation"]["factors"][0]["category"] is None
    assert saved["status"] == "needs_work"


def test_the_shortcut_list_is_the_one_in_the_docs_and_the_script(client: TestClient) -> None:
    docs = (SRC.parent / "docs" / "review.md").read_text(encoding="utf-8")
    table = docs[docs.index("| key | action |") :].split("\n\n")[0].splitlines()[2:]
    assert table == markdown_rows()
    page = client.get("/").text
    shown = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", page)
    assert shown == [(html.escape(s.label), html.escape(s.action)) for s in SHORTCUTS]
    script = (SRC / "privbench" / "review" / "static" / "review.js").read_text(encoding="utf-8")
    bound = script[script.index("const KEYS = {") : script.index("};", script.index("const KEYS"))]
    assert set(re.findall(r"(\w+): ", bound)) == PAGE_KEYS


@pytest.mark.parametrize(
    ("document", "code"),
    [
        (body("draft"), 422),
        (body("approved"), 422),
        (body(category="secret"), 422),
        (body(name="  "), 422),
        (body(box=[10, 20, 110]), 422),
        (body(box=[110, 20, 10, 220]), 422),
        (body(box=[10, 20, 1441, 220]), 422),
        (body(box=[10, 20, "NaN", 220]), 422),
        (body(box=[10, 20, True, 220]), 422),
        (body(name=7), 422),
        ({"version": "1", "annotation": body()["annotation"]}, 422),
        ({"version": 0, "annotation": "accepted"}, 422),
        ([1, 2], 400),
    ],
)
def test_invalid_bodies_are_refused(client: TestClient, document: Any, code: int) -> None:
    response = client.put("/api/images/st-0001", json=document)
    assert response.status_code == code, response.text
    assert client.get("/api/images/st-0001").json()["version"] == 0


def test_not_json_an_oversize_body_and_a_bad_annotator(client: TestClient) -> None:
    assert client.put("/api/images/st-0001", content=b"{not json").status_code == 400
    huge = body(why="x" * (MAX_BODY_BYTES + 10))
    assert client.put("/api/images/st-0001", json=huge).status_code == 413
    for name in ("", "a" * 65, "tab\there", "nl\n"):
        response = client.put("/api/images/st-0001", params={"annotator": name}, json=body())
        assert response.status_code == 422, name
    assert client.put("/api/images/st-9999", json=body()).status_code == 404


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (json.dumps(body(name="a \ud800 badge")).encode(), 422),  # a lone surrogate
        (b"[" * 40_000 + b"]" * 40_000, 400),
        (b'{"version": ' + b"9" * 5000 + b"}", 400),
        (b'{"version": 0, "annotation": {"status": "accepted", "factors": [' + b"[" * 40_000, 400),
    ],
)
def test_bodies_json_cannot_represent_are_refused_not_a_500(
    dataset: Path, content: bytes, code: int
) -> None:
    with TestClient(create_app(dataset, TOKEN, "alice"), raise_server_exceptions=False) as bare:
        response = bare.put(
            "/api/images/st-0001", content=content, headers={"Authorization": f"Bearer {TOKEN}"}
        )
        assert response.status_code == code, response.text
        assert bare.get(f"/api/images/st-0001?token={TOKEN}").json()["version"] == 0


def _store_row(directory: Path, image: str, annotator: str, text: str) -> None:
    connection = sqlite3.connect(directory / "review.sqlite")
    connection.execute(
        "INSERT INTO annotations VALUES (?, ?, 1, '2026-01-01T00:00:00+00:00', ?)",
        (image, annotator, text),
    )
    connection.commit()
    connection.close()


def test_an_unreadable_row_is_counted_and_the_rest_served(
    client: TestClient, dataset: Path
) -> None:
    assert client.put("/api/images/st-0002?annotator=carol", json=body()).status_code == 200
    _store_row(dataset, "st-0001", "bob", "{not json")
    _store_row(dataset, "st-0002", "bob", '"a string"')
    _store_row(dataset, "st-0003", "bob", '{"status": "approved", "factors": []}')
    listed = client.get("/api/images", params={"annotator": "bob"})
    assert listed.status_code == 200
    assert [image["status"] for image in listed.json()] == ["unreadable"] * 3
    stats = client.get("/api/stats", params={"annotator": "bob"}).json()
    assert stats["statuses"]["unreadable"] == 3 and stats["reviewed"] == 0
    assert stats["annotators"]["bob"]["unreadable"] == 3
    assert stats["annotators"]["carol"] == {
        "reviewed": 1,
        "accepted": 1,
        "needs_work": 0,
        "discarded": 0,
        "unreadable": 0,
    }
    image = client.get("/api/images/st-0001", params={"annotator": "bob"}).json()
    assert image["annotation"] is None and image["draft"] == [DRAFT] and image["version"] == 1
    saved = client.put("/api/images/st-0001?annotator=bob", json=body(version=1))
    assert saved.json() == {"version": 2}  # the annotator saves over the unreadable row


@pytest.mark.e2e
def test_a_marked_store_without_its_tables_is_refused_at_start(dataset: Path) -> None:
    connection = sqlite3.connect(dataset / "review.sqlite")
    connection.execute("PRAGMA application_id=1886544502")  # privbench's review store
    connection.execute("CREATE TABLE notes (x)")
    connection.commit()
    connection.close()
    with pytest.raises(StoreError) as error:
        create_app(dataset, TOKEN, "alice")
    message = str(error.value)
    assert "no table 'annotations'" in message and "\n" not in message
    result = _cli("review", str(dataset), "--no-browser", cwd=dataset.parent)
    assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert "no table 'annotations'" in result.stderr


def test_a_capture_swapped_for_a_link_later_is_not_followed(
    client: TestClient, dataset: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.jpg"
    outside.write_bytes(b"\xff\xd8 private file outside the dataset")
    assert client.get("/images/st-0002").status_code == 200
    capture = dataset / "images" / "st-0002.jpg"
    capture.unlink()
    capture.symlink_to(outside)
    response = client.get("/images/st-0002")
    assert response.status_code == 404 and b"private" not in response.content
    capture.unlink()
    capture.symlink_to(dataset / "spatialtrust.jsonl")  # another file, even inside the dataset
    assert client.get("/images/st-0002").status_code == 404
    assert client.get("/images/st-0001").status_code == 200


def test_the_opening_code_works_once_and_carries_no_token(dataset: Path) -> None:
    now = [0.0]
    opening = OneTimeCode(seconds=60, clock=lambda: now[0])
    assert TOKEN not in opening.code
    with TestClient(create_app(dataset, TOKEN, "alice", opening=opening)) as bare:
        first = bare.get(f"/open/{opening.code}", follow_redirects=False)
        assert first.status_code == 303
        assert first.headers["location"] == f"/?token={TOKEN}&annotator=alice"
        again = bare.get(f"/open/{opening.code}", follow_redirects=False)
        assert again.status_code == 403 and TOKEN not in again.text
        assert bare.get("/open/guess", follow_redirects=False).status_code == 403
    late = OneTimeCode(seconds=60, clock=lambda: now[0])
    now[0] = 61.0
    assert not late.redeem(late.code)
    assert OneTimeCode().redeem("wrong") is False


@pytest.mark.e2e
def test_the_browser_is_started_without_the_token(dataset: Path, tmp_path: Path) -> None:
    """The command line a browser gets is readable by every user (ps): it holds a one-time
    code, never the token, and that code opens the page once."""
    argv_file = tmp_path / "argv.json"
    launcher = tmp_path / "browser.py"
    launcher.write_text(
        "import json, os, sys\n"
        f"open({str(argv_file)!r} + '.part', 'w').write(json.dumps(sys.argv))\n"
        f"os.replace({str(argv_file)!r} + '.part', {str(argv_file)!r})\n",
        encoding="utf-8",
    )
    env = {
        **os.environ,
        "PYTHONPATH": str(SRC),
        "PYTHONUNBUFFERED": "1",
        "BROWSER": f"{sys.executable} {launcher} %s",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "privbench", "review", str(dataset), "--port", "0"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([\w-]+)", line)
    assert found, line
    server = Server(process, found[0], int(found[1]), found[2])
    try:
        for _ in range(600):  # the server starts the browser half a second after its URL
            if argv_file.exists() or process.poll() is not None:
                break
            time.sleep(0.05)
        argv = json.loads(argv_file.read_text(encoding="utf-8"))
        assert not any(server.token in argument for argument in argv), argv
        opened = argv[-1]
        assert opened.startswith(f"http://127.0.0.1:{server.port}/open/"), argv

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: Any) -> None:
                return None

        opener = urllib.request.build_opener(NoRedirect)
        with pytest.raises(urllib.error.HTTPError) as first:
            opener.open(opened, timeout=10)
        assert first.value.code == 303
        assert f"token={server.token}" in first.value.headers["location"]
        with pytest.raises(urllib.error.HTTPError) as second:
            opener.open(opened, timeout=10)
        assert second.value.code == 403
    finally:
        stop(server)


@pytest.mark.parametrize(
    "path",
    [
        "/images/../spatialtrust.jsonl",
        "/images/%2e%2e%2fspatialtrust.jsonl",
        "/images/..%2Fspatialtrust.jsonl",
        "/images/images%2Fst-0001.jpg",
        "/images/st-0001.jpg",
        "/images/%2Fetc%2Fpasswd",
        "/images/",
        "/images",
        "/api/images/..%2F..%2Fetc%2Fpasswd",
        "/static/..%2Fapp.py",
        "/static/vendor/",
        "/static/index.html/../../app.py",
        "/review.sqlite",
    ],
)
def test_paths_cannot_leave_the_dataset(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404, path


def test_the_capture_and_the_page_are_served(client: TestClient) -> None:
    image = client.get("/images/st-0001")
    assert image.headers["content-type"] == "image/jpeg" and image.content[:2] == b"\xff\xd8"
    page = client.get("/")
    assert page.headers["content-type"].startswith("text/html")
    assert "static/vendor/annotorious.js" in page.text
    assert "http" not in re.sub(r"<!--.*?-->", "", page.text)  # nothing from elsewhere


def test_a_foreign_sqlite_file_is_one_line(dataset: Path) -> None:
    connection = sqlite3.connect(dataset / "review.sqlite")
    connection.execute("CREATE TABLE notes (x)")
    connection.commit()
    connection.close()
    with pytest.raises(StoreError) as error:
        create_app(dataset, TOKEN, "alice")
    assert "not a privbench review store" in str(error.value) and "\n" not in str(error.value)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    command = [sys.executable, "-m", "privbench", *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.e2e
def test_the_command_refuses_what_is_not_a_dataset(tmp_path: Path, dataset: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    for directory in (empty, tmp_path / "missing"):
        result = _cli("review", str(directory), "--no-browser", cwd=tmp_path)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    result = _cli("review", str(dataset), "--annotator", "x" * 70, cwd=tmp_path)
    assert result.returncode == 2 and "annotator" in result.stderr, result.stderr
    (dataset / "review.sqlite").write_bytes(b"not a database at all" * 100)
    result = _cli("review", "serve", str(dataset), "--no-browser", cwd=tmp_path)
    assert result.returncode == 1 and result.stderr.startswith("error: "), result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


# ---- a real server ----


@dataclass
class Server:
    process: subprocess.Popen[str]
    url: str
    port: int
    token: str

    def api(self, method: str, path: str, document: object = None) -> tuple[int, Any]:
        data = None if document is None else json.dumps(document).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())


def start_server(directory: Path, annotator: str = "alice") -> Server:
    env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "privbench",
            "review",
            str(directory),
            "--no-browser",
            "--port",
            "0",
            "--annotator",
            annotator,
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.search(r"(http://127\.0\.0\.1:(\d+)/\?token=([\w-]+)\S*)", line)
    assert found, line + (process.stdout.read() if process.poll() is not None else "")
    return Server(process, found[1], int(found[2]), found[3])


def stop(server: Server) -> int:
    server.process.send_signal(signal.SIGINT)
    code = server.process.wait(timeout=15)
    assert server.process.stdout is not None
    rest = server.process.stdout.read()
    assert "Traceback" not in rest, rest
    return code


@pytest.mark.e2e
def test_ctrl_c_ends_the_server_with_exit_0(dataset: Path) -> None:
    server = start_server(dataset)
    assert server.api("GET", "/api/stats")[0] == 200
    assert stop(server) == 0


@pytest.mark.e2e
def test_an_acknowledged_save_survives_kill_9(dataset: Path) -> None:
    server = start_server(dataset)
    assert server.api("PUT", "/api/images/st-0002", body())[1] == {"version": 1}
    assert server.api("PUT", "/api/images/st-0002", body("needs_work", 1))[1] == {"version": 2}
    server.process.kill()
    server.process.wait(timeout=10)
    saved = ReviewStore.of(dataset).latest("st-0002", "alice")
    assert saved is not None and saved.version == 2 and saved.annotation["status"] == "needs_work"
    restarted = start_server(dataset)
    code, image = restarted.api("GET", "/api/images/st-0002")
    assert code == 200 and image["version"] == 2
    assert stop(restarted) == 0


# ---- the page in a real browser ----


@pytest.fixture
def served(dataset: Path) -> Iterator[Server]:
    server = start_server(dataset)
    yield server
    stop(server)


def _open(
    context: Any, server: Server, annotator: str, problems: list[str], hosts: set[str]
) -> Any:
    page = context.new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("request", lambda request: hosts.add(re.sub(r"^(\w+://[^/]+).*", r"\1", request.url)))
    page.goto(f"http://127.0.0.1:{server.port}/?token={server.token}&annotator={annotator}")
    page.wait_for_selector("body[data-ready='1']", state="attached")
    return page


def _drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    for step in range(1, 11):
        x = start[0] + (end[0] - start[0]) * step / 10
        y = start[1] + (end[1] - start[1]) * step / 10
        page.mouse.move(x, y)
    page.mouse.up()


@pytest.mark.e2e
@needs_chromium
def test_the_page_in_headless_chromium(served: Server, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    hosts: set[str] = set()
    shots = tmp_path / "screenshots"
    shots.mkdir()
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        browser = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True
        )
        page = _open(browser, served, "alice", problems, hosts)
        # the draft's name is shown as text, never parsed as HTML
        assert page.locator("#boxes li").count() == 1
        assert "onerror" in page.locator("#boxes li").first.inner_text()
        assert page.evaluate("document.body.dataset.pwned") is None
        page.screenshot(path=str(shots / "draft.png"))
        # draw a box on the capture of the second image
        page.keyboard.press("j")
        page.wait_for_selector("body[data-image='st-0002']", state="attached")
        picture = page.locator("#canvas img").bounding_box()
        assert picture is not None and picture["width"] > 600
        scale = 1440 / picture["width"]
        left, top = picture["x"], picture["y"]
        _drag(page, (left + 100, top + 100), (left + 300, top + 250))
        page.wait_for_selector("#boxes li")
        # resize: drag its bottom-right corner further out
        corner = page.locator(".a9s-corner-handle-bottomright").first.bounding_box()
        assert corner is not None
        cx, cy = corner["x"] + corner["width"] / 2, corner["y"] + corner["height"] / 2
        _drag(page, (cx, cy), (cx + 80, cy + 50))
        page.fill("#box-name", "a calendar on the wall")
        # a new box has no category until one is chosen, and cannot be accepted without one
        assert page.locator("#box-category").input_value() == ""
        assert page.locator("#boxes li .category").first.inner_text() == "no category"
        page.locator("#panel h2").first.click()
        page.keyboard.press("a")
        page.wait_for_selector("#message:not([hidden])")
        assert "has no category" in page.locator("#message-text").inner_text()
        page.screenshot(path=str(shots / "uncategorised.png"))
        assert served.api("GET", "/api/images/st-0002?annotator=alice")[1]["version"] == 0
        page.select_option("#box-category", "near_miss")
        page.fill("#box-why", "it is blank")
        page.screenshot(path=str(shots / "drawn.png"))
        page.locator("#panel h2").first.click()  # leave the text field, then the shortcut
        page.keyboard.press("a")
        page.wait_for_selector("body[data-saved='1']", state="attached")
        code, saved = served.api("GET", "/api/images/st-0002?annotator=alice")
        assert code == 200 and saved["version"] == 1
        factor = saved["annotation"]["factors"][0]
        assert saved["annotation"]["status"] == "accepted"
        assert (factor["name"], factor["category"], factor["why"]) == (
            "a calendar on the wall",
            "near_miss",
            "it is blank",
        )
        x1, y1, x2, y2 = factor["box"]
        assert x1 == pytest.approx(100 * scale, abs=4 * scale)
        assert y1 == pytest.approx(100 * scale, abs=4 * scale)
        # resized beyond the drawn 300×250 corner by most of the 80×50 handle drag
        assert (300 + 60) * scale < x2 < (380 + 6) * scale
        assert (250 + 35) * scale < y2 < (300 + 6) * scale
        assert page.locator("#progress").inner_text() == "reviewed 1 of 3 · accepted 1"
        # reload: the saved annotation comes back
        page.goto(f"{served.url}&image=st-0002")
        page.wait_for_selector("body[data-image='st-0002']", state="attached")
        assert page.locator("#image-status").inner_text() == "accepted"
        page.locator("#boxes li").first.click()
        assert page.locator("#box-name").input_value() == "a calendar on the wall"
        assert page.locator("#box-category").input_value() == "near_miss"
        page.screenshot(path=str(shots / "reloaded.png"))
        # another annotator, in a browser context of its own, sees the draft, not alice's save
        second_browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True
        )
        other = second_browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        other.on("request", lambda r: hosts.add(re.sub(r"^(\w+://[^/]+).*", r"\1", r.url)))
        other.goto(
            f"http://127.0.0.1:{served.port}/?token={served.token}&annotator=bob&image=st-0002"
        )
        other.wait_for_selector("body[data-image='st-0002']", state="attached")
        assert other.locator("#annotator").inner_text() == "bob"
        assert other.locator("#boxes li").count() == 0
        assert other.locator("#image-status").inner_text() == "draft"
        other.keyboard.press("d")
        other.wait_for_selector("body[data-saved='1']", state="attached")
        assert served.api("GET", "/api/images/st-0002?annotator=bob")[1]["version"] == 1
        assert served.api("GET", "/api/images/st-0002?annotator=alice")[1]["version"] == 1
        other.screenshot(path=str(shots / "bob.png"))
        # a stale save: alice saves elsewhere (API) in between, the page says so
        assert (
            served.api("PUT", "/api/images/st-0002?annotator=alice", body("needs_work", 1))[0]
            == 200
        )
        page.keyboard.press("Delete")  # the selected box goes
        assert page.locator("#boxes li").count() == 0
        page.keyboard.press("n")
        page.wait_for_selector("#message:not([hidden])")
        assert "saved elsewhere since: reload" in page.locator("#message-text").inner_text().lower()
        assert page.locator("#dirty").is_visible()  # the edit is still there, marked unsaved
        page.screenshot(path=str(shots / "conflict.png"))
        assert served.api("GET", "/api/images/st-0002?annotator=alice")[1]["version"] == 2
        page.click("#overwrite")  # explicitly keep this page's version
        page.wait_for_selector("body[data-saved='3']", state="attached")
        latest = served.api("GET", "/api/images/st-0002?annotator=alice")[1]
        assert latest["annotation"] == {"status": "needs_work", "factors": []}
        second_browser.close()
        browser.close()
    expected = "the server responded with a status of 409"  # the stale save, on purpose
    assert [p for p in problems if expected not in p] == []
    assert hosts == {f"http://127.0.0.1:{served.port}"}, hosts
    if os.environ.get("PRIVBENCH_KEEP_SHOTS"):
        keep = Path(os.environ["PRIVBENCH_KEEP_SHOTS"])
        keep.mkdir(parents=True, exist_ok=True)
        for shot in shots.iterdir():
            shutil.copy(shot, keep / shot.name)


@pytest.mark.e2e
@needs_chromium
def test_a_lost_answer_to_a_save_is_checked_with_the_server(served: Server) -> None:
    """The answer to a save is cut after the server stored it: the page must not say
    "nothing saved"; it asks the server and says the save is there. Cut before the server
    gets it: the page says nothing was saved and keeps the edits."""
    from playwright.sync_api import Route, sync_playwright

    def lose_the_answer(route: Route) -> None:
        if route.request.method == "PUT":
            route.fetch()  # the server receives and stores the save ...
            route.abort("connectionreset")  # ... and its answer never reaches the page
        else:
            route.continue_()

    def lose_the_request(route: Route) -> None:
        if route.request.method == "PUT":
            route.abort("connectionreset")
        else:
            route.continue_()

    problems: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True
        )
        page = _open(browser.new_context(), served, "alice", problems, set())
        page.route("**/api/images/st-0001*", lose_the_answer)
        page.keyboard.press("n")
        page.wait_for_selector("body[data-saved='1']", state="attached")
        message = page.locator("#message-text").inner_text()
        assert "the answer was lost, the server has it" in message, message
        assert "nothing saved" not in message.lower()
        assert page.locator("#image-status").inner_text() == "needs_work"
        assert not page.locator("#dirty").is_visible()
        assert served.api("GET", "/api/images/st-0001?annotator=alice")[1]["version"] == 1
        page.unroute("**/api/images/st-0001*")
        page.route("**/api/images/st-0001*", lose_the_request)
        page.keyboard.press("d")
        page.locator("#message-text", has_text="does not have it").wait_for()
        assert "your edits are still here" in page.locator("#message-text").inner_text()
        assert served.api("GET", "/api/images/st-0001?annotator=alice")[1]["version"] == 1
        browser.close()
