"""duskfall's test kit, shipped so that any variant (also one outside duskfall) can be checked.

Checking a variant takes a few lines of pytest::

    from duskfall.testing import VariantKit

    KIT = VariantKit("my-game", configs=[{}, {"day_limit": 2}])

    def test_kit() -> None:
        KIT.check_all()

or one test per check (``@pytest.mark.parametrize("check", VariantKit.CHECKS)`` and
``KIT.run(check, tmp_path)``). The checks:

* ``check_api``: the Variant/State contract at every decision of random games;
* ``check_determinism`` and ``check_runtime_determinism``: a seed always plays the same game,
  by itself and through the runtime with bots;
* ``check_playouts``: thousands of random games all end with a valid outcome;
* ``check_replay``: logged games replay to the same outcome;
* ``check_no_leak``: a seat's view, choices and prompts do not change when everything it may not
  know is scrambled (the variant's ``info.scramble_hidden``, or ``scramble=``);
* ``check_prompt_history`` and ``check_prompt_contract``: an LLM seat is shown every event it
  could see (verbatim, older days as digest) and nothing else, with a fixed system prompt, and
  each decision's example fits its schema with placeholders for every choice;
* ``check_golden(path)``: the decision counts and outcomes recorded in a golden file (see
  :mod:`duskfall.testing.golden`) still hold.

Also here: :func:`play_random` (the kit's random player), the scripted LLM provider
(:class:`ScriptedProvider`, the ``scripted`` model spec), the fault-injecting OpenAI-compatible
stub server (:mod:`duskfall.testing.stub_server`) and :func:`require` for tests that need an
optional part. The API check needs ``jsonschema`` (``pip install 'duskfall[test]'``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from duskfall.llm.providers.scripted import ScriptedProvider
    from duskfall.testing.golden import check_golden, write_golden
    from duskfall.testing.kit import VariantKit
    from duskfall.testing.no_leak import ScrambleFn
    from duskfall.testing.playouts import RandomGame, play_random, play_random_game
    from duskfall.testing.require import require, require_program
    from duskfall.testing.stub_server import FaultPlan, StubServer

# Exports are imported on first use, so ``python -m duskfall.testing.golden`` and a test that
# needs only the kit do not load the LLM layer or the stub server.
_EXPORTS = {
    "FaultPlan": "duskfall.testing.stub_server",
    "RandomGame": "duskfall.testing.playouts",
    "ScrambleFn": "duskfall.testing.no_leak",
    "ScriptedProvider": "duskfall.llm.providers.scripted",
    "StubServer": "duskfall.testing.stub_server",
    "VariantKit": "duskfall.testing.kit",
    "check_golden": "duskfall.testing.golden",
    "play_random": "duskfall.testing.playouts",
    "play_random_game": "duskfall.testing.playouts",
    "require": "duskfall.testing.require",
    "require_program": "duskfall.testing.require",
    "write_golden": "duskfall.testing.golden",
}

__all__ = [
    "FaultPlan",
    "RandomGame",
    "ScrambleFn",
    "ScriptedProvider",
    "StubServer",
    "VariantKit",
    "check_golden",
    "play_random",
    "play_random_game",
    "require",
    "require_program",
    "write_golden",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'duskfall.testing' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
