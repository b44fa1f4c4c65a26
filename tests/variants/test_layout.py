"""Every built-in variant has the canonical layout, declares its capabilities, and loads on
core alone."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from duskfall.core.registry import get_variant

VARIANTS = ["sports-mafia", "mafia", "werewolf"]
CANONICAL = (
    "config",
    "rules",
    "legal",
    "view",
    "prompts",
    "bots",
    "wire",
    "testing",
    "variant",
    "actions",
)


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_canonical_layout_and_declared_capabilities(variant_id: str) -> None:
    variant = get_variant(variant_id)
    package = type(variant).__module__.rpartition(".")[0]
    modules = {name: importlib.import_module(f"{package}.{name}") for name in CANONICAL}
    assert importlib.import_module(package).VARIANT is variant
    assert callable(modules["view"].observe) and callable(modules["prompts"].format_event)
    assert variant.info.scramble_hidden is modules["testing"].scramble_hidden
    assert variant.info.wire is modules["wire"].WIRE
    assert not hasattr(variant, "handlers")


def test_importing_the_variants_loads_core_only() -> None:
    code = (
        "import sys\n"
        "import duskfall.variants.sports_mafia, duskfall.variants.mafia, "
        "duskfall.variants.werewolf\n"
        "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('duskfall.')}),"
        " 'asyncio' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "['core', 'variants'] False"
