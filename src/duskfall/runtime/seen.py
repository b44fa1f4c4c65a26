"""What each seat has been shown so far (:class:`duskfall.core.seen.SeenEvents`, one
implementation for the runtime and the variants' rules)."""

from __future__ import annotations

from duskfall.core.seen import SeenEvents as SeenEvents
