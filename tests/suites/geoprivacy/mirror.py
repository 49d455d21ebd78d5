"""A loopback stand-in for every place ``download geoprivacy`` fetches from.

Why: the downloader talks to GitHub, MediaFire, Flickr and the Hugging Face Hub; tests
must exercise the same HTTP path (``privbench.runtime.download.fetch``) without touching
the network. :class:`Mirror` is an HTTP server on 127.0.0.1 in a thread that serves
whatever a test adds (bytes, a status, a delay, bytes that change per request) and counts
the requests per path, so a test can assert that a rerun fetched nothing again.

:func:`build` fills it with a small benchmark: generated annotation files (pinned by their
own hashes), two released files, and photos for every source — two MediaFire-like landing
pages (a ``downloadButton`` link, a base64 ``data-scrambled-url``), a zip served directly,
a GeoEstimation-like url list, two parquet shards and their listing — with one dead link
(404), one web page instead of a photo, one photo whose bytes change between downloads,
one photo over the size bound, one address nobody listens on, and one slow reply (0.5 s).
The same photos are served under ``/mirror/images/`` for ``--url`` mirror mode.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import threading
import time
import zipfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]
from PIL import Image

from privbench.suites.geoprivacy import layout, sources
from privbench.suites.geoprivacy.layout import PinnedFile

Body = bytes | Callable[[int], bytes]
"""What a path answers: fixed bytes, or bytes made from the request's number (1, 2, …)."""
SLOW_S = 0.5


@dataclass(frozen=True)
class Route:
    body: Body
    status: int = 200
    content_type: str = "application/octet-stream"
    delay: float = 0.0


@dataclass
class Mirror:
    """The server: ``add`` paths, read ``hits``; use as a context manager."""

    routes: dict[str, Route] = field(default_factory=dict)
    hits: Counter[str] = field(default_factory=Counter)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def add(
        self,
        path: str,
        body: Body,
        *,
        status: int = 200,
        content_type: str = "application/octet-stream",
        delay: float = 0.0,
    ) -> str:
        """Serve ``body`` at ``path``; the full address."""
        self.routes[path] = Route(body, status, content_type, delay)
        return self.url(path)

    def url(self, path: str) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}{path}"

    def _answer(self, path: str) -> tuple[Route | None, bytes]:
        with self._lock:
            self.hits[path] += 1
            count = self.hits[path]
        route = self.routes.get(path)
        if route is None:
            return None, b"not found"
        body = route.body(count) if callable(route.body) else route.body
        return route, body

    def __enter__(self) -> Mirror:
        mirror = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                route, body = mirror._answer(self.path.split("?", 1)[0])
                if route is not None and route.delay:
                    time.sleep(route.delay)
                self.send_response(404 if route is None else route.status)
                kind = "text/plain" if route is None else route.content_type
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

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


# -- generated content --------------------------------------------------------------------


def photo(seed: int, size: tuple[int, int] = (24, 16)) -> bytes:
    """A small JPEG, different for every ``seed``."""
    colour = ((seed * 37) % 256, (seed * 91) % 256, (seed * 13) % 256)
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "JPEG")
    return out.getvalue()


def big_photo() -> bytes:
    """A decodable JPEG over the tests' 4 KiB photo bound (noise does not compress)."""
    out = io.BytesIO()
    Image.frombytes("L", (128, 128), hashlib.sha512(b"x").digest() * 256).save(
        out, "JPEG", quality=100
    )
    return out.getvalue()


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def _parquet(ids: list[int], images: list[bytes], struct: bool) -> bytes:
    """A shard like the Hub's conversion: ``photoid``, ``img`` (struct or binary), more."""
    img = (
        pa.array(
            [{"bytes": b, "path": None} for b in images],
            type=pa.struct([("bytes", pa.binary()), ("path", pa.string())]),
        )
        if struct
        else pa.array(images, type=pa.binary())
    )
    table = pa.table(
        {
            "photoid": pa.array(ids, type=pa.int64()),
            "img": img,
            "title": pa.array([f"t{i}" for i in ids]),
        }
    )
    out = io.BytesIO()
    pq.write_table(table, out, row_group_size=2)
    return bytes(out.getvalue())


