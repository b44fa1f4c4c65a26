"""A loopback OpenAI-compatible server for tests and benchmarks, with fault injection.

It answers ``POST /v1/chat/completions`` after a fixed ``latency``, with a valid instance of
the request's JSON schema (so game agents play legally) or a short text; and Anthropic's
``POST /v1/messages`` (``anthropic:MODEL`` with ``base_url`` = :attr:`StubServer.root`), with
a tool call whose input is the JSON text ``answer`` gives, or a text block. With
``prompt_cache``, usage reports cached prompt tokens as the real services do
(:mod:`duskfall.testing.stub_cache`): OpenAI's ``prompt_tokens_details.cached_tokens``,
Anthropic's ``cache_read_input_tokens`` and ``cache_creation_input_tokens``. ``requests``
keeps the last thousand request bodies. A
:class:`FaultPlan` turns a share of the calls into faults: HTTP 500, 429 with Retry-After,
a hang (no answer until the client gives up), garbage (a body that is not JSON) or an empty
reply. ``response_formats`` limits the structured-output forms it accepts (others get
HTTP 400, as from a server that does not know them). With ``echo_auth``, every error body
quotes the request's credentials back (``you sent Authorization: Bearer sk-...``), as some
careless servers do: a test that the client redacts what it records and shows. With
``echo_auth_in_replies``, successful replies carry them too, as a model that repeats its
request would: every free-text field of a JSON answer (a string without ``enum``/``const``:
reasoning, speech...) and every plain-text answer says ``my header is Authorization: Bearer
sk-...``, ``Bearer sk-...`` or the bare key, in turn (:data:`ECHO_FORMS`; ``echo_forms``
gives others: a format string, or a function of the key and the request that says it in
disguise). ``stats``
counts what happened; ``max_in_flight`` shows how many calls overlapped; ``credentials``
counts the ``Authorization`` values clients sent. ``on_call``, if given, is awaited inside
every call (counted in flight) with the client's address: a test can hold a call there and
find the process that made it.

To stand in for a local server: ``serial`` answers one request at a time (the rest wait in its
queue, as in llama-cpp-python's server, which also drops a queued request whose client has
gone); ``owned_by`` is what ``/v1/models`` says of the model (llama-cpp-python's server says
``"me"``) and ``slots``, if set, is served as llama.cpp's ``/props`` ``total_slots``;
``cache_form`` reports cached prompt tokens as ``openai`` (``prompt_tokens_details``),
``deepseek`` (``prompt_cache_hit_tokens``), ``llama.cpp`` (``timings.cache_n``) or
``llama.cpp-old`` (``tokens_cached``); ``refuse_seed`` answers a request with a ``seed`` with
HTTP 400 naming the field.

    async with StubServer(latency=0.1) as server:
        model = get_model(f"openai:stub@{server.url}")
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import random
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from duskfall.llm.schema import example
from duskfall.llm.types import approx_tokens
from duskfall.testing.stub_cache import (
    AutomaticCache,
    BreakpointCache,
    TooManyBreakpoints,
    anthropic_blocks,
)

FAULTS = ("500", "429", "hang", "garbage", "empty")
MAX_BODY = 8 * 1024 * 1024
#: How ``echo_auth_in_replies`` words the credentials ({header}: the header line, {key}: its
#: token); a reply uses one form, the next reply the next one.
ECHO_FORMS = ("my header is {header}", "my header is Bearer {key}", "the key is {key}")
#: An echo form: a format string ({header}, {key}), or what to say given the key and the request.
EchoForm = str | Callable[[str, Mapping[str, Any]], str]


@dataclass
class FaultPlan:
    """Fault a ``rate`` share of calls, drawing the kind from ``kinds`` with a seeded rng."""

    rate: float = 0.0
    kinds: tuple[str, ...] = FAULTS
    seed: int = 0
    retry_after: str = "0"
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        unknown = set(self.kinds) - set(FAULTS)
        if unknown:
            raise ValueError(f"unknown fault kinds {sorted(unknown)}; known: {FAULTS}")
        self.rng = random.Random(self.seed)

    def draw(self) -> str | None:
        if self.rate > 0 and self.rng.random() < self.rate:
            return self.rng.choice(self.kinds)
        return None


def schema_answer(request: Mapping[str, Any]) -> str:
    """A reply valid against the request's schema, chosen deterministically from the request."""
    digest = hashlib.sha256(json.dumps(request.get("messages"), sort_keys=True).encode()).digest()
    rng = random.Random(digest)
    fmt = request.get("response_format") or {}
    schema = fmt.get("schema") or (fmt.get("json_schema") or {}).get("schema")
    if schema is None:
        return "I have nothing to add."
    return json.dumps(example(schema, rng))


