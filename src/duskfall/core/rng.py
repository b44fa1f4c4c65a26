"""Seeded randomness. Every random choice in duskfall comes from a stream derived here."""

import random


def derive_rng(seed: int, stream: str) -> random.Random:
    """An independent, reproducible generator for one purpose (``stream``) of one game.

    String seeds are hashed with SHA-512 by :mod:`random`, so streams are stable across
    processes and Python runs (unlike ``hash()``).
    """
    return random.Random(f"duskfall:{seed}:{stream}")
