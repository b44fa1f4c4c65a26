"""How a client reads Werewolf decisions back from the wire.

``legal_state`` names: ``target`` (kills, votes, checks, protection, the hunter's shot, the
badge), ``speech``, ``witch`` and ``yes_no``. ``valid_actions`` alone do not say enough (the
players' names, the question), so a request without ``legal_state`` cannot be read back.
"""

from __future__ import annotations

from duskfall.core.wire import DataclassCodec
from duskfall.variants.werewolf.legal import SpeechChoice, TargetChoice, WitchChoice, YesNoChoice
from duskfall.variants.werewolf.view import WerewolfObservation

WIRE = DataclassCodec(
    "werewolf",
    {
        "target": TargetChoice,
        "speech": SpeechChoice,
        "witch": WitchChoice,
        "yes_no": YesNoChoice,
    },
    observation=WerewolfObservation,
)
