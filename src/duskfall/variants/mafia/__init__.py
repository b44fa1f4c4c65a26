"""Classic mafia (seed 000): Doctor, Sheriff, Vigilante, multi-role players, role coordination."""

from duskfall.variants.mafia.variant import VARIANT

__all__ = ["VARIANT"]
