"""Check, before a run starts, that the model under test and the judge answer.

Why: an endpoint that cannot be reached or authenticated must stop the run with a clear
error before anything is paid for — never a fall back to another grader, never a log
full of failed samples, never minutes of silence. One tiny request is sent to each, with
the run's retries, bounded to a minute. The error names the endpoint's base URL without
its user info (``http://***@host/v1``): a password in a URL is still a password.
"""

from __future__ import annotations

import re
from typing import Any

from inspect_ai._util.error import PrerequisiteError
from inspect_ai.model import GenerateConfig, Model, get_model

from privbench.runtime.errors import JudgeUnavailableError, PrivbenchError
from privbench.runtime.judging import is_offline
from privbench.runtime.redaction import MASK, redact_url, remember_secret

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
    it was created with. A key given as ``api_key`` is redacted from then on; a base URL
    whose user info a scrubbed log replaced by ``***`` (``--resume`` passes the log's) is
    dropped, so the provider reads the real one from its environment variable again.
    """
    error_type = JudgeUnavailableError if role == "judge" else PrivbenchError
    api_key = model_args.get("api_key")
    if isinstance(api_key, str):
        remember_secret(api_key)
    base_url = model_args.get("base_url")
    if isinstance(base_url, str) and f"{MASK}@" in base_url:
        model_args = {key: value for key, value in model_args.items() if key != "base_url"}
    try:
        return get_model(name, config=config or GenerateConfig(), memoize=False, **model_args)
    except PrerequisiteError as error:
        raise error_type(f"{role} {name}: {_describe(error)}") from None
    except ValueError as error:
        raise error_type(f"{role} {name}: {error}") from None


def grader_role(judge: str | None) -> dict[str, Model] | None:
    """A task's ``grader`` role for a judge named in its options (none for ``offline``).

    Built here so that a missing key or an unknown provider is one clear line, not
    inspect's multi-line prerequisite message.
    """
    if not judge or is_offline(judge):
        return None
    return {"grader": make_model(judge, role="judge")}


def make_judge(name: str, *, config: GenerateConfig, **model_args: Any) -> Model:
    """The judge with its own connection limit, retries and per-attempt timeout."""
    return make_model(name, role="judge", config=config, **model_args)


CHECK_TIMEOUT_S = 60


def _base_url(endpoint: Model) -> str:
    url = getattr(endpoint.api, "base_url", None)
    return f" at {redact_url(str(url))}" if url else ""


async def check_endpoint(
    endpoint: Model, *, role: str, max_retries: int, timeout_s: int = CHECK_TIMEOUT_S
) -> None:
    """Raise unless ``endpoint`` answers one tiny request within ``timeout_s``.

    The request gets the run's retries (a rate limit or a server error that clears on a
    retry passes), all within ``timeout_s``, so an unreachable endpoint is one line within
    a minute: the role, the model, its base URL and the cause.
    """
    config = GenerateConfig(
        max_retries=max_retries,
        timeout=timeout_s,
        attempt_timeout=min(timeout_s, 30),
        max_tokens=2,
        temperature=0.0,
    )
    try:
        await endpoint.generate("Reply with the digit 1.", config=config)
    except Exception as error:  # provider SDKs raise many types; classify the cause
        error_type = JudgeUnavailableError if role == "judge" else PrivbenchError
        cause = _describe(_root_cause(error))
        raise error_type(
            f"{role} {endpoint}{_base_url(endpoint)} does not answer: {cause} "
            f"(one request, {max_retries} retries, {timeout_s} s); nothing was sent for grading"
        ) from None
