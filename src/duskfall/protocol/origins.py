"""Who may reach a server from a browser: the host names it answers to, and the pages
(``Origin``) that may open its WebSockets.

The web app's guard (:mod:`duskfall.web.guard`) and ``serve --ws``
(:mod:`duskfall.server.ws_connection`) keep one rule: a socket opened without an ``Origin``
(a program, not a page) is let through; one with an ``Origin`` must come from an ``http`` or
``https`` page on a name of the allow-list (loopback, the address the server is bound to, and
the names given with ``--allow-host``). ``Origin: null`` (a sandboxed frame, a ``file:`` page)
and pages of any other site are refused, so that no page a visitor opens can play or watch
through their browser.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from duskfall.core.errors import ConfigError

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def host_name(value: str) -> str:
    """The name in a ``Host`` header (``name``, ``name:port``, ``[v6]:port``), lowercased."""
    value = value.strip().lower()
    if value.startswith("["):
        name = value[1:].partition("]")[0]
    elif value.count(":") == 1:
        name = value.partition(":")[0]
    else:
        name = value
    return name.rstrip(".")


@dataclass(frozen=True)
class HostAllowList:
    """The host names the server answers to (ports are not compared)."""

    names: frozenset[str]

    @classmethod
    def of(cls, extra: Iterable[str] = ()) -> HostAllowList:
        """Loopback plus ``extra``; a name that cannot be a host is a ConfigError."""
        names = set(LOOPBACK_HOSTS)
        for given in extra:
            name = host_name(given)
            if not name or any(c in name for c in "/@?#\\ \t") or not name.isprintable():
                raise ConfigError(f"--allow-host {given!r} is not a host name")
            names.add(name)
        return cls(frozenset(names))

    def allows(self, host: str | None) -> bool:
        return host is not None and host_name(host) in self.names

    def allows_origin(self, origin: str) -> bool:
        """Whether a page served from ``origin`` (``scheme://host[:port]``) may connect."""
        try:
            parts = urlsplit(origin.strip())
            name = parts.hostname
        except ValueError:
            return False
        return parts.scheme in ("http", "https") and name is not None and name in self.names

    def origin_refusal(self, origin: str | None) -> str | None:
        """Why a socket opened by a page of ``origin`` is refused, or None (no ``Origin``:
        not a page; or a page of an allowed host)."""
        if origin is None or self.allows_origin(origin):
            return None
        return f"pages from {origin[:100]!r} may not open this socket"
