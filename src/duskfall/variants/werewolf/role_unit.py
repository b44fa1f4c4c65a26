"""A Werewolf role as one unit: everything the game says and does about a role, in one place.

A :class:`RoleUnit` declares its team and whether it is a god (unique, and counted for the
"all gods dead" win), where its night step falls, the rules text and the power every prompt
gives it, a coaching hint, the private facts its holder's view shows, the lines and marks of
the events it causes, what a bot holding it says of itself, and what happens when the village
exiles it (:attr:`RoleUnit.exiled`, a hook on the game through :class:`Table`). The registry
of units is :data:`duskfall.variants.werewolf.units.UNITS`; the rules, view, prompts, event
text, spectator, bots and no-leak check read them. Night steps that ask a decision (the
wolves, and the roles' own turns and choices) are steps of the rules engine, dispatched as typed
steps; a unit gives their place in the night (``night``), which orders the rules text.

A role that decides at night on its own declares it as a :class:`NightChoice` (``choice=``):
the decision's kind and question, its legal targets, how the answer applies and what it does
to the night's deaths at dawn, how a heuristic bot picks and its decision mode. The rules ask
every living holder of such a role after the roles' own turns, all at once; the prompts, the
browser and terminal forms, the wire, the learning encoder (its mask and action menu: a choice
of a seat) and the kit read the choice from there; the check-bot deals the role to seat 0 of a
table of :mod:`duskfall.variants.werewolf.roles` (``CHECK_TABLE``).

A role whose night decision has a shape of its own (several options, each with its targets)
declares it as a :class:`NightTurn` (``turn=``): what its holder is told first, its legal
choice (a class of the unit's: parse, sample, schema, wire form, and how it is put to a seat:
the prompt's ``prompt(obs)``, the browser's plain ``words()``, the terminal's ``form()``), how
the answer applies and what it does to the night's deaths at dawn, how a bot picks. The rules
ask its one living holder (the role is a god: unique) alone, in
night order, after the wolves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from duskfall.core.facts import Learnt
from duskfall.core.planted import PrivateFact
from duskfall.core.spectator import MarkFinder
from duskfall.variants.werewolf.events import WerewolfEvent

WOLF_TEAM = "werewolf"
VILLAGE_TEAM = "village"

Obs = Mapping[str, Any]
Namer = Callable[[int | None], str]
Line = Callable[[Mapping[str, Any], Namer], str]
"""An event's line from its payload, naming seats with the namer (``seat 3 (Cleo)``)."""
Reveal = Callable[[Mapping[str, Any]], dict[int, str]]
"""The roles an event's payload shows to whoever sees the event (``{seat: role}``)."""
Teach = Callable[[Mapping[str, Any]], Learnt | None]
"""What a private event's payload teaches its holder, in the common facts' form."""


class Table(Protocol):
    """What a role's hooks may change in a game: the roles shown to everybody (``revealed``:
    seat -> role), the seats that no longer vote (``voteless``), and the events it emits."""

    revealed: dict[int, str]
    voteless: set[int]

    def emit(
        self, kind: str, visibility: str, sub_phase: str | None = None, **payload: Any
    ) -> None: ...


def in_play(obs: Obs, role: str) -> bool:
    """Whether ``role`` is dealt at this table (from the public roles in play)."""
    return obs["roles_in_play"].get(role, 0) > 0


SAVERS: set[str] = set()
"""The roles that can save the wolves' target (:attr:`RoleUnit.saves`), filled once from the
registry by :mod:`.units` (which imports every unit, and so cannot be imported here)."""


def saver_in_play(obs: Obs) -> bool:
    """Whether a role that can save the wolves' target is dealt at this table."""
    return any(in_play(obs, role) for role in SAVERS)


def _no_lines(obs: Obs) -> Sequence[str]:
    return ()


def _no_facts(state: Any, seat: int) -> dict[str, Any]:
    return {}


def _dies(table: Table, seat: int) -> bool:
    return True


