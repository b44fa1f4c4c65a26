"""Roles and teams of sports mafia, as data."""

from __future__ import annotations

CITIZEN, SHERIFF, MAFIA, DON = "CITIZEN", "SHERIFF", "MAFIA", "DON"
RED, BLACK = "RED", "BLACK"
DECK = (CITIZEN,) * 6 + (SHERIFF, MAFIA, MAFIA, DON)
"""The ten roles dealt (shuffled by the game's seed)."""
BLACK_ROLES = frozenset((MAFIA, DON))
