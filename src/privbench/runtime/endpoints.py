"""The endpoints a run talks to: model names, building a model, checking it answers.

Names: which are moving aliases of a provider's dated snapshots (a warning each run prints).

Why the reachability check: an endpoint that cannot be reached or authenticated must stop the run with a clear
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
from privbench.runtime.redaction import MASK, redact_url, remember_secret

_MARKUP = re.compile(r"\[/?[a-z ]+\]")

DATED_PROVIDERS = ("openai", "anthropic", "google", "vertex", "azureai", "grok", "mistral")
"""Providers that publish dated model snapshots beside moving aliases."""
_SNAPSHOT = re.compile(r"(\d{4}-\d{2}-\d{2}|\d{8}|-\d{3,4})$|@\d{8}$")
"""A name ending in a snapshot: ``-2024-08-06``, ``-20241022``, ``@20240620``, ``-002``,
``-2407``."""


def undated_alias(model: str) -> bool:
    """Whether ``model`` names a moving alias of a provider with dated snapshots.

    ``openai/gpt-4o`` is served by whichever snapshot OpenAI points it at, so a judge's
    grades can change under the same name; ``openai/gpt-4o-2024-08-06`` cannot. Local and
    self-hosted models (``openai-api/…``, ``ollama/…``, ``vllm/…``) are the user's own and
    are never warned about.
    """
    provider, _, name = model.partition("/")
    if provider not in DATED_PROVIDERS or not name:
        return False
    return _SNAPSHOT.search(name.split("/")[-1]) is None


def alias_warning(role: str, model: str) -> str:
    """The one-line warning for an undated alias as the ``role`` (judge or model)."""
    return (
        f"warning: the {role} {model} is an undated alias the provider may point at another "
        "model; the version each reply reports is recorded (pin a dated one for published "
        "numbers)"
    )


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
