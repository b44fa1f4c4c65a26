"""The heuristic bot's rules of thumb, each seen in a scripted position or in many games."""

from __future__ import annotations

from duskfall.core.rng import derive_rng
from duskfall.variants.werewolf import VARIANT
from duskfall.variants.werewolf.actions import Pick
from duskfall.variants.werewolf.bots import HeuristicBot, RandomBot

from .table import GUARD, QUIET_NIGHT, SEER, WITCH, game, settle


def bot(seat: int) -> HeuristicBot:
    return HeuristicBot(seat, derive_rng(0, f"agent:{seat}"))


def act(state, seat: int, player: HeuristicBot | None = None):
    return (player or bot(seat)).act(state.observe(seat), state.legal(seat))


def test_the_seer_reveals_its_wolves_and_the_village_follows() -> None:
    state = game(badge=False)
    settle(state, **{**QUIET_NIGHT, "WOLF_KILL": 5, "SEER": 2, "WITCH": "save"})
    speakers = {}
    while state.pending() and state.pending()[0].kind == "SPEECH":
        seat = state.pending()[0].seat
        speakers[seat] = speakers.get(seat) or bot(seat)
        state.apply(seat, act(state, seat, speakers[seat]))
    seer_speech = [
        e.payload["text"] for e in state.events if e.kind == "speech" and e.payload["seat"] == SEER
    ]
    assert seer_speech == ["I am the Seer. Seat 2 is a werewolf. I suspect seat 2."]
    for villager in (4, 6, 7, GUARD):
        assert act(state, villager, speakers[villager]) == Pick("VOTE", 2)


def test_wolves_agree_never_kill_a_partner_and_hunt_the_claimed_seer() -> None:
    targets, wolves_of = [], []
    for seed in range(30):
        state = VARIANT.new_game(VARIANT.config_model(), seed)
        bots = {s: HeuristicBot(s, derive_rng(seed, f"agent:{s}")) for s in range(12)}
        while state.outcome() is None:
            batch = {
                d.seat: bots[d.seat].act(state.observe(d.seat), state.legal(d.seat))
                for d in state.pending()
            }
            for seat in sorted(batch):
                state.apply(seat, batch[seat])
        wolves = {s for s, r in state.roles().items() if r == "Werewolf"}
        kills = [e.payload for e in state.events if e.kind == "werewolf_kill"]
        targets += [k["target"] for k in kills]
        wolves_of += [wolves] * len(kills)
        assert not [e for e in state.events if e.kind == "wolf_votes"]  # agreed at once
    assert all(t not in w for t, w in zip(targets, wolves_of, strict=True))


def test_the_witch_saves_on_the_first_night() -> None:
    state = game(badge=False)
    settle(state, WOLF_CHAT="", WOLF_KILL=4)
    assert act(state, WITCH).potion == "ANTIDOTE"


def test_the_guard_protects_the_claimed_seer() -> None:
    state = game(badge=False)
    settle(state, **{**QUIET_NIGHT, "WOLF_KILL": 5, "SEER": 2, "WITCH": "save"})
    guard = bot(GUARD)
    settle(state, SPEECH={SEER: "I am the Seer. Seat 2 is a werewolf.", "*": ""})
    guard.act(state.observe(GUARD), state.legal(GUARD))  # reads the day
    settle(state, VOTE=None, WOLF_CHAT="", WOLF_KILL=6, WITCH="pass")
    assert guard.act(state.observe(GUARD), state.legal(GUARD)) == Pick("GUARD", SEER)


def test_random_bots_only_play_legal_actions() -> None:
    state = game()
    bots = {s: RandomBot(s, derive_rng(1, f"agent:{s}")) for s in range(12)}
    while state.outcome() is None:
        (decision, *_) = state.pending()
        state.apply(
            decision.seat,
            bots[decision.seat].act(state.observe(decision.seat), state.legal(decision.seat)),
        )


def test_a_claim_calling_a_good_seat_a_wolf_is_refuted_and_the_liar_exiled() -> None:
    state = game(badge=False)
    settle(state, **{**QUIET_NIGHT, "WOLF_KILL": 5, "SEER": 2, "WITCH": "save"})
    villager = bot(4)
    lies = {0: "I am the Seer. Seat 4 is a werewolf.", SEER: "I am the Seer. Seat 2 is a werewolf."}
    settle(state, SPEECH={**lies, "*": ""})
    assert villager.act(state.observe(4), state.legal(4)) == Pick("VOTE", 2)  # believes 8
    other = bot(5)
    other.act(state.observe(5), state.legal(5))
    assert other.trusted_checker(state.observe(5)) == 0  # the first claim, not refuted for 5


def test_wolves_counter_claim_against_a_seer_who_named_a_partner() -> None:
    leader = bot(0)  # the lowest living wolf speaks for the pack
    state = game(badge=False)
    settle(state, **{**QUIET_NIGHT, "WOLF_KILL": 5, "SEER": 2, "WITCH": "save"})
    settle(state, SPEECH={SEER: "I am the Seer. Seat 2 is a werewolf.", "*": ""}, VOTE=None)
    settle(state, WOLF_CHAT="", WOLF_KILL=6, WITCH="pass", GUARD=None, SEER=1)
    settle(state, LAST_WORDS="")
    seat = state.pending()[0].seat
    assert seat == 0 and state.pending()[0].kind == "SPEECH"
    speech = leader.act(state.observe(0), state.legal(0))
    assert speech.text.startswith(f"I am the Seer. Seat {SEER} is a werewolf.")


def test_heuristic_village_wins_more_than_random_in_werewolf_6() -> None:
    config = VARIANT.config_model(preset="werewolf-6")

    def village_wins(kind: type[HeuristicBot] | type[RandomBot]) -> int:
        wins = 0
        for seed in range(200):
            state = VARIANT.new_game(config, seed)
            bots = {s: kind(s, derive_rng(seed, f"agent:{s}")) for s in range(6)}
            while state.outcome() is None:
                for d in list(state.pending()):
                    state.apply(
                        d.seat, bots[d.seat].act(state.observe(d.seat), state.legal(d.seat))
                    )
            wins += state.outcome().winner == "village"
        return wins

    assert village_wins(HeuristicBot) >= village_wins(RandomBot) + 10  # 86 vs 70 of 200


def test_a_bold_wolf_runs_for_sheriff_on_a_fake_seer_claim() -> None:
    fakes = 0
    for seed in range(40):
        state = VARIANT.new_game(VARIANT.config_model(preset="werewolf-9"), seed)
        bots = {s: HeuristicBot(s, derive_rng(seed, f"agent:{s}")) for s in range(9)}
        while state.outcome() is None and state.day == 1:
            for d in list(state.pending()):
                state.apply(d.seat, bots[d.seat].act(state.observe(d.seat), state.legal(d.seat)))
        roles = state.roles()
        fakes += any(
            e.kind == "speech"
            and e.payload["text"].startswith("I am the Seer.")
            and roles[e.payload["seat"]] == "Werewolf"
            and e.payload["sub_phase"] == "BADGE_SPEECH"
            for e in state.events
        )
    assert 4 <= fakes <= 25  # about 30% of games
