"""The prompts of GM mode: what the game master reads, and what each player reads.

A player's prompt is built here and only here, from the public chat and that player's own
secrets; nothing else about the game reaches it.
"""

from __future__ import annotations

from collections.abc import Sequence

from duskfall.gm.cards import Card, PlayerSpec
from duskfall.gm.chat import render_chat
from duskfall.gm.state import GMState, Note
from duskfall.gm.texts import Texts
from duskfall.llm.types import Message

NOTEBOOK_WINDOW = 60


def _notebook(notes: Sequence[Note], texts: Texts) -> str:
    lines = [
        (texts.sent_entry if note.direction == "sent" else texts.received_entry).format(
            name=note.player, text=note.text
        )
        for note in list(notes)[-NOTEBOOK_WINDOW:]
    ]
    return "\n".join(lines) if lines else texts.no_secrets


def gm_messages(
    card: Card,
    state: GMState,
    texts: Texts,
    window: int,
    *,
    reminder: str | None,
    max_chars: int | None = None,
) -> list[Message]:
    """The game master's prompt: its card and the markers, its notebook, the public chat."""
    players = texts.joiner.join(state.players)
    guide = texts.marker_guide.format(
        players=players, first=state.players[0], second=state.players[1]
    )
    system = f"{card.gm_rules.strip()}\n\n{guide}"
    trigger = texts.opening_trigger if state.step <= 0 else texts.next_trigger
    parts = [
        texts.notebook_header,
        _notebook(state.notes, texts),
        "",
        texts.chat_header.format(window=window),
        render_chat(state.chat, texts, window, for_player=False, max_chars=max_chars),
        "",
    ]
    if reminder:
        parts += [texts.reminder.format(reason=reminder, players=players), ""]
    parts.append(trigger)
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n".join(parts)}]


def _own_secrets(notes: Sequence[Note], texts: Texts) -> str:
    lines = [
        f"- {note.text}"
        if note.direction == "sent"
        else f"- {texts.own_private_reply.format(text=note.text)}"
        for note in notes
    ]
    return "\n".join(lines) if lines else texts.no_secrets


def player_messages(
    card: Card,
    seat: PlayerSpec,
    state: GMState,
    texts: Texts,
    window: int,
    *,
    private: bool,
    max_chars: int | None = None,
) -> list[Message]:
    """One player's prompt: persona, the public chat (markers neutralised), its own secrets."""
    system = texts.player_system.format(
        name=seat.name, persona=seat.persona or "-", rules=card.player_rules.strip() or "-"
    )
    turn = texts.private_turn if private else texts.public_turn
    user = "\n".join(
        [
            texts.chat_header.format(window=window),
            render_chat(state.chat, texts, window, for_player=True, max_chars=max_chars),
            "",
            texts.secrets_header,
            _own_secrets(state.secrets_of(seat.name), texts),
            "",
            turn.format(name=seat.name),
        ]
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]
