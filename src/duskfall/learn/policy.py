"""A small linear softmax policy over the sports-mafia env observation (numpy only).

The env observation (the sports-mafia encoder, :mod:`duskfall.variants.sports_mafia.encoder`,
through the variant's ``learning`` declaration) is read back as a table of per-seat
features ``phi(i)`` (19 numbers: is it me, alive, nominated, tied, teammate, my checks of it,
how the others declared it, what it declared of me, sheriff claims about it and by it, votes
for it, by it against me and mine for it, and a constant). The logit of a menu entry about
seat ``i`` is ``w . phi(i)``, with one weight vector per side (RED, BLACK), per decision
(vote, kill, don check, sheriff check, nomination) and per statement (accuse, claim black,
claim red); NONE, YES and DEFEND have one bias each per side and decision. Entries outside the
mask get no probability. The same weights serve every seat of a side (the policy is
seat-equivariant), so there are only :data:`SIZE` parameters: few enough for CMA-ES.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from duskfall.core.encoding import Menu
from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant
from duskfall.core.user_files import read_user_text
from duskfall.core.variant import parse_config
from duskfall.learn.encoders import encoder_for
from duskfall.learn.games import VARIANT


def _sports_encoder() -> Any:
    """A sports-mafia seat's encoder: the layout this policy reads (its roles and phases)."""
    variant = get_variant(VARIANT)
    seats = variant.new_game(parse_config(variant, {}), 0).num_seats
    return encoder_for(variant, seats, 0)


_LAYOUT = _sports_encoder()
N: int = _LAYOUT.menu.seats
ROLES: tuple[str, ...] = _LAYOUT.roles
PHASES: tuple[str, ...] = _LAYOUT.phases

F = 19  # per-seat features
MENU = Menu(N)
# offsets of the observation's blocks (see SportsMafiaEncoder.features)
_SEAT, _ROLE = 0, N
_PHASE = _ROLE + len(ROLES)
_TURN = _PHASE + len(PHASES)
_NOMINATING = _TURN + 1
_ALIVE = _NOMINATING + 1
_NOMINATED, _TIED, _TEAM = _ALIVE + N, _ALIVE + 2 * N, _ALIVE + 3 * N
_S_BLACK, _S_RED, _D_YES, _D_NO = (_ALIVE + k * N for k in range(4, 8))
_DECLARED = _ALIVE + 8 * N
_CLAIMS = _DECLARED + N * N
_CLAIMING = _CLAIMS + N * N
_VOTES = _CLAIMING + N
_RECEIVED = _VOTES + N * N
OBS_SIZE = _RECEIVED + N

SIDES = ("RED", "BLACK")
# decisions whose entries name a seat; each has a weight vector over phi and a NONE bias
TARGET_DECISIONS = ("VOTE", "KILL", "DON_CHECK", "SHERIFF_CHECK", "NOMINATE")
STATEMENTS = ("ACCUSE", "CLAIM_BAD", "CLAIM_GOOD")
BIASES = ("NONE", "YES", "DEFEND")
PER_SIDE = (len(TARGET_DECISIONS) + len(STATEMENTS)) * F + (len(TARGET_DECISIONS) + 2) * len(BIASES)
SIZE = len(SIDES) * PER_SIDE


def seat_table(obs: np.ndarray) -> np.ndarray:
    """``phi``: an (N, F) table of per-seat features read from one observation vector."""
    me = int(np.argmax(obs[_SEAT:_ROLE]))
    declared = obs[_DECLARED:_CLAIMS].reshape(N, N)
    claims = obs[_CLAIMS:_CLAIMING].reshape(N, N)
    votes = obs[_VOTES:_RECEIVED].reshape(N, N)
    others = (declared.sum(axis=0) - np.diag(declared)) / (N - 1)
    phi = np.empty((N, F), dtype=np.float32)
    phi[:, 0] = 0.0
    phi[me, 0] = 1.0
    phi[:, 1] = obs[_ALIVE:_NOMINATED]
    phi[:, 2] = obs[_NOMINATED:_TIED]
    phi[:, 3] = obs[_TIED:_TEAM]
    phi[:, 4] = obs[_TEAM:_S_BLACK]
    phi[:, 5] = obs[_S_BLACK:_S_RED]
    phi[:, 6] = obs[_S_RED:_D_YES]
    phi[:, 7] = obs[_D_YES:_D_NO]
    phi[:, 8] = obs[_D_NO:_DECLARED]
    phi[:, 9] = others
    phi[:, 10] = declared[me]
    phi[:, 11] = declared[:, me]
    phi[:, 12] = np.clip(claims.sum(axis=0), -1, 1)
    phi[:, 13] = obs[_CLAIMING:_VOTES]
    phi[:, 14] = claims[:, me]
    phi[:, 15] = obs[_RECEIVED:OBS_SIZE]
    phi[:, 16] = votes[:, me]
    phi[:, 17] = votes[me]
    phi[:, 18] = 1.0
    return phi


