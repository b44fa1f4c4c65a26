"""Per-variant encoders: numeric observations and the action menu (see :mod:`.base`)."""

from __future__ import annotations

from duskfall.learn.encoders.base import SeatEncoder


def encoder_for(variant_id: str, seats: int, seat: int) -> SeatEncoder:
    """The encoder of ``seat`` in a game of ``variant_id`` with ``seats`` seats."""
    if variant_id == "werewolf":
        from duskfall.learn.encoders.werewolf import WerewolfEncoder

        return WerewolfEncoder(seats, seat)
    if variant_id == "mafia":
        from duskfall.learn.encoders.mafia import MafiaEncoder

        return MafiaEncoder(seats, seat)
    if variant_id == "sports-mafia":
        from duskfall.learn.encoders.sports_mafia import SportsMafiaEncoder

        return SportsMafiaEncoder(seats, seat)
    raise ValueError(f"no learning encoder for variant {variant_id!r}")
