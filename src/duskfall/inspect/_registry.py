"""What inspect_ai loads through the ``inspect_ai`` entry point: duskfall's tasks, one per
registered variant (``duskfall/werewolf``, ``duskfall/mafia``, ``duskfall/sports_mafia``...),
and the offline model ``duskfall/scripted`` (:mod:`duskfall.inspect.mock`)."""

from typing import Any

from inspect_ai.model import modelapi

from duskfall.inspect.tasks import TASKS


@modelapi(name="duskfall")
def scripted() -> type[Any]:
    from duskfall.inspect.mock import ScriptedAPI

    return ScriptedAPI


globals().update(TASKS)  # each variant's task, as inspect_ai looks it up

__all__ = ["scripted", *TASKS]
