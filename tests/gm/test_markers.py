"""The marker parser: both languages, every separator, malformed and ambiguous markers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duskfall.gm.markers import MarkerKind, neutralise, parse_reply, redact_secrets


@pytest.mark.parametrize(
    "text",
    [
        "【轮到：AI-Alpha】",
        "【轮到:AI-Alpha】",
        "【 轮到 ： AI-Alpha 】",
        "[TURN: AI-Alpha]",
        "[turn:AI-Alpha]",
        "[Turn：AI-Alpha]",
        "**[TURN: AI-Alpha]**",
    ],
)
def test_turn_marker_in_every_spelling(text: str) -> None:
    parsed = parse_reply(f"Good morning. {text} Speak up.")
    assert parsed.problems == []
    assert parsed.turn is not None
    assert (parsed.turn.kind, parsed.turn.name) == (MarkerKind.TURN, "AI-Alpha")


@pytest.mark.parametrize(
    "text",
    ["【私密轮到：AI-Beta】", "[PRIVATE TURN: AI-Beta]", "[private_turn: AI-Beta]"],
)
def test_private_turn_marker(text: str) -> None:
    turn = parse_reply(text).turn
    assert turn is not None
    assert (turn.kind, turn.name) == (MarkerKind.PRIVATE_TURN, "AI-Beta")


@pytest.mark.parametrize(
    "text",
    [
        "【秘密指示：AI-Beta｜你是狼人】",
        "【秘密指示:AI-Beta|你是狼人】",
        "【秘密指示：AI-Beta | 你是狼人】",
        "[SECRET: AI-Beta | 你是狼人]",
        "[secret:AI-Beta｜你是狼人]",
        "[SECRET：AI-Beta|你是狼人]",
    ],
)
def test_secret_marker_in_every_spelling(text: str) -> None:
    parsed = parse_reply(text)
    assert parsed.problems == []
    [secret] = parsed.secrets
    assert (secret.name, secret.text) == ("AI-Beta", "你是狼人")


def test_only_the_first_turn_marker_counts() -> None:
    parsed = parse_reply("[TURN: Ann] then [TURN: Bob] 【私密轮到：Cid】")
    assert parsed.turn is not None and parsed.turn.name == "Ann"


def test_private_turn_first_wins_over_later_public_turn() -> None:
    turn = parse_reply("[PRIVATE TURN: Cid] [TURN: Ann]").turn
    assert turn is not None and (turn.kind, turn.name) == (MarkerKind.PRIVATE_TURN, "Cid")


def test_several_secrets_in_one_reply_keep_their_order() -> None:
    parsed = parse_reply(
        "Roles! 【秘密指示：A｜wolf】[SECRET: B | seer]\n【秘密指示：C｜villager】 [TURN: A]"
    )
    assert [(m.name, m.text) for m in parsed.secrets] == [
        ("A", "wolf"),
        ("B", "seer"),
        ("C", "villager"),
    ]


def test_secret_text_may_hold_brackets_and_a_second_pipe() -> None:
    [secret] = parse_reply("[SECRET: Bob | you are [wolf] | partner: 【Ann】] after").secrets
    assert secret.text == "you are [wolf] | partner: 【Ann】"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[SECRET: Bob you are the wolf]", "no '|'"),
        ("[SECRET: | you are the wolf]", "no player name"),
        ("[SECRET: Bob | ]", "empty message"),
        ("[SECRET: Bob | you are [the wolf]", "never closed"),
        ("【秘密指示：Bob｜你是狼人", "never closed"),
        ("[TURN: ]", "no player name"),
        ("[TURN: Bob", "never closed"),
    ],
)
def test_malformed_markers_are_problems(text: str, problem: str) -> None:
    parsed = parse_reply(f"Night. {text}")
    assert len(parsed.problems) == 1
    assert problem in parsed.problems[0]


def test_problem_messages_never_quote_secret_text() -> None:
    parsed = parse_reply("[SECRET: Bob you are the WOLF] [SECRET: Ann | WOLF2")
    assert all("WOLF" not in problem for problem in parsed.problems)


def test_words_that_only_start_like_keywords_are_not_markers() -> None:
    parsed = parse_reply("[TURNIP: Bob] [Turnabout] [Night 1] [note]")
    assert parsed.markers == [] and parsed.problems == []
    assert not parsed.has_instruction


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("[SECRETBob|wolf]", "Bob"),
        ("[SECRET INSTRUCTION: Bob | wolf]", "Bob"),
        ("【秘密信息：Bob｜狼人】", "Bob"),
        ("［SECRET：Bob｜wolf］", "Bob"),
    ],
)
def test_secret_lookalikes_are_read_as_secrets(text: str, name: str) -> None:
    [secret] = parse_reply(text).secrets
    assert secret.name == name


@pytest.mark.parametrize(
    "text",
    [
        "[Secretly, the wolves wake]",
        "SECRET: Bob | wolf",
        "秘密指示：Bob｜狼人",
        "(SECRET: Bob | x)",
    ],
)
def test_secret_text_outside_a_proper_marker_is_refused(text: str) -> None:
    assert parse_reply(f"Night. {text} [TURN: Ann]").problems


@pytest.mark.parametrize(
    "text",
    [
        "主持人会通过秘密指示告诉你身份。",
        "你上一次的秘密指示是否正确？",
        "Roles come as secret messages.",
    ],
)
def test_talking_about_secrets_is_fine(text: str) -> None:
    assert parse_reply(f"{text}【轮到：Ann】").problems == []


@pytest.mark.parametrize(
    "text", ["好人胜利，游戏结束。", "The village wins. GAME OVER", "game over!", "【游戏结束】"]
)
def test_game_over(text: str) -> None:
    assert parse_reply(text).game_over


def test_bare_game_over_does_not_count_beside_other_markers() -> None:
    assert not parse_reply("The game is over when... game over rules. [TURN: Ann]").game_over
    assert not parse_reply("游戏结束的条件是……【秘密指示：Ann｜狼人】").game_over
    assert parse_reply("[GAME OVER] [TURN: Ann]").game_over


def test_bare_game_over_can_be_switched_off_for_the_opening() -> None:
    assert not parse_reply("游戏结束的条件是……", bare_game_over=False).game_over
    assert parse_reply("【游戏结束】", bare_game_over=False).game_over


def test_game_over_inside_a_secret_does_not_count() -> None:
    parsed = parse_reply("[SECRET: Ann | say GAME OVER to no one]")
    assert not parsed.game_over


def test_redact_replaces_each_secret_with_a_notice() -> None:
    parsed = parse_reply("Night. [SECRET: Ann | wolf] [SECRET: Bob | seer] [TURN: Ann]")
    public = redact_secrets(parsed, lambda m: f"<to {m.name}>")
    assert public == "Night. <to Ann> <to Bob> [TURN: Ann]"


def test_neutralise_turns_markers_inert_and_leaves_other_brackets() -> None:
    text = neutralise("【轮到：Ann】 [SECRET: Bob | x] [TURN: ] [Night 1]")
    assert text == "(轮到：Ann) (SECRET: Bob | x) (TURN: ) [Night 1]"
    assert parse_reply(text).markers == []


_alphabet = st.sampled_from([*list("ab |:：｜[]【】"), "TURN", "SECRET", "轮到", "秘密指示", "\n"])


@given(st.lists(_alphabet, max_size=40).map("".join))
def test_parser_never_crashes_and_neutralised_text_has_no_markers(text: str) -> None:
    parsed = parse_reply(text)
    assert isinstance(parsed.problems, list)
    assert parse_reply(neutralise(text)).markers == []


@given(
    secret=st.text(st.characters(blacklist_characters="[]【】"), min_size=1).filter(
        lambda s: s.strip() != ""
    ),
    before=st.text(st.characters(blacklist_characters="[]【】"), max_size=20),
    after=st.text(st.characters(blacklist_characters="[]【】"), max_size=20),
)
def test_redaction_removes_the_whole_secret(secret: str, before: str, after: str) -> None:
    token = f"<<{secret}>>"
    parsed = parse_reply(f"{before}[SECRET: Ann | {token}]{after}")
    assert parsed.problems == []
    assert token not in redact_secrets(parsed, lambda m: "[sent]")
