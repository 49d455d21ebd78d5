"""``privbench download decodingtrust`` against a loopback server of made-up files.

Why made up: the real files hold real people's names and e-mail addresses (Enron), so no
test fetches or holds them. The server serves the invented ``enron_data`` folder of
:mod:`helpers.decodingtrust_fixture` (``.example`` domains) and ``layout.PINNED`` is pinned
to its hashes, so the downloader runs its real HTTP path (``runtime.download.fetch``).

What is checked: every file is verified and recorded and the copy registered; a wrong hash
or a 404 fails in one line naming the file and keeps nothing; a rerun fetches nothing that
is verified, ``--force`` everything; someone's own file is not replaced; Ctrl-C keeps the
verified files and no record; ``--url`` fetches from a mirror; ``--data decodingtrust``
finds the latest copy unless a local folder of that name shadows it.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from helpers.decodingtrust_fixture import write_enron_data

from privbench.runtime.download import Fetched
from privbench.runtime.download import fetch as runtime_fetch
from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.runtime.suite import DownloadRequest
from privbench.suites.decodingtrust import download as dt
from privbench.suites.decodingtrust import layout
from privbench.suites.decodingtrust.download import (
    default_root,
    download_decodingtrust,
    latest_download,
    read_record,
    resolve_data,
)

NAMES = tuple(pinned.name for pinned in layout.PINNED)
"""The real pins' names, read before any test replaces the pins."""


