"""Forking a logged game: rebuild it at a moment, then play on with the given agents.

:func:`plan_fork` reads the parent's log, finds the moment (:mod:`duskfall.lab.moments`),
re-applies the log's actions up to it (an intervention's in place of the one it replaces),
makes the fork's seats from the agent spec (the parent's own by default) and brings its bots
through the prefix (:mod:`duskfall.lab.warmup`). Nothing is written until
:meth:`ForkPlan.start`: the fork's log begins with its header, which names the parent
(:class:`~duskfall.store.lineage.ForkOrigin`), and a copy of the prefix; the game is then
assembled like any other (:func:`duskfall.session.assemble`) and plays on.

Seats played by LLM or deliberating agents are shown the whole prefix as their seat saw it
(their prompts are built from the record, which starts with the prefix), nothing more. An
``llm`` seat also goes through its logged calls of the prefix (:mod:`duskfall.lab.warmup`), so
its conversation and call count stand as the parent's did; the agents' options are the
parent's (logged in its header) unless the request overrides them. The
deal is the parent's (same roles, same rules randomness); ``seed`` only changes the seats'
agents and the fallbacks, and defaults to the parent's, so a fork with the parent's agents
plays the parent's game again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.agents.specs import parse_spec
from duskfall.core.errors import ConfigError, DuskfallError, LogCorrupt
from duskfall.core.rng import check_seed, derive_rng
from duskfall.lab.interventions import Replacement, parse_replacement
from duskfall.lab.moments import Moment
from duskfall.lab.planting import Planting, planted_in, planting_of
from duskfall.lab.rebuild import cut_after, rebuild
from duskfall.lab.rounds import Round, check_rebuildable
from duskfall.lab.warmup import BotWarmUp
from duskfall.llm.preflight import Announce
from duskfall.runtime.record import Observer
from duskfall.runtime.settings import RuntimeSettings
from duskfall.session import (
    GamePlan,
    PreparedGame,
    RunOptions,
    assemble,
    logged_options,
    new_game_id,
    options_of,
    plan_seats,
    roster_of,
)
from duskfall.session.participants import SeatAgentError
from duskfall.store.anchor import check_not_cut
from duskfall.store.index import GameIndex
from duskfall.store.lineage import FORK_KEY, ForkOrigin
from duskfall.store.log import GameLog, LogHeader, TornLine, read_log
from duskfall.store.paths import default_db_path
from duskfall.store.replay import Replayer
from duskfall.store.signatures import checking_signer, signature_of


@dataclass
class ForkRequest:
    """What to fork and how to play on (see :func:`plan_fork`).

    ``at`` names the moment (default: right after the replaced event, else required);
    ``agents`` is an agent spec as for ``play`` (default: the parent's seats' agents);
    ``agent_options`` override the parent's (its header logs them; the fork inherits the rest);
    ``seed`` the seats' seed (default: the parent's); ``replace`` one ``SEQ=TEXT`` or
    ``SEQ=ACTION`` intervention; ``set_result`` one ``SEQ=VALUE`` planted private result
    (:mod:`duskfall.lab.planting`; not with ``replace``); ``log_path`` the fork's log
    (default: beside the parent's).
    ``unfinished`` allows forking a game that has not ended (see :func:`plan_fork`).
    """

    source: Path
    at: str | None = None
    agents: str | None = None
    seed: int | None = None
    replace: str | None = None
    set_result: str | None = None
    log_path: Path | None = None
    write_log: bool = True
    game_id: str | None = None
    settings: RuntimeSettings = field(default_factory=RuntimeSettings)
    agent_options: Mapping[str, Any] = field(default_factory=dict)
    observers: Sequence[Observer] = ()
    header_extra: Mapping[str, Any] = field(default_factory=dict)
    keep_events: bool = True
    unfinished: bool = False


@dataclass
class ForkPlan:
    """A fork ready to start; nothing is written until :meth:`start`."""

    plan: GamePlan
    origin: ForkOrigin
    moment: Round | None
    replacement: Replacement | None
    fallback_state: Any
    warm_up: BotWarmUp | None = None

    async def preflight(self, announce: Announce | None = None) -> None:
        """Check every model-backed seat once (raises SeatNotReady naming seats and fix)."""
        await self.plan.preflight(announce)

    def start(self) -> PreparedGame:
        """Write the fork's header and prefix, and assemble the game that plays on."""
        game = assemble(self.plan)
        game.scheduler.started = True  # the prefix holds the opening events
        game.scheduler.fallback_rng.setstate(self.fallback_state)
        return game


@dataclass
class Parent:
    """The parent's log, read once, and its chain hash after each event (``heads[n]``: after
    ``n`` events; what the fork's origin names)."""

    path: Path
    log: GameLog
    heads: list[str]

    def head_after(self, events: int) -> str:
        """The chain hash after the parent's first ``events`` events."""
        if not 0 <= events < len(self.heads):
            raise LogCorrupt(f"the log has only {len(self.log.events)} events, not {events}", 0)
        return self.heads[events]


def read_parent(path: Path) -> GameLog:
    """The parent's log: whole (a torn last line is left out), not cut (the index), and not
    forged (its signature, when the operator key is here to check it)."""
    return load_parent(path).log


def load_parent(path: Path, index: GameIndex | None = None) -> Parent:
    """:func:`read_parent`, with the chain hash after each event read on the way; ``index``
    is the game index already open (else it is opened to check the log, and closed)."""
    heads: list[str] = []
    log = read_log(path, strict=False, heads=heads)
    if log.corrupt is not None and not isinstance(log.corrupt, TornLine):
        raise log.corrupt
    db = None if index is None else index.path
    signer = checking_signer(db=db)
    signature_of(path, log, signer)
    check_not_cut(path, log, db, signer=signer, index=index)
    return Parent(Path(path), log, heads)


def open_index(*, create: bool) -> GameIndex | None:
    """The game index a fork checks its parent in and, ``create`` (it writes a log), keeps its
    own row in: opened once, to be handed on (None when indexing is off, when there is none
    and none is to be made, or when it cannot be opened: the record says so when it starts)."""
    path = default_db_path()
    if path is None or (not create and not path.exists()):
        return None
    try:
        return GameIndex(path, repair=create, any_thread=True)
    except DuskfallError:
        return None


def plan_fork(
    request: ForkRequest, *, parent: Parent | None = None, index: GameIndex | None = None
) -> ForkPlan:
    """Plan the fork ``request`` asks for (module docstring); raises ConfigError (a moment,
    an agent or an intervention that does not fit, a game that has not ended), LogCorrupt or
    ReplayMismatch.

    A fork shares its parent's deal: its god view, and its seed once it ends, tell every
    hidden role of the parent. So a game that has not ended (still running, or interrupted and
    to be resumed) is forked only when asked explicitly (``unfinished``).

    The parent's log is read once (``parent``: already read, as :func:`load_parent` reads
    it), and dealt once: the fresh deal names the seats, and the one replay that rebuilds it
    to the cut finds its rounds and the moment. The game index is opened once (``index``: the
    caller's, already open): the parent is checked there and, when the fork writes a log, the
    fork's row is kept there (the fork's record closes it at its end). The fork's header is the
    one place its variant, config and seeds are carried."""
    if index is None and parent is None:
        index = open_index(create=request.write_log)
    try:
        return _plan_fork(request, parent or load_parent(Path(request.source), index), index)
    except BaseException:
        if index is not None:
            index.close()
        raise


def _plan_fork(request: ForkRequest, found: Parent, index: GameIndex | None) -> ForkPlan:
    """:func:`plan_fork` once the parent is read."""
    parent = found.log
    header = parent.header
    check_rebuildable(parent)
    if not parent.finished and not request.unfinished:
        raise ConfigError(
            f"game {header.game_id} has not ended: a fork plays its deal, so the fork's pages "
            "would show roles its players do not know yet; wait for its end (or, for a game "
            "that will not go on, pass --unfinished)"
        )
    planting = planting_of(request.set_result, parent, request.replace)
    replacement = None if request.replace is None else parse_replacement(request.replace, parent)
    at, cut = _where(request.at, parent, replacement, planting)
    replayer = Replayer(header)  # the one deal: its fresh state names the seats
    variant, dealt = replayer.variant, replayer.state
    seed = header.seats_seed if request.seed is None else check_seed(request.seed, "--seed")
    roster = ",".join(str(entry.get("agent")) for entry in header.roster)
    spec = roster if request.agents is None else request.agents
    agents = parse_spec(variant, spec, dealt.num_seats)(dealt)
    options = {**options_of(header), **request.agent_options}
    game_id = request.game_id or new_game_id(variant.id)
    fork_header = LogHeader(
        game_id=game_id,
        variant=variant.id,
        config=header.config,
        seed=header.seed,
        roster=roster_of(agents),
        extra={**request.header_extra, **logged_options(options)},
        agent_seed=None if seed == header.seed else seed,
    )
    run_options = RunOptions(request.settings, tuple(request.observers), request.keep_events)
    try:
        plan = plan_seats(
            variant, dealt, fork_header, agents, None, run_options, agent_options=options
        )
    except SeatAgentError as exc:
        raise ConfigError(f"{exc}; give the seats' agents with --agents") from None
    fallback = derive_rng(fork_header.seats_seed, "fallback")
    warm = BotWarmUp(variant, plan.participants, fallback, request.settings, game_id, parent.events)
    rebuilt = rebuild(
        parent,
        game_id=game_id,
        at=at,
        cut=cut,
        warm=warm,
        replacement=replacement,
        replayer=replayer,
        planting=planting,
    )
    if planting is not None and rebuilt.cut < planting.cut(parent):
        raise ConfigError(
            f"--at {request.at} starts at event {rebuilt.cut}, before the planted result's "
            f"events end ({planting.cut(parent)}): the fork must start after what it plants"
        )
    if replacement is not None and rebuilt.cut < cut_after(parent, replacement):
        raise ConfigError(
            f"--at {request.at} starts at event {rebuilt.cut}, not after the replaced event "
            f"{replacement.given}: the fork must start after what it replaces"
        )
    if rebuilt.state.outcome() is not None:
        raise ConfigError("the game is already over at that moment: nothing to play on")
    origin = ForkOrigin(
        header.game_id,
        rebuilt.cut,
        found.head_after(rebuilt.cut),
        len(rebuilt.prefix),
        None if replacement is None else replacement.index,
        planted_in(parent, rebuilt.cut, planting, _shift(replacement, rebuilt.prefix, rebuilt.cut)),
    )
    fork_header.extra[FORK_KEY] = origin.to_dict()
    plan.log_path = _log_path(request, found.path, game_id)
    plan.state, plan.events, plan.inherited = rebuilt.state, rebuilt.prefix, True
    plan.index = index if plan.log_path is not None else None
    if index is not None and plan.index is None:
        index.close()
    return ForkPlan(plan, origin, rebuilt.moment, replacement, fallback.getstate(), warm)


async def run_fork(request: ForkRequest) -> PreparedGame:
    """Plan, check and play a fork to its end."""
    planned = plan_fork(request)
    await planned.preflight()
    game = planned.start()
    await game.run()
    return game


def _where(
    at: str | None,
    parent: GameLog,
    replacement: Replacement | None,
    planting: Planting | None = None,
) -> tuple[Moment | None, int | None]:
    """Where the fork starts: the moment ``at`` names, else right after the replaced event
    (or the planted result)."""
    if at is not None:
        return Moment(at), None
    if planting is not None:
        return None, planting.cut(parent)
    if replacement is None:
        raise ConfigError("say where to fork with --at (an event number, day:N, night:N)")
    return None, cut_after(parent, replacement)


def _shift(
    replacement: Replacement | None, prefix: Sequence[object], cut: int
) -> tuple[int, int] | None:
    """The replaced action's index and how many events its replacement added to the prefix."""
    return None if replacement is None else (replacement.index, len(prefix) - cut)


def _log_path(request: ForkRequest, source: Path, game_id: str) -> Path | None:
    """The fork's log: ``--log``, else beside its parent's; never over an existing file."""
    if not request.write_log:
        return None
    path = request.log_path or source.parent / f"{game_id}.jsonl"
    if path.exists():
        raise ConfigError(f"{path} already exists; give the fork's log another name with --log")
    return path
