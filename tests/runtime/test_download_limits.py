"""``privbench download priviq`` against servers and archives that send too much.

A real HTTP server on 127.0.0.1 (stdlib, in a thread) gzips a reply although asked not to,
sends a gzip bomb, an endless body, or announces more than the limit; archives declare
members larger than the limits or a name that is both a file and a folder. The limits are
set small here (a megabyte) and the data is zeros, so no test writes more than a few
megabytes to disk.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from helpers import FOUR_ITEMS, one_line_error, privbench, write_priviq

from privbench.runtime.archive import UnpackLimits
from privbench.runtime.download import fetch
from privbench.runtime.errors import PrivbenchError
from privbench.suites.priviq.release import download_priviq

MB = 1 << 20


@dataclass
class Served:
    """What the server sends and the ``Accept-Encoding`` of each request it saw."""

    body: bytes = b""
    mode: str = "plain"
    """plain, gzip (compressed though asked not to), endless, or announce (a huge size)."""
    encodings: list[str | None] = field(default_factory=list)


def _handler(served: Served) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            served.encodings.append(self.headers.get("Accept-Encoding"))
            self.send_response(200)
            if served.mode == "endless":  # no length, bytes until the client hangs up
                self.send_header("Connection", "close")
                self.end_headers()
                try:
                    while True:
                        self.wfile.write(b"\0" * 65536)
                except OSError:
                    return
            if served.mode == "announce":
                self.send_header("Content-Length", str(10 * MB))
                self.end_headers()
                with contextlib.suppress(OSError):
                    self.wfile.write(b"\0" * 65536)
                return
            body = served.body
            if served.mode == "gzip":
                body = gzip.compress(body)
                self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler


@pytest.fixture
def serve() -> Iterator[tuple[Served, str]]:
    served = Served()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(served))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield served, f"http://127.0.0.1:{httpd.server_address[1]}/Priv-IQ.zip"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _zip(source: Path, extra: dict[str, bytes] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(source.rglob("*")):
            if path.is_file():
                archive.write(path, "Priv-IQ/" + path.relative_to(source).as_posix())
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _left(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_a_server_that_gzips_anyway_is_downloaded_from(
    serve: tuple[Served, str], tmp_path: Path
) -> None:
    served, url = serve
    served.body = _zip(write_priviq(tmp_path / "src", FOUR_ITEMS))
    served.mode = "gzip"
    root = tmp_path / "rel"
    result = privbench("download", "priviq", "--url", url, "--dir", root)
    assert result.returncode == 0, result.stderr
    assert served.encodings == ["identity"]
    record = (root / "download.json").read_text(encoding="utf-8")
    assert hashlib.sha256(served.body).hexdigest() in record  # the zip, not its gzip
    assert _left(root) == ["download.json", "priv-iq"]


def test_a_gzip_bomb_stops_at_the_limit_and_leaves_nothing(
    serve: tuple[Served, str], tmp_path: Path
) -> None:
    served, url = serve
    served.body = b"\0" * (20 * MB)  # about 20 kB gzipped
    served.mode = "gzip"
    with pytest.raises(PrivbenchError) as caught:
        fetch(url, tmp_path / "Priv-IQ.zip", progress=False, max_bytes=MB)
    assert str(caught.value) == (
        f"{url}: the server's gzip body decodes to more than 1,048,576 bytes, the most "
        "privbench downloads; stopped there, nothing was kept"
    )
    assert _left(tmp_path) == []


def test_an_endless_body_stops_at_the_limit_and_leaves_nothing(
    serve: tuple[Served, str], tmp_path: Path
) -> None:
    served, url = serve
    served.mode = "endless"
    with pytest.raises(PrivbenchError) as caught:
        fetch(url, tmp_path / "Priv-IQ.zip", progress=False, max_bytes=MB)
    assert str(caught.value) == (
        f"{url}: the server sent more than 1,048,576 bytes (the most privbench downloads); "
        "stopped there, nothing was kept"
    )
    assert _left(tmp_path) == []


def test_an_announced_size_over_the_limit_is_refused_before_writing(
    serve: tuple[Served, str], tmp_path: Path
) -> None:
    served, url = serve
    served.mode = "announce"
    with pytest.raises(PrivbenchError) as caught:
        download_priviq(tmp_path / "rel", url, progress=False, max_bytes=MB)
    assert str(caught.value) == (
        f"{url}: the server announces 10,485,760 bytes, more than the 1,048,576 privbench "
        "downloads; nothing was kept"
    )
    assert _left(tmp_path / "rel") == []


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            {"Priv-IQ/images/huge.png": b"\0" * (3 * MB)},
            r"member 'Priv-IQ/images/huge\.png' declares 3,145,728 bytes, more than the "
            r"1,048,576 privbench unpacks from one file; nothing was unpacked$",
        ),
        (
            {f"Priv-IQ/extra/{i}.bin": b"\0" * (MB - 1) for i in range(3)},
            r"its files declare 3,1\d\d,\d\d\d bytes unpacked, more than the 2,097,152 "
            r"privbench unpacks; nothing was unpacked$",
        ),
    ],
    ids=["member", "total"],
)
def test_a_zip_bomb_is_refused_before_anything_is_unpacked(
    serve: tuple[Served, str], tmp_path: Path, extra: dict[str, bytes], message: str
) -> None:
    served, url = serve
    served.body = _zip(write_priviq(tmp_path / "src", FOUR_ITEMS), extra)
    root = tmp_path / "rel"
    limits = UnpackLimits(member=MB, total=2 * MB)
    with pytest.raises(PrivbenchError, match=message):
        download_priviq(root, url, progress=False, limits=limits)
    assert _left(root) == []  # no dataset, no staging folder, no zip


def test_an_index_file_padded_past_the_limit_is_refused(
    serve: tuple[Served, str], tmp_path: Path
) -> None:
    source = write_priviq(tmp_path / "src", FOUR_ITEMS)
    index = source / "priv-IQ.json"
    index.write_bytes(index.read_bytes() + b" " * (2 * MB))
    served, url = serve
    served.body = _zip(source)
    with pytest.raises(PrivbenchError, match=r"member 'Priv-IQ/priv-IQ.json' declares"):
        download_priviq(tmp_path / "rel", url, progress=False, limits=UnpackLimits(member=MB))
    assert _left(tmp_path / "rel") == []


def test_a_member_that_is_a_file_and_a_folder_is_one_line(
    serve: tuple[Served, str], tmp_path: Path
) -> None:
    served, url = serve
    source = write_priviq(tmp_path / "src", FOUR_ITEMS)
    served.body = _zip(source, {"Priv-IQ/images/a.png/x.txt": b"x"})
    root = tmp_path / "rel"
    result = privbench("download", "priviq", "--url", url, "--dir", root)
    assert result.returncode == 1
    assert one_line_error(result).endswith(
        "'Priv-IQ/images/a.png' is both a file and a folder in the archive (of "
        "'Priv-IQ/images/a.png/x.txt'); nothing was unpacked"
    )
    assert _left(root) == []
