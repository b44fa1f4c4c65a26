"""Small statistics helpers (proportions with Wilson 95% intervals): kept in
:mod:`duskfall.core.stats`, re-exported here for the arena's modules."""

from duskfall.core.stats import Z95, Proportion

__all__ = ["Z95", "Proportion"]
