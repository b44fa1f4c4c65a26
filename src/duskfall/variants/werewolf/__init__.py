"""Werewolf (seed 004): seer, witch, guard, hunter, a sheriff election; presets of 6, 9, 12."""

from duskfall.variants.werewolf.variant import VARIANT

__all__ = ["VARIANT"]