class Night(Table, Protocol):
    """What a role's night choice may read and change: the table, the night (``day``), the
    living seats and the wolves among all seats, the seat the wolves attacked tonight, the
    seats shielded from that attack tonight (``shielded``: an attacked seat in it survives),
    and ``notes``: what the units remember (by role; kept across nights, copied with the
    game)."""

    day: int
    notes: dict[str, Any]
    is_wolf: list[bool]
    shielded: set[int]
    names: tuple[str, ...]
    saved: bool
    """The wolves' target was saved tonight (a role's turn: the antidote)."""
    poisoned: int | None
    """The seat poisoned tonight (a role's turn), who dies at dawn whatever protects it."""

    @property
    def public_rules(self) -> dict[str, Any]: ...

    def living(self, exclude: int | None = None) -> tuple[int, ...]: ...

    @property
    def attacked(self) -> int | None: ...


class Mind(Protocol):
    """What the heuristic bot tells a role's night choice: its seat, whose claimed checks it
    trusts (:data:`~.units.CHECKER`), what it read in the speeches and votes (``reading``), and
    its random source."""

    seat: int
    rng: Any
    reading: Any

    def trusted_checker(self, obs: Obs) -> int | None: ...

    def sure_wolves(self, obs: Obs) -> list[int]:
        """The living seats it is sure are wolves: the trusted checker's, then counter-claimants."""
        ...


def _others(night: Night, seat: int) -> tuple[int, ...]:
    return night.living(exclude=seat)


def _any_target(obs: Obs, targets: Sequence[int], mind: Mind) -> int | None:
    return None  # the bot picks a random legal target


def _no_settle(night: Night, deaths: dict[int, str]) -> None:
    return None


@dataclass(frozen=True)
class NightChoice:
    """A role's own decision at night: a choice of one seat (see the module docstring).

    * ``kind``: the decision kind (its sub-phase, and ``type`` on the wire); ``question``: what
      the holder is asked (prompts, the browser and terminal forms, the wire's legal state);
    * ``targets(night, seat)``: the legal seats (default: every other living player);
      ``none_word``: the word for choosing nobody (empty: a seat must be chosen);
    * ``resolve(night, seat, target)``: the answer applied (emits its event, takes notes);
    * ``settle(night, deaths)``: at dawn, before the deaths take effect (seat -> cause);
    * ``bot(obs, targets, mind)``: the heuristic bot's pick (None: a random legal target);
    * ``mode``: its decision mode in the common facts (``protect``, ``inspect``...).
    """

    kind: str
    question: str
    resolve: Callable[[Night, int, int | None], None]
    targets: Callable[[Night, int], tuple[int, ...]] = _others
    none_word: str = ""
    settle: Callable[[Night, dict[int, str]], None] = _no_settle
    bot: Callable[[Obs, Sequence[int], Mind], int | None] = _any_target
    mode: str = "other"


def _always(night: Night, seat: int) -> bool:
    return True


@dataclass(frozen=True)
class NightTurn:
    """A role's own night decision with a shape of its own (see the module docstring).

    * ``kind``: the decision kind (its sub-phase, and ``type`` on the wire); ``choice``: the
      class of its legal choice (besides the methods of every legal choice, ``prompt(obs)``,
      ``words()`` and ``form()``: how it is put to a seat); ``wire``: that class's name in the
      wire's ``legal_state``;
    * ``tell(night, seat)``: before it is asked, what its holder is told (emits its event); False:
      not asked tonight; ``told``: that event's kind, if it tells the wolves' target
      (``target``), which the heuristic bots read;
    * ``legal(night, seat)``: its legal choice; ``resolve(night, seat, action)``: the answer
      applied; ``settle(night, deaths)``: at dawn, before the deaths take effect;
    * ``bot(obs, legal, mind)``: the heuristic bot's action; ``mode``: its decision mode (the
      check-bot's game of it is one of :data:`duskfall.variants.werewolf.roles.KIT_GAMES`).
    """

    kind: str
    choice: type
    wire: str
    legal: Callable[[Night, int], Any]
    resolve: Callable[[Night, int, Any], None]
    bot: Callable[[Obs, Any, Mind], Any]
    tell: Callable[[Night, int], bool] = _always
    told: str = ""
    settle: Callable[[Night, dict[int, str]], None] = _no_settle
    mode: str = "other"


