"""The prompts of GM mode: what the game master reads, and what each player reads.

A player's prompt is built here and only here, from the public chat and that player's own
secrets; nothing else about the game reaches it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from duskfall.gm.cards import Card, PlayerSpec
from duskfall.gm.chat import render_chat
from duskfall.gm.state import GMState, Note
from duskfall.gm.texts import Texts
from duskfall.llm.types import Message

NOTEBOOK_WINDOW = 60
SKELETON_WINDOW = 8  # chat lines a skeleton prompt shows
SKELETON_CHARS = 1200
PRIVATE_WINDOW = 3  # private answers a skeleton prompt shows


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
    structured: bool = False,
) -> list[Message]:
    """The game master's prompt: its card and the markers (or the JSON reply format), its
    notebook, the public chat."""
    players = texts.joiner.join(state.players)
    guide = (texts.json_guide if structured else texts.marker_guide).format(
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
        template = texts.json_reminder if structured else texts.reminder
        parts += [template.format(reason=reminder, players=players), ""]
    parts.append(trigger)
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n".join(parts)}]


@dataclass(frozen=True, slots=True)
class Status:
    """Where a game with a skeleton stands: what the GM is told at each step."""

    phase: str
    to_act: Sequence[str]
    may_out: bool
    may_end: bool


def skeleton_gm_messages(
    card: Card,
    state: GMState,
    texts: Texts,
    status: Status,
    *,
    reminder: str | None,
) -> list[Message]:
    """A short prompt for a game whose frame duskfall runs (a card with a skeleton): the
    roles, who is out, the phase, who is still to act and the latest events, so that even a
    small model only narrates and picks the next player."""
    roles = texts.joiner.join(
        texts.role_entry.format(name=name, role=role) for name, role in state.roles.items()
    )
    received = [note for note in state.notes if note.direction == "received"]
    answers = [
        texts.received_entry.format(name=note.player, text=note.text)
        for note in received[-PRIVATE_WINDOW:]
    ]
    parts = [
        texts.roles_line.format(roles=roles),
        texts.out_line.format(names=texts.joiner.join(state.out) or texts.none),
        texts.phase_line.format(phase=status.phase),
        texts.to_act_line.format(names=texts.joiner.join(status.to_act) or texts.none),
        "",
        texts.happened_header,
        render_chat(state.chat, texts, SKELETON_WINDOW, for_player=False, max_chars=SKELETON_CHARS),
    ]
    if answers:
        parts += ["", texts.private_header, *answers]
    parts.append("")
    if reminder:
        parts.append(texts.json_reminder.format(reason=reminder, players=""))
    parts.append(texts.skeleton_trigger)
    if status.may_out:
        parts.append(texts.out_hint)
    if status.may_end:
        parts.append(texts.end_hint)
    system = texts.brief.format(title=card.title, summary=card.summary)
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
    task: str = "",
) -> list[Message]:
    """One player's prompt: persona, the public chat (markers neutralised), its own secrets,
    and (in a game with a skeleton) what the current phase asks of it."""
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
            *([texts.task_line.format(task=task)] if task else []),
        ]
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]
