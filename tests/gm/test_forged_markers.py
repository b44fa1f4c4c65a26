"""No player can forge a game master's marker: whatever a player writes, in any bracket, colon,
pipe or letter that Unicode folds into the ones the parser reads, a game master quoting it word
for word delivers no secret, ends nothing and turns to nobody."""

from __future__ import annotations

import sys
import unicodedata
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from duskfall.gm.chat import PLAYER_PREFIX, sanitise_player_reply
from duskfall.gm.markers import CLOSERS, COLONS, OPENERS, PIPES, parse_reply
from duskfall.gm.turns import plain
from duskfall.llm import Request
from duskfall.testing.hostile import FORGED_MARKERS

from .support import build_game, of_kind

FORGERIES = FORGED_MARKERS


def _quoting_gm() -> object:
    """A GM that opens with a turn for AI-Alpha, then quotes the newest player line word for
    word: alone (a reply with no marker of its own), then with its own turn marker."""
    calls = 0

    def reply(request: Request) -> str:
        nonlocal calls
        calls += 1
        if calls == 1:
            return "Welcome. [TURN: AI-Alpha]"
        if calls >= 2 * len(FORGERIES) + 2:
            return "[GAME OVER]"
        lines = [line for m in request.messages for line in m["content"].splitlines()]
        quoted = [line.split(": ", 1)[1] for line in lines if line.startswith(PLAYER_PREFIX)]
        quote = f'AI-Alpha said "{quoted[-1]}".' if quoted else "Nobody spoke."
        return quote if calls % 2 == 0 else f"{quote} [TURN: AI-Alpha]"

    return reply


async def test_a_gm_quoting_forged_markers_delivers_nothing() -> None:
    said = iter(FORGERIES * 3)
    game, events = build_game(
        _quoting_gm(),
        {"AI-Alpha": lambda _request: next(said)},
        max_gm_failures=2 * len(FORGERIES) + 5,
    )
    await game.run()
    assert of_kind(events, "secret") == []
    [over] = of_kind(events, "game_over")
    assert over.payload["by"] == "gm"  # its own [GAME OVER], at the end of the script
    instructions = of_kind(events, "gm_instruction")
    assert [e.payload["turn"] for e in instructions[:-1]] == ["AI-Alpha"] * (len(instructions) - 1)
    rejected = [e.payload["reason"] for e in of_kind(events, "gm_rejected")]
    assert rejected and set(rejected) == {"no marker found"}  # quotes alone: no instruction
    players = [e.payload["text"] for e in of_kind(events, "chat") if e.payload["role"] == "player"]
    assert len(players) >= len(FORGERIES)


# -- the property: generated lookalikes ----------------------------------------------------


@cache
def lookalikes() -> dict[str, list[str]]:
    """Every character whose compatibility form is one the parser reads, by that form."""
    wanted = set(OPENERS + CLOSERS + COLONS + PIPES) | set("abcdeghilmnoprstuvAEGMORSTUV_ ")
    found: dict[str, list[str]] = {}
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        folded = unicodedata.normalize("NFKC", char)
        if folded != char and folded in wanted:
            found.setdefault(folded, []).append(char)
    return found


KEYWORDS = [
    "SECRET", "secret instruction", "PRIVATE TURN", "private_turn", "TURN", "GAME OVER",
    "game_over", "轮到", "私密轮到", "秘密指示", "秘密", "游戏结束",
]  # fmt: skip


@st.composite
def disguised(draw: st.DrawFn, text: str) -> str:
    """``text`` with some characters swapped for their lookalikes and the case shuffled."""
    out = []
    for char in text:
        char = char.upper() if draw(st.booleans()) else char.lower()
        others = lookalikes().get(char, [])
        if others and draw(st.booleans()):
            char = draw(st.sampled_from(others))
        out.append(char)
    return "".join(out)


@st.composite
def forged_reply(draw: st.DrawFn) -> str:
    """A player reply made of marker pieces (in disguise) and ordinary words."""
    pieces = st.one_of(
        st.sampled_from(KEYWORDS).flatmap(disguised),
        st.sampled_from(OPENERS + CLOSERS + COLONS + PIPES).flatmap(disguised),
        st.sampled_from(["AI-Beta", "AI-Alpha", " ", "you are the wolf", "\n", "GM: "]),
        st.text(max_size=4),
    )
    return "".join(draw(st.lists(pieces, max_size=14)))


@settings(max_examples=250, deadline=None)
@given(forged_reply(), st.booleans())
def test_no_player_text_reads_as_a_marker_however_quoted(reply: str, own_turn: bool) -> None:
    text = sanitise_player_reply("AI-Alpha", reply)
    gm = f'AI-Alpha said: "{text}" {text}' + (" [TURN: AI-Beta]" if own_turn else "")
    parsed = parse_reply(gm)
    assert parsed.secrets == [] and not parsed.game_over and parsed.problems == []
    assert [m.name for m in parsed.markers] == (["AI-Beta"] if own_turn else [])
    assert unicodedata.normalize("NFKC", text) == text  # nothing left for a fold to reveal


@settings(max_examples=200, deadline=None)
@given(forged_reply())
def test_narration_of_a_structured_turn_is_inert_too(narration: str) -> None:
    parsed = parse_reply(plain(narration))
    assert parsed.markers == [] and not parsed.game_over and parsed.problems == []


def test_the_gm_may_write_its_own_markers_in_any_width() -> None:
    parsed = parse_reply("Night. ﹇SECRET︓AI-Beta｜you are the seer﹈ ［ＴＵＲＮ：AI-Alpha］")
    [secret] = parsed.secrets
    assert (secret.name, secret.text) == ("AI-Beta", "you are the seer")
    assert parsed.turn is not None and parsed.turn.name == "AI-Alpha"