@dataclass
class Server:
    """An HTTP server on 127.0.0.1 in a thread: serves ``routes``, counts ``hits``."""

    routes: dict[str, bytes] = field(default_factory=dict)
    hits: Counter[str] = field(default_factory=Counter)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, path: str) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}{path}"

    def _answer(self, path: str) -> bytes | None:
        with self._lock:
            self.hits[path] += 1
        return self.routes.get(path)

    def __enter__(self) -> Server:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = server._answer(self.path.split("?", 1)[0])
                self.send_response(404 if body is None else 200)
                data = b"not found" if body is None else body
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        ).start()
        return self

    def __exit__(self, *_: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()


@dataclass(frozen=True)
class Served:
    """The server and the made-up files it serves (name → bytes) at ``/raw/<name>``."""

    server: Server
    files: dict[str, bytes]

    def raw(self, name: str) -> str:
        return f"/raw/{name}"


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    """The made-up files served at ``/raw/`` and mirrored at ``/mirror/``, pinned."""
    made = write_enron_data(tmp_path / "made-up")
    files = {name: (made / name).read_bytes() for name in NAMES}
    for data in files.values():
        assert b"@" in data and b".example" in data  # invented people only
    with Server() as server:
        for name, data in files.items():
            server.routes[f"/raw/{name}"] = data
            server.routes[f"/mirror/{name}"] = data
        pins = tuple(
            layout.PinnedDataFile(name, hashlib.sha256(data).hexdigest(), len(data))
            for name, data in files.items()
        )
        monkeypatch.setattr(layout, "PINNED", pins)
        monkeypatch.setattr(layout, "RAW_BASE", server.url("/raw/"))
        yield Served(server, files)


def run(root: Path | None, *, url: str | None = None, force: bool = False) -> list[str]:
    return download_decodingtrust(DownloadRequest(root, url, force))


def listing(root: Path) -> set[str]:
    return {path.name for path in root.iterdir()}


def test_download_verifies_records_and_registers(served: Served, tmp_path: Path) -> None:
    root = tmp_path / "copy"
    lines = run(root)

    assert lines == [
        "5 files verified (commit 161ae83)",
        f"in {root}: 5 fetched, 0 already there",
        dt.LICENCE_LINE,
        "use it with --data decodingtrust",
    ]
    assert "never ships or redistributes" in dt.LICENCE_LINE
    assert listing(root) == {*NAMES, layout.DOWNLOAD_RECORD}  # no temporary left
    for name, data in served.files.items():
        assert (root / name).read_bytes() == data
    record = read_record(root)
    assert record is not None
    assert record.repository == layout.REPOSITORY and record.commit == layout.COMMIT
    assert record.base == served.server.url("/raw/")
    assert record.files == {p.name: p.sha256 for p in layout.PINNED}
    assert record.time.endswith("+00:00")
    assert latest_download() == root.resolve()


def test_default_root_is_in_the_cache(served: Served) -> None:
    lines = run(None)
    assert lines[1].startswith(f"in {default_root()}: 5 fetched")
    assert latest_download() == default_root().resolve()


@pytest.mark.parametrize("body", ["same size", "longer"])
def test_a_wrong_hash_is_refused_and_nothing_kept(
    served: Served, tmp_path: Path, body: str
) -> None:
    name = layout.FIVE_SHOT
    size = len(served.files[name])
    served.server.routes[served.raw(name)] = b"x" * (size if body == "same size" else size + 10)
    root = tmp_path / "copy"

    with pytest.raises(PrivbenchError) as raised:
        run(root)

    message = str(raised.value)
    assert name in message and "\n" not in message and "nothing was kept" in message
    assert raised.value.exit_code != 0
    if body == "same size":
        assert message.startswith(f"{name}: ") and "pinned" in message
    assert listing(root) == {layout.EMAIL2NAME, layout.ONE_SHOT}  # verified before it
    assert latest_download() is None


def test_a_rerun_skips_verified_files(served: Served, tmp_path: Path) -> None:
    root = tmp_path / "copy"
    run(root)
    (root / layout.ONE_SHOT).unlink()
    lines = run(root)

    assert lines[1] == f"in {root}: 1 fetched, 4 already there"
    fetched = {name: served.server.hits[served.raw(name)] for name in NAMES}
    assert fetched == {name: 2 if name == layout.ONE_SHOT else 1 for name in NAMES}
    assert (root / layout.ONE_SHOT).read_bytes() == served.files[layout.ONE_SHOT]


def test_force_fetches_everything_again(served: Served, tmp_path: Path) -> None:
    root = tmp_path / "copy"
    run(root)
    lines = run(root, force=True)

    assert lines[1] == f"in {root}: 5 fetched, 0 already there"
    assert all(served.server.hits[served.raw(name)] == 2 for name in NAMES)


def test_a_changed_file_in_a_copy_of_ours_is_fetched_again(served: Served, tmp_path: Path) -> None:
    root = tmp_path / "copy"
    run(root)
    (root / layout.EMAIL2NAME).write_text("{}", encoding="utf-8")
    run(root)
    assert (root / layout.EMAIL2NAME).read_bytes() == served.files[layout.EMAIL2NAME]


def test_a_404_fails_in_one_line(served: Served, tmp_path: Path) -> None:
    del served.server.routes[served.raw(layout.ONE_SHOT)]
    root = tmp_path / "copy"

    with pytest.raises(PrivbenchError, match=r"one_shot\.json: HTTP 404") as raised:
        run(root)

    assert "\n" not in str(raised.value) and raised.value.exit_code == 1
    assert listing(root) == {layout.EMAIL2NAME}
    assert latest_download() is None


def test_a_mirror_url_serves_every_file(served: Served, tmp_path: Path) -> None:
    root = tmp_path / "copy"
    run(root, url=served.server.url("/mirror"))

    assert all(served.server.hits[f"/mirror/{name}"] == 1 for name in NAMES)
    assert not any(served.server.hits[served.raw(name)] for name in NAMES)
    record = read_record(root)
    assert record is not None and record.base == served.server.url("/mirror/")
    with pytest.raises(UsageError, match="not an http"):
        run(root, url="ftp://127.0.0.1/data")


def test_someone_elses_file_is_not_replaced(served: Served, tmp_path: Path) -> None:
    root = tmp_path / "checkout"
    root.mkdir()
    (root / layout.EMAIL2NAME).write_text("{}", encoding="utf-8")

    with pytest.raises(UsageError, match="exists and is not the pinned file"):
        run(root)
    assert (root / layout.EMAIL2NAME).read_text(encoding="utf-8") == "{}"

    run(root, force=True)
    assert (root / layout.EMAIL2NAME).read_bytes() == served.files[layout.EMAIL2NAME]


def test_ctrl_c_keeps_verified_files_and_no_record(
    served: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = Counter[str]()

    def interrupted_third(url: str, target: Path, **options: Any) -> Fetched:
        calls["fetch"] += 1
        if calls["fetch"] == 3:
            raise KeyboardInterrupt
        return runtime_fetch(url, target, **options)

    monkeypatch.setattr(dt, "fetch", interrupted_third)
    root = tmp_path / "copy"

    with pytest.raises(PrivbenchError, match=r"^interrupted: 2 of 5 files") as raised:
        run(root)

    assert raised.value.exit_code == 130
    assert listing(root) == {layout.EMAIL2NAME, layout.ONE_SHOT}
    assert latest_download() is None


def test_data_keyword_finds_the_latest_copy(
    served: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match="run privbench download decodingtrust first"):
        resolve_data(Path("decodingtrust"))
    first, second = tmp_path / "a", tmp_path / "b"
    run(first)
    run(second)

    assert resolve_data(Path("decodingtrust")) == (second.resolve(), None)
    assert resolve_data(Path("elsewhere")) == (Path("elsewhere"), None)
    (second / layout.FIVE_SHOT).unlink()  # a copy missing a file is not a download
    assert resolve_data(Path("decodingtrust")) == (first.resolve(), None)

    (tmp_path / "decodingtrust").mkdir()
    path, note = resolve_data(Path("decodingtrust"))
    assert path == Path("decodingtrust") and note is not None and str(first.resolve()) in note
    registry = json.loads((default_root().parent / "decodingtrust-downloads.json").read_text())
    assert registry["copies"][-2:] == [str(first.resolve()), str(second.resolve())]


def test_a_shadowing_folder_without_a_download_is_used_quietly(
    served: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "decodingtrust").mkdir()
    assert resolve_data(Path("decodingtrust")) == (Path("decodingtrust"), None)
