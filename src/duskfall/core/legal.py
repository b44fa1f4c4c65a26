"""The legal actions of one seat for one decision: a small typed value and the view of the
choices (python-chess's legal-move view), as every variant's rules give them
(:meth:`duskfall.core.variant.State.legal`) and every bot, player and spectator reads them."""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Action(Protocol):
    """A small typed value; ``to_dict()`` is its wire form (``{"type": ..., ...}``)."""

    def to_dict(self) -> dict[str, Any]: ...


class LegalActions(Protocol):
    """The legal actions of one seat for one decision (python-chess's legal-move view)."""

    @property
    def kind(self) -> str:
        """The decision these actions answer (a sub-phase id)."""
        ...

    def schema(self) -> dict[str, Any]:
        """JSON schema that every legal action's ``to_dict()`` satisfies."""
        ...

    def parse(self, data: Any) -> Any:
        """Turn a decoded JSON value (or an action) into a legal action; raise IllegalAction."""
        ...

    def default(self, rng: random.Random) -> Any:
        """The documented fallback: abstain/skip where legal, else a random legal action."""
        ...

    def sample(self, rng: random.Random) -> Any:
        """A random legal action."""
        ...

    def to_wire(self) -> dict[str, Any]:
        """``valid_actions`` as sent over the wire protocol."""
        ...

    def describe(self) -> str:
        """The choices in plain words, for prompts and human players."""
        ...

    def form_schema(self) -> dict[str, Any]:
        """The schema a person's form is built from (a shape easier to fill in than
        :meth:`schema`, which :meth:`parse` also reads); most decisions give their schema."""
        ...


class LegalChoice:
    """What most legal views share: a person's form is built from the schema itself.
    Subclass it (python-chess's legal-move view keeps one shape) and override where a
    decision has a shape of its own for a form."""

    __slots__ = ()

    def schema(self) -> dict[str, Any]:
        raise NotImplementedError

    def form_schema(self) -> dict[str, Any]:
        return self.schema()