def _csv(header: list[str], rows: list[list[str]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def _pinned(repo_path: str, name: str, data: bytes) -> PinnedFile:
    return PinnedFile(repo_path, name, hashlib.sha256(data).hexdigest(), len(data))


# (image id, source, photo seed); expected outcomes are in EXPECTED
IMAGES: list[tuple[str, str]] = [
    ("yfcc-4001", sources.YFCC4K),
    ("yfcc-4002", sources.YFCC4K),
    ("yfcc-4003", sources.YFCC4K),  # not in the zip: gone
    ("im2gps3k-3001", sources.IM2GPS3K),
    ("im2gps3k-3002", sources.IM2GPS3K),
    ("gptgeochat-5001", sources.GPTGEOCHAT),
    ("gptgeochat-5002", sources.GPTGEOCHAT),
    ("yfcc-2601", sources.YFCC26K),  # plain
    ("yfcc-2602", sources.YFCC26K),  # slow reply (slow_reply)
    ("yfcc-2603", sources.YFCC26K),  # 404: gone
    ("yfcc-2604", sources.YFCC26K),  # a web page: gone
    ("yfcc-2605", sources.YFCC26K),  # bytes change per request
    ("yfcc-2606", sources.YFCC26K),  # over the size bound: unreadable
    ("yfcc-2607", sources.YFCC26K),  # nobody listens: gone
    ("yfcc-2608", sources.YFCC26K),  # not in the url list: gone
    ("yfcc-7001", sources.OPENAI_TRAIN),  # shard 0 (struct img)
    ("yfcc-7002", sources.OPENAI_TRAIN),  # shard 1 (binary img)
    ("yfcc-7003", sources.OPENAI_TRAIN),  # not in any shard: gone
    ("yfcc-7101", sources.OPENAI_VALID),
]
EXPECTED: dict[str, dict[str, int]] = {
    sources.YFCC4K: {"present": 2, "gone": 1},
    sources.IM2GPS3K: {"present": 2},
    sources.GPTGEOCHAT: {"present": 2},
    sources.YFCC26K: {"present": 3, "gone": 4, "unreadable": 1},
    sources.OPENAI_TRAIN: {"present": 2, "gone": 1},
    sources.OPENAI_VALID: {"present": 1},
}
PHOTO_LIMIT = 4096
"""The tests' photo bound (bytes): every generated photo but :func:`big_photo` is below."""


def seed(image_id: str) -> int:
    return int(sources.numeric_id(image_id))


def changing(count: int) -> bytes:
    """yfcc-2605: other bytes on every request (a photo replaced at its source)."""
    return photo(2605 + 1000 * count)


@dataclass
class Fixture:
    """What :func:`build` served: the mirror, its addresses, the pinned files."""

    mirror: Mirror
    endpoints: sources.Endpoints
    annotations: tuple[PinnedFile, ...]
    raw_base: str
    manifest: Path
    mirror_base: str
    metadata: list[tuple[str, str]]

    def limits(self) -> sources.SourceLimits:
        return sources.SourceLimits(image_bytes=PHOTO_LIMIT, timeout=5.0, workers=4)


def _landing_button(link: str) -> bytes:
    return (
        f'<html><body><a class="input popsok" aria-label="Download file" '
        f'href="{link}" id="downloadButton">Download</a></body></html>'
    ).encode()


def _landing_scrambled(link: str) -> bytes:
    scrambled = base64.b64encode(link.encode()).decode()
    return (
        f'<html><body><a href="javascript:void(0)" id="downloadButton" '
        f'data-scrambled-url="{scrambled}">Download</a></body></html>'
    ).encode()


def _annotations(mirror: Mirror, metadata: list[tuple[str, str]]) -> tuple[PinnedFile, ...]:
    files = {
        layout.METADATA_FILE: _csv(
            ["image_id", "image_source", "true_coordinate", "sharing_intent"],
            [[image_id, source, "[1.0, 2.0]", "0"] for image_id, source in metadata],
        ),
        layout.LABELS_FILE: _csv(
            ["id", "Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7"],
            [[sources.numeric_id(i), *"ABABABA"] for i, _ in metadata],
        ),
        layout.FIGSTEP_FILE: photo(99),
    }
    pinned = tuple(_pinned(f"data/{name}", name, data) for name, data in files.items())
    for entry in pinned:
        data = files[entry.name]
        mirror.add(f"/raw/{entry.repo_path}", data)
        mirror.add(f"/mirror/{entry.repo_path}", data)
    return pinned


def _released(mirror: Mirror, folder: Path) -> Path:
    released = {
        "evaluation/main/mcq/api_gen_zs_heuristics_o3_combined.json": b'[{"id": "4001"}]',
        "evaluation/main/zs/responses/api_gen_zs_free-form_o3_combined.json": b"[]",
    }
    for path, data in released.items():
        mirror.add(f"/raw/{path}", data)
        mirror.add(f"/mirror/{path}", data)
    manifest = folder / "release.json"
    files = [
        {"path": p, "sha256": hashlib.sha256(d).hexdigest(), "size": len(d)}
        for p, d in released.items()
    ]
    manifest.write_text(json.dumps({"files": files}), encoding="utf-8")
    return manifest


def _zips(mirror: Mirror) -> sources.Endpoints:
    yfcc4k = _zip(
        {
            "yfcc4k/4001.jpg": photo(4001),
            "yfcc4k/4002.jpg": photo(4002),
            "yfcc4k/9999.jpg": photo(9999),  # not needed: never read
            "__MACOSX/yfcc4k/._4001.jpg": b"mac metadata",
        }
    )
    im2gps = _zip(
        {
            "im2gps3ktest/3001_d7c4159106_22_25159586@N00.jpg": photo(3001),
            "im2gps3ktest/3002_aa_1_1@N00.jpg": photo(3002),
            "im2gps3ktest/3003_bb_1_1@N00.jpg": photo(3003),
        }
    )
    human = _zip(
        {
            "human/train/images/5001.jpg": photo(5001),
            "human/val/images/5002.jpg": photo(5002),
            "human/train/annotations/5001.json": b"{}",
        }
    )
    yfcc4k_link = mirror.add("/download1234/abc/yfcc4k.zip", yfcc4k)
    im2gps_link = mirror.add("/download77/def/im2gps3ktest.zip", im2gps)
    return sources.Endpoints(
        yfcc4k=mirror.add(
            "/mf/file/yfcc4k.zip", _landing_button(yfcc4k_link), content_type="text/html"
        ),
        im2gps3k=mirror.add(
            "/mf/file/im2gps3ktest.zip", _landing_scrambled(im2gps_link), content_type="text/html"
        ),
        gptgeochat=mirror.add("/mf/file/human.zip/file", human, content_type="application/zip"),
    )


def _flickr(mirror: Mirror) -> str:
    """The yfcc26k photos and their url list; the list's address."""
    page = b"<!DOCTYPE html><html><body>This photo is no longer available</body></html>"
    urls = {
        "2601": mirror.add("/flickr/2601.jpg", photo(2601)),
        "2602": mirror.add("/flickr/2602.jpg", photo(2602)),  # slow_reply() delays it
        "2603": mirror.url("/flickr/2603.jpg"),  # no route: 404
        "2604": mirror.add("/flickr/2604.jpg", page, content_type="text/html"),
        "2605": mirror.add("/flickr/2605.jpg", changing),
        "2606": mirror.add("/flickr/2606.jpg", big_photo()),
        "2607": "http://127.0.0.1:1/2607.jpg",
    }
    rows = [f"{n[:2]}/{n[2:]}/{n}.jpg,{url}" for n, url in urls.items()]
    rows.append("00/00/1111.jpg,http://127.0.0.1:1/1111.jpg")  # not needed
    return mirror.add("/geo/yfcc25600_urls.csv", ("\n".join(rows) + "\n").encode())


def slow_reply(mirror: Mirror) -> None:
    """Answer yfcc-2602 after :data:`SLOW_S` (below any timeout): a slow photo arrives."""
    mirror.add("/flickr/2602.jpg", photo(2602), delay=SLOW_S)


def _hub(mirror: Mirror) -> str:
    """The parquet shards and listings of both splits; the listing address template."""
    train = [
        mirror.add(
            "/hub/train/0000.parquet",
            _parquet([1, 7001, 2, 3], [b"x", photo(7001), b"y", b"z"], struct=True),
        ),
        mirror.add(
            "/hub/train/0001.parquet", _parquet([4, 7002], [b"w", photo(7002)], struct=False)
        ),
    ]
    valid = [
        mirror.add("/hub/validation/0000.parquet", _parquet([7101], [photo(7101)], struct=True))
    ]
    mirror.add("/hub/api/train", json.dumps(train).encode(), content_type="application/json")
    mirror.add("/hub/api/validation", json.dumps(valid).encode(), content_type="application/json")
    return mirror.url("/hub/api/{split}")


def _mirror_images(mirror: Mirror) -> None:
    """``/mirror/images/<id>.jpg``: every photo but yfcc-2603 (404) and yfcc-7003."""
    for image_id, _ in IMAGES:
        if image_id in ("yfcc-2603", "yfcc-7003"):
            continue
        body: Body = changing if image_id == "yfcc-2605" else photo(seed(image_id))
        if image_id == "yfcc-2606":
            body = big_photo()
        mirror.add(f"/mirror/images/{image_id}.jpg", body)


def build(mirror: Mirror, folder: Path) -> Fixture:
    """Serve the whole small benchmark from ``mirror``; ``folder`` holds the manifest."""
    metadata = list(IMAGES)
    annotations = _annotations(mirror, metadata)
    manifest = _released(mirror, folder)
    zips = _zips(mirror)
    endpoints = sources.Endpoints(
        yfcc4k=zips.yfcc4k,
        im2gps3k=zips.im2gps3k,
        gptgeochat=zips.gptgeochat,
        yfcc26k_urls=_flickr(mirror),
        parquet_listing=_hub(mirror),
    )
    _mirror_images(mirror)
    return Fixture(
        mirror,
        endpoints,
        annotations,
        mirror.url("/raw/"),
        manifest,
        mirror.url("/mirror"),
        metadata,
    )
