"""Structured GM turns: the schema names only real players, and rendering round-trips
through the marker parser in both languages, whatever the texts hold."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duskfall.gm.markers import MarkerKind, parse_reply, redact_secrets
from duskfall.gm.texts import texts_for
from duskfall.gm.turns import TurnChoices, read_turn, render_turn, turn_schema
from duskfall.llm.schema import example, validate

NAMES = ["AI-Alpha", "AI-Beta", "高文", "Kay"]
# Texts that try to break the rendering: markers, pipes, keywords with colons, game over.
NASTY = st.sampled_from(
    [
        "[TURN: Kay]",
        "【秘密指示：Kay｜x】",
        "a | b",
        "secret: you are the seer",
        "秘密指示：狼人",
        "GAME OVER",
        "游戏结束",
        "［x］",
        "line\nbreak",
    ]
)
TEXT = st.lists(st.one_of(st.text(max_size=20), NASTY), max_size=4).map(" ".join)


@st.composite
def turns(draw: st.DrawFn) -> dict[str, object]:
    game_over = draw(st.booleans())
    secrets = draw(
        st.lists(
            st.fixed_dictionaries(
                {"to": st.sampled_from(NAMES), "text": TEXT.filter(lambda t: t.strip() != "")}
            ),
            max_size=2,
        )
    )
    return {
        "narration": draw(TEXT),
        "secrets": secrets,
        "next": {"player": draw(st.sampled_from(NAMES)), "private": draw(st.booleans())},
        "game_over": game_over,
        "result": draw(st.one_of(st.none(), TEXT)) if game_over else None,
    }


@pytest.mark.parametrize("language", ["zh", "en"])
@settings(max_examples=60)
@given(value=turns())
def test_rendering_round_trips_through_the_marker_parser(
    language: str, value: dict[str, object]
) -> None:
    texts = texts_for(language)
    turn = read_turn(json.dumps(value, ensure_ascii=False))
    rendered = render_turn(turn, texts)
    parsed = parse_reply(rendered)
    assert parsed.problems == []
    assert parsed.game_over == turn.game_over
    assert [(m.name, m.text) for m in parsed.secrets] == [(s.to, s.text) for s in turn.secrets]
    if turn.game_over:
        assert parsed.turn is None
    else:
        assert parsed.turn is not None and parsed.turn.name == turn.player
        kind = MarkerKind.PRIVATE_TURN if turn.private else MarkerKind.TURN
        assert parsed.turn.kind is kind
    public = redact_secrets(parsed, lambda m: "")
    without_secrets = render_turn(replace(turn, secrets=()), texts)
    assert public.split() == without_secrets.split()


@pytest.mark.parametrize("language", ["zh", "en"])
def test_rendered_markers_are_the_documented_forms(language: str) -> None:
    reply = {
        "narration": "Night falls.",
        "secrets": [{"to": "Kay", "text": "you are the seer"}],
        "next": {"player": "AI-Beta", "private": True},
        "game_over": False,
        "result": None,
    }
    rendered = render_turn(read_turn(json.dumps(reply)), texts_for(language))
    if language == "zh":
        assert rendered == "Night falls. 【秘密指示：Kay｜you are the seer】 【私密轮到：AI-Beta】"
    else:
        assert rendered == "Night falls. [SECRET: Kay | you are the seer] [PRIVATE TURN: AI-Beta]"
    over = {**reply, "game_over": True, "result": "the village wins"}
    assert render_turn(read_turn(json.dumps(over)), texts_for("en")).endswith(
        "the village wins [GAME OVER]"
    )


def test_schema_offers_only_the_choices_of_the_step() -> None:
    choices = TurnChoices(NAMES, ["Kay"], private=True, may_end=False, out=["AI-Beta"], max_out=1)
    schema = turn_schema(choices)
    props = schema["properties"]
    assert list(props) == ["narration", "out", "secrets", "next", "game_over", "result"]
    assert props["next"]["properties"]["player"]["enum"] == ["Kay"]
    assert props["next"]["properties"]["private"] == {"enum": [True]}
    assert props["game_over"] == {"enum": [False]}
    assert props["secrets"]["items"]["properties"]["to"]["enum"] == NAMES
    good = example(schema)
    assert validate(good, schema) == []
    assert validate({**good, "next": {"player": "AI-Alpha", "private": True}}, schema)
    assert validate({**good, "game_over": True}, schema)


def test_free_schema_lets_the_gm_choose_anyone_and_end() -> None:
    schema = turn_schema(TurnChoices.free(NAMES))
    props = schema["properties"]
    assert "out" not in props
    assert props["next"]["properties"]["player"]["enum"] == NAMES
    assert props["game_over"] == {"type": "boolean"}


def test_a_reply_that_is_not_json_is_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="not JSON"):
        read_turn("Night falls [TURN: Kay]")
    with pytest.raises(ValueError, match="not a JSON object"):
        read_turn("[1, 2]")


def test_a_raw_newline_inside_a_string_is_read() -> None:
    """llama.cpp's JSON grammar lets a raw newline into a string; json.loads would refuse it."""
    text = (
        '{"narration": "Night\nfalls", "secrets": [], "next": {"player": "Kay", '
        '"private": false}, "game_over": false, "result": null}'
    )
    turn = read_turn(text, turn_schema(TurnChoices.free(NAMES)))
    assert (turn.narration, turn.player) == ("Night falls", "Kay")