class StubServer:
    """An OpenAI-compatible HTTP/1.1 server on 127.0.0.1 (keep-alive, one request at a time
    per connection, as the ``openai`` SDK's client sends them)."""

    def __init__(
        self,
        *,
        latency: float = 0.0,
        faults: FaultPlan | None = None,
        answer: Callable[[Mapping[str, Any]], str] = schema_answer,
        response_formats: tuple[str, ...] = ("text", "json_schema", "json_object"),
        echo_auth: bool = False,
        echo_auth_in_replies: bool = False,
        echo_forms: tuple[EchoForm, ...] = ECHO_FORMS,
        prompt_cache: bool = False,
        serial: bool = False,
        owned_by: str = "stub",
        slots: int | None = None,
        cache_form: str = "openai",
        refuse_seed: bool = False,
        on_call: Callable[[tuple[str, int]], Awaitable[None]] | None = None,
    ) -> None:
        self.latency = latency
        self.prompt_cache = prompt_cache or cache_form != "openai"
        self.serial = asyncio.Lock() if serial else None
        self.owned_by = owned_by
        self.slots = slots
        self.cache_form = cache_form
        self.refuse_seed = refuse_seed
        self.automatic_cache = AutomaticCache()
        self.breakpoint_cache = BreakpointCache()
        self.requests: deque[dict[str, Any]] = deque(maxlen=1000)
        self.response_formats = response_formats
        self.faults = faults or FaultPlan()
        self.answer = answer
        self.echo_auth = echo_auth
        self.echo_auth_in_replies = echo_auth_in_replies
        self.echo_forms = echo_forms
        self.stats: Counter[str] = Counter()
        self.credentials: Counter[str] = Counter()
        self.on_call = on_call
        self.in_flight = 0
        self.max_in_flight = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self._closing = asyncio.Event()
        self.port = 0

    @property
    def url(self) -> str:
        """The OpenAI-style base URL (``.../v1``)."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def root(self) -> str:
        """The Anthropic-style base URL (the SDK adds ``/v1/messages``)."""
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> StubServer:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def close(self) -> None:
        self._closing.set()
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            writer.close()  # readers see EOF and hung answers wake on _closing: all return
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)
        if self._server is not None:
            await self._server.wait_closed()

    async def __aenter__(self) -> StubServer:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.add(writer)
        try:
            while not self._closing.is_set():
                request = await _read_request(reader)
                if request is None:
                    break
                method, path, headers, body = request
                quoting = self.echo_auth or self.echo_auth_in_replies
                echo = _credentials(headers) if quoting else ""
                if "authorization" in headers:
                    self.credentials[headers["authorization"]] += 1
                peer = writer.get_extra_info("peername")
                if not await self._respond(method, path, body, _Out(writer, echo, reader, peer)):
                    break
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            self._tasks.discard(task)
            self._writers.discard(writer)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _respond(self, method: str, path: str, body: bytes, out: _Out) -> bool:
        """Answer one request; False to drop the connection."""
        if method == "GET" and path.rstrip("/").endswith("/models"):
            model = {"id": "stub", "object": "model", "owned_by": self.owned_by}
            _write(out, 200, {"object": "list", "data": [model]})
            return True
        if method == "GET" and path.rstrip("/") == "/props" and self.slots is not None:
            _write(out, 200, {"total_slots": self.slots})
            return True
        route = path.rstrip("/").rsplit("/", 1)[-1]
        if method != "POST" or route not in ("completions", "messages"):
            _write(out, 404, {"error": {"message": f"no route {method} {path}"}})
            return True
        try:
            request = json.loads(body)
        except json.JSONDecodeError:
            _write(out, 400, {"error": {"message": "body is not JSON"}})
            return True
        form = (request.get("response_format") or {}).get("type", "text")
        if form not in self.response_formats:  # like a server that knows fewer forms
            _write(out, 400, {"error": {"message": f"response_format {form} unsupported"}})
            return True
        if self.refuse_seed and "seed" in request:
            _write(out, 400, {"error": {"message": "unknown field: seed"}})
            return True
        anthropic = route == "messages"
        self.requests.append(request)
        async with self.serial or contextlib.nullcontext():
            if out.reader is not None and out.reader.at_eof():
                self.stats["dropped"] += 1  # its client gave up while it was queued
                return False
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            try:
                if self.on_call is not None:
                    await self.on_call(out.peer)
                if self.latency:
                    await asyncio.sleep(self.latency)
                fault = self.faults.draw()
                self.stats[fault or "ok"] += 1
                return await self._answer(request, anthropic, fault, out)
            finally:
                self.in_flight -= 1

    async def _answer(
        self, request: dict[str, Any], anthropic: bool, fault: str | None, out: _Out
    ) -> bool:
        if fault == "hang":
            await self._closing.wait()  # until the client gives up and the server closes
            return False
        if fault == "500":
            _write(out, 500, {"error": {"message": "injected server error"}})
        elif fault == "429":
            headers = {"Retry-After": self.faults.retry_after}
            _write(out, 429, {"error": {"message": "injected rate limit"}}, headers)
        elif fault == "garbage":
            _write_raw(out.writer, 200, b"<html>\x00\xffnot json at all", "application/json")
        else:
            text = "" if fault == "empty" else self.answer(request)
            if self.echo_auth_in_replies and text and out.echo:
                form = self.echo_forms[self.stats["echoed"] % len(self.echo_forms)]
                self.stats["echoed"] += 1
                text = _echoed(text, request, form, out.echo)
            try:
                reply = self._reply(request, anthropic, text)
            except TooManyBreakpoints as exc:
                _write(out, 400, {"error": {"type": "invalid_request_error", "message": str(exc)}})
            else:
                _write(out, 200, reply)
        await out.writer.drain()
        return True

    def _reply(self, request: dict[str, Any], anthropic: bool, text: str) -> dict[str, Any]:
        if anthropic:
            blocks = anthropic_blocks(request)
            read, written = (
                self.breakpoint_cache.read_write(blocks) if self.prompt_cache else (0, 0)
            )
            total = sum(approx_tokens(block.text) for block in blocks)
            return _message(request, text, total - read - written, read, written)
        reply = _completion(request, text)
        if self.prompt_cache:
            cached = self.automatic_cache.read(request.get("messages") or [])
            if self.cache_form == "deepseek":
                reply["usage"]["prompt_cache_hit_tokens"] = cached
            elif self.cache_form == "llama.cpp":
                reply["timings"] = {"cache_n": cached, "prompt_n": 0}
            elif self.cache_form == "llama.cpp-old":
                reply["tokens_cached"] = cached
            else:
                reply["usage"]["prompt_tokens_details"] = {"cached_tokens": cached}
        return reply


@dataclass
class _Out:
    """Where one answer goes, and the credentials its error bodies quote (``echo_auth``)."""

    writer: asyncio.StreamWriter
    echo: str = ""
    reader: asyncio.StreamReader | None = None
    peer: tuple[str, int] = ("", 0)


def _credentials(headers: Mapping[str, str]) -> str:
    sent = [f"{k}: {v}" for k, v in headers.items() if k in ("authorization", "x-api-key")]
    return "; ".join(sent) or "no credentials"


def _echoed(text: str, request: Mapping[str, Any], form: EchoForm, credentials: str) -> str:
    """``text`` with its free-text fields (or itself, if it is no JSON) saying ``form``."""
    header = credentials.split("; ")[0]
    key = header.partition(": ")[2].removeprefix("Bearer ").strip()
    said = form.format(header=header, key=key) if isinstance(form, str) else form(key, request)
    fmt = request.get("response_format") or {}
    schema = fmt.get("schema") or (fmt.get("json_schema") or {}).get("schema")
    tools = request.get("tools") or []
    if schema is None and tools:
        schema = tools[0].get("input_schema")
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return f"{text} ({said})"
    return json.dumps(_say_in(value, schema or {}, said))


def _say_in(value: Any, schema: Mapping[str, Any], said: str) -> Any:
    """``value`` with every string its ``schema`` leaves free replaced by ``said``."""
    branches = schema.get("anyOf") or schema.get("oneOf")
    if branches:
        schema = next((b for b in branches if _fits(value, b)), {"enum": []})
    if isinstance(value, dict):
        properties = schema.get("properties") or {}
        return {k: _say_in(v, properties.get(k) or {}, said) for k, v in value.items()}
    if isinstance(value, list):
        return [_say_in(v, schema.get("items") or {}, said) for v in value]
    if isinstance(value, str) and "enum" not in schema and "const" not in schema:
        return said
    return value


def _fits(value: Any, branch: Mapping[str, Any]) -> bool:
    """Whether ``value`` is of ``branch`` as far as its constants tell (the action's type)."""
    if "const" in branch:
        return bool(value == branch["const"])
    if "enum" in branch:
        return value in branch["enum"]
    if isinstance(value, dict):
        properties = branch.get("properties") or {}
        return all(_fits(value.get(k), properties[k]) for k in properties if k in value)
    return branch.get("type") != "object"


def _completion(request: Mapping[str, Any], text: str) -> dict[str, Any]:
    prompt = sum(approx_tokens(str(m.get("content", ""))) for m in request.get("messages", []))
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": 0,
        "model": request.get("model", "stub"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": approx_tokens(text),
            "total_tokens": prompt + approx_tokens(text),
        },
    }


