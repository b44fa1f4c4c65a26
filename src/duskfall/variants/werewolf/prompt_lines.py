"""Each event of a seat's history as the seat is shown it, and its digest line.

Lines name players ``seat 3 (Cleo)`` and the seat itself ``seat 3 (Cleo) (you)``; they depend
on nothing else of the observation, so a line reads the same whenever it is written. Most
events are short facts kept whole in a digest (deaths, votes, results, potions, protections);
a speech's digest keeps its sentences that name a player or a role.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duskfall.core.digest import pointed
from duskfall.core.prompting import Line
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.event_text import SPEECH_TAGS, Namer, casts, event_line, namer
from duskfall.variants.werewolf.prompt_labels import player_names

MARKERS: frozenset[str] = frozenset({"night_start", "day_start"})
# words that make a speech's sentence a claim or an accusation (with names and seats)
ROLE_WORDS = (
    r"werewol(?:f|ves)|wol(?:f|ves)|seers?|witch(?:es)?|hunters?|guards?|villagers?|sheriffs?"
    r"|gods?|antidote|poison"
)
VOTE_TAGS = {P.BADGE_VOTE: "[sheriff vote] ", P.VOTE: "[exile vote] "}


def speech_line(entry: Mapping[str, Any], name: Namer, names: list[str]) -> Line:
    """The speech quoted whole; its digest keeps the sentences naming a player or a role."""
    speaker = f"{SPEECH_TAGS.get(entry['sub_phase'], '')}{name(entry['seat'])}"
    text = entry["text"]
    if not text:
        return Line(f"{speaker} says nothing.")
    full = f'{speaker} says: "{text}"'
    excerpt = pointed(text, names, ROLE_WORDS)
    if excerpt is None:
        return Line(full, f"{speaker} spoke (no claim or accusation)")
    if excerpt == text:
        return Line(full)
    return Line(full, f'{speaker} says (excerpt): "{excerpt}"')


def history_line(entry: Mapping[str, Any], obs: Mapping[str, Any]) -> Line | None:
    """The entry as ``obs``'s seat is shown it; None for a marker (or a kind never emitted)."""
    kind = entry["kind"]
    if kind in MARKERS:
        return None
    names = player_names(obs)
    name = namer(names, you=obs["seat"])
    if kind == "speech":
        return speech_line(entry, name, names)
    text = event_line(kind, entry, name)
    if text is None:
        return None
    if kind == "vote":
        text = VOTE_TAGS.get(entry["sub_phase"], "") + text
    elif kind == "werewolf_kill":
        text += f" (kill votes: {casts(entry['votes'], name)})"
    return Line(text)