def _no_scramble(state: Any, rng: Any) -> None:
    return None


@dataclass(frozen=True)
class RoleUnit:
    """One role (see the module docstring).

    * ``name``, ``team``, ``god`` (a god is unique in a game and counts for the gods' side of
      the win condition), ``plural`` (``Werewolves``; default ``name + "s"``);
    * ``night``: the position of its night step (lower acts earlier; None: no night step);
    * ``power(obs)``: what its holder can do, in the seat's system prompt; ``strategy``: the
      coaching hint (another role named by what it does: ``{checker}``, see
      :func:`~.units.strategy_of`);
    * ``night_rules(obs)``, ``day_rules(obs)``: its lines in the table's rules (every seat's
      prompt), given the public facts of the table;
    * ``view(state, seat)``: the private facts its holder's view adds;
    * ``lines``, ``marks``, ``reveals``: the line (god view, history, prompts), the card marks
      and the roles shown by the events it causes, by event kind; ``learnt``: what those of
      its private events teach its holder (players' sides, :class:`~duskfall.core.facts.Learnt`);
    * ``bot_words``: what a bot holding it says of itself in a speech;
    * ``claim``: for a role that checks players at night (its view's ``checks``), the sentence
      that claims it in speech (``I am the ...``), followed by results (``Seat 4 is a
      werewolf.``): the bots read such claims, trust one, fake them as wolves, and a bot
      holding the role claims it with every result and runs for sheriff;
    * ``exiled(table, seat)``: True if the exile kills the seat (the default); a role that
      survives it changes the table instead (reveals itself, loses its vote...);
    * ``events``: the typed models of the events it adds to the table's
      (:mod:`duskfall.variants.werewolf.events`), which the variant declares;
    * ``choice``: its own night decision, if it has one (:class:`NightChoice`); ``turn``: its
      night decision of a shape of its own (:class:`NightTurn`), if it has one;
    * ``knowledge(obs)``: the lines of what its holder privately knows now, in the situation
      of its prompts; ``saves``: it can save the wolves' target (a protection's rules say what
      befalls a player both protected and saved);
    * ``scramble(state, rng)``: randomise what only its holder knows (its notes), for the
      no-leak check of a seat that does not hold it;
    * ``private_facts``: the private results it is told that a fork may change
      (:mod:`duskfall.core.planted`).
    """

    name: str
    power: Callable[[Obs], str]
    strategy: str
    team: str = VILLAGE_TEAM
    god: bool = False
    plural: str = ""
    night: int | None = None
    night_rules: Callable[[Obs], Sequence[str]] = _no_lines
    day_rules: Callable[[Obs], Sequence[str]] = _no_lines
    view: Callable[[Any, int], dict[str, Any]] = _no_facts
    lines: Mapping[str, Line] = field(default_factory=dict)
    marks: Mapping[str, MarkFinder] = field(default_factory=dict)
    reveals: Mapping[str, Reveal] = field(default_factory=dict)
    learnt: Mapping[str, Teach] = field(default_factory=dict)
    bot_words: str = "I am a villager."
    claim: str = ""
    exiled: Callable[[Table, int], bool] = _dies
    events: tuple[type[WerewolfEvent], ...] = ()
    choice: NightChoice | None = None
    scramble: Callable[[Any, Any], None] = _no_scramble
    private_facts: tuple[PrivateFact, ...] = ()
    turn: NightTurn | None = None
    knowledge: Callable[[Obs], Sequence[str]] = _no_lines
    saves: bool = False

    @property
    def plural_name(self) -> str:
        return self.plural or self.name + "s"


def said(text: str) -> Callable[[Obs], str]:
    """A power that does not depend on the table."""
    return lambda obs: text
