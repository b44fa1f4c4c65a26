"""Clients of the wire protocol: blocking (thread) and asyncio, in the seed's callback style,
and a client that plays a seat with any duskfall agent."""

from duskfall.client.aio import AsyncClient
from duskfall.client.blocking import BlockingClient
from duskfall.client.session import ClientSession

__all__ = ["AsyncClient", "BlockingClient", "ClientSession"]
