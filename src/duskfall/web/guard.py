"""The guard in front of every route: a pure ASGI middleware (it never reads a body itself).

Before the application sees a request it checks, in this order:

1. the ``Host`` header against an allow-list (loopback, the address the server is bound to and
   the names given with ``duskfall web --allow-host``), so that a page of another site cannot
   reach the server through DNS rebinding;
2. for a WebSocket, the ``Origin`` (when the client sends one) against the same list; a
   refused socket is closed (1008, an HTTP 403) before it is accepted;
3. the route's token, through the application's :data:`Gate`, so that the body of a request
   that will be refused is never read;
4. the body's size: a ``Content-Length`` over the cap is refused with 413 before a byte is
   read, and a body without one (chunked) is cut with 413 when it reaches the cap.

Every HTTP response leaves with the security headers of :func:`security_headers`.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from duskfall.protocol.origins import HostAllowList as HostAllowList
from duskfall.protocol.origins import host_name

DEFAULT_MAX_BODY = 1 << 20

#: The application's check of a request before its body is read: ``None`` lets it through,
#: ``(status, detail)`` refuses it.
Gate = Callable[[Scope], "tuple[int, str] | None"]

#: The pages load scripts, styles and images from this server only, and talk to it alone.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
#: FastAPI's schema page (``/api/docs``) loads Swagger UI from its CDN with an inline script.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
DOCS_PATHS = ("/api/docs",)


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers every HTTP response carries."""
    policy = DOCS_POLICY if path in DOCS_PATHS else PAGE_POLICY
    return [
        (b"content-security-policy", policy.encode()),
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
    ]


class BodyTooLarge(HTTPException):
    """A body went over the cap while it was read (the routes answer it with 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, too_large(limit))


def too_large(limit: int) -> str:
    return f"the request body is over the limit of {limit} bytes"


class Guard:
    """The middleware; see the module docstring."""

    def __init__(
        self, app: ASGIApp, *, hosts: HostAllowList, max_body: int, gate: Gate | None = None
    ) -> None:
        self.app = app
        self.hosts = hosts
        self.max_body = max_body
        self.gate = gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def _host_refusal(self, headers: Headers) -> str | None:
        host = headers.get("host")
        if host is None:
            return "a Host header is required"
        if not self.hosts.allows(host):
            return f"this server does not answer to the host {host_name(host)[:100]!r}"
        return None

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        extra = security_headers(scope.get("path", ""))
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                present = {name.lower() for name, _ in message.get("headers", [])}
                added = [(k, v) for k, v in extra if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *added]}
            await send(message)

        async def refuse(status: int, detail: str) -> None:
            await JSONResponse({"detail": detail}, status)(scope, receive, send_with_headers)

        headers = Headers(scope=scope)
        problem = self._host_refusal(headers)
        if problem is not None:
            return await refuse(400, problem)
        refusal = self.gate(scope) if self.gate is not None else None
        if refusal is not None:
            return await refuse(*refusal)
        length = headers.get("content-length", "")
        if length.strip().isdigit() and int(length) > self.max_body:
            return await refuse(413, too_large(self.max_body))

        received = 0

        async def capped_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise BodyTooLarge(self.max_body)
            return message

        try:
            await self.app(scope, capped_receive, send_with_headers)
        except BodyTooLarge as exc:  # a route that did not turn it into its 413 itself
            if started:
                raise
            await refuse(exc.status_code, exc.detail)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope)
        problem = self._host_refusal(headers)
        origin = headers.get("origin")
        if problem is None:
            problem = self.hosts.origin_refusal(origin)
        if problem is None:
            await self.app(scope, receive, send)
            return
        message = await receive()
        if message["type"] == "websocket.connect":
            reason = problem.encode()[:120].decode(errors="ignore")
            await send({"type": "websocket.close", "code": 1008, "reason": reason})
