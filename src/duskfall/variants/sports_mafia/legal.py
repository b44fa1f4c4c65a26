"""Legal-action views of sports mafia: parse, validate, sample, fallback, JSON schema, wire form.

A declaration has two shapes. The wire form (the seed's, ``schema()``): ``declaration``, 10
integers -3..3, and ``sheriff_claims``, a 10x10 matrix whose row ``k`` is the check of night
``k + 1``. The LLM form (``llm_schema()``): ``beliefs``, one value per player keyed by its
number, and ``claims``, a short list of ``{"night", "player", "team"}``, every value an enum
a JSON-schema grammar can enforce. ``parse()`` reads both into the same :class:`Declaration`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from duskfall.core.choices import default_seat, read_yes_no
from duskfall.core.errors import IllegalAction
from duskfall.core.legal import LegalChoice
from duskfall.variants.sports_mafia.actions import (
    NUM_PLAYERS,
    SKIP,
    ZERO_CLAIMS,
    ZERO_DECLARATION,
    Declaration,
    DonCheck,
    EliminateAllVote,
    Kill,
    SheriffCheck,
    Vote,
)

_TARGET_ACTIONS: dict[str, type[Vote | Kill | DonCheck | SheriffCheck]] = {
    "VOTE": Vote,
    "KILL": Kill,
    "DON_CHECK": DonCheck,
    "SHERIFF_CHECK": SheriffCheck,
}


def _as_int(value: Any, what: str) -> int:
    if isinstance(value, bool):
        raise IllegalAction(f"Invalid action: {what} must be an integer", "bad_format")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        text = value.strip().lower().removeprefix("player").removeprefix("p").strip(" #")
        if text.lstrip("-").isdigit():
            return int(text)
    raise IllegalAction(f"Invalid action: {what} must be an integer, got {value!r}", "bad_format")


def _check_type(data: Mapping[str, Any], expected: str) -> None:
    given = data.get("type")
    if given is not None and str(given).upper() != expected:
        raise IllegalAction(
            f"Invalid action: this is a {expected} decision, not {given}", "invalid_action"
        )


@dataclass(frozen=True, slots=True)
class TargetChoice(LegalChoice):
    """Choose one player: a vote, the night kill (may skip with -1), or a check."""

    kind: str
    action_type: str
    wire_key: str
    targets: tuple[int, ...]
    allow_skip: bool = False

    def _options(self) -> list[int]:
        return [SKIP, *self.targets] if self.allow_skip else list(self.targets)

    def parse(self, data: Any) -> Any:
        cls = _TARGET_ACTIONS[self.action_type]
        if type(data) is cls and (
            data.target in self.targets or (self.allow_skip and data.target == SKIP)
        ):
            return data  # an already-typed legal action (the bots' fast path)
        if isinstance(data, cls):
            target = data.target
        elif isinstance(data, Mapping):
            _check_type(data, self.action_type)
            if "target" not in data:
                raise IllegalAction(
                    f"Invalid action: {self.action_type} needs a 'target'", "bad_format"
                )
            target = _as_int(data["target"], "target")
        else:
            target = _as_int(data, "target")
        if target not in self._options():
            raise IllegalAction(
                f"Invalid target: {target} is not one of {self._options()}", "invalid_target"
            )
        return cls(target)

    def default(self, rng: random.Random) -> Any:
        target = default_seat(rng, self.targets, self.allow_skip)
        return self.parse(SKIP if target is None else target)

    def sample(self, rng: random.Random) -> Any:
        return self.parse(rng.choice(self._options()))

    def to_wire(self) -> dict[str, Any]:
        return {self.wire_key: self._options()}

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "type": {"const": self.action_type},
                "target": {"type": "integer", "enum": self._options()},
            },
            "required": ["type", "target"],
            "additionalProperties": False,
        }

    def describe(self) -> str:
        skip = " (or -1 to skip)" if self.allow_skip else ""
        return f"{self.action_type}: choose a target among players {list(self.targets)}{skip}"


@dataclass(frozen=True, slots=True)
class EliminateAllChoice(LegalChoice):
    """Vote whether every tied player is eliminated."""

    kind: str = "VOTING"

    def parse(self, data: Any) -> EliminateAllVote:
        if isinstance(data, EliminateAllVote):
            return data
        value = data
        if isinstance(data, Mapping):
            _check_type(data, "ELIMINATE_ALL_VOTE")
            if "vote" not in data:
                raise IllegalAction("Invalid action: ELIMINATE_ALL_VOTE needs 'vote'", "bad_format")
            value = data["vote"]
        yes = read_yes_no(value)
        if yes is not None:
            return EliminateAllVote(yes)
        raise IllegalAction(
            f"Invalid action: 'vote' must be true or false, got {value!r}", "bad_format"
        )

    def default(self, rng: random.Random) -> EliminateAllVote:
        return EliminateAllVote(False)

    def sample(self, rng: random.Random) -> EliminateAllVote:
        return EliminateAllVote(rng.random() < 0.5)

    def to_wire(self) -> dict[str, Any]:
        return {"eliminate_all": [True, False]}

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"type": {"const": "ELIMINATE_ALL_VOTE"}, "vote": {"type": "boolean"}},
            "required": ["type", "vote"],
            "additionalProperties": False,
        }

    def describe(self) -> str:
        return "ELIMINATE_ALL_VOTE: true to eliminate all tied players, false to keep them"


BELIEF_VALUES = tuple(range(-3, 4))
TEAM_VALUES = {"RED": 1, "BLACK": -1}
NIGHTS = tuple(range(1, NUM_PLAYERS + 1))  # night k+1 is row k of the claim matrix
PLAYERS = tuple(range(NUM_PLAYERS))
BELIEFS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {str(p): {"type": "integer", "enum": list(BELIEF_VALUES)} for p in PLAYERS},
    "required": [str(p) for p in PLAYERS],
    "additionalProperties": False,
}
CLAIMS_SCHEMA: dict[str, Any] = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "night": {"type": "integer", "enum": list(NIGHTS)},
            "player": {"type": "integer", "enum": list(PLAYERS)},
            "team": {"type": "string", "enum": list(TEAM_VALUES)},
        },
        "required": ["night", "player", "team"],
        "additionalProperties": False,
    },
    "maxItems": NUM_PLAYERS,
}


def _bad(message: str) -> IllegalAction:
    return IllegalAction(f"Invalid action: {message}", "bad_format")


def _in_range(value: Any, what: str, allowed: tuple[int, ...]) -> int:
    number = _as_int(value, what)
    if number not in allowed:
        raise _bad(f"{what} must be within {allowed[0]}..{allowed[-1]}, got {number}")
    return number


def _beliefs(value: Any) -> tuple[int, ...]:
    """The LLM form's ``beliefs`` ({player: -3..3}; a player left out is 0) as a vector."""
    if not isinstance(value, Mapping):
        raise _bad("beliefs must be an object {player: -3..3}")
    vector = [0] * NUM_PLAYERS
    for key, belief in value.items():
        player = _in_range(key, "a beliefs key", PLAYERS)
        vector[player] = _in_range(belief, f"the belief about player {player}", BELIEF_VALUES)
    return tuple(vector)


