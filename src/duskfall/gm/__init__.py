"""GM mode (seed 002): an LLM game master runs a free-form game from a rule card.

duskfall has no rules engine here: it is the coordinator, messenger and secretary around the
game master. It asks the GM what happens next, parses the markers in its reply
(:mod:`duskfall.gm.markers`), keeps each player's secrets (:mod:`duskfall.gm.state`), asks the
player whose turn it is with its persona, the public chat and its own secrets only
(:mod:`duskfall.gm.prompts`), and records everything as events in the game log.

>>> from duskfall.gm import GMSettings, new_game
>>> # game, log_path = new_game(GMSettings(card="avalon5", language="en"))
>>> # outcome = await game.run()
"""

from duskfall.gm.cards import Card, PlayerSpec, builtin_cards, load_card
from duskfall.gm.config import GMSettings, make_settings
from duskfall.gm.game import GMGame
from duskfall.gm.markers import MarkerKind, ParsedReply, neutralise, parse_reply
from duskfall.gm.names import UnknownPlayer, resolve_name
from duskfall.gm.session import new_game, resume_game
from duskfall.gm.state import GMState

__all__ = [
    "Card",
    "GMGame",
    "GMSettings",
    "GMState",
    "MarkerKind",
    "ParsedReply",
    "PlayerSpec",
    "UnknownPlayer",
    "builtin_cards",
    "load_card",
    "make_settings",
    "neutralise",
    "new_game",
    "parse_reply",
    "resolve_name",
    "resume_game",
]
