"""Werewolf's learning declaration: its encoder (:mod:`.encoder`, imported with numpy on use)."""

from __future__ import annotations

from duskfall.core.learning import Learning, SeatEncoder


def encoder(seats: int, seat: int) -> SeatEncoder:
    from duskfall.variants.werewolf.encoder import WerewolfEncoder

    return WerewolfEncoder(seats, seat)


LEARNING = Learning(encoder)
