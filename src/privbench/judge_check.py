"""Check, before grading starts, that the configured judge answers.

Why: a judge that cannot be reached or authenticated must stop the run with a clear
error before any item is graded — never a fall back to another grader, and never a log
full of failed samples. One tiny request is sent with retries off; a rate-limit or
server error still proves the endpoint and the key work, so it passes.
"""

from __future__ import annotations

import re
from typing import Any

from inspect_ai._util.error import PrerequisiteError
from inspect_ai.model import GenerateConfig, Model, get_model

from privbench.errors import JudgeUnavailableError, PrivbenchError

_REACHABLE_STATUS = {408, 409, 429, 500, 502, 503, 504, 529}
_MARKUP = re.compile(r"\[/?[a-z ]+\]")


def _root_cause(error: BaseException) -> BaseException:
    """Unwrap tenacity's RetryError and exception chains to the provider's error."""
    last_attempt = getattr(error, "last_attempt", None)
    if last_attempt is not None:
        inner = last_attempt.exception()
        if inner is not None:
            return _root_cause(inner)
    return error


def _status(error: BaseException) -> int | None:
    status = getattr(error, "status_code", None) or getattr(error, "status", None)
    return status if isinstance(status, int) else None


def _describe(error: BaseException) -> str:
    status = _status(error)
    kind = type(error).__name__
    message = _MARKUP.sub("", str(error)).replace("ERROR:", "")
    message = " ".join(message.split())[:200]
    if status in (401, 403):
        return f"authentication failed (HTTP {status})"
    if status == 404:
        return f"model or endpoint not found (HTTP 404): {message}"
    if "Connection" in kind or "Connect" in kind:
        return "cannot connect to the endpoint"
    if "Timeout" in kind:
        return "the endpoint did not answer in time"
    if isinstance(error, ValueError):
        return "the reply is not a valid OpenAI-compatible response"
    return f"{kind}: {message}" if message else kind


def make_model(
    name: str, *, role: str = "model", config: GenerateConfig | None = None, **model_args: Any
) -> Model:
    """A fresh (not memoised) model; a missing key or unknown provider is one clear line.

    Fresh because inspect memoises models by name and a memoised client keeps the base URL
    it was created with.
    """
    error_type = JudgeUnavailableError if role == "judge" else PrivbenchError
    try:
        return get_model(name, config=config or GenerateConfig(), memoize=False, **model_args)
    except PrerequisiteError as error:
        raise error_type(f"{role} {name}: {_describe(error)}") from None
    except ValueError as error:
        raise error_type(f"{role} {name}: {error}") from None


def make_judge(name: str, *, connections: int, attempt_timeout: int) -> Model:
    """The judge with its own connection limit and per-request timeout."""
    config = GenerateConfig(max_connections=connections, attempt_timeout=attempt_timeout)
    return make_model(name, role="judge", config=config)


async def check_judge(judge: Model, timeout_s: int = 60) -> None:
    """Raise :class:`JudgeUnavailableError` unless ``judge`` answers one request."""
    config = GenerateConfig(max_retries=0, timeout=timeout_s, max_tokens=2, temperature=0.0)
    try:
        await judge.generate("Reply with the digit 1.", config=config)
    except Exception as error:  # provider SDKs raise many types; classify the cause
        cause = _root_cause(error)
        status = _status(cause)
        if status in _REACHABLE_STATUS or (status is not None and status >= 500):
            return
        raise JudgeUnavailableError(f"judge {judge}: {_describe(cause)}") from None
