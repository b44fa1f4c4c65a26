"""How a client reads Werewolf decisions back from the wire.

``legal_state`` names: ``target`` (kills, votes, checks, protection, the hunter's shot, the
badge), ``speech``, ``yes_no``, and the name each role's own night turn gives its choice
(``witch``). ``valid_actions`` alone do not say enough (the
players' names, the question), so a request without ``legal_state`` cannot be read back.
"""

from __future__ import annotations

from duskfall.core.wire import DataclassCodec
from duskfall.variants.werewolf.legal import SpeechChoice, TargetChoice, YesNoChoice
from duskfall.variants.werewolf.units import TURNS
from duskfall.variants.werewolf.view import WerewolfObservation

WIRE = DataclassCodec(
    "werewolf",
    {
        "target": TargetChoice,
        "speech": SpeechChoice,
        **{u.turn.wire: u.turn.choice for u in TURNS.values() if u.turn},
        "yes_no": YesNoChoice,
    },
    observation=WerewolfObservation,
)
