"""``privbench review DIR``: the review app on 127.0.0.1, its URL printed with the token.

Why the socket is bound here rather than by uvicorn: a port in use then ends with one
line (not uvicorn's log and exit), port 0 gives a free port whose URL can be printed
before the first request, and the address is 127.0.0.1 whatever the environment says.
"""

from __future__ import annotations

import getpass
import os
import socket
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

from privbench.review.access import OneTimeCode, new_token
from privbench.review.app import MAX_ANNOTATOR_CHARS, create_app, reviewed_suite
from privbench.runtime.errors import UsageError

HOST = "127.0.0.1"
FALLBACK_ANNOTATOR = "annotator"


def default_annotator() -> str:
    """The user's login name, or "annotator" when there is none the app would accept."""
    try:
        name = os.environ.get("USER") or getpass.getuser()
    except (KeyError, OSError):  # no login name (a container without a passwd entry)
        return FALLBACK_ANNOTATOR
    name = name.strip()
    if not name or len(name) > MAX_ANNOTATOR_CHARS or not name.isprintable():
        return FALLBACK_ANNOTATOR
    return name


def review_url(port: int, token: str, annotator: str) -> str:
    return f"http://{HOST}:{port}/?" + urlencode({"token": token, "annotator": annotator})


def opening_url(port: int, opening: OneTimeCode) -> str:
    """The URL the browser is started with: a one-time code, no token (see
    :mod:`privbench.review.access`)."""
    return f"http://{HOST}:{port}/open/{opening.code}"


def bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1 (``port`` 0: a free one), or a one-line error."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as error:
        sock.close()
        raise UsageError(f"cannot listen on {HOST}:{port} ({error.strerror}); try --port") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve(
    directory: Path,
    annotator: str,
    port: int,
    open_browser: bool,
    echo: Callable[[str], None],
    surveys: Path | None = None,
) -> None:
    """Run the review app until Ctrl-C (which ends it normally, not as an error)."""
    import uvicorn

    if not directory.is_dir():
        raise UsageError(f"{directory}: no such directory")
    suite, review = reviewed_suite(directory)
    if not (directory / suite.dataset_file).is_file():
        raise UsageError(
            f"{directory}: not a {suite.title} dataset (no {suite.dataset_file}); "
            f"make one with {review.made_with}"
        )
    token = new_token()
    if surveys is not None and not surveys.is_dir():
        raise UsageError(f"--surveys {surveys}: no such directory")
    opening = OneTimeCode()
    # DatasetError, StoreError: one line
    app = create_app(directory, token, annotator, surveys, opening=opening)
    sock = bind(port)
    url = review_url(sock.getsockname()[1], token, annotator)
    echo(f"reviewing {directory} as {annotator}: {url}")
    echo("saves go to review.sqlite in that folder; Ctrl-C stops the server")
    if surveys is not None:
        echo(f"rating forms of {surveys}: /rate/SURVEY_ID?token=… on the same address")
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    if open_browser:  # never the token's URL: a browser's command line is public (ps)
        first = opening_url(sock.getsockname()[1], opening)
        threading.Timer(0.5, webbrowser.open, args=(first,)).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn re-raises the Ctrl-C it handled: the normal end
        pass
    finally:
        sock.close()
