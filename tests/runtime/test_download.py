"""``privbench download priviq`` against a real HTTP server on 127.0.0.1.

The server (stdlib ``http.server`` in a thread) serves a zip in the release's layout built
here, honours ``Range`` and can break the connection halfway, answer 404, or ignore
ranges; it records every request's ``Range`` header. Nothing leaves the machine.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import socket
import threading
import time
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers import FOUR_ITEMS, error_line, item, one_line_error, privbench, write_priviq

from privbench.dataset_identity import dataset_hash
from privbench.runtime.archive import dataset_roots, is_metadata, member_problem
from privbench.runtime.download import parse_content_range, range_outcome
from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.suites.priviq import release
from privbench.suites.priviq.release import (
    default_root,
    download_priviq,
    latest_release,
    recorded_release_hashes,
    resolve_data,
)


class Release:
    """What the server serves and what it saw."""

    def __init__(self, body: bytes) -> None:
        self.body = body
        self.ranges: list[str | None] = []
        self.drop_first_at: int | None = None
        """Send only this many bytes of the first reply, then close the connection."""
        self.status: int | None = None
        self.ignore_ranges = False


def _handler(served: Release) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            asked = self.headers.get("Range")
            served.ranges.append(asked)
            if served.status is not None:
                self.send_error(served.status)
                return
            body, start = served.body, 0
            if asked and not served.ignore_ranges:
                start = int(asked.removeprefix("bytes=").split("-")[0])
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
            else:
                self.send_response(200)
            self.send_header("Content-Length", str(len(body) - start))
            self.send_header("ETag", '"v1"')
            self.end_headers()
            if served.drop_first_at is not None and len(served.ranges) == 1:
                self.wfile.write(body[: served.drop_first_at])
                self.wfile.flush()
                time.sleep(0.3)  # the bytes arrive on their own, before the close
                self.close_connection = True
                return
            self.wfile.write(body[start:])

    return Handler


@pytest.fixture
def serve() -> Iterator[tuple[Release, str]]:
    """A server of a zip set later by the test, and the zip's address."""
    served = Release(b"")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(served))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield served, f"http://127.0.0.1:{httpd.server_address[1]}/releases/Priv-IQ.zip"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _zip(source: Path, top: str = "Priv-IQ/", extra: dict[str, bytes] | None = None) -> bytes:
    """A zip of ``source`` under folder ``top``, with a Mac archiver's metadata beside."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(source.rglob("*")):
            if path.is_file():
                archive.write(path, top + path.relative_to(source).as_posix())
        archive.writestr(f"__MACOSX/{top}._priv-IQ.json", b"\x00\x05\x16\x07 not json")
        archive.writestr(f"{top}._priv-IQ.json", b"\x00\x05\x16\x07")
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.fixture
def release_zip(tmp_path: Path) -> bytes:
    """The four test items, under ``Priv-IQ/`` as a release would unpack."""
    return _zip(write_priviq(tmp_path / "release-source", FOUR_ITEMS))


def _record(root: Path) -> dict[str, object]:
    document: dict[str, object] = json.loads((root / "download.json").read_text())
    return document


# --- pure parts, on hand-made cases ----------------------------------------------------


def test_content_range_and_what_a_reply_means() -> None:
    assert parse_content_range("bytes 100-199/200") == (100, 199, 200)
    assert parse_content_range("bytes 5-9/*") == (5, 9, None)
    assert parse_content_range("items 1-2/3") is None and parse_content_range(None) is None
    assert range_outcome(206, 100, "bytes 100-199/200") == "append"
    assert range_outcome(206, 100, "bytes 0-199/200") == "retry"  # another range
    assert range_outcome(206, 0, "bytes 0-199/200") == "retry"  # nothing was asked
    assert range_outcome(200, 100, None) == "whole"  # the range ignored: start over
    assert range_outcome(200, 0, None) == "whole"
    assert range_outcome(416, 100, "bytes */50") == "retry"
    assert range_outcome(404, 0, None) == "fail"
    assert range_outcome(503, 100, None) == "fail"


def test_member_names_that_would_leave_the_folder() -> None:
    assert member_problem("Priv-IQ/images/a.png") is None
    assert member_problem("a..b/c.png") is None  # dots inside a name are fine
    assert member_problem("../evil.txt") == "a '..' component"
    assert member_problem("Priv-IQ/../../evil.txt") == "a '..' component"
    assert member_problem("Priv-IQ\\..\\evil.txt") == "a '..' component"
    assert member_problem("/etc/evil") == "an absolute path"
    assert member_problem("C:/evil") == "an absolute path"
    assert member_problem("\\\\server\\evil") == "an absolute path"


def test_the_dataset_root_inside_an_archive() -> None:
    assert dataset_roots(["priv-IQ.json", "images/a.png"], "priv-IQ.json") == [""]
    assert dataset_roots(["Priv-IQ/priv-IQ.json", "Priv-IQ/images/a.png"], "priv-IQ.json") == [
        "Priv-IQ"
    ]
    names = ["x/y/priv-IQ.json", "x/y/old/priv-IQ.json", "__MACOSX/x/priv-IQ.json"]
    assert dataset_roots(names, "priv-IQ.json") == ["x/y"]  # the shallowest; metadata skipped
    assert dataset_roots(["a/priv-IQ.json", "b/priv-IQ.json"], "priv-IQ.json") == ["a", "b"]
    assert dataset_roots(["a/priv-iq.json", "README.md"], "priv-IQ.json") == []
    assert is_metadata("__MACOSX/a/b") and is_metadata("a/._b.png")
    assert not is_metadata("a/b.png")


# --- the command ---------------------------------------------------------------------


def test_download_unpacks_validates_and_records(
    serve: tuple[Release, str], release_zip: bytes, tmp_path: Path
) -> None:
    served, url = serve
    served.body = release_zip
    result = privbench("download", "priviq", "--url", url, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    root = default_root()
    dataset = root / "priv-iq"
    assert sorted(p.name for p in root.iterdir()) == ["download.json", "priv-iq"]
    assert sorted(p.name for p in dataset.iterdir()) == ["images", "priv-IQ.json"]
    assert len(list((dataset / "images").iterdir())) == 4  # no ._ resource files
    record = _record(root)
    assert record == {
        "url": url,
        "sha256": hashlib.sha256(release_zip).hexdigest(),
        "verified": False,
        "dataset_hash": dataset_hash(dataset),
        "files": 5,
        "items": 4,
        "archive_root": "Priv-IQ",
    }
    assert f"Priv-IQ data: 4 items, 5 files in {dataset}" in result.stdout
    assert f"data from {url}, not verified against the release" in result.stdout
    assert recorded_release_hashes() == frozenset({dataset_hash(dataset)})
    assert served.ranges == [None]

    again = privbench("download", "priviq", "--url", url, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "already downloaded" in again.stdout and str(dataset) in again.stdout
    assert served.ranges == [None]  # nothing fetched

    forced = privbench("download", "priviq", "--url", url, "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert served.ranges == [None, None] and _record(root) == record


def test_data_priviq_means_the_downloaded_copy(
    serve: tuple[Release, str], release_zip: bytes, tmp_path: Path
) -> None:
    served, url = serve
    served.body = release_zip
    assert privbench("download", "priviq", "--url", url).returncode == 0
    checked = privbench("validate", "priviq", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert f"{default_root() / 'priv-iq'}: Priv-IQ, 4 items" in checked.stdout
    # a dry run plans the downloaded copy's 4 items, not the shipped suite's 146
    planned = privbench(
        "eval", "priviq", "--data", "priviq", "--model", "openai/gpt-4o",
        "--judge", "openai/gpt-4o", "--dry-run", "--json", cwd=tmp_path,
    )  # fmt: skip
    assert planned.returncode == 0, planned.stderr
    assert json.loads(planned.stdout)["calls"] == {"model": 4, "judge": 4}
    run = privbench(
        "eval", "priviq", "--data", "priviq", "--model", "privbench/ocr-pii",
        "--judge", "offline", "--log-dir", tmp_path / "logs", "--json", cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    document = json.loads(run.stdout)
    assert document["status"] == "complete" and document["counts"]["items"] == 4
    assert document["dataset_hash"] in recorded_release_hashes()


def test_an_existing_folder_named_priviq_wins_with_a_note(
    serve: tuple[Release, str], release_zip: bytes, tmp_path: Path
) -> None:
    here = tmp_path / "work"
    write_priviq(here / "priviq", {"x": item("Any card?", "Yes", ["VizPriv"])})
    alone = privbench("validate", "priviq", cwd=here)  # no download: the folder, silently
    assert alone.returncode == 0 and "1 items" in alone.stdout and not alone.stderr
    served, url = serve
    served.body = release_zip
    assert privbench("download", "priviq", "--url", url).returncode == 0
    shadowed = privbench("validate", "priviq", cwd=here)
    assert shadowed.returncode == 0, shadowed.stderr
    assert "priviq: Priv-IQ, 1 items" in shadowed.stdout
    assert shadowed.stderr.strip() == (
        f"note: priviq: using ./priviq in this folder, not the downloaded release "
        f"(give {default_root() / 'priv-iq'} for the release)"
    )


def test_data_priviq_without_a_download_says_what_to_run(tmp_path: Path) -> None:
    result = privbench("validate", "priviq", cwd=tmp_path)
    assert result.returncode == 2
    assert "run privbench download priviq first" in one_line_error(result)
    graded = privbench(
        "grade", "priviq", "--data", "priviq", "--predictions", tmp_path / "r.json",
        "--judge", "offline", cwd=tmp_path,
    )  # fmt: skip
    assert graded.returncode == 2
    assert "run privbench download priviq first" in one_line_error(graded)


def test_a_broken_connection_is_resumed_with_a_range(
    serve: tuple[Release, str], release_zip: bytes, tmp_path: Path
) -> None:
    served, url = serve
    source = write_priviq(tmp_path / "src", FOUR_ITEMS)
    served.body = _zip(source, extra={"Priv-IQ/README.txt": b"Priv-IQ\n" * 40_000})
    half = len(served.body) // 2
    served.drop_first_at = half
    first = privbench("download", "priviq", "--url", url, "--dir", tmp_path / "rel")
    assert first.returncode == 1
    line = error_line(first)
    part = tmp_path / "rel" / "Priv-IQ.zip.part"
    kept = part.stat().st_size
    assert 0 < kept <= half
    assert line.startswith(f"error: {url}: download failed")
    assert line.endswith(f"{kept:,} bytes kept in {part}, a rerun resumes")
    assert not (tmp_path / "rel" / "download.json").exists()

    second = privbench("download", "priviq", "--url", url, "--dir", tmp_path / "rel")
    assert second.returncode == 0, second.stderr
    assert served.ranges == [None, f"bytes={kept}-"]
    assert _record(tmp_path / "rel")["sha256"] == hashlib.sha256(served.body).hexdigest()
    assert not part.exists() and not (tmp_path / "rel" / "Priv-IQ.zip").exists()


def test_a_server_that_ignores_ranges_starts_over(
    serve: tuple[Release, str], release_zip: bytes, tmp_path: Path
) -> None:
    served, url = serve
    source = write_priviq(tmp_path / "src", FOUR_ITEMS)
    served.body = _zip(source, extra={"Priv-IQ/README.txt": b"Priv-IQ\n" * 40_000})
    served.drop_first_at = len(served.body) // 2
    served.ignore_ranges = True
    assert download_fails(url, tmp_path / "rel")
    kept = (tmp_path / "rel" / "Priv-IQ.zip.part").stat().st_size
    assert kept > 0
    found = download_priviq(tmp_path / "rel", url, progress=False)
    assert served.ranges == [None, f"bytes={kept}-"]  # asked for the rest, got the whole file
    assert found.record.sha256 == hashlib.sha256(served.body).hexdigest()


def download_fails(url: str, root: Path) -> bool:
    try:
        download_priviq(root, url, progress=False)
    except PrivbenchError:
        return True
    return False


def test_http_404_is_one_line(serve: tuple[Release, str], tmp_path: Path) -> None:
    served, url = serve
    served.status = 404
    result = privbench("download", "priviq", "--url", url, "--dir", tmp_path / "rel")
    assert result.returncode == 1
    assert one_line_error(result) == f"error: {url}: HTTP 404 Not Found"


def test_connection_refused_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/Priv-IQ.zip"
    result = privbench("download", "priviq", "--url", url, "--dir", tmp_path / "rel")
    assert result.returncode == 1
    line = one_line_error(result)
    assert line.startswith(f"error: {url}: cannot connect") and "refused" in line


def test_zip_slip_is_refused(serve: tuple[Release, str], tmp_path: Path) -> None:
    served, url = serve
    source = write_priviq(tmp_path / "src", FOUR_ITEMS)
    served.body = _zip(source, extra={"Priv-IQ/../../evil.txt": b"owned"})
    result = privbench("download", "priviq", "--url", url, "--dir", tmp_path / "a" / "rel")
    assert result.returncode == 1
    line = one_line_error(result)
    assert "member 'Priv-IQ/../../evil.txt' has a '..' component" in line
    assert not (tmp_path / "evil.txt").exists() and not (tmp_path / "a" / "evil.txt").exists()
    assert not (tmp_path / "a" / "rel" / "priv-iq").exists()


def test_an_invalid_dataset_is_one_line_and_the_zip_is_kept(
    serve: tuple[Release, str], tmp_path: Path
) -> None:
    served, url = serve
    source = write_priviq(tmp_path / "src", FOUR_ITEMS)
    (source / "images" / "b.png").unlink()
    (source / "images" / "c.png").write_bytes(b"not a png")
    served.body = _zip(source)
    root = tmp_path / "rel"
    result = privbench("download", "priviq", "--url", url, "--dir", root)
    assert result.returncode == 1
    line = one_line_error(result)
    assert "the archive's dataset has 2 problem(s); the first: " in line
    assert "Priv-IQ.zip:Priv-IQ/priv-IQ.json: item b: missing image" in line
    assert (root / "Priv-IQ.zip").read_bytes() == served.body
    assert sorted(p.name for p in root.iterdir()) == ["Priv-IQ.zip"]


def test_an_archive_without_the_index_file(serve: tuple[Release, str], tmp_path: Path) -> None:
    served, url = serve
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("data/questions.json", "{}")
    served.body = buffer.getvalue()
    result = privbench("download", "priviq", "--url", url, "--dir", tmp_path / "rel")
    assert result.returncode == 1
    assert "no priv-IQ.json in the archive" in one_line_error(result)
    served.body = b"<html>not a zip</html>"
    result = privbench("download", "priviq", "--url", url, "--dir", tmp_path / "rel")
    assert "not a zip archive" in one_line_error(result)


def test_only_the_pinned_content_hash_is_the_release(
    serve: tuple[Release, str], release_zip: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served, url = serve
    served.body = release_zip
    # nothing pinned: the data is named by where it came from, never "the release"
    found = download_priviq(tmp_path / "first", url, progress=False)
    assert not found.record.verified
    assert found.lines()[0].startswith("Priv-IQ data: 4 items")
    assert found.lines()[1].startswith(
        f"data from {url}, not verified against the release (privbench pins no release hash)"
    )
    assert not any("Priv-IQ release" in line for line in found.lines())
    # a pinned hash that differs (a mirror with one answer changed): refused, zip kept
    monkeypatch.setattr(release, "RELEASE_DATASET_HASH", "0" * 64)
    with pytest.raises(PrivbenchError, match=r"is not the release's 0{64}; nothing was unpacked"):
        download_priviq(tmp_path / "rel", url, progress=False)
    assert not (tmp_path / "rel" / "priv-iq").exists()
    assert (tmp_path / "rel" / "Priv-IQ.zip").read_bytes() == release_zip
    # the pinned hash itself, from any address: the release
    monkeypatch.setattr(release, "RELEASE_DATASET_HASH", found.record.dataset_hash)
    pinned = download_priviq(tmp_path / "rel", url, progress=False)
    assert pinned.record.verified
    assert pinned.lines()[0].startswith("Priv-IQ release: 4 items")
    assert pinned.lines()[1].startswith("the public release (content hash verified)")


def test_copies_in_other_folders_are_recorded(
    serve: tuple[Release, str], release_zip: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no ./priviq here
    served, url = serve
    served.body = release_zip
    default = download_priviq(None, url, progress=False)
    other_zip = _zip(write_priviq(tmp_path / "other", {"z": item("Q?", "A", ["Law"])}), top="")
    served.body = other_zip
    elsewhere = download_priviq(tmp_path / "rel", url, progress=False)
    assert elsewhere.record.archive_root == "" and elsewhere.record.items == 1
    assert recorded_release_hashes() == {
        default.record.dataset_hash,
        elsewhere.record.dataset_hash,
    }
    latest = latest_release()
    assert latest is not None and latest.root == (tmp_path / "rel").resolve()
    assert resolve_data(Path("priviq")) == (elsewhere.dataset, None)


def test_a_folder_that_is_not_a_download_is_left_alone(
    serve: tuple[Release, str], release_zip: bytes, tmp_path: Path
) -> None:
    served, url = serve
    served.body = release_zip
    mine = write_priviq(tmp_path / "rel" / "priv-iq", FOUR_ITEMS)
    with pytest.raises(UsageError, match="not a copy privbench downloaded"):
        download_priviq(tmp_path / "rel", url, force=True, progress=False)
    assert (mine / "priv-IQ.json").exists() and served.ranges == []


def test_an_archive_larger_than_the_free_disk_is_refused(
    serve: tuple[Release, str], release_zip: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served, url = serve
    served.body = release_zip
    monkeypatch.setattr(shutil, "disk_usage", lambda _: SimpleNamespace(free=10))
    with pytest.raises(PrivbenchError, match=r"unpacked it needs [\d,]+ bytes, 10 are free"):
        download_priviq(tmp_path / "rel", url, progress=False)
    assert sorted(p.name for p in (tmp_path / "rel").iterdir()) == ["Priv-IQ.zip"]
