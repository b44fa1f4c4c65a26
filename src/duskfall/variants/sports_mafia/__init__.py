"""Sports mafia (seed 001): 10 seats, numeric declarations, sheriff claims, nominations."""

from duskfall.variants.sports_mafia.variant import VARIANT

__all__ = ["VARIANT"]
