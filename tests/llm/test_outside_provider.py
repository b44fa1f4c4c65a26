"""A provider from outside duskfall: a package of its own registers a :class:`Provider`
subclass through the ``duskfall.providers`` entry-point group, and everything reads what the
class declares (capabilities, key variables, prices), never by probing it."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from duskfall.core.redaction import redact
from duskfall.llm import Provider, get_model, price_of, provider_names
from duskfall.llm.preflight import check_model
from duskfall.llm.provider_kinds import provider_class

PACKAGE = "echo_provider"
SOURCE = '''
    from duskfall.llm import Completion, Provider, Usage
    from duskfall.llm.prices import Price
    from duskfall.llm.provider import Capabilities


    class EchoProvider(Provider):
        """Echoes the last user message back; counts a token a word."""

        name = "echo"
        capabilities = Capabilities(token_count=True, ping=True)
        key_env = ("ECHO_API_KEY",)
        prices = {"echo-large": Price(1.0, 2.0)}
        default_timeout = 5.0

        def __init__(self, model, key):
            self.model = model
            self.endpoint = f"echo:{model}"
            self.key = key
            self.pinged = False

        @classmethod
        def from_spec(cls, arg, config):
            return cls(arg or "echo-large", config.api_key("echo", cls.key_env))

        def count_tokens(self, text):
            return len(text.split())

        async def ping(self):
            self.pinged = True

        async def complete(self, messages, schema=None, **options):
            text = messages[-1]["content"]
            return Completion(text, Usage(1_000_000, 1_000_000))
'''


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The outside package and its entry point, on sys.path for this test only."""
    root = tmp_path / "site"
    (root / PACKAGE).mkdir(parents=True)
    (root / PACKAGE / "__init__.py").write_text(textwrap.dedent(SOURCE), encoding="utf-8")
    dist_info = root / f"{PACKAGE}-0.1.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: echo-provider\nVersion: 0.1\n", encoding="utf-8"
    )
    (dist_info / "entry_points.txt").write_text(
        f"[duskfall.providers]\necho = {PACKAGE}:EchoProvider\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setenv("ECHO_API_KEY", "echo-secret-value-123")
    yield root
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
        del sys.modules[name]


async def test_an_entry_point_provider_is_used_by_its_declarations(site: Path) -> None:
    assert "echo" in provider_names()
    model = get_model("echo:echo-large-2")
    provider = model.provider
    assert isinstance(provider, Provider) and provider_class("echo") is type(provider)
    assert model.timeout == 5.0  # its default timeout
    assert provider.key.reveal() == "echo-secret-value-123"  # type: ignore[attr-defined]
    assert "echo-secret-value-123" not in redact("the key is echo-secret-value-123")
    assert model.exact_counts  # it declares token counts: the model uses its count
    assert model.count_tokens([{"role": "user", "content": "one two three"}]) < 12
    await check_model(model)  # its own ping, no request spent
    assert provider.pinged  # type: ignore[attr-defined]
    reply = await model.complete([{"role": "user", "content": "hello"}])
    assert reply.text == "hello" and reply.usage.cost_usd == pytest.approx(3.0)  # its prices
    price = price_of("echo", "echo-large-2")
    assert price is not None and price.input_per_mtok == 1.0


def test_built_in_providers_declare_their_facts() -> None:
    openai, anthropic, local = (provider_class(n) for n in ("openai", "anthropic", "local"))
    assert openai is not None and anthropic is not None and local is not None
    assert openai.key_env == ("OPENAI_API_KEY",) and anthropic.key_env == ("ANTHROPIC_API_KEY",)
    assert openai.capabilities.seed and local.capabilities.seed
    assert not anthropic.capabilities.seed
    assert local.capabilities.token_count and local.capabilities.ping
    assert "gpt-4o-mini" in openai.prices and "claude-sonnet-4" in anthropic.prices
    # a model's list price holds wherever it is served (an OpenAI-compatible endpoint)
    assert price_of("openai", "claude-sonnet-4-20250514") == anthropic.prices["claude-sonnet-4"]
