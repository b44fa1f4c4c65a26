"""Deals nobody can compute: the secret master every game seed of a run is derived from.

A tournament, ``serve`` and ``simulate`` deal their games from a 32-byte secret master
(:mod:`duskfall.core.rng`):

* without a ``seed``: 256 bits from the operating system. A tournament's is kept in the index,
  sealed with the operator's deal key (:mod:`duskfall.store.deals`), so ``resume`` deals the
  same games; ``serve`` and ``simulate`` keep theirs in memory for the run only.
* with a ``seed``: the seed keyed with the operator's deal key
  (``subkey(operator_key(db), "deals")``, :mod:`duskfall.store.operator_key`), so the same config
  deals the same games for whoever holds the config *and* the key file, and for nobody else.

Either way no master is ever written to a log, a page, a frame, an export or a public column
of the index, and a published game seed (a deal's, once the deal is over) tells nothing of the
master or of any other deal, whatever number the user chose.
"""

from __future__ import annotations

from pathlib import Path

from duskfall.arena.tournament_config import TournamentConfig
from duskfall.core.errors import ConfigError
from duskfall.core.rng import keyed_master, new_secret, secret_int
from duskfall.store.deals import DealTable, deal_key

TOURNAMENT = "tournament"


def tournament_master(config: TournamentConfig, db: str | Path, *, create: bool = False) -> int:
    """The number a tournament's schedule deals from (:func:`with_deals`). A seedless
    tournament's secret is read from the index at ``db`` (and with ``create``, drawn and kept
    there if it has none); a ConfigError when it has none and ``create`` is off."""
    key = deal_key(db)
    if config.seed is not None:
        return secret_int(keyed_master(key, config.seed, TOURNAMENT))
    with DealTable(db) as table:
        secret = table.secret(config.name, key)
        if secret is None:
            if not create:
                raise ConfigError(
                    f"tournament {config.name!r} has no deals in {db} yet (it has not started)"
                )
            secret = table.keep_secret(config.name, new_secret(), key)
    return secret_int(secret)


def with_deals(
    config: TournamentConfig, db: str | Path, *, create: bool = False
) -> TournamentConfig:
    """``config`` with its secret master attached (:meth:`TournamentConfig.dealt`), so that
    :func:`~duskfall.arena.schedule.build_schedule` gives the games it was (or will be) played
    with. A config that has one is returned as it is."""
    if config.deal_master is not None:
        return config
    return config.dealt(tournament_master(config, db, create=create))


_throwaway: dict[str, int] = {}  # tournament name -> this process's secret (planning only)


def unattached_master(config: TournamentConfig) -> int:
    """The master of a config no index has dealt yet (planning, a dry look at a schedule): its
    seed keyed with the process's operator key (the default index's), or, without a seed, a
    secret of this process alone (the same for every call, gone with the process)."""
    if config.seed is not None:
        return secret_int(keyed_master(deal_key(), config.seed, TOURNAMENT))
    if config.name not in _throwaway:
        _throwaway[config.name] = secret_int(new_secret())
    return _throwaway[config.name]
