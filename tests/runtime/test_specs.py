"""Agent specs: per game, per team, per role, per seat, per-seat lists; clear errors."""

import pytest

from duskfall.agents.specs import parse_spec
from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant
from duskfall.core.variant import parse_config

VARIANT = get_variant("sports-mafia")
STATE = VARIANT.new_game(parse_config(VARIANT, {}), seed=2)


def resolve(spec: str) -> list[str]:
    return parse_spec(VARIANT, spec, 10)(STATE)


def test_one_agent_for_everyone() -> None:
    assert resolve("random") == ["random"] * 10


def test_per_team_with_aliases() -> None:
    agents = resolve("town=heuristic,mafia=random")
    for seat, agent in enumerate(agents):
        assert agent == ("random" if STATE.team_of(seat) == "BLACK" else "heuristic")


def test_per_role_and_seat_override_and_default() -> None:
    don = STATE.role_of.index("DON")
    other = (don + 1) % 10
    agents = resolve(f"don=heuristic,{other}=uniform,default=random")
    assert agents[don] == "heuristic" and agents[other] == "uniform"
    assert agents.count("random") == 8


def test_per_seat_list_and_llm_specs() -> None:
    spec = ",".join(["random"] * 9 + ["llm:openai:gpt-4o-mini@http://127.0.0.1:9/v1"])
    assert resolve(spec)[-1] == "llm:openai:gpt-4o-mini@http://127.0.0.1:9/v1"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("wizard", "valid agents: "),
        ("random,random", "has 2 entries but the game has 10 seats"),
        ("town=random", "add default=AGENT"),
        ("12=random,default=random", "seat 12 does not exist"),
        ("llm", "unknown agent 'llm'"),
        ("", "empty agent spec"),
    ],
)
def test_wrong_specs_say_what_is_valid(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        resolve(spec)
