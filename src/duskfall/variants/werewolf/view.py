"""The one place a seat's view of a Werewolf game is built.

``observe(state, seat)`` holds everything ``seat`` may know and nothing else: the public
roster, its own role, the rules, the events it saw (its history) and its role's private
knowledge (partners, checks, potions, last protection: each role's unit says which).
Prompts, protocol observations and bot inputs are all built from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NotRequired, Protocol, TypedDict

from duskfall.core.outcome import Outcome
from duskfall.variants.werewolf.roles import team_of_role, unit_of


class PlayerView(TypedDict):
    """What everybody sees of one player."""

    seat: int
    name: str
    alive: bool


class Check(TypedDict):
    """One of a checking role's checks: ``result`` is ``Good`` or ``Werewolf``."""

    night: int
    target: int
    result: str


class WerewolfObservation(TypedDict):
    """A seat's view. The role-specific keys are present for that role only; ``outcome``
    once the game is over. ``history`` entries are the seat's visible events, flattened
    (``day``, ``phase``, ``kind`` and the event's payload)."""

    variant: str
    seat: int
    name: str
    role: str
    team: str
    alive: bool
    day: int
    phase: str
    decision: str | None
    players: list[PlayerView]
    sheriff: int | None
    roles_in_play: dict[str, int]
    rules: dict[str, Any]
    history: list[dict[str, Any]]
    wolves: NotRequired[list[int]]
    checks: NotRequired[list[Check]]
    antidote: NotRequired[bool]
    poison: NotRequired[bool]
    attacked_tonight: NotRequired[int | None]
    last_guarded: NotRequired[int | None]
    revealed: NotRequired[bool]
    outcome: NotRequired[dict[str, Any]]


class ObservedGame(Protocol):
    """What :func:`observe` reads of a game (``rules.WerewolfState`` provides it)."""

    @property
    def variant_id(self) -> str: ...
    @property
    def num_seats(self) -> int: ...
    @property
    def names(self) -> Sequence[str]: ...
    @property
    def role_of(self) -> Sequence[str]: ...
    @property
    def is_alive(self) -> Sequence[bool]: ...
    @property
    def is_wolf(self) -> Sequence[bool]: ...
    @property
    def day(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def sheriff(self) -> int | None: ...
    @property
    @property
    def roles_in_play(self) -> dict[str, int]: ...
    @property
    def public_rules(self) -> dict[str, Any]: ...

    def decision_of(self, seat: int) -> str | None: ...

    def players_view(self) -> list[PlayerView]: ...

    def history(self, seat: int) -> Sequence[dict[str, Any]]: ...

    def outcome(self) -> Outcome | None: ...


def observe(state: ObservedGame, seat: int) -> WerewolfObservation:
    """Everything ``seat`` may know, and nothing else.

    The roster, role counts and rules are shared between observations: treat an observation
    as read-only.
    """
    role = state.role_of[seat]
    obs: WerewolfObservation = {
        "variant": state.variant_id,
        "seat": seat,
        "name": state.names[seat],
        "role": role,
        "team": team_of_role(role),
        "alive": state.is_alive[seat],
        "day": state.day,
        "phase": state.phase,
        "decision": state.decision_of(seat),
        "players": state.players_view(),
        "sheriff": state.sheriff,
        "roles_in_play": state.roles_in_play,
        "rules": state.public_rules,
        "history": list(state.history(seat)),
    }
    obs.update(unit_of(role).view(state, seat))  # type: ignore[typeddict-item]
    outcome = state.outcome()
    if outcome is not None:
        obs["outcome"] = outcome.to_dict()
    return obs
