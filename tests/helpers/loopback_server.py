"""A real OpenAI-compatible chat-completions server on 127.0.0.1 for tests and benchmarks.

Why: privbench must be tested against the same HTTP path a user's vLLM/Ollama/OpenAI
endpoint takes (inspect's ``openai-api/<name>/<model>`` provider, its retries and its
connection limits), and inspect's ``mockllm`` cannot run offline. This server answers
``POST /v1/chat/completions`` with scripted replies chosen by the request's content, can
add latency, and can inject faults (HTTP 429 with Retry-After, 500, hangs past the
client's timeout, malformed bodies) and replies cut at the token limit (:class:`Cut`). It
records every request so tests can assert on exactly what a judge or model received and
how many calls were made.

Use it in-process (``with LoopbackServer() as server: ...``, it runs its own event loop in
a thread) or as a separate process (``python tests/helpers/loopback_server.py --latency 0.5``,
which prints ``PORT <n>`` once it listens), as the benchmarks do.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import re
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import web

JUDGE_TEXT = re.compile(r"Correctness|correctness score|verdict", re.IGNORECASE)
"""Requests of a judge: the Priv-IQ prompts ask for a correctness score, SpatialTrust's for a
verdict."""
CHECK_TEXT = re.compile(r"Reply with the digit 1")
"""privbench's reachability check before a run."""

FaultKind = Literal["401", "429", "500", "timeout", "malformed"]


@dataclass(frozen=True)
class Fault:
    """A failure the server produces instead of a reply.

    ``timeout`` hangs for ``hang_s`` seconds before answering (longer than the client's
    timeout, so the client gives up); ``malformed`` returns HTTP 200 with a body that is
    not JSON. ``echo_key`` puts the request's bearer token in the error body, as some
    servers do (``Incorrect API key provided: sk-...``).
    """

    kind: FaultKind
    retry_after: float | None = None
    hang_s: float = 30.0
    echo_key: bool = False


@dataclass(frozen=True)
class Cut:
    """A reply cut off at the client's token limit: ``text`` with ``finish_reason: length``."""

    text: str


Reply = str | Fault | Cut | Callable[[dict[str, Any]], "str | Fault | Cut"]


@dataclass
class Rule:
    """Replies for requests whose message text matches ``pattern`` (a regex, searched).

    Replies are used in order per rule; the last one repeats.
    """

    pattern: re.Pattern[str]
    replies: list[Reply]
    used: int = 0

    def next_reply(self) -> Reply:
        reply = self.replies[min(self.used, len(self.replies) - 1)]
        self.used += 1
        return reply


@dataclass
class RecordedRequest:
    """One request as received: its JSON body, flattened text and arrival order."""

    index: int
    body: dict[str, Any]
    text: str
    answered_with: str = ""
    authorization: str = ""


def message_text(body: dict[str, Any]) -> str:
    """Concatenate the text parts of all messages of a chat-completions request."""
    parts: list[str] = []
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(
                str(part.get("text", "")) for part in content if part.get("type") == "text"
            )
    return "\n".join(parts)


