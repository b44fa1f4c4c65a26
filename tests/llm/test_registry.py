"""Model specs, configuration, keys and the clear errors a user can hit."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from duskfall.core.errors import DuskfallError, MissingDependency
from duskfall.llm import (
    ModelSpecError,
    ProviderUnavailable,
    ScriptedProvider,
    Secret,
    get_model,
    load_config,
    price_of,
)
from duskfall.llm.provider_kinds import key_variables
from duskfall.llm.registry import public_spec


def test_scripted_spec() -> None:
    model = get_model("scripted")
    assert isinstance(model.provider, ScriptedProvider)
    assert model.spec == "scripted"
    assert get_model("scripted:7").provider.seed == 7  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gpt4", "unknown model provider 'gpt4'"),
        ("openai:", "openai needs a model name"),
        ("openai:m@ftp://x", "must start with http"),
        ("anthropic:", "anthropic needs a model name"),
        ("local:/nonexistent/model.gguf", "no GGUF file at /nonexistent/model.gguf"),
        ("scripted:abc", "integer seed"),
    ],
)
def test_bad_specs_say_what_to_do(spec: str, message: str) -> None:
    with pytest.raises(ModelSpecError, match=message):
        get_model(spec)


def test_openai_without_key_says_which_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("DUSKFALL_LLM_CONFIG", raising=False)
    with pytest.raises(ProviderUnavailable, match="set OPENAI_API_KEY"):
        get_model("openai:gpt-4o-mini")
    # a compatible server at a base URL needs no key
    model = get_model("openai:llama@http://127.0.0.1:9/v1")
    assert model.spec == "openai:llama@http://127.0.0.1:9/v1"


def test_anthropic_without_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("DUSKFALL_LLM_CONFIG", raising=False)
    with pytest.raises(ProviderUnavailable, match="set ANTHROPIC_API_KEY"):
        get_model("anthropic:claude-3-5-haiku-latest")


def test_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)
    with pytest.raises(MissingDependency, match=r"pip install 'duskfall\[openai\]'"):
        get_model("openai:m@http://127.0.0.1:9/v1")


def test_config_file_supplies_keys_and_prices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    path = tmp_path / "llm.toml"
    path.write_text(
        '[openai]\napi_key = "sk-from-file"\n\n[prices]\n"openai:house-model" = [0.5, 1.5]\n'
    )
    monkeypatch.setenv("DUSKFALL_LLM_CONFIG", str(path))
    config = load_config()
    key = config.api_key("openai", key_variables("openai"))
    assert key is not None and key.reveal() == "sk-from-file"
    assert "sk-from-file" not in repr(key) + str(key)
    model = get_model("openai:house-model")
    assert "sk-from-file" not in repr(model) + repr(model.provider) + model.spec
    price = price_of("openai", "house-model")
    assert price is not None and price.input_per_mtok == 0.5


def test_environment_key_wins_over_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "llm.toml"
    path.write_text('[openai]\napi_key = "from-file"\n')
    monkeypatch.setenv("OPENAI_API_KEY", "from-env")
    key = load_config(path).api_key("openai", key_variables("openai"))
    assert key is not None and key.reveal() == "from-env"


def test_broken_config_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[openai\n")
    with pytest.raises(DuskfallError, match="not valid TOML"):
        load_config(bad)
    with pytest.raises(DuskfallError, match="does not exist"):
        load_config(tmp_path / "missing.toml")


def test_public_spec_strips_credentials() -> None:
    assert public_spec("openai:m@https://user:sk-123@host/v1") == "openai:m@https://host/v1"
    assert public_spec("openai:gpt-4o") == "openai:gpt-4o"


def test_prices_match_dated_model_names() -> None:
    price = price_of("openai", "gpt-4o-mini-2024-07-18")
    assert price is not None and price.input_per_mtok == 0.15
    assert price_of("local", "gemma-3-270m-q4_k_m") is None
    assert repr(Secret("x")) == "Secret('***')"
