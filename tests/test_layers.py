"""The import graph of src/duskfall: every arrow points down a layer, packages form no cycle,
and neither do the modules inside any one package.

Layers (docs/contributing.md): core <- variants, store, protocol <- runtime <- llm <- agents <-
session <- entry points (cli, web, server, arena, learn, gm, client, export, inspect); the test kit
(``duskfall.testing``) sits on top. No package but ``variants`` itself imports a variant: a
variant is found through ``duskfall.core.registry.get_variant`` and read through its declared
``VariantInfo``, so one installed from outside gets the same product. Every ``import``
counts, at module level or inside a function (lazy), under ``TYPE_CHECKING`` too, as does
``importlib.import_module("literal")``.
"""

from __future__ import annotations

import ast
import functools
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import duskfall

SRC = Path(duskfall.__file__).parent
ROOT = SRC.parent

ENTRY_POINTS = {
    "cli", "web", "server", "arena", "learn", "gm", "client", "export", "inspect", "lab", "kit",
    "testing",
}  # fmt: skip
ALL = {path.name for path in SRC.iterdir() if path.is_dir() and (path / "__init__.py").exists()}

# package -> the packages of duskfall it may NOT import (None: it may import only itself+core).
ONLY_CORE = None
FORBIDDEN: dict[str, set[str] | None] = {
    "core": ONLY_CORE,
    "variants": ONLY_CORE,
    "store": ONLY_CORE,
    "protocol": ONLY_CORE,
    "rating": ONLY_CORE,  # pure fits: no I/O, nothing of the arena, the reports or the store
    "runtime": {"agents", "store", "session", "llm"} | ENTRY_POINTS,
    "llm": {"runtime", "agents", "session", "store"} | ENTRY_POINTS,
    "agents": {"session", "store"} | ENTRY_POINTS,
    "session": {"server", "web", "cli", "arena", "learn", "client", "testing"},
    "client": {"session", "server", "web", "cli", "arena", "learn", "gm", "testing"},
}
FORBIDDEN["lab"] = ENTRY_POINTS - {"lab"}  # the lab is used by arena and web, not the reverse
# The reports read what the arena recorded (config, schedule, progress, the stopping rule's
# analysis), never what plays games; the arena plays and records without drawing a report.
FORBIDDEN["report"] = (ENTRY_POINTS | {"session", "server"}) - {"arena", "lab"}
FORBIDDEN["arena"] = {"testing", "report"}
ARENA_RUNNERS = {
    "backends", "driver", "driver_lock", "game_job", "leases", "lifeline", "plan", "programs",
    "quick_games", "ray_backend", "recording", "remote_entrants", "sealing", "shared_limits",
    "simulate", "tournament", "tournament_run", "worker_env", "workers",
}  # fmt: skip
for _entry in ENTRY_POINTS - {"testing", "client"}:
    FORBIDDEN.setdefault(_entry, {"testing"})


@dataclass(frozen=True)
class Arrow:
    """``path:line`` imports ``target``: an arrow from package ``source`` to ``target``."""

    path: Path
    line: int
    module: str
    target: str

    @property
    def source_package(self) -> str:
        return package_of(self.module)

    @property
    def target_package(self) -> str:
        return package_of(self.target)

    def __str__(self) -> str:
        where = f"{self.path.relative_to(ROOT.parent)}:{self.line}"
        return f"{where}: {self.source_package} -> {self.target_package} (imports {self.target})"