@dataclass
class LoopbackServer:
    """Scripted OpenAI-compatible server; see the module docstring."""

    default_reply: Reply = "1.0"
    latency: float = 0.0
    reported_model: str | None = None
    """The model name replies report (default: the requested one), as a provider reports a
    dated version for an alias."""
    host: str = "127.0.0.1"
    port: int = 0
    rules: list[Rule] = field(default_factory=list)
    requests: list[RecordedRequest] = field(default_factory=list)
    fault_schedule: Callable[[RecordedRequest], Fault | None] | None = None
    in_flight: int = 0
    peak_in_flight: int = 0
    first_request_at: float | None = None
    first_judge_request_at: float | None = None
    """When the first judge prompt arrived (after a reachability check, if any)."""
    last_reply_at: float | None = None
    _counter: itertools.count[int] = field(default_factory=itertools.count)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _loop: asyncio.AbstractEventLoop | None = None
    _runner: web.AppRunner | None = None
    _thread: threading.Thread | None = None

    # -- scripting -------------------------------------------------------------------
    def script(self, pattern: str, *replies: Reply) -> None:
        """Answer requests whose text matches ``pattern`` with ``replies`` in order."""
        self.rules.append(Rule(re.compile(pattern, re.DOTALL), list(replies)))

    def fail_first_attempts(self, faults: list[Fault], pattern: str = "") -> None:
        """Inject ``faults`` on the first attempts of every distinct request text.

        Attempt k (0-based) of a given prompt gets ``faults[k]``; later attempts are
        answered normally. This makes every item hit every fault kind exactly once.
        Only requests whose text matches ``pattern`` (a regex) are affected.
        """
        seen: dict[str, int] = {}
        regex = re.compile(pattern, re.DOTALL)

        def schedule(request: RecordedRequest) -> Fault | None:
            if not regex.search(request.text):
                return None
            attempt = seen.get(request.text, 0)
            seen[request.text] = attempt + 1
            return faults[attempt] if attempt < len(faults) else None

        self.fault_schedule = schedule

    def count(self, pattern: str | None = None) -> int:
        """Number of requests received, optionally only those whose text matches."""
        with self._lock:
            if pattern is None:
                return len(self.requests)
            regex = re.compile(pattern, re.DOTALL)
            return sum(1 for r in self.requests if regex.search(r.text))

    # -- serving ---------------------------------------------------------------------
    def _choose(self, request: RecordedRequest) -> Reply:
        if self.fault_schedule is not None:
            fault = self.fault_schedule(request)
            if fault is not None:
                return fault
        for rule in self.rules:
            if rule.pattern.search(request.text):
                return rule.next_reply()
        return self.default_reply

    async def _chat(self, http_request: web.Request) -> web.StreamResponse:
        body = await http_request.json()
        with self._lock:
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
            self.first_request_at = self.first_request_at or time.time()
            recorded = RecordedRequest(next(self._counter), body, message_text(body))
            if JUDGE_TEXT.search(recorded.text):
                self.first_judge_request_at = self.first_judge_request_at or time.time()
            recorded.authorization = http_request.headers.get("Authorization", "")
            self.requests.append(recorded)
            reply = self._choose(recorded)
            if callable(reply):
                reply = reply(body)
        try:
            return await self._answer(recorded, reply)
        finally:
            with self._lock:
                self.in_flight -= 1
                self.last_reply_at = time.time()

    async def _answer(
        self, recorded: RecordedRequest, reply: str | Fault | Cut
    ) -> web.StreamResponse:
        if self.latency:
            await asyncio.sleep(self.latency)
        if isinstance(reply, Fault):
            recorded.answered_with = f"fault:{reply.kind}"
            return await self._fault(reply, recorded)
        model = self.reported_model or str(recorded.body.get("model", "loopback"))
        if isinstance(reply, Cut):
            recorded.answered_with = reply.text
            return web.json_response(_completion(model, reply.text, finish_reason="length"))
        recorded.answered_with = reply
        return web.json_response(_completion(model, reply))

    async def _fault(
        self, fault: Fault, recorded: RecordedRequest | None = None
    ) -> web.StreamResponse:
        if fault.echo_key and fault.kind in ("401", "500") and recorded is not None:
            key = recorded.authorization.removeprefix("Bearer ")
            message = f"Incorrect API key provided: {key}"
            kind, status = (
                ("invalid_request_error", 401) if fault.kind == "401" else ("server_error", 500)
            )
            return web.json_response({"error": {"message": message, "type": kind}}, status=status)
        if fault.kind == "429":
            headers = {} if fault.retry_after is None else {"Retry-After": str(fault.retry_after)}
            error = {"error": {"message": "rate limited", "type": "rate_limit_error"}}
            return web.json_response(error, status=429, headers=headers)
        if fault.kind == "401":
            error = {"error": {"message": "invalid api key", "type": "invalid_request_error"}}
            return web.json_response(error, status=401)
        if fault.kind == "500":
            error = {"error": {"message": "internal error", "type": "server_error"}}
            return web.json_response(error, status=500)
        if fault.kind == "timeout":
            await asyncio.sleep(fault.hang_s)
            return web.json_response({"error": {"message": "too late"}}, status=504)
        return web.Response(text='{"id": "x", "choices": [', content_type="application/json")

    async def _models(self, _: web.Request) -> web.StreamResponse:
        return web.json_response(
            {"object": "list", "data": [{"id": "loopback", "object": "model"}]}
        )

    async def _stats(self, _: web.Request) -> web.StreamResponse:
        return web.json_response(self.stats())

    def stats(self) -> dict[str, Any]:
        """Request counts (all, and by role: a judge prompt, a reachability check, the model
        under test), peak concurrency, and the wall-clock times of the first request, the
        first judge request and the last reply."""
        with self._lock:
            judge = sum(1 for r in self.requests if JUDGE_TEXT.search(r.text))
            check = sum(1 for r in self.requests if CHECK_TEXT.search(r.text))
            return {
                "requests": len(self.requests),
                "judge": judge,
                "check": check,
                "model": len(self.requests) - judge - check,
                "peak_in_flight": self.peak_in_flight,
                "first_request_at": self.first_request_at,
                "first_judge_request_at": self.first_judge_request_at,
                "last_reply_at": self.last_reply_at,
            }

    def _app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_get("/v1/models", self._models)
        app.router.add_get("/stats", self._stats)
        return app

    async def serve(self) -> None:
        """Start listening on the current loop (``port`` is updated if it was 0)."""
        self._runner = web.AppRunner(self._app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port, backlog=1024)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def start(self) -> LoopbackServer:
        """Serve from a background thread with its own event loop."""
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            loop.run_until_complete(self.serve())
            ready.set()
            loop.run_forever()

        self._thread = threading.Thread(target=run, name="loopback-server", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("loopback server did not start")
        return self

    def stop(self) -> None:
        loop, runner = self._loop, self._runner
        if loop is None or runner is None:
            return
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(10)

    def __enter__(self) -> LoopbackServer:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


def _completion(model: str, content: str, finish_reason: str = "stop") -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {"prompt_tokens": 100, "completion_tokens": 2, "total_tokens": 102},
    }


def start_process(latency: float, reply: str) -> tuple[subprocess.Popen[str], int]:
    """This server in a process of its own (as the benchmarks run it): the process and its
    port, read from the ``PORT <n>`` line it prints once it listens."""
    process = subprocess.Popen(
        [sys.executable, __file__, "--latency", str(latency), "--reply", reply],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    return process, int(process.stdout.readline().split()[1])


def process_stats(port: int) -> dict[str, Any]:
    """:meth:`LoopbackServer.stats` of a server started by :func:`start_process`."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/stats") as response:
        return dict(json.load(response))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--reply", default="1.0", help="the reply to every request")
    args = parser.parse_args()
    server = LoopbackServer(default_reply=args.reply, latency=args.latency, port=args.port)

    async def run() -> None:
        await server.serve()
        print(f"PORT {server.port}", flush=True)
        await asyncio.Event().wait()

    asyncio.run(run())


if __name__ == "__main__":
    main()
