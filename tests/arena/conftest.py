"""Fixtures of the arena tests: loopback model servers started and stopped for a test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from conftest import InBackground
from duskfall.testing.stub_server import StubServer

StubMaker = Callable[..., StubServer]


@pytest.fixture
def stub_server(in_background: InBackground[Any]) -> Iterator[StubMaker]:
    """``stub_server(**options)``: a started :class:`StubServer`, closed after the test."""
    started: list[StubServer] = []

    def make(**options: Any) -> StubServer:
        server = StubServer(**options)
        in_background(server.start())
        started.append(server)
        return server

    yield make
    for server in started:
        in_background(server.close())
