"""Reading a logged game's words: who said what in public and in private, and what each seat
learnt from its checks, with the game's own vocabulary of roles, teams and names.

Everything here reads conventions every built-in variant keeps, so a variant from outside gets
the same reading when its events keep them too:

* a *speech* is a rules event with a text (``text``/``says``) and a speaker (``seat``/
  ``player_id``): public when its visibility is ``public``, a private chat otherwise;
* a seat's *reasoning* is a ``thought`` event (the runtime records every agent's reasoning);
* a *check result* is what the variant's facts say a private event taught its seat
  (``VariantInfo.facts.learnt``: the seer's check, the sheriff's investigation); a variant that
  declares no facts is read by convention: a rules event shown to one seat only, about a
  ``target``, naming a role or a team of the game ("Werewolf", "MAFIA", "BLACK");
* seats are referred to as ``seat 4``, ``player 4``, ``#4`` (or ``Platz 4``, ``siège 4``,
  ``asiento 4``...) or by the names the game's opening events list (``players``: names by
  seat, or ``{seat, name}`` objects);
* the role and team words are read in English, German, French and Spanish
  (:mod:`duskfall.lab.lexicon`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from duskfall.core import event_kinds as kinds
from duskfall.core.events import PUBLIC, Event
from duskfall.core.facts import GameFacts
from duskfall.core.sides import EVIL, side_of
from duskfall.core.variant import State, Variant
from duskfall.lab.lexicon import EVIL_WORDS, GOOD_WORDS, own_words, translated

TEXT_KEYS = ("text", "says")
NOT_RESULTS = frozenset({"sub_phase", "kind", "type", "action", "phase"})  # decision names
SPEAKER_KEYS = ("seat", "player_id")
EVIL_EXTRA = frozenset({"evil", "bad", "wolf", "wolves", "scum"})
GOOD_EXTRA = frozenset({"good", "innocent", "clear", "cleared", "villager", "town", "townie"})


@dataclass(frozen=True)
class Said:
    """One text of one seat: a speech (public or a private chat) or its reasoning."""

    seq: int
    seat: int
    text: str
    public: bool
    kind: str  # "speech", "chat" or "reasoning"


@dataclass(frozen=True)
class Check:
    """What a checking seat learnt about ``target`` at event ``seq``: evil or not."""

    seq: int
    seat: int
    target: int
    evil: bool


def _speaker(payload: Mapping[str, Any]) -> int | None:
    for key in SPEAKER_KEYS:
        value = payload.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _text(payload: Mapping[str, Any]) -> str | None:
    for key in TEXT_KEYS:
        value = payload.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def texts_of(events: Iterable[Event]) -> list[Said]:
    """Every speech, private chat and reasoning in ``events``, in order."""
    out = []
    for event in events:
        seat, text = _speaker(event.payload), _text(event.payload)
        if seat is None or text is None:
            continue
        if event.kind == kinds.THOUGHT:
            out.append(Said(event.seq, seat, text, False, "reasoning"))
        elif event.source == "rules" and event.visibility != "admin":
            public = event.visibility == PUBLIC
            out.append(Said(event.seq, seat, text, public, "speech" if public else "chat"))
    return out


def _words_of(name: str) -> set[str]:
    """A role or team name and its plural, in lower case (``DON`` -> don, dons)."""
    base = name.lower().replace("_", " ").strip()
    return {base, f"{base}s", f"{base}es"} if base else set()


@dataclass
class Vocabulary:
    """The words a game's texts are read with (see the module docstring)."""

    names: dict[str, int] = field(default_factory=dict)
    evil: set[str] = field(default_factory=set)
    good: set[str] = field(default_factory=set)
    own: dict[int, set[str]] = field(default_factory=dict)  # each seat's role and team words
    evil_seats: set[int] = field(default_factory=set)
    teams: dict[int, str] = field(default_factory=dict)

    @classmethod
    def of(cls, variant: Variant, state: State, events: Iterable[Event]) -> Vocabulary:
        """The words of a game: its variant's, its deal's, the names its events list."""
        seats = {seat: (role, state.team_of(seat)) for seat, role in state.roles().items()}
        return cls.for_seats(variant, seats, _names(events))

    @classmethod
    def for_seats(
        cls, variant: Variant, seats: Mapping[int, tuple[str, str]], names: Mapping[str, int]
    ) -> Vocabulary:
        """The words of a table of ``variant`` whose seats have these (role, team), and
        these names (lower case)."""
        words = cls(names=dict(names))
        aliases: dict[str, set[str]] = {}
        for alias, team in variant.team_aliases.items():
            aliases.setdefault(team, set()).update(_words_of(alias))
        for team in variant.teams:
            team_words = _words_of(team) | aliases.get(team, set())
            (words.evil if team == variant.teams[-1] else words.good).update(team_words)
        for seat, (role, team) in seats.items():
            role_words = set().union(*(_words_of(part) for part in role.split("+")))
            evil = side_of(variant, team) == EVIL
            (words.evil if evil else words.good).update(role_words)
            own = role_words | _words_of(team) | aliases.get(team, set())
            words.own[seat] = own_words(own)
            words.teams[seat] = team
            if evil:
                words.evil_seats.add(seat)
        own_evil, own_good = translated(words.evil), translated(words.good)
        words.evil = own_evil | (translated(EVIL_EXTRA) | EVIL_WORDS) - own_good
        words.good = own_good | (translated(GOOD_EXTRA) | GOOD_WORDS) - words.evil
        return words

    def teammates(self, seat: int) -> set[int]:
        """The other seats of ``seat``'s team."""
        team = self.teams.get(seat)
        return {s for s, t in self.teams.items() if t == team and s != seat}

    def checks(self, events: Iterable[Event], facts: GameFacts | None = None) -> list[Check]:
        """Every check result in ``events``: as the variant's ``facts`` say them where it
        declares them (``learnt``), else read by the convention of the module docstring."""
        declared = facts is not None and type(facts) is not GameFacts
        out = []
        for event in events:
            scope, _, seats = event.visibility.partition(":")
            if event.source != "rules" or scope != "seats" or not seats.isdigit():
                continue
            if declared:
                assert facts is not None
                learnt = facts.learnt(event.kind, event.payload)
                for checked, evil in (learnt.checks if learnt else {}).items():
                    out.append(Check(event.seq, int(seats), checked, evil))
                continue
            target = event.payload.get("target")
            if not isinstance(target, int) or isinstance(target, bool):
                continue
            named = {
                word
                for key, value in event.payload.items()
                if key not in NOT_RESULTS
                for word in _lowered(value)
            }
            if named & self.evil:
                out.append(Check(event.seq, int(seats), target, True))
            elif named & self.good:
                out.append(Check(event.seq, int(seats), target, False))
        return out


def _lowered(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value.lower().replace("_", " ")]
    if isinstance(value, list | tuple):
        return [item.lower().replace("_", " ") for item in value if isinstance(item, str)]
    return []


def _names(events: Iterable[Event]) -> dict[str, int]:
    """Player names by seat, from the first public rules event that lists ``players``."""
    for event in events:
        players = event.payload.get("players")
        if event.visibility != PUBLIC or not isinstance(players, list):
            continue
        names: dict[str, int] = {}
        for index, player in enumerate(players):
            if isinstance(player, str):
                names[player.lower()] = index
            elif isinstance(player, dict) and isinstance(player.get("name"), str):
                seat = player.get("seat", index)
                if isinstance(seat, int):
                    names[player["name"].lower()] = seat
        if names:
            return names
    return {}
