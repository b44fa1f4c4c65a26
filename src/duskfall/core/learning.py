"""What a variant gives learning environments (``VariantInfo.learning``): its encoder.

* ``encoder(seats, seat)``: the :class:`SeatEncoder` of one seat of a game: a fixed-size
  numeric observation built from the seat's ``observe`` only, the mask of the menu entries
  (:class:`~duskfall.core.encoding.Menu`) a legal view allows, and an entry turned back into
  the variant's action;
* ``tokens()``: a token observation for sequence models (:class:`TokenEncoding`), if any;
* ``tunable()``: a bot with numeric parameters that a policy search can tune
  (:class:`Tunable`), if any.

The callables import the variant's encoder modules (and numpy) only when called, so a game
never pays for them; :mod:`duskfall.core.encoding` holds the numeric helpers they share.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from duskfall.core.bot import Bot
    from duskfall.core.encoding import Menu

BotFactory = Callable[[int, random.Random], "Bot"]


class SeatEncoder(Protocol):
    """One seat's encoder (arrays are numpy arrays: float32 features, int8 masks)."""

    menu: Menu
    size: int

    def features(self, obs: Mapping[str, Any]) -> Any: ...

    def mask(self, legal: Any, obs: Mapping[str, Any]) -> Any: ...

    def action(self, legal: Any, obs: Mapping[str, Any], index: int) -> Any: ...


@dataclass(frozen=True)
class TokenEncoding:
    """Observations as token ids: ``encode(obs)`` gives ``max_tokens`` int32 ids (padded with
    0) from ``vocabulary`` (an id is a word's index)."""

    vocabulary: tuple[str, ...]
    max_tokens: int
    encode: Callable[[Mapping[str, Any]], Any]


@dataclass(frozen=True)
class Tunable:
    """A bot family with ``size`` numeric parameters: ``bot(theta)`` is a bot factory;
    ``kind`` names the family in checkpoints."""

    kind: str
    size: int
    bot: Callable[[Sequence[float]], BotFactory]


@dataclass(frozen=True)
class Learning:
    """A variant's learning encoder and its optional token form and tunable bot."""

    encoder: Callable[[int, int], SeatEncoder]
    tokens: Callable[[], TokenEncoding] | None = None
    tunable: Callable[[], Tunable] | None = None
