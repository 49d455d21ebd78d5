"""Request bodies and names as the review app accepts them: bounded, strict, never a 500.

Why one module for both the annotation and the rating routes: every body the app takes is
read with a size cap (413 as soon as it passes it, before it is held in memory) and parsed
by one function that turns what :func:`json.loads` cannot represent — nesting deeper than
the interpreter's stack, an integer of thousands of digits, a lone UTF-16 surrogate that
SQLite cannot store — into a 400/422 with a reason, not an internal error.
"""

from __future__ import annotations

import json

from fastapi import HTTPException, Request


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused (413) as soon as it passes ``limit`` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise HTTPException(status_code=413, detail=f"body over {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise HTTPException(status_code=413, detail=f"body over {limit} bytes")
    return bytes(body)


def has_lone_surrogate(text: str) -> bool:
    """True for a string JSON's ``\\ud800`` escapes made that is not valid Unicode text."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _check_strings(value: object) -> None:
    """422 for any string (key or value) holding a lone surrogate; iterative, so any depth
    :func:`json.loads` returned is walked without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if has_lone_surrogate(item):
                raise HTTPException(status_code=422, detail="text that is not valid Unicode")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def parse_json(body: bytes) -> object:
    """A body as JSON: 400 when it is not JSON the app can represent, 422 for invalid text."""
    try:
        document = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise HTTPException(status_code=400, detail="body is not JSON") from None
    except RecursionError:
        raise HTTPException(status_code=400, detail="body is nested too deeply") from None
    except ValueError:  # an integer beyond the interpreter's digit limit
        raise HTTPException(status_code=400, detail="body holds a number too long") from None
    _check_strings(document)
    return document


def valid_name(name: str, max_chars: int) -> str | None:
    """A person's name (annotator, rater) as the store keeps it, or None when it is not one.

    Why a rule at all: the name is a key of every save and is shown to other people and
    printed in terminals; control characters (NUL, ANSI escapes), format characters (a
    right-to-left override that reverses what follows), edge spaces (" bob" would be a
    second bob) or a kilobyte of text there are a mistake or mischief. ``str.isprintable``
    refuses every control, format, surrogate and unassigned character."""
    if not name or name != name.strip():
        return None
    if len(name) > max_chars or not name.isprintable():
        return None
    return name
