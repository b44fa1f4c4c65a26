"""What inspect_ai loads through the ``inspect_ai`` entry point: duskfall's tasks, registered
as ``duskfall/werewolf``, ``duskfall/mafia`` and ``duskfall/sports_mafia``, and the offline
model ``duskfall/scripted`` (:mod:`duskfall.inspect.mock`)."""

from typing import Any

from inspect_ai.model import modelapi

from duskfall.inspect.tasks import mafia, sports_mafia, werewolf


@modelapi(name="duskfall")
def scripted() -> type[Any]:
    from duskfall.inspect.mock import ScriptedAPI

    return ScriptedAPI


__all__ = ["mafia", "scripted", "sports_mafia", "werewolf"]
