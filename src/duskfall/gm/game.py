"""The coordinator: asks the game master what happens next, and makes it happen.

One *step* is one instruction of the game master and what follows from it:

1. ask the GM (its card, its notebook, the public chat; a format reminder after a refused
   reply) and parse the markers of its reply;
2. refuse a reply with no usable marker, a malformed marker or an unknown name: nothing of it
   is published, the reason goes into the next prompt, and after ``max_gm_failures`` refusals
   in a row the game stops;
3. publish the reply with every secret replaced by a notice, put each secret in its player's
   queue, and end the game on a game-over marker;
4. on a turn marker, ask that player (persona, public chat, its own secrets) and put the
   answer in the public chat (or, for a private turn, in the GM's notebook only). A player
   that fails or times out is recorded as silent and the game goes on.

Every await has a deadline, every change is an event (see :mod:`duskfall.gm.state`), and the
loop can be paused between steps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

from duskfall.core.errors import ConfigError, MissingDependency
from duskfall.core.events import ADMIN, PUBLIC, Event, seats_visibility
from duskfall.core.outcome import Outcome, Termination
from duskfall.core.rng import derive_rng
from duskfall.gm import event_kinds as kinds
from duskfall.gm import flow
from duskfall.gm.audit import audit_for
from duskfall.gm.cards import Card, PlayerSpec
from duskfall.gm.chat import sanitise_player_reply
from duskfall.gm.config import GMSettings
from duskfall.gm.markers import Marker, MarkerKind, ParsedReply, parse_reply, redact_secrets
from duskfall.gm.names import UnknownPlayer, resolve_name
from duskfall.gm.prompts import Status, gm_messages, player_messages, skeleton_gm_messages
from duskfall.gm.skeleton import Skeleton
from duskfall.gm.state import SOURCE, GMState
from duskfall.gm.texts import Texts, texts_for
from duskfall.gm.turns import TurnChoices, read_turn, render_turn, turn_schema
from duskfall.llm import CallOptions, CallRecord, LLMError, Model
from duskfall.llm.types import Completion, Message
from duskfall.runtime.pausing import Pausable
from duskfall.runtime.record import GameRecord

# Errors that no retry can fix: the game stops at once with their message.
FATAL_MODEL_ERRORS: tuple[type[Exception], ...] = (MissingDependency, ConfigError)


ChatModel: TypeAlias = Model
"""What plays the GM and the players: a :class:`~duskfall.llm.Model` (over any provider)."""


@dataclass(frozen=True, slots=True)
class Instruction:
    """A usable GM reply: names resolved to players (``out``: announced out of the game)."""

    parsed: ParsedReply
    turn: str | None
    private: bool
    secrets: list[tuple[Marker, str]]
    out: tuple[str, ...] = ()
    result: str | None = None


class GMGame(Pausable):
    """Runs one GM game; build it with :func:`duskfall.gm.session.new_game` or ``resume_game``."""

    def __init__(
        self,
        settings: GMSettings,
        card: Card,
        seats: Sequence[PlayerSpec],
        gm_model: ChatModel,
        player_models: Mapping[str, ChatModel],
        record: GameRecord,
        state: GMState | None = None,
    ) -> None:
        self.settings = settings
        self.card = card
        self.seats = list(seats)
        self.names = [seat.name for seat in self.seats]
        missing = [name for name in self.names if name not in player_models]
        if missing:
            raise ConfigError(f"no model for player(s) {', '.join(missing)}")
        self.gm_model = gm_model
        self.player_models = dict(player_models)
        self.record = record
        self.state = state or GMState(list(self.names))
        self.texts: Texts = texts_for(card.language)
        self.structured = settings.gm_format == "structured" or (
            settings.gm_format == "auto" and not gm_model.provider.capabilities.prose_rules
        )
        skeleton = card.skeleton if self.structured else None
        self.skeleton = skeleton if skeleton and skeleton.seats == len(self.seats) else None
        self.audit = audit_for(self.skeleton)
        self._init_pausing()
        self.idle = asyncio.Event()  # set while run() waits on a pause

    # -- control -------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.outcome is not None

    def start(self) -> None:
        """Record the start of the game (once; a resumed game has already started)."""
        if self.state.started:
            return
        names = self.texts.joiner.join(self.names)
        self._emit(
            kinds.GM_START,
            {
                "card": self.card.id,
                "title": self.card.title,
                "language": self.card.language,
                "players": [{"seat": i, "name": n} for i, n in enumerate(self.names)],
                "format": "structured" if self.structured else "markers",
                "skeleton": self.skeleton is not None,
            },
            PUBLIC,
        )
        self._chat("system", self.texts.game_started.format(players=names))
        if self.skeleton is not None:
            self._deal(self.skeleton)
        self.record.phase_end()

    def _deal(self, skeleton: Skeleton) -> None:
        """Deal the card's roles by seed and tell each player its own."""
        roles = flow.deal(skeleton, self.names, derive_rng(self.settings.seed, "deal"))
        self._emit(kinds.DEAL, {"roles": roles}, ADMIN)
        for name in self.names:
            text = flow.role_message(skeleton, roles, name, self.texts)
            known = flow.known_roles(skeleton, roles, name)  # by seat, for the page's cards
            seats = {str(self.names.index(p)): role for p, role in known.items()}
            secret = {"step": 0, "player": name, "text": text, "roles": seats}
            self._emit(kinds.SECRET, secret, self._only(name))

    async def run(self) -> Outcome:
        """Play until the game is over; waits while paused."""
        self.start()
        while await self.step():
            if self.paused:
                self.idle.set()
                await self.running.wait()
                self.idle.clear()
        assert self.state.outcome is not None
        return self.state.outcome

    def save(self) -> None:
        """Mark the log as paused at a step boundary (resume it later from the log)."""
        self._emit(kinds.PAUSED, {"step": self.state.step}, ADMIN)
        self.record.phase_end()

    def stop(self, reason: str) -> Outcome:
        """End the game now, e.g. when the user quits."""
        return self._finish(Termination.ABORTED, reason, by="user")

    # -- one step ------------------------------------------------------------------------

    async def step(self) -> bool:
        """Run one step; False once the game is over."""
        self.start()
        if self.over:
            return False
        number = self.state.step + 1
        if number >= self.settings.max_steps:
            self._finish(
                Termination.DAY_LIMIT, f"step limit {self.settings.max_steps} reached", by="limit"
            )
            return False
        self._emit(kinds.STEP, {"step": number}, ADMIN)
        if self.skeleton is not None and not self._advance(self.skeleton, number):
            return False
        instruction = await self._instruction(number)
        if instruction is not None:
            await self._carry_out(number, instruction)
        if self.over:
            return False  # the end of the game has synced and closed the observers
        self.record.phase_end()
        return True

    async def _instruction(self, number: int) -> Instruction | None:
        """Ask the GM until its reply is usable; None if the game had to stop."""
        attempt = 0
        choices = self._choices()
        while True:
            reply, error = await self._call(
                self.gm_model,
                self._gm_prompt(choices),
                self.settings.gm_max_tokens,
                self.settings.gm_timeout,
                f"gm:{number}:{attempt}",
                seat=None,
                role="gm",
                schema=turn_schema(choices) if self.structured else None,
                step=number,
                attempt=attempt,
            )
            fatal = _fatal(error)
            if fatal is not None:
                self._finish(Termination.ABORTED, f"the game master's model failed: {fatal}")
                return None
            if error is not None:
                problem = f"the game master's model failed: {error}"
            else:
                assert reply is not None
                problem_or_instruction = self._read(reply.text, number, choices)
                if isinstance(problem_or_instruction, Instruction):
                    return problem_or_instruction
                problem = problem_or_instruction
            failures = self.state.failures + 1
            self._emit(
                kinds.GM_REJECTED, {"step": number, "reason": problem, "failures": failures}, ADMIN
            )
            if failures >= self.settings.max_gm_failures:
                self._finish(
                    Termination.ABORTED,
                    f"the game master gave {failures} unusable replies in a row (last: {problem})",
                    public_reason=f"the game master gave {failures} unusable replies in a row",
                )
                return None
            attempt += 1

    def _read(self, text: str, number: int, choices: TurnChoices) -> Instruction | str:
        """The instruction in a reply (a structured turn is rendered as markers first)."""
        if not self.structured:
            return self._check(parse_reply(text, bare_game_over=number > 0))
        try:
            turn = read_turn(text, turn_schema(choices))
        except ValueError as exc:
            return str(exc)
        checked = self._check(parse_reply(render_turn(turn, self.texts)))
        if isinstance(checked, str):
            return checked
        try:
            out = tuple(dict.fromkeys(resolve_name(name, choices.out) for name in turn.out))
        except UnknownPlayer as exc:
            return str(exc)
        if len(out) > choices.max_out:
            return f"at most {choices.max_out} player(s) may be announced out now"
        if checked.turn is not None and checked.turn not in choices.next_players:
            return f"{checked.turn} cannot act now; choose one of {', '.join(choices.next_players)}"
        if checked.parsed.game_over and not choices.may_end:
            return "the game cannot end yet"
        private = checked.private if choices.private is None else choices.private
        # A player announced out in this very turn does not act (unless the phase gives last
        # words): the next step picks another.
        phase = flow.current(self.skeleton, self.state) if self.skeleton else None
        last_words = phase is not None and phase.last_words
        player = None if checked.turn in out and not last_words else checked.turn
        return replace(checked, turn=player, private=private, out=out, result=turn.result)

    def _choices(self) -> TurnChoices:
        """What the GM may do at this step: anything, or (with a skeleton) what the phase allows."""
        skeleton = self.skeleton
        if skeleton is None:
            return TurnChoices.free(self.names)
        phase = flow.current(skeleton, self.state)
        assert phase is not None  # _advance has opened a phase
        # A phase opens with the news of what happened since the last one (none before the first).
        opening = self.state.opening and (self.state.round, self.state.phase) != (1, 0)
        alive = flow.living(self.state)
        return TurnChoices(
            self.names,
            flow.still_to_act(skeleton, self.state),
            phase.private,
            may_end=flow.rounds_done(skeleton, self.state) >= skeleton.min_rounds,
            out=alive if opening else (),
            max_out=phase.out if opening else 0,
        )

    def _gm_prompt(self, choices: TurnChoices) -> list[Message]:
        skeleton = self.skeleton
        reminder = self.state.last_problem
        if skeleton is None:
            return gm_messages(
                self.card,
                self.state,
                self.texts,
                self.settings.chat_window,
                reminder=reminder,
                max_chars=self.settings.chat_chars,
                structured=self.structured,
            )
        phase = flow.current(skeleton, self.state)
        assert phase is not None
        status = Status(
            phase.title(self.state.round),
            choices.next_players,
            may_out=choices.max_out > 0,
            may_end=choices.may_end,
        )
        return skeleton_gm_messages(self.card, self.state, self.texts, status, reminder=reminder)

    def _advance(self, skeleton: Skeleton, number: int) -> bool:
        """Open the next phase while nobody is left to act in this one; False if the game
        ended (the round limit, or nobody left to act at all)."""
        for _ in range(len(skeleton.phases) + 1):
            if flow.still_to_act(skeleton, self.state):
                return True
            round_number, index = flow.next_phase(skeleton, self.state)
            if skeleton.max_rounds is not None and round_number > skeleton.max_rounds:
                limit = f"round limit {skeleton.max_rounds} reached"
                self._finish(Termination.DAY_LIMIT, limit, by="limit")
                return False
            title = skeleton.phases[index].title(round_number)
            payload = {"step": number, "round": round_number, "phase": index, "name": title}
            self._emit(kinds.PHASE, payload, PUBLIC)
            self._chat("system", self.texts.phase_chat.format(phase=title), step=number)
        self._finish(Termination.DAY_LIMIT, "no player is left to act", by="limit")
        return False

    def _check(self, parsed: ParsedReply) -> Instruction | str:
        """The instruction in a parsed reply, or why it cannot be used."""
        if parsed.problems:
            return "; ".join(parsed.problems)
        if not parsed.has_instruction:
            return "no marker found"
        try:
            turn = parsed.turn
            turn_name = resolve_name(turn.name, self.names) if turn else None
            secrets = [(m, resolve_name(m.name, self.names)) for m in parsed.secrets]
        except UnknownPlayer as exc:
            return str(exc)
        private = turn is not None and turn.kind is MarkerKind.PRIVATE_TURN
        return Instruction(parsed, turn_name, private, secrets)

    async def _carry_out(self, number: int, instruction: Instruction) -> None:
        self._emit(
            kinds.GM_INSTRUCTION,
            {
                "step": number,
                "turn": instruction.turn,
                "private": instruction.private,
                "secrets": [name for _, name in instruction.secrets],
                "game_over": instruction.parsed.game_over,
                "out": list(instruction.out),
            },
            ADMIN,
        )
        recipient = {marker.start: name for marker, name in instruction.secrets}

        def notice(marker: Marker) -> str:
            return self.texts.secret_notice.format(name=recipient[marker.start])

        public = redact_secrets(instruction.parsed, notice)
        if public:
            self._chat("gm", public, step=number)
        for name in instruction.out:
            out = {"step": number, "player": name, **self._seat_of(name)}
            self._emit(kinds.OUT, out, PUBLIC)
            self._chat("system", self.texts.out_chat.format(name=name), step=number)
        for marker, name in instruction.secrets:
            self._emit(
                kinds.SECRET,
                {"step": number, "player": name, "text": marker.text},
                self._only(name),
            )
        if instruction.parsed.game_over:
            result = instruction.result
            reason = "the game master declared the game over" + (f": {result}" if result else "")
            self._finish(Termination.WIN, reason, by="gm", winner=result)
            return
        if instruction.turn is not None:
            await self._player_turn(number, instruction.turn, instruction.private)

    async def _player_turn(self, number: int, name: str, private: bool) -> None:
        seat = self.seats[self.names.index(name)]
        self._emit(kinds.TURN, {"step": number, "player": name, "private": private}, PUBLIC)
        messages = player_messages(
            self.card,
            seat,
            self.state,
            self.texts,
            self.settings.chat_window,
            private=private,
            max_chars=self.settings.chat_chars,
            task=self._task(),
        )
        reply, error = await self._call(
            self.player_models[name],
            messages,
            self.settings.player_max_tokens,
            self.settings.player_timeout,
            f"player:{name}:{number}",
            seat=self.names.index(name),
            role="player",
            step=number,
            player=name,
            private=private,
        )
        fatal = _fatal(error)
        if fatal is not None:
            self._finish(Termination.ABORTED, f"{name}'s model failed: {fatal}")
            return
        text = sanitise_player_reply(name, reply.text) if reply else ""
        if not text:
            reason = str(error) if error else "empty reply"
            self._emit(
                kinds.PLAYER_SILENT, {"step": number, "player": name, "reason": reason}, ADMIN
            )
            text = self.texts.silent
        if private:
            self._emit(
                kinds.PRIVATE_REPLY,
                {"step": number, "player": name, "text": text},
                self._only(name),
            )
            self._chat("system", self.texts.private_notice.format(name=name), step=number)
        else:
            self._chat("player", text, speaker=name, step=number, **self._seat_of(name))

    def _task(self) -> str:
        """What the current phase of the skeleton asks of the acting player, if anything."""
        phase = flow.current(self.skeleton, self.state) if self.skeleton else None
        if phase is None:
            return ""
        title = phase.title(self.state.round)
        return f"{title}: {phase.task}" if phase.task else title

    # -- helpers -------------------------------------------------------------------------

    async def _call(
        self,
        model: ChatModel,
        messages: list[Message],
        max_tokens: int,
        timeout: float,
        stream: str,
        *,
        seat: int | None,
        schema: dict[str, Any] | None = None,
        **fields: Any,
    ) -> tuple[Completion | None, LLMError | None]:
        """One model call with a hard deadline, recorded by the model as an admin ``llm_call``
        event (what the index and web read); returns (completion, None) or (None, error)."""
        seeded = model.provider.capabilities.seed
        options = CallOptions(
            max_tokens=max_tokens,
            temperature=self.settings.temperature,
            seed=derive_rng(self.settings.seed, stream).getrandbits(31) if seeded else None,
        )
        record = CallRecord(self._add, seat=seat, phase=self._phase, fields=fields, source=SOURCE)
        try:
            return await model.complete(
                messages, schema, options=options, limit=timeout, record=record
            ), None
        except LLMError as exc:  # any model failure is recorded; the game decides what next
            return None, exc

    @property
    def _phase(self) -> str:
        """The card's phase under way (``Night 1: the seer``), else ``opening`` or ``play``."""
        if self.skeleton is not None and self.state.phase >= 0:
            return self.skeleton.phases[self.state.phase].title(self.state.round)
        return "opening" if self.state.step <= 0 else "play"

    def _only(self, name: str) -> str:
        return seats_visibility([self.names.index(name)])

    def _seat_of(self, name: str) -> dict[str, int]:
        """``{"seat": n}`` for a player's name (the page puts outs and speeches on seats)."""
        return {"seat": self.names.index(name)} if name in self.names else {}

    def _emit(self, kind: str, payload: dict[str, Any], visibility: str) -> Event:
        """Record an event, dated by the card's round and phase (a phase event by the phase
        it opens), so that the page follows the GM's days and nights."""
        if kind == kinds.PHASE:
            day, phase = int(payload["round"]), str(payload["name"])
        else:
            day, phase = self.state.round, self._phase
        event = Event(kind, payload, visibility, day, phase, source=SOURCE)
        self._add(event)
        return event

    def _add(self, event: Event) -> None:
        self.record.add(event)
        self.state.apply(event)
        if self.audit is not None and event.kind != kinds.GM_AUDIT:
            for flag in self.audit.see(event):
                payload = {"step": self.state.step, "rule": flag.rule, "detail": flag.detail}
                self._emit(kinds.GM_AUDIT, payload, ADMIN)

    def _chat(
        self, role: str, text: str, *, speaker: str = "", step: int | None = None, **seat: int
    ) -> None:
        payload: dict[str, Any] = {"step": self.state.step if step is None else step}
        payload.update(role=role, speaker=speaker, text=text, **seat)
        self._emit(kinds.CHAT, payload, PUBLIC)

    def _finish(
        self,
        termination: Termination,
        reason: str,
        *,
        by: str = "coordinator",
        public_reason: str | None = None,
        winner: str | None = None,
    ) -> Outcome:
        """Record the end of the game; the detailed reason stays in the admin record."""
        if self.state.outcome is not None:
            return self.state.outcome
        if public_reason is not None:
            self._emit(kinds.STOPPED, {"step": self.state.step, "reason": reason}, ADMIN)
        outcome = Outcome(winner, termination, public_reason or reason)
        payload = {**outcome.to_dict(), "steps": self.state.step + 1, "by": by}
        self._emit(kinds.GAME_OVER, payload, PUBLIC)
        self.record.phase_end()
        self.record.game_end(outcome)
        return outcome


def _fatal(error: BaseException | None) -> BaseException | None:
    """The missing model or dependency behind ``error`` (the model layer wraps it), if any."""
    for _ in range(10):
        if error is None or isinstance(error, FATAL_MODEL_ERRORS):
            return error
        error = error.__cause__
    return None