def package_of(module: str) -> str:
    """``duskfall.variants.mafia.rules`` -> ``variants``; ``duskfall.__main__`` -> ``duskfall``."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in ALL:
        return parts[1]
    return "duskfall"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name: str) -> bool:
    rel = Path(*name.split("."))
    return (SRC.parent / rel).with_suffix(".py").exists() or (
        SRC.parent / rel / "__init__.py"
    ).exists()


def imports_of(path: Path) -> Iterator[Arrow]:
    """Every import of duskfall in the module at ``path`` (lazy ones included)."""
    yield from arrows_in(path.read_text(encoding="utf-8"), path, module_name(path))


def arrows_in(source: str, path: Path, module: str) -> Iterator[Arrow]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source, str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.append(sub if is_module(sub) else base)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            targets = [node.args[0].value]
        for target in targets:
            if target == "duskfall" or target.startswith("duskfall."):
                yield Arrow(path, node.lineno, module, target)


@functools.cache
def all_arrows() -> list[Arrow]:
    """Every import of every module, once per line and target."""
    arrows = [arrow for path in sorted(SRC.rglob("*.py")) for arrow in imports_of(path)]
    return list(dict.fromkeys(arrows))


def points_up(arrow: Arrow) -> bool:
    source, target = arrow.source_package, arrow.target_package
    if source == "report" and target == "arena":
        return arrow.target.split(".")[2] in ARENA_RUNNERS  # the arena's records only
    if target == "variants" and source != "variants":
        return True  # only the registry finds a variant (get_variant), never an import
    if source == target:
        if source == "variants":  # a variant imports only its own package
            own = arrow.module.split(".")[:3]
            return arrow.target.split(".")[:3] != own and arrow.target != "duskfall.variants"
        return False
    if target == "duskfall":  # the package root (its version, say) is allowed everywhere
        return False
    forbidden = FORBIDDEN.get(source, set())
    if forbidden is ONLY_CORE:
        return target != "core"
    return target in forbidden


def package_graph(arrows: list[Arrow]) -> dict[str, set[str]]:
    """Package -> the packages it imports (the ``duskfall`` root, ``__main__``, left out)."""
    graph: dict[str, set[str]] = {}
    for arrow in arrows:
        if arrow.source_package != arrow.target_package and "duskfall" not in (
            arrow.source_package,
            arrow.target_package,
        ):
            graph.setdefault(arrow.source_package, set()).add(arrow.target_package)
            graph.setdefault(arrow.target_package, set())
    return graph


def package_cycles(arrows: list[Arrow]) -> list[list[str]]:
    """Strongly connected groups of more than one package."""
    return cycles(package_graph(arrows))


def module_graph(arrows: list[Arrow], folder: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (``duskfall.arena.x``...)."""
    graph: dict[str, set[str]] = {}
    inside = f"duskfall.{folder}."
    for arrow in arrows:
        if (
            arrow.module.startswith(inside)
            and arrow.target.startswith(inside)
            and arrow.module != arrow.target
        ):
            graph.setdefault(arrow.module, set()).add(arrow.target)
            graph.setdefault(arrow.target, set())
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


SAMPLE = """
import importlib
from . import rules
from .. import mafia
from ...core import events

def later():
    import duskfall.runtime.handler
    from duskfall.store import log
    importlib.import_module("duskfall.agents.specs")
"""


def test_the_checker_sees_lazy_relative_and_dynamic_imports() -> None:
    path = SRC / "variants" / "mafia" / "sample.py"
    found = {(a.line, a.target) for a in arrows_in(SAMPLE, path, "duskfall.variants.mafia.sample")}
    assert found == {
        (3, "duskfall.variants.mafia.rules"),
        (4, "duskfall.variants.mafia"),
        (5, "duskfall.core.events"),
        (8, "duskfall.runtime.handler"),
        (9, "duskfall.store.log"),
        (10, "duskfall.agents.specs"),
    }
    arrows = {(a.module, a.target) for a in all_arrows()}
    assert ("duskfall.cli.application", "duskfall.core.errors") in arrows
    assert points_up(Arrow(SRC / "core/x.py", 1, "duskfall.core.x", "duskfall.runtime.handler"))
    assert points_up(
        Arrow(SRC / "variants/a/x.py", 1, "duskfall.variants.a.x", "duskfall.variants.b.rules")
    )
    assert not points_up(
        Arrow(SRC / "variants/a/x.py", 1, "duskfall.variants.a.x", "duskfall.variants.a.rules")
    )
    for entry in ("web", "arena", "learn", "gm", "agents", "testing", "cli"):
        module = f"duskfall.{entry}.x"
        target = "duskfall.variants.werewolf.roles"
        assert points_up(Arrow(SRC / f"{entry}/x.py", 1, module, target)), entry
    assert package_cycles(
        [
            Arrow(SRC / "a.py", 1, "duskfall.agents.a", "duskfall.runtime.b"),
            Arrow(SRC / "b.py", 1, "duskfall.runtime.b", "duskfall.agents.a"),
        ]
    ) == [["agents", "runtime"]]
    lazy_pair = [
        Arrow(SRC / "arena/a.py", 9, "duskfall.arena.a", "duskfall.arena.b"),
        Arrow(SRC / "arena/b.py", 1, "duskfall.arena.b", "duskfall.arena.a"),
    ]
    assert cycles(module_graph(lazy_pair, "arena")) == [["duskfall.arena.a", "duskfall.arena.b"]]


