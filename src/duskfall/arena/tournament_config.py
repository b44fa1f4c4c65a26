"""A tournament's configuration: read from TOML, checked field by field, one-line errors.

Example (every field but ``name``, ``entrants`` and ``games`` has a default; ``games`` is
needed only with ``[[variants]]`` blocks)::

    name = "bots"
    games = 40              # per variant block
    seed = 7                # optional: deals reproducible with this config and the operator's
                            # key file (default: a secret drawn from the OS, kept sealed)
    schedule = "duplicate"  # the default; or "sides" (pairs, sides swapped) or "mixed"
                            # (every entrant at every table, its share of seats varied)
    stop = "separated"      # stop at a planned look once every pair is told apart
                            # (default "all": play every game); games is then the cap
    parallel_games = 4      # games played at once (one event loop: model limits are shared)
    workers = 1             # processes for CPU-bound (bot) games

    [entrants]
    smart = "heuristic"
    naive = "random"

    [[variants]]
    variant = "sports-mafia"

    [[variants]]
    variant = "werewolf"
    preset = "werewolf-6"
    config = { day_limit = 10 }

    # an entrant "remote" is a program of yours speaking the TCP protocol, started per seat:
    # [entrants] mine = "remote", then
    # [remote.mine]
    # command = ["python", "my_agent.py", "--port", "{port}"]  (token: $DUSKFALL_SEAT_TOKEN)
    # pass_env = ["OPENAI_API_KEY"]  (its environment holds only these and env = {...}; as
    # root on Linux it runs as a user of its own: README, what an entrant can see)

    [board]                 # how the board is fitted (changes no game)
    reference = "naive"     # ratings relative to this entrant (default: the field's mean)
    role_effects = true     # per-role deviations, shrunk towards the side's skill

    [execution]             # how games are run (changes no game)
    attempts = 3            # tries per game before its slot is marked failed
    lease_seconds = 30      # an endpoint slot held by a dead worker comes back after this
    env = ["OPENAI_API_KEY"]  # variables workers on other machines get from the driver

    [budget]
    max_cost_usd = 5.0
    max_tokens = 2_000_000
    per_entrant_max_cost_usd = 2.0

    # paired ablations: fork logged games at a moment, one fork per entrant in the chosen
    # seats (:mod:`duskfall.report.ablations`)
    [[forks]]
    source = "games/*.jsonl"  # a glob (relative to this file) or "tournament:NAME"
    at = "day:2"              # where to fork, as duskfall fork --at names moments
    seats = "village"         # the entrant's seats: a team, a role, or seat numbers [0, 3]
    rest = "heuristic"        # the other seats (default: the source game's own agents)
    repeats = 1               # forks per source game and entrant
    games = 50                # at most this many source games
    intervention = "first-check:flip"  # optional: a change made before the fork
    treated = ["told"]        # the entrants whose forks get it (default: all)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from duskfall.arena.leases import DEFAULT_TTL
from duskfall.arena.remote_spec import PLACEHOLDER_AGENT, REMOTE, RemoteEntrant
from duskfall.arena.worker_env import ENV_NAME
from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant
from duskfall.core.validation import describe_errors

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
ENTRANT_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")


class _Strict(BaseModel):
    # strict: a number written as a string ("2") or a flag (true) is refused, not converted
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


class VariantBlock(_Strict):
    """One variant (with a preset and rule options) the entrants play ``games`` games of."""

    variant: str
    preset: str | None = None
    config: dict[str, Any] = Field(default_factory=dict)
    games: int | None = Field(None, ge=1, le=1_000_000)

    def game_config(self) -> dict[str, Any]:
        out = dict(self.config)
        if self.preset is not None:
            out["preset"] = self.preset
        return out

    @property
    def label(self) -> str:
        return f"{self.variant}:{self.preset}" if self.preset else self.variant


class Budget(_Strict):
    """Limits that stop scheduling new games once reached (games in flight finish)."""

    max_cost_usd: float | None = Field(None, gt=0)
    max_tokens: int | None = Field(None, gt=0)
    per_entrant_max_cost_usd: float | None = Field(None, gt=0)
    per_entrant_max_tokens: int | None = Field(None, gt=0)


class ForksBlock(_Strict):
    """``[[forks]]``: paired ablations on logged games (:mod:`duskfall.report.ablations`).

    ``logs`` are the source games' logs, filled from ``source`` when the config file is
    loaded (finished games only, in order, at most ``games``): the schedule is a function of
    the config alone, so the set of source games is fixed with it. ``seeds``: ``shared`` (the
    forks of a source share the seats' seed: they differ by the entrant alone) or
    ``per-entrant`` (each entrant's forks draw their own: two entrants of the same agents then
    differ by the seed alone, the block's null). ``intervention``: a rule
    (:mod:`duskfall.lab.intervention_rules`) changing each source game before the fork, in
    the forks of the ``treated`` entrants (default: every entrant); ``at = "after"`` forks
    right after the changed event. An entrant named twice with the same agents, one treated,
    measures the intervention alone."""

    source: str
    at: str = "day:2"
    seats: str | list[int] = "village"
    rest: str | None = None
    repeats: int = Field(1, ge=1, le=1000)
    games: int | None = Field(None, ge=1, le=1_000_000)
    seeds: Literal["shared", "per-entrant"] = "shared"
    intervention: str | None = None
    treated: list[str] = Field(default_factory=list)
    logs: list[str] = Field(default_factory=list)

    @field_validator("intervention")
    @classmethod
    def _rule(cls, value: str | None) -> str | None:
        if value is not None:
            from duskfall.lab.intervention_rules import parse_rule  # the lab, only when used

            try:
                parse_rule(value)
            except ConfigError as exc:
                raise ValueError(str(exc)) from None
        return value

    @property
    def label(self) -> str:
        seats = self.seats if isinstance(self.seats, str) else "+".join(map(str, self.seats))
        rule = "" if self.intervention is None else f":{self.intervention.partition('=')[0]}"
        return f"forks:{self.at}:{seats}{rule}"

    def treats(self, entrant: str) -> bool:
        """Whether ``entrant``'s forks get the block's intervention (``treated``; empty: all)."""
        return self.intervention is not None and (not self.treated or entrant in self.treated)


class BoardOptions(_Strict):
    """How the board is fitted (:mod:`duskfall.report.board`): none of it changes a game."""

    reference: str | None = None
    role_effects: bool = False
    bootstrap: int = Field(200, ge=0, le=10_000)


class Execution(_Strict):
    """How the games are run: none of it changes a game (nor the config's fingerprint)."""

    attempts: int = Field(3, ge=1, le=20, description="tries per game before it is given up")
    game_timeout: float | None = Field(
        None, gt=0, description="seconds a game may take before it is played again elsewhere"
    )
    lease_seconds: float = Field(
        DEFAULT_TTL, gt=0, le=3600, description="an endpoint slot's lease (a dead worker's ends)"
    )
    env: list[str] = Field(default_factory=list, description="variables workers need")
    games_per_task: int | None = Field(
        None, ge=1, le=1000, description="bot games per task on workers (default: automatic)"
    )

    @field_validator("env")
    @classmethod
    def _names(cls, value: list[str]) -> list[str]:
        for name in value:
            if not ENV_NAME.match(name):
                raise ValueError(f"{name!r} is not the name of an environment variable")
        return value


class TournamentConfig(_Strict):
    """Everything that defines a tournament; the schedule derives from it alone."""

    name: str
    entrants: dict[str, str]
    variants: list[VariantBlock] = Field(default_factory=list)
    forks: list[ForksBlock] = Field(default_factory=list)
    games: int | None = Field(None, ge=1, le=1_000_000)
    seed: int | None = Field(None, ge=0, lt=2**128)
    schedule: Literal["mixed", "sides", "duplicate"] = "duplicate"
    stop: Literal["all", "separated"] = "all"
    looks: int = Field(8, ge=1, le=100)
    parallel_games: int = Field(1, ge=1, le=256)
    workers: int = Field(1, ge=1, le=64)
    log_dir: str | None = None
    beliefs: Literal["off", "daily"] = "off"
    retries: int = Field(2, ge=0, le=10)
    decision_timeout: float = Field(120.0, gt=0)
    on_seat_failure: Literal["abort", "fallback"] = "fallback"
    agent_options: dict[str, Any] = Field(default_factory=dict)
    budget: Budget = Field(default_factory=Budget)
    board: BoardOptions = Field(default_factory=BoardOptions)
    execution: Execution = Field(default_factory=Execution)
    remote: dict[str, RemoteEntrant] = Field(default_factory=dict)
    _deal_master: int | None = PrivateAttr(None)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not NAME_PATTERN.match(value):
            raise ValueError("use letters, digits, '.', '_' or '-' (at most 64), e.g. 'bots-1'")
        return value

    @field_validator("entrants")
    @classmethod
    def _entrants(cls, value: dict[str, str]) -> dict[str, str]:
        if len(value) < 2:
            raise ValueError("a tournament needs at least two entrants")
        for name, spec in value.items():
            if not ENTRANT_PATTERN.match(name):
                raise ValueError(f"entrant name {name!r}: letters, digits, '.', '_', '-' only")
            if spec.strip().partition(":")[0] == "human":
                raise ValueError(
                    f"entrant {name!r}: tournaments play unattended, so no 'human' entrant "
                    "(to play yourself: duskfall play --human SEAT)"
                )
            if not spec.strip() or any(c in spec for c in ",="):
                raise ValueError(
                    f"entrant {name!r}: give one agent (e.g. 'heuristic', 'llm:openai:gpt-4o'), "
                    f"not {spec!r}"
                )
        return {name: spec.strip() for name, spec in value.items()}

    @model_validator(mode="after")
    def _blocks(self) -> TournamentConfig:
        if not self.variants and not self.forks:
            raise ValueError("give at least one [[variants]] or [[forks]] block")
        if self.games is None and any(block.games is None for block in self.variants):
            raise ValueError("games is needed (games per [[variants]] block, or its own games)")
        remote = [name for name, spec in self.entrants.items() if spec == REMOTE]
        if self.forks and remote:
            raise ValueError(
                f"entrant {remote[0]!r} is remote: remote entrants cannot play forks yet"
            )
        return self

    @model_validator(mode="after")
    def _remote_programs(self) -> TournamentConfig:
        remote = {name for name, spec in self.entrants.items() if spec == REMOTE}
        for name in sorted(remote - set(self.remote)):
            raise ValueError(
                f"entrant {name!r} is remote: say how to start its program in [remote.{name}] "
                'with command = ["prog", "--port", "{port}"] (its seat token is in '
                "$DUSKFALL_SEAT_TOKEN)"
            )
        for name in sorted(set(self.remote) - remote):
            raise ValueError(f'[remote.{name}]: no entrant {name!r} = "remote" in [entrants]')
        reference = self.board.reference
        if reference is not None and reference not in self.entrants:
            raise ValueError(
                f"board.reference {reference!r} is not an entrant; entrants: "
                + ", ".join(self.entrants)
            )
        return self

    @property
    def deal_master(self) -> int | None:
        """The secret the schedule deals from (:mod:`duskfall.arena.deals`), once attached."""
        return self._deal_master

    def dealt(self, master: int) -> TournamentConfig:
        """A copy of this config that deals from the secret ``master``."""
        copy = self.model_copy()
        copy._deal_master = master
        return copy

    @property
    def stats_seed(self) -> int:
        """The seed of the board's resampling (public: it deals nothing), 32 bits."""
        return (self.seed or 0) % 2**32

    def seat_agents(self) -> dict[str, str]:
        """Entrant -> the agent string of its seats (remote seats: a placeholder, their
        programs play them)."""
        return {
            name: PLACEHOLDER_AGENT if spec == REMOTE else spec
            for name, spec in self.entrants.items()
        }

    def block_games(self, block: VariantBlock) -> int:
        return block.games or self.games or 0

    def fork_games(self, block: ForksBlock) -> int:
        return len(block.logs) * len(self.entrants) * block.repeats

    @property
    def total_games(self) -> int:
        played = sum(self.block_games(b) for b in self.variants)
        return played + sum(self.fork_games(b) for b in self.forks)

    def games_dir(self, base: Path) -> Path:
        """Where the games' logs go: ``log_dir`` (relative to ``base``), else
        ``base/tournaments/<name>``."""
        chosen = Path(self.log_dir) if self.log_dir else Path("tournaments") / self.name
        return chosen if chosen.is_absolute() else base / chosen


def parse_tournament(data: Mapping[str, Any]) -> TournamentConfig:
    """Check a parsed config whole: raises one ConfigError listing every mistake found (its
    fields, then each block's variant and agents, and the agent options)."""
    try:
        config = TournamentConfig.model_validate(dict(data))
    except ValidationError as exc:
        listed = "; ".join([describe_errors(exc), *_problems_beyond(data, exc)])
        raise ConfigError(f"tournament config: {listed}") from None
    problems = _block_problems(config)
    if len(problems) == 1:
        raise ConfigError(f"tournament config: {problems[0]}")
    if problems:
        listed = "; ".join(f"({n}) {problem}" for n, problem in enumerate(problems, 1))
        raise ConfigError(f"tournament config has {len(problems)} mistakes: {listed}")
    return config


def _problems_beyond(data: Mapping[str, Any], exc: ValidationError) -> list[str]:
    """The mistakes of the rest of a config some fields of which are wrong: its blocks and
    agent options checked with the wrong top-level fields left at their defaults."""
    wrong = {str(err["loc"][0]) for err in exc.errors() if err["loc"]}
    try:
        rest = TournamentConfig.model_validate({k: v for k, v in data.items() if k not in wrong})
    except ValidationError:
        options = data.get("agent_options")
        return _option_problems(options) if isinstance(options, Mapping) else []
    return _block_problems(rest)


def _block_problems(config: TournamentConfig) -> list[str]:
    """Each variant exists, its config parses, every entrant is a valid agent for it, the
    schedule fits its games, the agent options are ones some agent reads: every mistake."""
    from duskfall.agents.specs import parse_spec
    from duskfall.core.variant import parse_config

    problems = []
    for number, block in enumerate(config.variants, 1):
        where = f"variants[{number}] ({block.label})"
        try:
            variant = get_variant(block.variant)
            game_config = parse_config(variant, block.game_config())
            seats = variant.new_game(game_config, 0).num_seats
        except ConfigError as exc:
            problems.append(f"{where}: {exc}")
            continue
        for name, spec in config.seat_agents().items():
            try:
                parse_spec(variant, spec, seats)
            except ConfigError as exc:
                problems.append(f"{where}: entrant {name!r}: {exc}")
        games = config.block_games(block)
        if config.schedule == "sides" and games % 2:
            problems.append(
                f"{where}: the 'sides' schedule plays each deal twice (sides swapped), "
                f"so games must be even, not {games}"
            )
        entrants = len(config.entrants)
        if config.schedule == "duplicate" and games % entrants:
            problems.append(
                f"{where}: the 'duplicate' schedule plays each deal once per entrant, "
                f"so games must be a multiple of {entrants}, not {games} "
                f"(e.g. {games - games % entrants or entrants})"
            )
    return problems + _option_problems(config.agent_options)


def _option_problems(options: Mapping[str, Any]) -> list[str]:
    """The mistakes in ``[agent_options]``: names no agent reads, values an agent refuses."""
    from duskfall.agents.kinds import check_agent_options

    try:
        check_agent_options(options)
    except ConfigError as exc:
        return [f"[agent_options]: {exc}"]
    return []
