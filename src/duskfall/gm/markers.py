"""The game master's markers: parse them out of a free-text reply, and neutralise them.

A GM reply is free text with markers in lenticular or square brackets:

* ``【轮到：NAME】`` / ``[TURN: NAME]``: NAME speaks next in public;
* ``【私密轮到：NAME】`` / ``[PRIVATE TURN: NAME]``: NAME answers the GM in private;
* ``【秘密指示：NAME｜TEXT】`` / ``[SECRET: NAME | TEXT]``: TEXT goes to NAME only;
* ``游戏结束`` / ``GAME OVER`` (bare or bracketed): the game has ended.

Colons and pipes may be full-width or ASCII; English keywords ignore case. Only the first
turn marker (public or private) counts. Brackets nest inside a marker, so a secret's text may
itself contain brackets; a marker that never closes is reported as a problem (the whole reply
is then refused, so no part of a secret can reach the public chat).

Secrets fail safe: a bracket that starts like a secret (``[SECRETBob|...]``, ``[Secretly]``)
is read as a secret marker, and secret-looking text outside a proper marker (``SECRET: Bob |
...`` without brackets) is a problem, so a sloppy secret is refused rather than published.
Square brackets may also be full-width (``［］``).

A bare game-over phrase counts only when the reply has no turn and no secret marker, and
never in the opening reply (so that an opening that explains "the game ends when ..." does not
end it); the bracketed form always counts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

OPENERS = "【[［"
CLOSERS = "】]］"
COLONS = ":："
PIPES = "|｜"


class MarkerKind(StrEnum):
    """What a marker asks for."""

    TURN = "turn"
    PRIVATE_TURN = "private_turn"
    SECRET = "secret"
    GAME_OVER = "game_over"


# Longest keywords first so that "PRIVATE TURN" is not read as something shorter.
_KEYWORDS: tuple[tuple[str, MarkerKind], ...] = (
    ("私密轮到", MarkerKind.PRIVATE_TURN),
    ("private turn", MarkerKind.PRIVATE_TURN),
    ("private_turn", MarkerKind.PRIVATE_TURN),
    ("private-turn", MarkerKind.PRIVATE_TURN),
    ("秘密指示", MarkerKind.SECRET),
    ("秘密", MarkerKind.SECRET),
    ("secret", MarkerKind.SECRET),
    ("轮到", MarkerKind.TURN),
    ("turn", MarkerKind.TURN),
    ("游戏结束", MarkerKind.GAME_OVER),
    ("game over", MarkerKind.GAME_OVER),
    ("game_over", MarkerKind.GAME_OVER),
)

_BARE_GAME_OVER = re.compile(r"游戏结束|\bgame\s*over\b", re.IGNORECASE)
# A secret written without its brackets would be published: such a reply is refused.
_BARE_SECRET = re.compile(
    r"(?:secret|秘密)[^\n|｜]{0,60}[|｜]"  # "secret" and then a pipe on the same line
    r"|秘密指示\s*[:：]"  # the Chinese keyword with its colon
    r"|\bsecret(?:\s+(?:instruction|message))?\s*[:：]",  # the English keyword with a colon
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Marker:
    """One marker found in a reply: ``text[start:end]`` is the whole bracketed marker."""

    kind: MarkerKind
    name: str
    text: str
    start: int
    end: int


@dataclass(slots=True)
class ParsedReply:
    """What a GM reply asks for. ``problems`` lists malformed markers (name only, no text)."""

    raw: str
    markers: list[Marker] = field(default_factory=list)
    game_over: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def turn(self) -> Marker | None:
        """The first turn marker, public or private; later ones are ignored."""
        for marker in self.markers:
            if marker.kind in (MarkerKind.TURN, MarkerKind.PRIVATE_TURN):
                return marker
        return None

    @property
    def secrets(self) -> list[Marker]:
        return [m for m in self.markers if m.kind is MarkerKind.SECRET]

    @property
    def has_instruction(self) -> bool:
        return self.turn is not None or bool(self.secrets) or self.game_over


def _match_keyword(text: str, pos: int) -> tuple[MarkerKind, int] | None:
    """The keyword starting at ``pos`` (after optional spaces) and where it ends."""
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    for keyword, kind in _KEYWORDS:
        end = pos + len(keyword)
        if text[pos:end].casefold() != keyword:
            continue
        following = text[end : end + 1]
        # "[TURNIP]" is no marker: an ASCII keyword must not run into more letters. Secrets
        # are the exception: "[SECRETBob|...]" or "[Secretly ...]" is read as a (possibly
        # malformed) secret, so that nothing secret-looking is ever published by mistake.
        runs_on = following.isalnum() or following == "_"
        if keyword.isascii() and runs_on and kind is not MarkerKind.SECRET:
            continue
        return kind, end
    return None


def _closing(text: str, start: int) -> int | None:
    """Index of the bracket closing the one at ``start``, counting nested brackets."""
    depth = 0
    for index in range(start, len(text)):
        char = text[index]
        if char in OPENERS:
            depth += 1
        elif char in CLOSERS:
            depth -= 1
            if depth == 0:
                return index
    return None


def _strip_colon(body: str) -> str:
    body = body.strip()
    if body[:1] in COLONS:
        body = body[1:]
    return body.strip()


def _name_part(text: str) -> str:
    """The name in a marker's name part: after any label ("INSTRUCTION: Bob" -> "Bob")."""
    for colon in COLONS:
        text = text.rpartition(colon)[2]
    return text.strip()


