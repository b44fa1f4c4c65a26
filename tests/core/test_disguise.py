"""Registered secrets found in disguise (:mod:`duskfall.core.disguise`), masked where they are,
never in ordinary text; a key split over one seat's consecutive texts (:class:`SeatTails`)."""

from __future__ import annotations

import asyncio
import base64
import random
import string
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from duskfall.core.disguise import WINDOW, DisguiseMatcher, squeeze
from duskfall.core.redaction import (
    MASK,
    SeatTails,
    forget_secrets,
    redact,
    redact_value,
    register_secret,
)
from duskfall.core.variant import Variant
from duskfall.testing.disguises import DISGUISES, disguised, halves

KEY = "sk-test-D1SGU1SE-5c2e81"  # a word in a key would be masked where the word is said


@pytest.fixture(autouse=True)
def key() -> Iterator[str]:
    forget_secrets()
    register_secret(KEY)
    yield KEY
    forget_secrets()


def _readable(text: str) -> bool:
    """Whether ``text`` still holds the key, or a run of it, in any of the forms."""
    matcher = DisguiseMatcher.of([KEY])
    assert matcher is not None
    shown = any(form in text for form in [*disguised(KEY).values(), KEY])
    return shown or bool(matcher.runs(squeeze(text)))


@pytest.mark.parametrize("name", sorted(DISGUISES))
def test_each_disguise_is_masked_where_it_is(name: str) -> None:
    said = DISGUISES[name](KEY)
    masked = redact(f"before {said} after")
    assert masked.startswith("before ") and masked.endswith(" after"), masked
    assert MASK in masked and said not in masked
    assert not _readable(masked), masked


@pytest.mark.parametrize(
    "said",
    [
        "\u200d".join(KEY),  # zero-width joiner
        "\u2060".join(KEY),  # word joiner
        "\u202e".join(KEY),  # right-to-left override
        "-".join(KEY),
        "_".join(KEY),
        KEY.swapcase(),
        base64.b64encode(f"x{KEY}".encode()).decode(),  # each alignment
        base64.b64encode(f"xy{KEY}".encode()).decode(),
        base64.urlsafe_b64encode(KEY.encode()).decode(),
        KEY.encode().hex().upper(),
        "".join(f"&#x{ord(c):x};" for c in KEY),
        "sk%2Dtest%2DD1SGU1SE%2D5c2e81",  # some characters escaped, some not
        KEY[3:16],  # any run of 12 of its letters and digits
    ],
)
def test_more_disguises(said: str) -> None:
    masked = redact(f"say {said}!")
    assert said not in masked and MASK in masked, masked


def test_short_pieces_and_short_secrets_are_not_searched_in_disguise() -> None:
    register_secret("tok-1234")  # too short to search in disguise: only as it is
    assert redact("TOK-1234 t o k 1 2 3 4") == "TOK-1234 t o k 1 2 3 4"
    assert redact("tok-1234") == MASK
    piece = KEY[: WINDOW - 2]  # shorter than a run
    assert redact(f"a {piece} b") == f"a {piece} b"


def test_a_key_split_over_a_seats_consecutive_texts_is_masked() -> None:
    first, second = halves(KEY)
    tails = SeatTails()
    assert tails.redact(3, f"my key is {first}") == f"my key is {first}"  # not a run yet
    assert tails.redact(4, f"{second} from another seat") == f"{second} from another seat"
    assert tails.redact(3, f"{second} is the rest") == f"{MASK} is the rest"
    # each field of a reply is its own stream: the join is with the same field's last text
    reply = {"reasoning": f"so {first}", "action": {"type": "SPEAK", "says": f"x {first}"}}
    assert tails.redact_value(5, reply) is reply
    nxt = {"reasoning": f"{second}!", "action": {"type": "SPEAK", "says": f"{second}."}}
    masked = tails.redact_value(5, nxt)
    assert masked == {"reasoning": f"{MASK}!", "action": {"type": "SPEAK", "says": f"{MASK}."}}


def test_a_join_masks_only_a_registered_secret_across_it() -> None:
    """A header pattern across two texts is no secret: the next text is kept as it is."""
    tails = SeatTails()
    tails.redact_value(1, {"reasoning": "my header is Authorization: Bearer x-1", "type": "X"})
    assert tails.redact_value(1, {"reasoning": "ok", "type": "SPEECH"})["type"] == "SPEECH"


def test_nothing_to_mask_keeps_the_same_objects() -> None:
    data = {"a": ["plain words", 3], "b": {"c": "more words"}}
    assert redact_value(data) is data


GAMES = (("werewolf", {"preset": "werewolf-12"}), ("mafia", {}), ("sports-mafia", {}))


def ordinary_texts() -> Iterator[str]:
    """Game speech, prompts and prose: every string of the events of heuristic bots' games,
    every prompt of a random game, and the project's documentation."""
    from duskfall.core.registry import get_variant
    from duskfall.core.variant import State
    from duskfall.session import GameSetup, prepare_game
    from duskfall.testing.playouts import play_random

    for variant_id, config in GAMES:
        variant = get_variant(variant_id)
        for seed in range(2):
            setup = GameSetup(variant_id, seed=seed, agents="heuristic", config=config)
            game = prepare_game(replace(setup, write_log=False))
            asyncio.run(game.run())
            for event in game.record.events:
                yield from _strings(event.payload)
        prompts: list[str] = []

        def render(state: State, variant: Variant = variant, prompts: list[str] = prompts) -> None:
            if len(prompts) > 300:
                return
            for decision in state.pending():
                seat = decision.seat
                prompts.extend(variant.render_prompts(state.observe(seat), state.legal(seat), None))

        play_random(variant, config, 0, on_decision=render)
        yield from prompts
    root = Path(__file__).resolve().parents[2]
    for path in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        yield from path.read_text().split("\n\n")


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def test_no_false_positives_on_ordinary_text() -> None:
    """Registered secrets change nothing in ordinary text (what the credential patterns mask
    there, a documented ``Authorization: Bearer`` header, they mask without secrets too)."""
    texts = list(ordinary_texts())
    assert len(texts) > 1000
    forget_secrets()
    unregistered = [redact(text) for text in texts]
    rng = random.Random(7)
    alphabet = string.ascii_letters + string.digits
    for _ in range(20):  # keys as services and the web app make them, and readable test ones
        register_secret("sk-" + "".join(rng.choice(alphabet) for _ in range(48)))
        register_secret("".join(rng.choice(alphabet + "-_") for _ in range(32)))
    for token in ("sk-probe-ECHOED-7b1f29", "admin-ECHOED-token", "tok-REGISTERED-4242", KEY):
        register_secret(token)
    for text, expected in zip(texts, unregistered, strict=True):
        assert redact(text) == expected, text[:200]
