"""The variant kit: every check a variant must pass, bound to one variant id and its configs."""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from duskfall.core.registry import get_variant
from duskfall.core.variant import Variant
from duskfall.testing import api, event_types, golden, no_leak, playouts, prompts

PLAYOUT_SEED_BASE = 100_000


@dataclass
class VariantKit:
    """The checks of one variant (by registry id) over some configs.

    Sizes are the number of random games per config. ``scramble`` overrides the variant's
    declared ``info.scramble_hidden`` for the no-leak check.
    """

    variant_id: str
    configs: list[dict[str, Any]] = field(default_factory=lambda: [{}])
    scramble: no_leak.ScrambleFn | None = None
    playouts: int = 2000
    leak_games: int = 60
    prompt_games: int = 8

    CHECKS: ClassVar[tuple[str, ...]] = (
        "api",
        "determinism",
        "event_types",
        "runtime_determinism",
        "playouts",
        "replay",
        "no_leak",
        "prompt_history",
        "prompt_contract",
        "forks",
    )

    @property
    def variant(self) -> Variant:
        return get_variant(self.variant_id)

    def check_api(self, seeds: Iterable[int] = range(30)) -> None:
        """The Variant/State contract at every decision of random games (JSON schemas, parse
        round trips, fallbacks, out-of-turn and junk actions, visibility, wire codec)."""
        api.check_api(self.variant, self.configs, seeds)

    def check_event_types(self, seeds: Iterable[int] = range(20)) -> None:
        """Every event of random games converts to the typed model the variant declares for
        its kind and back unchanged (nothing to check for a variant that declares none)."""
        event_types.check_event_types(self.variant, self.configs, seeds)

    def check_determinism(self, seeds: Iterable[int] = range(10)) -> None:
        """The same config and seed give the same events."""
        api.check_determinism(self.variant, self.configs, seeds)

    def check_runtime_determinism(self, tmp_path: Path, agents: str = "heuristic") -> None:
        """The same config, seed and agents give the same event log through the runtime."""
        from duskfall.testing.replay import check_runtime_determinism

        check_runtime_determinism(self.variant_id, self.configs, tmp_path, agents)

    def check_playouts(self, games: range | None = None) -> None:
        """Random games all end with a valid outcome: ``playouts`` games per config, or the
        ``games`` numbered in that range (to split them, e.g. a quick part and a slow one)."""
        numbers = range(self.playouts) if games is None else games
        seeds = range(PLAYOUT_SEED_BASE + numbers.start, PLAYOUT_SEED_BASE + numbers.stop)
        playouts.check_playouts(self.variant, self.configs, seeds)

    def check_replay(self, tmp_path: Path, agents: str = "random", games: int = 5) -> None:
        """Logged games replay to the same outcome."""
        from duskfall.testing.replay import check_replay

        check_replay(self.variant_id, self.configs, tmp_path, agents, range(games))

    def check_no_leak(self, seeds: Iterable[int] | None = None) -> None:
        """Scrambling what a seat may not know never changes its view, choices or prompts
        (at decisions of ``leak_games`` random games per config unless ``seeds`` are given)."""
        if seeds is None:
            seeds = range(self.leak_games)
        no_leak.check_no_leak(self.variant, self.configs, seeds, self.scramble)

    def check_prompt_history(self, seeds: Iterable[int] | None = None) -> None:
        """At every decision of ``prompt_games`` random games per config, the seat's prompt and
        conversation hold every event it could see (verbatim or as digest) and no other; its
        system prompt stays fixed. A variant without ``info.prompt_kit`` has nothing to check."""
        if self.variant.info.prompt_kit is not None:
            prompts.check_prompt_history(
                self.variant, self.configs, range(self.prompt_games) if seeds is None else seeds
            )

    def check_prompt_contract(self, seeds: Iterable[int] | None = None) -> None:
        """Every decision kind's example fits its schema with placeholders for every choice,
        and no prompt asks for a field beyond ``reasoning`` and ``action``."""
        if self.variant.info.prompt_kit is not None:
            prompts.check_prompt_contract(
                self.variant, self.configs, range(self.prompt_games) if seeds is None else seeds
            )

    def check_forks(self, tmp_path: Path, seeds: Iterable[int] = range(1)) -> None:
        """Logged games of the variant's bots, forked at every phase boundary with the parent's
        agents and seed, play the parent's game again; their links to the parent verify; and
        a fork's model seats are shown their seat's whole history, prefix included, and no
        line of any other (:mod:`duskfall.testing.forks`)."""
        from duskfall.testing.forks import check_fork_prompts, check_forks

        agents = "heuristic" if "heuristic" in self.variant.bots() else "random"
        check_forks(self.variant_id, self.configs, tmp_path, agents, seeds)
        check_fork_prompts(self.variant_id, self.configs[:1], tmp_path, seeds, 2, agents)

    def check_golden(self, path: Path | str) -> None:
        """The random games recorded in the golden file at ``path`` still play the same."""
        golden.check_golden(path, self.variant_id)

    def write_golden(
        self,
        path: Path | str,
        config: Mapping[str, Any] | None = None,
        seeds: int = golden.DEFAULT_SEEDS,
    ) -> None:
        """Write the golden file of ``config`` (seeds ``0..seeds-1``) to ``path``."""
        golden.write_golden(path, self.variant_id, config, range(seeds))

    def run(self, check: str, tmp_path: Path) -> None:
        """Run one of :attr:`CHECKS` by name (for ``pytest.mark.parametrize``)."""
        if check not in self.CHECKS:
            raise ValueError(f"unknown check {check!r}; known: {', '.join(self.CHECKS)}")
        method = getattr(self, f"check_{check}")
        if check in ("runtime_determinism", "replay", "forks"):
            method(tmp_path)
        else:
            method()

    def check_all(
        self, tmp_path: Path | None = None, golden_files: Iterable[Path | str] = ()
    ) -> None:
        """Every check, then the given golden files; logs go to ``tmp_path`` (or a temp dir)."""
        with tempfile.TemporaryDirectory(prefix="duskfall-kit-") as scratch:
            for check in self.CHECKS:
                self.run(check, tmp_path or Path(scratch))
        for path in golden_files:
            self.check_golden(path)
