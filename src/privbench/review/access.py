"""Who may talk to the review app: whoever holds the token printed with its URL.

Why a token although the app binds 127.0.0.1: every local process and every web page the
reviewer opens can reach localhost; a random token in the URL (or an ``Authorization:
Bearer`` header) keeps other pages and users of the machine out. The comparison is
constant-time. Every response also carries a Content-Security-Policy that lets the page
load nothing from anywhere but the app itself.

Why the browser is opened on a one-time code and not on the token's URL: a program's
command line is readable by every user of the machine (``ps``), so a browser started
with the token in its arguments would hand the token to all of them. It gets
``/open/CODE`` instead (:class:`OneTimeCode`), which answers once, within a minute, with a
redirect to the token's URL; the command line then holds a code that is spent.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable

from fastapi import HTTPException, Request

TOKEN_BYTES = 24
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def presented_token(request: Request) -> str | None:
    """The token a request carries: ``?token=`` or ``Authorization: Bearer``."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.query_params.get("token")


def require_token(token: str) -> Callable[[Request], None]:
    """A FastAPI dependency refusing requests without ``token`` (401) or with another (403)."""

    def check(request: Request) -> None:
        given = presented_token(request)
        if not given:
            raise HTTPException(status_code=401, detail="missing token")
        if not secrets.compare_digest(given.encode("utf-8", "replace"), token.encode()):
            raise HTTPException(status_code=403, detail="wrong token")

    return check


OPEN_CODE_SECONDS = 60.0
"""How long the code the browser is opened with stays valid (it opens in about a second)."""


class OneTimeCode:
    """A random code that :meth:`redeem` accepts once, within ``seconds`` of its making.

    ``clock`` is :func:`time.monotonic` (a test passes another to age the code)."""

    def __init__(
        self, seconds: float = OPEN_CODE_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.code = secrets.token_urlsafe(TOKEN_BYTES)
        self._clock = clock
        self._expires = clock() + seconds
        self._spent = False
        self._lock = threading.Lock()

    def redeem(self, given: str) -> bool:
        """True the first time the right code is given in time; False ever after."""
        with self._lock:
            if self._spent or self._clock() > self._expires:
                return False
            if not secrets.compare_digest(given.encode("utf-8", "replace"), self.code.encode()):
                return False
            self._spent = True
            return True
