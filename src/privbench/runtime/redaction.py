"""Keep API keys out of anything privbench prints or writes.

Why: model outputs, exceptions from provider SDKs and log exports can all carry a
request's headers or a key pasted into a base URL. Every user-facing message and every
export passes through :func:`redact`, which replaces the value of any secret-looking
environment variable with ``***``.
"""

from __future__ import annotations

import os
import re

_SECRET_NAME = re.compile(r"(API_KEY|_KEY|TOKEN|SECRET|PASSWORD)$", re.IGNORECASE)
_MIN_SECRET_LENGTH = 6
# bearer tokens and sk-style keys that are not in the environment (e.g. from -M api_key=)
_KEY_PATTERNS = re.compile(r"(Bearer\s+)[A-Za-z0-9._\-]{8,}|\bsk-[A-Za-z0-9_\-]{8,}")


def secret_values() -> list[str]:
    """Values of environment variables whose names look like they hold secrets."""
    values = {
        value
        for name, value in os.environ.items()
        if _SECRET_NAME.search(name) and len(value) >= _MIN_SECRET_LENGTH
    }
    return sorted(values, key=len, reverse=True)


def redact(text: str) -> str:
    """Return ``text`` with every known secret value and key-shaped token replaced."""
    for value in secret_values():
        text = text.replace(value, "***")
    return _KEY_PATTERNS.sub(lambda m: (m.group(1) or "") + "***", text)