def _claim_matrix(value: Any) -> tuple[tuple[int, ...], ...]:
    """The LLM form's ``claims`` (a list of {night, player, team}) as the wire matrix."""
    if not isinstance(value, list | tuple):
        raise _bad('claims must be a list of {"night", "player", "team"} objects')
    rows = [[0] * NUM_PLAYERS for _ in NIGHTS]
    for claim in value:
        if not isinstance(claim, Mapping) or not {"night", "player", "team"} <= set(claim):
            raise _bad(f'each claim is {{"night", "player", "team"}}, got {claim!r}')
        night = _in_range(claim["night"], "a claim's night", NIGHTS)
        player = _in_range(claim["player"], "a claim's player", PLAYERS)
        team = TEAM_VALUES.get(str(claim["team"]).strip().upper())
        if team is None:
            raise _bad(f"a claim's team is RED or BLACK, got {claim['team']!r}")
        row = rows[night - 1]
        if row[player] not in (0, team):
            raise _bad(f"player {player} is claimed both RED and BLACK for night {night}")
        row[player] = team
    return tuple(tuple(row) for row in rows)


def _one_of(data: Mapping[str, Any], wire: str, llm: str) -> str | None:
    """Which of two names for the same field ``data`` uses (None: neither; both: refused)."""
    if data.get(wire) is not None and data.get(llm) is not None:
        raise _bad(f"give either {wire!r} or {llm!r}, not both")
    if data.get(llm) is not None:
        return llm
    return wire if data.get(wire) is not None else None


_PLAIN_INTS = {int}  # bool is a type of its own: True is never taken for 1


def _vector(value: Any, what: str, low: int, high: int) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or len(value) != NUM_PLAYERS:
        raise IllegalAction(
            f"Invalid action: {what} must be a list of {NUM_PLAYERS} integers", "bad_format"
        )
    if set(map(type, value)) == _PLAIN_INTS:  # the wire form: nothing to convert (in C)
        out = tuple(value)
    else:
        out = tuple(_as_int(v, what) for v in value)
    if min(out) < low or max(out) > high:
        raise IllegalAction(
            f"Invalid action: {what} values must be within {low}..{high}", "bad_format"
        )
    return out