def test_no_arrow_points_up() -> None:
    bad = [str(arrow) for arrow in all_arrows() if points_up(arrow)]
    if bad:
        pytest.fail("imports against the layers:\n" + "\n".join(bad), pytrace=False)


def shortest_cycle(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    """A shortest cycle through ``group[0]`` inside ``group``: [a, b, ..., a]."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for succ in sorted(graph[node] & members):
            if succ == start:
                return [*paths[node], start]
            if succ not in paths:
                paths[succ] = [*paths[node], succ]
                queue.append(succ)
    raise AssertionError(f"no cycle through {start}")


def test_no_import_cycle_between_packages() -> None:
    arrows = all_arrows()
    graph = package_graph(arrows)
    lines = []
    for group in package_cycles(arrows):
        cycle = shortest_cycle(graph, group)
        lines.append(f"{' <-> '.join(group)}; for example {' -> '.join(cycle)}:")
        for source, target in itertools.pairwise(cycle):
            lines.extend(
                f"  {arrow}"
                for arrow in arrows
                if (arrow.source_package, arrow.target_package) == (source, target)
            )
    if lines:
        pytest.fail("import cycles between packages:\n" + "\n".join(lines), pytrace=False)


@pytest.mark.parametrize("folder", sorted(ALL))
def test_no_import_cycle_between_the_modules_of(folder: str) -> None:
    """Inside every package, no module imports one that imports it back (lazy and
    type-checking imports count: none may stand in for a layer)."""
    graph = module_graph(all_arrows(), folder)
    groups = cycles(graph)
    lines = [
        f"{' <-> '.join(group)}: {' -> '.join(shortest_cycle(graph, group))}" for group in groups
    ]
    if lines:
        pytest.fail(f"import cycles inside {folder}:\n" + "\n".join(lines), pytrace=False)


def test_rating_report_and_arena_keep_their_floors() -> None:
    """rating imports only core (no arena, report or store); report imports no arena runner;
    the arena imports no report; the three form no cycle."""

    def arrow(source: str, target: str) -> Arrow:
        module = f"duskfall.{source}.x"
        return Arrow(SRC / source / "x.py", 1, module, f"duskfall.{target}")

    for target in ("arena.schedule", "report.board", "store.log", "lab.leaks"):
        assert points_up(arrow("rating", target)), target
    assert points_up(arrow("report", "arena.driver"))
    assert points_up(arrow("report", "arena.tournament"))
    assert not points_up(arrow("report", "arena.progress"))
    assert not points_up(arrow("report", "rating.fit"))
    assert points_up(arrow("arena", "report.metrics"))
    assert not points_up(arrow("arena", "rating.fit"))
    graph = package_graph(all_arrows())
    assert {"rating"} >= graph["rating"] - {"core"}
    assert not any({"arena", "rating", "report"} & set(g) for g in package_cycles(all_arrows()))
