"""The gymnasium spaces of a table's seats (one object per seat, as PettingZoo wants)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces


def observation_space(size: int, actions: int, vocabulary: int = 0) -> spaces.Dict:
    observation: spaces.Box
    """A float vector in -1..1, or (``vocabulary`` > 0) token ids below ``vocabulary``."""
    if vocabulary:
        observation = spaces.Box(0, vocabulary - 1, shape=(size,), dtype=np.int32)
    else:
        observation = spaces.Box(-1.0, 1.0, shape=(size,), dtype=np.float32)
    return spaces.Dict(
        {
            "observation": observation,
            "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
        }
    )


def action_space(actions: int) -> spaces.Discrete:
    return spaces.Discrete(actions)
