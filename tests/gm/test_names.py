"""Matching the names a game master writes to the players."""

from __future__ import annotations

import pytest

from duskfall.core.errors import ConfigError
from duskfall.gm.names import UnknownPlayer, check_roster, resolve_name

PLAYERS = ["AI-Alpha", "AI-Beta", "Mary Ann", "高文"]


@pytest.mark.parametrize(
    ("written", "player"),
    [
        ("AI-Alpha", "AI-Alpha"),
        ("ai-alpha", "AI-Alpha"),
        ("AI - Beta", "AI-Beta"),
        ("maryann", "Mary Ann"),
        ("@AI-Beta。", "AI-Beta"),
        ("Alpha", "AI-Alpha"),
        ("AI-Alpha (seat 1)", "AI-Alpha"),
        ("高文", "高文"),
        ("玩家高文", "高文"),
    ],
)
def test_resolves(written: str, player: str) -> None:
    assert resolve_name(written, PLAYERS) == player


def test_exact_match_wins_over_substring() -> None:
    assert resolve_name("Al", ["Al", "Alice"]) == "Al"


def test_ambiguous_substring_is_refused_with_the_candidates() -> None:
    with pytest.raises(UnknownPlayer, match=r"ambiguous.*AI-Alpha, AI-Beta"):
        resolve_name("AI", PLAYERS)


@pytest.mark.parametrize("written", ["Zed", "", "  ", "a"])
def test_unknown_is_refused_with_the_roster(written: str) -> None:
    with pytest.raises(UnknownPlayer):
        resolve_name(written, PLAYERS)


def test_unknown_error_lists_players() -> None:
    with pytest.raises(UnknownPlayer, match="unknown player 'Zed'; the players are AI-Alpha"):
        resolve_name("Zed", PLAYERS)


@pytest.mark.parametrize(
    ("names", "problem"),
    [
        (["Ann", "ann"], "too alike"),
        (["Ann", "A nn"], "too alike"),
        (["Ann", "B|b"], "may not contain"),
        (["Ann", "[Bob]"], "may not contain"),
        (["Ann", "   "], "empty"),
        (["Ann", "..."], "no letters"),
    ],
)
def test_roster_checks(names: list[str], problem: str) -> None:
    with pytest.raises(ConfigError, match=problem):
        check_roster(names)
