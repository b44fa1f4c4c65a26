"""Every Werewolf role, as its unit (:class:`~duskfall.variants.werewolf.role_unit.RoleUnit`),
in the order the roles are listed (roles in play, presets, prompts)."""

from __future__ import annotations

from duskfall.variants.werewolf.classic_roles import CLASSIC
from duskfall.variants.werewolf.idiot import IDIOT_UNIT
from duskfall.variants.werewolf.role_unit import RoleUnit

UNITS: dict[str, RoleUnit] = {unit.name: unit for unit in (*CLASSIC, IDIOT_UNIT)}
