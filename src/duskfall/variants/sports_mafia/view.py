"""The one place a seat's view of a sports-mafia game is built.

``observe(state, seat)`` gives the seed's observation fields plus ``player_id`` and
``vote_history``: the public table, the seat's own role, its team-mates if it is BLACK and its
own check results. Prompts, protocol observations and bot inputs are all built from it.
Observations are read-only: their public fields (:func:`public_view`) are the same objects in
every seat's observation until the state changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, TypedDict

from duskfall.variants.sports_mafia.actions import NUM_PLAYERS
from duskfall.variants.sports_mafia.roles import BLACK_ROLES, DON, SHERIFF


class PlayerView(TypedDict):
    """What everybody sees of one player."""

    player_id: int
    alive: bool
    declarations: list[int]
    sheriff_claims: list[list[int]]


class VoteRecord(TypedDict):
    """One finished vote round: ``votes`` maps each voter (a string) to a seat, or to a bool in
    the eliminate-all round."""

    turn: int
    round: int
    votes: dict[str, int | bool]


class PrivateInfo(TypedDict, total=False):
    """What only this seat knows: its team (BLACK), the Don's or the Sheriff's checks."""

    mafia_team: list[int]
    don_checks: dict[str, bool]
    sheriff_checks: dict[str, str]


class SportsMafiaObservation(TypedDict):
    """A seat's view of a sports-mafia game (seat keys of mappings are strings, as in JSON)."""

    player_id: int
    turn: int
    phase: str
    alive_players: list[int]
    nominated_players: list[int]
    tied_players: list[int]
    role: str
    private_info: PrivateInfo
    players: list[PlayerView]
    known_roles: dict[str, str]
    first_speaker: int
    vote_history: list[VoteRecord]


class ObservedGame(Protocol):
    """What :func:`observe` reads of a game (``rules.SportsMafiaState`` provides it)."""

    @property
    def role_of(self) -> Sequence[str]: ...
    @property
    def alive_flags(self) -> Sequence[bool]: ...
    @property
    def turn(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def first_speaker(self) -> int: ...
    @property
    def declarations(self) -> Sequence[tuple[int, ...]]: ...
    @property
    def claims(self) -> Sequence[tuple[tuple[int, ...], ...]]: ...
    @property
    def nominated(self) -> Sequence[int]: ...
    @property
    def tied(self) -> Sequence[int]: ...
    @property
    def vote_history(self) -> Sequence[VoteRecord]: ...
    @property
    def don_checks(self) -> Mapping[int, bool]: ...
    @property
    def sheriff_checks(self) -> Mapping[int, str]: ...

    def alive(self) -> list[int]: ...

    def black_team(self) -> list[int]: ...

    def public_view(self) -> PublicView: ...


class PublicView(TypedDict):
    """The fields of an observation that are the same for every seat."""

    turn: int
    phase: str
    alive_players: list[int]
    nominated_players: list[int]
    tied_players: list[int]
    players: list[PlayerView]
    first_speaker: int
    vote_history: list[VoteRecord]


def public_view(state: ObservedGame) -> PublicView:
    """What every seat sees alike: a state builds it once per change and every seat's
    observation shares its values (so they are read-only)."""
    alive_flags, declarations, claims = state.alive_flags, state.declarations, state.claims
    return {
        "turn": state.turn,
        "phase": state.phase,
        "alive_players": state.alive(),
        "nominated_players": list(state.nominated),
        "tied_players": list(state.tied),
        "players": [
            {
                "player_id": p,
                "alive": alive_flags[p],
                "declarations": list(declarations[p]),
                "sheriff_claims": list(map(list, claims[p])),
            }
            for p in range(NUM_PLAYERS)
        ],
        "first_speaker": state.first_speaker,
        "vote_history": list(state.vote_history),
    }


def observe(state: ObservedGame, seat: int) -> SportsMafiaObservation:
    """The seat's view: the seed's fields plus ``player_id``/``vote_history``."""
    role = state.role_of[seat]
    private: PrivateInfo = {}
    known: dict[str, str] = {str(seat): role}
    if role in BLACK_ROLES:
        team = state.black_team()
        private["mafia_team"] = team
        for p in team:
            known[str(p)] = state.role_of[p]
    if role == DON:
        private["don_checks"] = {str(t): r for t, r in state.don_checks.items()}
    elif role == SHERIFF:
        private["sheriff_checks"] = {str(t): r for t, r in state.sheriff_checks.items()}
    alive_flags = state.alive_flags
    for p in range(NUM_PLAYERS):
        if not alive_flags[p]:
            known[str(p)] = "UNKNOWN"
    public = state.public_view()
    return {
        "player_id": seat,
        "turn": public["turn"],
        "phase": public["phase"],
        "alive_players": public["alive_players"],
        "nominated_players": public["nominated_players"],
        "tied_players": public["tied_players"],
        "role": role,
        "private_info": private,
        "players": public["players"],
        "known_roles": known,
        "first_speaker": public["first_speaker"],
        "vote_history": public["vote_history"],
    }
