"""A decision answered from outside the process: publish the request, await the matching answer.

:class:`Awaiting` holds the one open request of a seat. :meth:`Awaiting.ask` numbers the request
(``request_id``), publishes it, and waits, within an optional deadline, for
:meth:`Awaiting.answer` naming that number; an answer naming another number, or coming when no
request is open, is stale and refused with :class:`StaleAnswer`. The server's remote seat and
the browser's human seat are built on it.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from duskfall.core.errors import DuskfallError

R = TypeVar("R")


class DeadlinePassed(TimeoutError):
    """A participant's own deadline passed without an answer; ``deadline`` (seconds) is the
    one its player was told (e.g. a request's ``deadline_ms``), which the log then quotes."""

    def __init__(self, deadline: float) -> None:
        super().__init__(f"no answer within {deadline:g}s")
        self.deadline = deadline


class StaleAnswer(DuskfallError):
    """An answer to a request that is not the open one (answered, timed out, or superseded).

    ``open_id`` is the ``request_id`` of the request open now, or None if none is.
    """

    def __init__(self, message: str, *, request_id: int | None, open_id: int | None) -> None:
        super().__init__(message)
        self.request_id = request_id
        self.open_id = open_id


@dataclass(slots=True)
class Pending(Generic[R]):
    """A published request and the future its answer resolves."""

    request_id: int
    request: R
    answer: asyncio.Future[Any]

    @property
    def open(self) -> bool:
        """Not answered yet (nor failed, nor timed out)."""
        return not self.answer.done()


def _ignore(request: Any) -> None:
    pass


def _expire(answer: asyncio.Future[Any]) -> None:
    """A request's deadline passed: its answer fails with TimeoutError (if none came)."""
    if not answer.done():
        answer.set_exception(TimeoutError())


class Awaiting(Generic[R]):
    """One seat's requests, one at a time; see the module docstring.

    ``publish`` is called with each new request, ``on_close`` once it is settled and gone.
    ``request_ids`` may be shared by several seats (one numbering per game); ``label`` names
    the seat in :class:`StaleAnswer` messages.
    """

    def __init__(
        self,
        publish: Callable[[R], None],
        *,
        on_close: Callable[[R], None] = _ignore,
        request_ids: Iterator[int] | None = None,
        label: str = "this seat",
    ) -> None:
        self._publish = publish
        self._on_close = on_close
        self._ids = request_ids if request_ids is not None else itertools.count(1)
        self.label = label
        self.pending: Pending[R] | None = None

    @property
    def open(self) -> Pending[R] | None:
        """The request waiting for its answer, if any."""
        pending = self.pending
        return pending if pending is not None and pending.open else None

    async def ask(self, build: Callable[[int], R], deadline: float | None = None) -> Any:
        """Publish ``build(request_id)`` and return its answer; TimeoutError past ``deadline``."""
        request_id = next(self._ids)
        loop = asyncio.get_running_loop()
        pending = Pending(request_id, build(request_id), loop.create_future())
        self.pending = pending
        self._publish(pending.request)
        # one timer per decision, cancelled with it (cheaper than asyncio.wait_for's wrapping)
        timer = None if deadline is None else loop.call_later(deadline, _expire, pending.answer)
        try:
            return await pending.answer
        finally:
            if timer is not None:
                timer.cancel()
            self.pending = None
            self._on_close(pending.request)

    def expect(self, request_id: int | None) -> Pending[R]:
        """The open request an answer naming ``request_id`` settles (None: whichever is open).

        Raises :class:`StaleAnswer` if no request is open or another one is.
        """
        pending = self.open
        if pending is None:
            raise StaleAnswer(
                f"{self.label} has no open decision", request_id=request_id, open_id=None
            )
        if request_id is not None and request_id != pending.request_id:
            raise StaleAnswer(
                f"decision {request_id} is closed; the open one is {pending.request_id}",
                request_id=request_id,
                open_id=pending.request_id,
            )
        return pending

    def answer(self, request_id: int | None, value: Any) -> None:
        """Settle the open request ``request_id`` with ``value``; raises :class:`StaleAnswer`."""
        self.expect(request_id).answer.set_result(value)

    def settle(self, value: Any) -> bool:
        """Settle whatever request is open with ``value``; False if none is."""
        pending = self.open
        if pending is None:
            return False
        pending.answer.set_result(value)
        return True

    def fail(self, error: BaseException) -> bool:
        """End whatever request is open with ``error`` (raised by :meth:`ask`); False if none."""
        pending = self.open
        if pending is None:
            return False
        pending.answer.set_exception(error)
        return True
