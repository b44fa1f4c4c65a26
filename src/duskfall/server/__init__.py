"""The asyncio TCP game server: lobby, rooms (one game each), seats, connections."""

from duskfall.server.app import GameServer
from duskfall.server.settings import ServerSettings

__all__ = ["GameServer", "ServerSettings"]
