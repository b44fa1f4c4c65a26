"""Providers: the scripted one is always available; the others import their SDK lazily."""

from duskfall.llm.providers.scripted import ScriptedProvider

__all__ = ["ScriptedProvider"]
