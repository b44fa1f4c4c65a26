"""A card's skeleton: the roles to deal and the phases of a round, as data.

With a skeleton (and structured turns) duskfall runs the frame of the game itself: it deals
the roles and tells each player its own, walks the phases round after round, and offers the
game master only the players still to act in the current phase; the GM narrates, picks one
of them, sends night results and announces who is out. In a card file::

    [skeleton]
    min_rounds = 1          # rounds that must be played before the GM may end the game
    max_rounds = 3          # after this many rounds the game stops (a draw by round limit)
    audit = "werewolf"      # check the GM against the werewolf rules (see gm.audit)

    [[skeleton.roles]]
    name = "Werewolf"
    count = 2
    knows = ["Werewolf"]    # this role is told which players hold these roles
    rules_role = "Werewolf" # its role in the rules engine (for the audit)

    [[skeleton.phases]]
    name = "Night {round}: the werewolves"   # {round} is the round number
    task = "name the player to kill"         # what an acting player is asked
    actors = ["Werewolf"]   # roles that act (empty: every player still in)
    private = true          # answers go to the GM only
    picks = [1]             # players who act, per round (last value repeats; empty: all)
    leader = false          # one actor, moving down the roster each round
    out = 1                 # players the GM may announce out when the phase opens
    last_words = false      # those players still get a turn in this phase (last words)
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from duskfall.gm.shadow import rules_role


class RoleSpec(BaseModel):
    """A role dealt ``count`` times; its holders are told who holds the roles in ``knows``."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    count: int = Field(1, ge=1, le=20)
    knows: list[str] = Field(default_factory=list)
    rules_role: str | None = Field(None, description="the role of the rules engine (audit)")


class PhaseSpec(BaseModel):
    """One phase of a round; see the module docstring."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    task: str = ""
    actors: list[str] = Field(default_factory=list)
    private: bool = False
    picks: list[int] = Field(default_factory=list)
    leader: bool = False
    out: int = Field(0, ge=0, le=5)
    last_words: bool = False

    def title(self, round_number: int) -> str:
        return self.name.replace("{round}", str(round_number))

    def picks_in(self, round_number: int) -> int | None:
        """How many players act in this phase in round ``round_number`` (None: all)."""
        if self.leader:
            return 1
        if not self.picks:
            return None
        return self.picks[min(round_number, len(self.picks)) - 1]


class Skeleton(BaseModel):
    """Roles and phases; see the module docstring."""

    model_config = ConfigDict(extra="forbid")

    roles: list[RoleSpec] = Field(min_length=1)
    phases: list[PhaseSpec] = Field(min_length=1)
    min_rounds: int = Field(1, ge=0)
    max_rounds: int | None = Field(None, ge=1)
    audit: Literal["werewolf"] | None = None

    @model_validator(mode="after")
    def _known_roles(self) -> Skeleton:
        names = [role.name for role in self.roles]
        if len(set(names)) != len(names):
            raise ValueError("a role is listed twice")
        for role in self.roles:
            for other in role.knows:
                if other not in names:
                    raise ValueError(f"role {role.name!r} knows an unknown role {other!r}")
        for phase in self.phases:
            for actor in phase.actors:
                if actor not in names:
                    raise ValueError(f"phase {phase.name!r} has an unknown actor role {actor!r}")
        if self.audit == "werewolf":
            for role in self.roles:
                try:
                    rules_role(role.rules_role or role.name)
                except ValueError as exc:
                    raise ValueError(
                        f"role {role.name!r} has no werewolf rules_role: {exc}"
                    ) from None
        return self

    @property
    def seats(self) -> int:
        """How many players the deal needs."""
        return sum(role.count for role in self.roles)

    def deck(self) -> list[str]:
        """Every role card, in card order (shuffled by the game's seed when dealt)."""
        return [role.name for role in self.roles for _ in range(role.count)]

    def role(self, name: str) -> RoleSpec:
        return next(role for role in self.roles if role.name == name)
