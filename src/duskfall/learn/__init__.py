"""Learning environments on duskfall's rules, and training (the ``[learn]`` extra).

* :mod:`.aec` - a PettingZoo AEC environment for every variant (``DuskfallAEC``);
* :mod:`.parallel` - its Parallel form: a simultaneous sub-phase is one step;
* :mod:`.menu` - the discrete action menu (targets, yes/no, structured statements);
* :mod:`.encoders` - fixed-size numeric observations built from each seat's ``observe``;
* :mod:`.tokens` - a token observation for sequence models (sports mafia);
* :mod:`.policy`, :mod:`.train`, :mod:`.search` - numpy policies, CMA-ES self-play training,
  and the policy search over seed 001's probabilistic policies;
* :mod:`.agent` - a trained policy as an agent (``--agents trained:PATH``).

Nothing below duskfall's entry points imports this package; numpy, gymnasium, pettingzoo and
cma are imported only here (``pip install 'duskfall[learn]'``).
"""

from __future__ import annotations

import importlib.util

from duskfall.core.errors import ConfigError

NEEDED = ("numpy", "gymnasium", "pettingzoo", "cma")


def require() -> None:
    """Raise one ConfigError naming the extra if a learning dependency is missing."""
    missing = [name for name in NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        raise ConfigError(
            f"the learning tools need {', '.join(missing)}: pip install 'duskfall[learn]'"
        )