def _message(
    request: Mapping[str, Any], text: str, fresh: int, read: int, written: int
) -> dict[str, Any]:
    """An Anthropic Messages API reply: a call of the request's tool if it has one (its
    input: ``text`` as a JSON object, else empty), else ``text``."""
    tools = request.get("tools") or []
    if tools and text:
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = {}
        given = value if isinstance(value, dict) else {}
        content = [
            {"type": "tool_use", "id": "toolu_stub", "name": tools[0]["name"], "input": given}
        ]
    else:
        content = [{"type": "text", "text": text}] if text else []
    return {
        "id": "msg_stub",
        "type": "message",
        "role": "assistant",
        "model": request.get("model", "stub"),
        "content": content,
        "stop_reason": "tool_use" if tools else "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": fresh,
            "output_tokens": approx_tokens(text),
            "cache_read_input_tokens": read,
            "cache_creation_input_tokens": written,
        },
    }


async def _read_request(
    reader: asyncio.StreamReader,
) -> tuple[str, str, dict[str, str], bytes] | None:
    head = await reader.readuntil(b"\r\n\r\n")
    if not head:
        return None
    lines = head.decode("latin-1").split("\r\n")
    method, path, _version = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    if length > MAX_BODY:
        raise ValueError("body too large")
    body = await reader.readexactly(length) if length else b""
    return method, path, headers, body


_REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 429: "Too Many Requests"}


def _write(
    out: _Out,
    status: int,
    payload: Any,
    headers: Mapping[str, str] | None = None,
) -> None:
    if out.echo and status >= 400:
        message = f"{payload['error']['message']} (you sent {out.echo})"
        payload = {"error": {**payload["error"], "message": message}}
    _write_raw(out.writer, status, json.dumps(payload).encode(), "application/json", headers)


def _write_raw(
    writer: asyncio.StreamWriter,
    status: int,
    body: bytes,
    content_type: str,
    headers: Mapping[str, str] | None = None,
) -> None:
    reason = _REASONS.get(status, "Internal Server Error" if status >= 500 else "Error")
    lines = [
        f"HTTP/1.1 {status} {reason}",
        f"Content-Type: {content_type}",
        f"Content-Length: {len(body)}",
        "Connection: keep-alive",
        *(f"{k}: {v}" for k, v in (headers or {}).items()),
    ]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
