"""Classic mafia's learning declaration: its encoder (:mod:`.encoder`, numpy, imported on use)."""

from __future__ import annotations

from duskfall.core.learning import Learning, SeatEncoder


def encoder(seats: int, seat: int) -> SeatEncoder:
    from duskfall.variants.mafia.encoder import MafiaEncoder

    return MafiaEncoder(seats, seat)


LEARNING = Learning(encoder)
