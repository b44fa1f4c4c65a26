"""Every rules event converts to its typed model (the one the variant declares) and back
unchanged, and survives JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duskfall.core.events import Event
from duskfall.testing import play_random
from duskfall.variants.werewolf import VARIANT
from duskfall.variants.werewolf.events import WerewolfKill
from duskfall.variants.werewolf.idiot import IdiotRevealed
from duskfall.variants.werewolf.seer import SeerAction
from duskfall.variants.werewolf.units import EVENT_TYPES

OPTIONS = st.fixed_dictionaries(
    {
        "preset": st.sampled_from(["werewolf-12", "werewolf-9", "werewolf-6"]),
        "guarded_and_saved": st.sampled_from(["survives", "dies"]),
        "win_condition": st.sampled_from(["side-kill", "all-kill"]),
        "badge": st.booleans(),
        "hunter_shot": st.booleans(),
        "last_words_first_night_only": st.booleans(),
        "wolf_rounds": st.integers(1, 3),
        "day_limit": st.integers(1, 8),
    }
)


@settings(max_examples=40, deadline=None)
@given(config=OPTIONS, seed=st.integers(0, 10**6))
def test_random_games_end_and_their_events_are_typed(config: dict, seed: int) -> None:
    state, events = play_random(VARIANT, config, seed)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner in (None, "village", "werewolf")
    kinds = set()
    for event in events:
        model = VARIANT.info.event_types[event.kind].from_event(event)
        assert model.to_event().same_content(event)
        again = Event.from_dict(json.loads(json.dumps(event.to_dict())))
        assert again.same_content(event)
        kinds.add(event.kind)
    assert {"game_start", "night_start", "game_end"} <= kinds


def test_the_seeds_event_models_carry_phase_sub_phase_and_visibility() -> None:
    kill = WerewolfKill(day=2, phase="NIGHT", visibility="team:werewolf", target=4, votes=[])
    event = kill.to_event()
    assert (event.kind, event.day, event.phase, event.visibility) == (
        "werewolf_kill",
        2,
        "NIGHT",
        "team:werewolf",
    )
    assert event.payload == {"sub_phase": "WOLF_KILL", "target": 4, "votes": []}
    payload = {"seat": 8, "target": 2, "result": "Werewolf", "sub_phase": "SEER"}
    seer = SeerAction.from_event(Event("seer_action", payload, "seats:8", 1, "NIGHT"))
    assert isinstance(seer, SeerAction) and seer.result == "Werewolf"
    assert len(EVENT_TYPES) >= 20 and EVENT_TYPES["idiot_revealed"] is IdiotRevealed
    with pytest.raises(ValueError):  # a payload that does not fit its type
        SeerAction.from_event(Event("seer_action", {**payload, "extra": 1}, "seats:8", 1, "NIGHT"))
    with pytest.raises(ValueError):  # another kind
        SeerAction.from_event(Event("exiled", {"seat": 1}, "public", 1, "DAY"))