@dataclass(frozen=True, slots=True)
class DeclarationChoice(LegalChoice):
    """Declare beliefs, optional sheriff claims and an optional nomination (policy)."""

    nominable: tuple[int, ...]
    kind: str = "DECLARATION"

    def parse(self, data: Any) -> Declaration:
        if isinstance(data, Declaration):
            return self._check_policy(data)
        if not isinstance(data, Mapping):
            raise IllegalAction(
                "Invalid action: a DECLARATION is an object with 'declaration' "
                "(10 integers -3..3), optional 'sheriff_claims' (10x10 of -1/0/1) and "
                "optional 'nomination_policy' {player: probability} or 'nomination'",
                "bad_format",
            )
        _check_type(data, "DECLARATION")
        beliefs_field = _one_of(data, "declaration", "beliefs")
        if beliefs_field == "beliefs":
            declaration = _beliefs(data["beliefs"])
        else:
            declaration = _vector(data.get("declaration", ZERO_DECLARATION), "declaration", -3, 3)
        claims_field = _one_of(data, "sheriff_claims", "claims")
        raw_claims = data.get("sheriff_claims")
        if claims_field == "claims":
            claims = _claim_matrix(data["claims"])
        elif raw_claims is None:
            claims = ZERO_CLAIMS
        else:
            if not isinstance(raw_claims, list | tuple) or len(raw_claims) != NUM_PLAYERS:
                raise IllegalAction(
                    "Invalid action: sheriff_claims must be 10 rows of 10 values", "bad_format"
                )
            claims = tuple(_vector(row, "sheriff_claims row", -1, 1) for row in raw_claims)
        policy: list[tuple[int, float]] = []
        raw_policy = data.get("nomination_policy")
        if isinstance(raw_policy, Mapping):
            for key, weight in raw_policy.items():
                if isinstance(weight, bool) or not isinstance(weight, int | float) or weight < 0:
                    raise IllegalAction(
                        f"Invalid action: nomination_policy weight for {key} must be a "
                        "non-negative number",
                        "bad_format",
                    )
                policy.append((_as_int(key, "nomination_policy key"), float(weight)))
        elif raw_policy is not None:
            raise IllegalAction("Invalid action: nomination_policy must be an object", "bad_format")
        elif data.get("nomination") is not None:
            target = _as_int(data["nomination"], "nomination")
            if target != SKIP:
                policy.append((target, 1.0))
        return self._check_policy(Declaration(declaration, claims, tuple(sorted(policy))))

    def _check_policy(self, action: Declaration) -> Declaration:
        nominable = self.nominable
        for target, _weight in action.nomination_policy:
            if target != SKIP and target not in nominable:
                raise IllegalAction(
                    f"Invalid target: cannot nominate {target}; nominable players: "
                    f"{list(self.nominable)}",
                    "invalid_target",
                )
        return action

    def default(self, rng: random.Random) -> Declaration:
        return Declaration(ZERO_DECLARATION, ZERO_CLAIMS, ())

    def sample(self, rng: random.Random) -> Declaration:
        declaration = tuple(rng.randint(-3, 3) for _ in range(NUM_PLAYERS))
        options = [SKIP, *self.nominable]
        return Declaration(declaration, ZERO_CLAIMS, ((rng.choice(options), 1.0),))

    def to_wire(self) -> dict[str, Any]:
        return {
            "declaration": "vector_10",
            "sheriff_claims": "matrix_10x10",
            "nomination": [SKIP, *self.nominable],
        }

    def schema(self) -> dict[str, Any]:
        row = {
            "type": "array",
            "items": {"type": "integer", "minimum": -1, "maximum": 1},
            "minItems": NUM_PLAYERS,
            "maxItems": NUM_PLAYERS,
        }
        return {
            "type": "object",
            "properties": {
                "type": {"const": "DECLARATION"},
                "declaration": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": -3, "maximum": 3},
                    "minItems": NUM_PLAYERS,
                    "maxItems": NUM_PLAYERS,
                },
                "sheriff_claims": {
                    "type": "array",
                    "items": row,
                    "minItems": NUM_PLAYERS,
                    "maxItems": NUM_PLAYERS,
                },
                "nomination": {"type": "integer", "enum": [SKIP, *self.nominable]},
                "nomination_policy": {
                    "type": "object",
                    "propertyNames": {"enum": [str(t) for t in (SKIP, *self.nominable)]},
                    "additionalProperties": {"type": "number", "minimum": 0},
                },
            },
            "required": ["type", "declaration"],
            "additionalProperties": False,
        }

    def form_schema(self) -> dict[str, Any]:
        """The shape of a person's form: the wire declaration and nomination, the announced
        checks as a list of ``{night, player, team}`` (``parse`` reads the two together)."""
        schema = self.schema()
        properties = dict(schema["properties"])
        del properties["sheriff_claims"], properties["nomination_policy"]
        return {**schema, "properties": {**properties, "claims": CLAIMS_SCHEMA}}

    def llm_schema(self) -> dict[str, Any]:
        """The LLM form: ``beliefs`` by player, ``claims`` as a list, ``nomination``."""
        return {
            "type": "object",
            "properties": {
                "type": {"const": "DECLARATION"},
                "beliefs": BELIEFS_SCHEMA,
                "claims": CLAIMS_SCHEMA,
                "nomination": {"type": "integer", "enum": [SKIP, *self.nominable]},
            },
            "required": ["type", "beliefs", "nomination"],
            "additionalProperties": False,
        }

    def describe(self) -> str:
        return (
            "DECLARATION: 'declaration' = 10 integers -3 (black) .. 3 (red), one per player; "
            "optional 'sheriff_claims' (10x10, row k = night k+1, -1 black / 0 none / 1 red); "
            f"'nomination' = one of {[SKIP, *self.nominable]} (-1 = nobody)"
        )
