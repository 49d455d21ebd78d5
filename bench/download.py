"""``download priviq``: what do the download limits cost in throughput?

A 200 MB zip (stored photos-like random bytes, so nothing compresses) is served by a
stdlib HTTP server on 127.0.0.1 with its ``Content-Length``; it is downloaded with
:func:`privbench.runtime.download.fetch` as it is now (``Accept-Encoding: identity``, raw
bytes counted against the announced size and the 2 GiB maximum) and with the module as
it was before the limits (``git show d4d1596:src/privbench/runtime/download.py``, which
read the decoded stream without a bound). Each is run ``--repeats`` times, alternating;
printed: the median MB/s of each and their ratio (now / before; 1.00 = no cost).

Run: ``PYTHONPATH=src .venv/bin/python bench/download.py [--mb 200] [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType

from privbench.runtime import download

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "d4d1596"
"""The last commit whose download module had no limits."""


def build_zip(path: Path, megabytes: int) -> None:
    """A zip of ``megabytes`` MB of random "photos" (8 MB each), stored uncompressed."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for index in range(0, megabytes, 8):
            size = min(8, megabytes - index) * 1_000_000
            archive.writestr(f"Priv-IQ/images/{index:04d}.jpg", os.urandom(size))


def serve(archive: Path) -> tuple[ThreadingHTTPServer, str]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Length", str(archive.stat().st_size))
            self.end_headers()
            with archive.open("rb") as handle:
                shutil.copyfileobj(handle, self.wfile, 1 << 20)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/Priv-IQ.zip"


def old_module(directory: Path) -> ModuleType | None:
    """The download module before the limits, from git (None outside a checkout)."""
    try:
        source = subprocess.run(
            ["git", "show", f"{BEFORE}:src/privbench/runtime/download.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    path = directory / "download_before.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("download_before", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def timed(fetch: Callable[..., object], url: str, target: Path) -> float:
    """Seconds to download ``url`` to ``target`` (deleted afterwards)."""
    start = time.perf_counter()
    fetch(url, target, restart=True, progress=False)
    seconds = time.perf_counter() - start
    target.unlink()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="privbench-download-bench-") as folder:
        work = Path(folder)
        archive = work / "served.zip"
        build_zip(archive, options.mb)
        size_mb = archive.stat().st_size / 1e6
        httpd, url = serve(archive)
        before = old_module(work)
        kinds: dict[str, Callable[..., object]] = {"now (limits)": download.fetch}
        if before is not None:
            kinds["before (no limits)"] = before.fetch
        seconds: dict[str, list[float]] = {kind: [] for kind in kinds}
        try:
            for _ in range(options.repeats):
                for kind, fetch in kinds.items():
                    seconds[kind].append(timed(fetch, url, work / "Priv-IQ.zip"))
        finally:
            httpd.shutdown()
            httpd.server_close()
    print(
        f"download of a {size_mb:.0f} MB zip from 127.0.0.1, median of {options.repeats} "
        f"(limits: at most the announced size, {download.MAX_DOWNLOAD_BYTES:,} bytes in all)"
    )
    rates = {kind: size_mb / statistics.median(values) for kind, values in seconds.items()}
    for kind, rate in rates.items():
        print(f"  {kind:<20} {rate:8.1f} MB/s")
    if before is None:
        print(f"  before: not measured (git show {BEFORE} failed: not a checkout?)")
    else:
        ratio = rates["now (limits)"] / rates["before (no limits)"]
        print(f"  ratio now / before: {ratio:.2f}")


if __name__ == "__main__":
    main()
