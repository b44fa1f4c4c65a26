"""Werewolf (seed 004): the seer, witch, guard and hunter of the seed and roles of the common
rule sets, each a unit declared in one place (``role_unit``, ``units``); a sheriff election;
presets of 6, 9, 12."""

from duskfall.variants.werewolf.variant import VARIANT

__all__ = ["VARIANT"]