def _marker(kind: MarkerKind, body: str, start: int, end: int) -> Marker | str:
    """Build a marker from its body, or return the problem with it."""
    body = _strip_colon(body)
    if kind is MarkerKind.GAME_OVER:
        return Marker(kind, "", body, start, end)
    if kind is MarkerKind.SECRET:
        cut = min((body.find(p) for p in PIPES if p in body), default=-1)
        if cut < 0:
            return "a secret marker has no '|' between the player's name and the message"
        name, message = _name_part(body[:cut]), body[cut + 1 :].strip()
        if not name:
            return "a secret marker has no player name before the '|'"
        if not message:
            return f"the secret marker for {name!r} has an empty message"
        return Marker(kind, name, message, start, end)
    name = _name_part(body)
    if not name:
        return "a turn marker has no player name"
    return Marker(kind, name, "", start, end)


def find_markers(text: str) -> tuple[list[Marker], list[str], list[tuple[int, int]]]:
    """All well-formed markers, the problems found, and the spans of every marker-shaped text.

    Spans cover malformed-but-closed markers too, so callers can neutralise them.
    """
    markers: list[Marker] = []
    problems: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    while pos < len(text):
        if text[pos] not in OPENERS:
            pos += 1
            continue
        keyword = _match_keyword(text, pos + 1)
        if keyword is None:
            pos += 1
            continue
        kind, body_start = keyword
        close = _closing(text, pos)
        if close is None:
            label = "secret" if kind is MarkerKind.SECRET else kind.value.replace("_", " ")
            problems.append(f"a {label} marker is never closed with '】' or ']'")
            spans.append((pos, len(text)))
            break
        built = _marker(kind, text[body_start:close], pos, close + 1)
        if isinstance(built, Marker):
            markers.append(built)
        else:
            problems.append(built)
        spans.append((pos, close + 1))
        pos = close + 1
    return markers, problems, spans


def parse_reply(text: str, *, bare_game_over: bool = True) -> ParsedReply:
    """Parse a GM reply; see the module docstring for the rules.

    ``bare_game_over=False`` ignores the bare game-over phrase (used for the opening reply,
    which explains how the game ends far more often than it ends it).
    """
    markers, problems, spans = find_markers(text)
    parsed = ParsedReply(text, markers, problems=problems)
    outside = _remove_spans(text, spans, lambda _span: " ")
    if _BARE_SECRET.search(outside):
        parsed.problems.append("a secret instruction is written without its 【】 or [] brackets")
    if any(m.kind is MarkerKind.GAME_OVER for m in markers):
        parsed.game_over = True
    elif bare_game_over and parsed.turn is None and not parsed.secrets:
        parsed.game_over = _BARE_GAME_OVER.search(outside) is not None
    return parsed


def _remove_spans(
    text: str, spans: list[tuple[int, int]], replace: Callable[[tuple[int, int]], str]
) -> str:
    pieces: list[str] = []
    last = 0
    for span in sorted(spans):
        pieces.append(text[last : span[0]])
        pieces.append(replace(span))
        last = span[1]
    pieces.append(text[last:])
    return "".join(pieces)


def redact_secrets(parsed: ParsedReply, notice: Callable[[Marker], str]) -> str:
    """The reply's public text: each secret marker replaced by ``notice(marker)``."""
    by_span = {(m.start, m.end): m for m in parsed.secrets}
    spans = list(by_span)
    return _remove_spans(parsed.raw, spans, lambda span: notice(by_span[span])).strip()


def neutralise(text: str) -> str:
    """Make every marker in ``text`` inert: its brackets become parentheses.

    Used on the chat shown to players, so that nothing they read looks like an instruction.
    """
    _markers, _problems, spans = find_markers(text)
    if not spans:
        return text
    chars = list(text)
    for start, end in spans:
        for index in range(start, end):
            if chars[index] in OPENERS:
                chars[index] = "("
            elif chars[index] in CLOSERS:
                chars[index] = ")"
    return "".join(chars)
