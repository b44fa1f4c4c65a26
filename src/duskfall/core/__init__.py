"""What every game shares, imported by everything else and importing nothing of duskfall:
events and visibility, outcomes, errors, seeded RNG, the Variant/State contract and its
``VariantInfo`` (spectator, facts, learning encoder), the registry, and the game pieces the
variants use in common (choices, the vote tally, seating, what each seat was shown)."""

from duskfall.core.bot import Bot
from duskfall.core.errors import ConfigError, DuskfallError, IllegalAction, ReplayMismatch
from duskfall.core.events import ADMIN, PUBLIC, Event, seats_visibility, team_visibility, visible_to
from duskfall.core.legal import LegalActions
from duskfall.core.outcome import Outcome, Termination
from duskfall.core.registry import get_variant, register_variant, variant_ids
from duskfall.core.rng import derive_rng
from duskfall.core.variant import Decision, State, Variant, VariantInfo, WireCodec, parse_config
from duskfall.core.wire import DataclassCodec

__all__ = [
    "ADMIN",
    "PUBLIC",
    "Bot",
    "ConfigError",
    "DataclassCodec",
    "Decision",
    "DuskfallError",
    "Event",
    "IllegalAction",
    "LegalActions",
    "Outcome",
    "ReplayMismatch",
    "State",
    "Termination",
    "Variant",
    "VariantInfo",
    "WireCodec",
    "derive_rng",
    "get_variant",
    "parse_config",
    "register_variant",
    "seats_visibility",
    "team_visibility",
    "variant_ids",
    "visible_to",
]
