"""The counterfactual lab: fork a logged game at any moment and play on with other players,
replace one decision before it, estimate how each moment changed the odds, and find seats that
gave themselves away.

* :mod:`~duskfall.lab.fork`: ``duskfall fork`` (rounds, moments, rebuild, warm-up,
  interventions);
* :mod:`~duskfall.lab.lineage`: finding a fork's parent and proving its prefix is the parent's.
"""

from duskfall.lab.fork import ForkPlan, ForkRequest, plan_fork, run_fork

__all__ = ["ForkPlan", "ForkRequest", "plan_fork", "run_fork"]
