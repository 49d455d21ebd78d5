"""Keep API keys and URL credentials out of anything privbench prints or writes.

Why: model outputs, exceptions from provider SDKs, inspect logs and exports can all carry
a request's headers, a key a server echoed back in an error body, or a password pasted
into a base URL (``http://user:pw@host/v1``). Every user-facing message and every export
passes through :func:`redact`, and every run's log through
:func:`privbench.runtime.log_secrets.scrub_log`.

What counts as a secret:

* the value of every environment variable whose name looks like it holds one
  (``*_API_KEY``, ``*_KEY``, ``*TOKEN``, ``*SECRET``, ``*PASSWORD``), and the password
  of any URL in the environment (a ``*_BASE_URL`` with ``user:pw@``);
* every value this process has redacted before (:func:`remember_secret`), so a key stays
  redacted after its variable is unset (or a key given as a model argument, never in the
  environment, is redacted at all);
* whatever *looks* like a credential even when its value is unknown (a shell that runs
  ``privbench show`` usually has no key set): the user info of any URL (→
  ``http://***@host``), ``Bearer``/``Basic`` authorization values, ``sk-...`` keys and the
  token after ``API key provided:`` / ``api_key=``.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
from collections.abc import Callable
from functools import lru_cache

MASK = "***"
_SECRET_NAME = re.compile(r"(API_KEY|_KEY|TOKEN|SECRET|PASSWORD)$", re.IGNORECASE)
_MIN_SECRET_LENGTH = 6

# Credential shapes. Each pattern starts with a literal ("://", "Bearer", "sk-", ...), so
# the regex engine skips to it at memory speed: a pattern that starts with a character
# class or \b is ~100× slower, and a run's log holds hundreds of megabytes. Boundaries
# are checked in the replacement instead (which returns the match unchanged to keep it).

# user info of a URL: scheme://user:password@ (greedy to the last @ before the host)
_URL_USERINFO = re.compile(r"://(?!\*\*\*@)([^\s/?#\"'<>\\]+)@")
# bearer tokens and sk-style keys that are not in the environment (e.g. from -M api_key=)
_BEARER = re.compile(r"(Bearer\s+)[A-Za-z0-9._\-]{8,}")
_SK_KEY = re.compile(r"sk-[A-Za-z0-9_\-]{8,}")
# a key a server quotes back ("Incorrect API key provided: abc123...", "api_key=...");
# the token must hold a digit, so prose ("API key: never share it") is left alone
_QUOTED_KEY = re.compile(
    r"((?:key provided|api_key|API_KEY|apikey|api-key|API key|api key)[\"']?\s*[:=]\s*[\"']?)"
    r"(?=[^\s\"',;]*\d)[^\s\"',;]{12,}"
)
_BASIC = re.compile(r"(Basic\s+)([A-Za-z0-9+/]{8,}={0,2})")

_remembered: set[str] = set()


def remember_secret(value: str | None) -> None:
    """Redact ``value`` from now on in this process, whatever the environment holds then."""
    if value and len(value) >= _MIN_SECRET_LENGTH and MASK not in value:
        _remembered.add(value)


def _url_passwords(value: str) -> list[str]:
    """The passwords (and whole user infos) of the URLs in ``value``."""
    found: list[str] = []
    for match in _URL_USERINFO.finditer(value):
        userinfo = match.group(1)
        found.append(userinfo)
        found.append(userinfo.split(":", 1)[1] if ":" in userinfo else "")
    return found


def secret_values() -> list[str]:
    """Every known secret value, longest first (so a key is replaced before its prefix)."""
    for name, value in os.environ.items():
        if _SECRET_NAME.search(name):
            remember_secret(value)
        if "://" in value and "@" in value:
            for part in _url_passwords(value):
                remember_secret(part)
    return sorted(_remembered, key=len, reverse=True)


def _userinfo(match: re.Match[str]) -> str:
    return f"://{MASK}@"


def redact_url(url: str) -> str:
    """``url`` without its user info: ``http://u:pw@host/v1`` → ``http://***@host/v1``."""
    return _URL_USERINFO.sub(_userinfo, url)


def _word_start(match: re.Match[str]) -> bool:
    start = match.start()
    return start == 0 or not (match.string[start - 1].isalnum() or match.string[start - 1] == "_")


def _bearer(match: re.Match[str]) -> str:
    return match.group(1) + MASK


def _sk_key(match: re.Match[str]) -> str:
    """``sk-...`` → ``***``, but not the tail of a word (``task-0123456789``)."""
    return MASK if _word_start(match) else match.group(0)


def _quoted(match: re.Match[str]) -> str:
    return match.group(1) + MASK


def _basic(match: re.Match[str]) -> str:
    """``Basic <base64 of user:password>`` → ``Basic ***``; prose ("Basic knowledge") stays."""
    if not _word_start(match):
        return match.group(0)
    try:
        decoded = base64.b64decode(match.group(2), validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return match.group(0)
    return f"{match.group(1)}{MASK}" if ":" in decoded else match.group(0)


# (pattern, a literal it needs, its replacement): the literal is tested first (``in``)
_SHAPES: tuple[tuple[re.Pattern[str], str, Callable[[re.Match[str]], str]], ...] = (
    (_URL_USERINFO, "://", _userinfo),
    (_BEARER, "Bearer", _bearer),
    (_SK_KEY, "sk-", _sk_key),
    (_QUOTED_KEY, "", _quoted),
    (_BASIC, "Basic", _basic),
)


class Secrets:
    """One snapshot of the known secrets: a fast test and the replacement."""

    def __init__(self, values: tuple[str, ...]) -> None:
        self.values = values
        # a value as it reads inside JSON text too, for tests on a log's raw members
        escaped = {json.dumps(v, ensure_ascii=False)[1:-1] for v in values} - set(values)
        self._raw = values + tuple(escaped)

    def found_in(self, text: str) -> bool:
        """Whether ``text`` holds a known secret or anything shaped like a credential."""
        if any(value in text for value in self._raw):
            return True
        return any(
            replace(match) != match.group(0)
            for pattern, literal, replace in _SHAPES
            if literal in text
            for match in pattern.finditer(text)
        )

    def redact(self, text: str) -> str:
        """``text`` with every known secret and credential-shaped token replaced."""
        for value in self.values:
            if value in text:
                text = text.replace(value, MASK)
        for pattern, literal, replace in _SHAPES:
            if literal in text:
                text = pattern.sub(replace, text)
        return text


@lru_cache(maxsize=8)
def _snapshot(values: tuple[str, ...]) -> Secrets:
    return Secrets(values)


def current_secrets() -> Secrets:
    """The secrets known now (the environment and everything remembered)."""
    return _snapshot(tuple(secret_values()))


def redact(text: str) -> str:
    """Return ``text`` with every known secret value and key-shaped token replaced."""
    return current_secrets().redact(text)
