"""What inspect_ai loads through the ``inspect_ai`` entry point: duskfall's tasks, registered
as ``duskfall/werewolf``, ``duskfall/mafia`` and ``duskfall/sports_mafia``."""

from duskfall.inspect.tasks import mafia, sports_mafia, werewolf

__all__ = ["mafia", "sports_mafia", "werewolf"]