def _decision(obs: np.ndarray, mask: np.ndarray) -> str:
    """Which decision an observation and mask belong to (the menu entries tell)."""
    phase = PHASES[int(np.argmax(obs[_PHASE:_TURN]))]
    if phase == "DECLARATION":
        return "NOMINATE" if obs[_NOMINATING] > 0 else "STATEMENT"
    if phase == "VOTING":
        return "ELIMINATE_ALL" if mask[MENU.yes] else "VOTE"
    return {"NIGHT_KILL": "KILL", "NIGHT_DON": "DON_CHECK"}.get(phase, "SHERIFF_CHECK")


@dataclass
class LinearPolicy:
    """The parameters, laid out side by side (see the module docstring)."""

    theta: np.ndarray

    def __post_init__(self) -> None:
        if self.theta.shape != (SIZE,):
            raise ConfigError(f"a policy has {SIZE} parameters, not {self.theta.shape}")
        per_side = self.theta.reshape(len(SIDES), PER_SIDE)
        k = (len(TARGET_DECISIONS) + len(STATEMENTS)) * F
        self.weights = per_side[:, :k].reshape(len(SIDES), -1, F)
        self.biases = per_side[:, k:].reshape(len(SIDES), -1, len(BIASES))

    @classmethod
    def zeros(cls) -> LinearPolicy:
        return cls(np.zeros(SIZE))

    def logits(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        role = ROLES[int(np.argmax(obs[_ROLE:_PHASE]))]
        side = 0 if role in ("CITIZEN", "SHERIFF") else 1
        decision = _decision(obs, mask)
        phi = seat_table(obs)
        out = np.zeros(MENU.size)
        if decision == "STATEMENT":
            for k, name in enumerate(STATEMENTS):
                scores = phi @ self.weights[side, len(TARGET_DECISIONS) + k]
                start = {"ACCUSE": MENU.accuse(0), "CLAIM_BAD": MENU.claim_bad(0)}.get(
                    name, MENU.claim_good(0)
                )
                out[start : start + N] = scores
            bias = self.biases[side, len(TARGET_DECISIONS)]
            out[MENU.none], out[MENU.defend] = bias[0], bias[2]
            return out
        if decision == "ELIMINATE_ALL":
            bias = self.biases[side, len(TARGET_DECISIONS) + 1]
            out[MENU.none], out[MENU.yes] = bias[0], bias[1]
            return out
        d = TARGET_DECISIONS.index(decision)
        out[:N] = phi @ self.weights[side, d]
        out[MENU.none] = self.biases[side, d, 0]
        return out

    def choose(self, obs: np.ndarray, mask: np.ndarray, rng: random.Random) -> int:
        """An entry drawn from the masked softmax (one ``rng.random()`` draw)."""
        logits = self.logits(obs, mask)
        legal = np.flatnonzero(mask)
        z = logits[legal]
        p = np.exp(z - z.max())
        p /= p.sum()
        point, acc = rng.random(), 0.0
        for index, q in zip(legal, p, strict=True):
            acc += q
            if point < acc:
                return int(index)
        return int(legal[-1])

    # -- files ------------------------------------------------------------------------------

    def save(self, path: Path, **meta: Any) -> None:
        data = {"format": 1, "kind": "linear-softmax", "variant": "sports-mafia", **meta}
        data["theta"] = [round(float(x), 6) for x in self.theta]
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(data))
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicy:
        data = read_checkpoint(path, size=SIZE)
        if data.get("kind") != "linear-softmax":
            raise ConfigError(f"{path} is not a linear-softmax policy checkpoint")
        return cls(np.asarray(data["theta"], dtype=np.float64))


def read_checkpoint(path: str | Path, size: int | None = None) -> Mapping[str, Any]:
    """A checkpoint's JSON, or one ConfigError saying why it cannot be read: not a regular
    file, too large, not JSON (or nested too deep), or a ``theta`` that is not a list of
    finite numbers (of ``size`` of them, when given)."""
    if not Path(path).exists():
        raise ConfigError(f"no policy checkpoint at {path}")
    text = read_user_text(path, "policy checkpoint")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        reason = "nested too deep" if isinstance(exc, RecursionError) else str(exc)[:200]
        raise ConfigError(f"cannot read policy checkpoint {path}: {reason}") from None
    if not isinstance(data, dict) or "theta" not in data:
        raise ConfigError(f"{path} is not a duskfall policy checkpoint")
    theta = data["theta"]
    numbers = isinstance(theta, list) and all(
        isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x) for x in theta
    )
    if not numbers:
        raise ConfigError(f"{path}: 'theta' must be a list of finite numbers")
    if size is not None and len(theta) != size:
        raise ConfigError(f"{path}: 'theta' has {len(theta)} numbers, this policy takes {size}")
    return data
