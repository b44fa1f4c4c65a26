"""The variants' learning encoders, as each variant declares them (``VariantInfo.learning``).

A variant from outside duskfall gets environments the same way as the built-in ones: by
declaring a :class:`~duskfall.core.learning.Learning` (see :mod:`duskfall.core.learning`).
"""

from __future__ import annotations

from duskfall.core.errors import ConfigError
from duskfall.core.learning import Learning, SeatEncoder, TokenEncoding
from duskfall.core.variant import Variant


def learning_of(variant: Variant) -> Learning:
    """The variant's learning declaration; ConfigError if it has none."""
    learning = variant.info.learning
    if learning is None:
        raise ConfigError(f"variant {variant.id!r} declares no learning encoder")
    return learning


def encoder_for(variant: Variant, seats: int, seat: int) -> SeatEncoder:
    """The encoder of ``seat`` in a game of ``variant`` with ``seats`` seats."""
    return learning_of(variant).encoder(seats, seat)


def tokens_of(variant: Variant) -> TokenEncoding:
    """The variant's token observation; ConfigError if it has none."""
    tokens = learning_of(variant).tokens
    if tokens is None:
        raise ConfigError(f"variant {variant.id!r} has no token observation")
    return tokens()
