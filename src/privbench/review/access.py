"""Who may talk to the review app: whoever holds the token printed with its URL.

Why a token although the app binds 127.0.0.1: every local process and every web page the
reviewer opens can reach localhost; a random token in the URL (or an ``Authorization:
Bearer`` header) keeps other pages and users of the machine out. The comparison is
constant-time. Every response also carries a Content-Security-Policy that lets the page
load nothing from anywhere but the app itself.
"""

from __future__ import annotations

import secrets
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
        if not secrets.compare_digest(given.encode(), token.encode()):
            raise HTTPException(status_code=403, detail="wrong token")

    return check
