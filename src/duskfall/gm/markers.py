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

The parser reads every character as its Unicode compatibility form (NFKC, character by
character): ``﹇SECRET︰Bob︱...﹈`` or full-width ``ＴＵＲＮ`` are markers as their plain forms
are. Only the game master's own reply is parsed; text that others wrote (a player's chat or
private answer, a structured turn's narration) is made inert first (:func:`inert`: normalised
with NFKC, every bracket, pipe, keyword-colon and game-over phrase broken), so that quoting it
can never forge a marker.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

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

_BARE_GAME_OVER = re.compile(r"游戏结束|\bgame[\s_]*over\b", re.IGNORECASE)
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


@lru_cache(maxsize=4096)
def _folded_char(char: str) -> str:
    """``char`` in its compatibility form when that is one character, else itself."""
    folded = unicodedata.normalize("NFKC", char)
    return folded if len(folded) == 1 else char


def fold(text: str) -> str:
    """``text`` as the parser reads it: each character's NFKC form (same length, same indexes)."""
    if text.isascii():
        return text
    return "".join(map(_folded_char, text))


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


class _Body:
    """A marker's body as read (folded) beside its original text: same indexes in both."""

    __slots__ = ("original", "read")

    def __init__(self, original: str, read: str) -> None:
        self.original, self.read = original, read

    def strip(self, start: int, end: int) -> tuple[int, int]:
        while start < end and self.read[start].isspace():
            start += 1
        while end > start and self.read[end - 1].isspace():
            end -= 1
        return start, end

    def after_colon(self, start: int, end: int) -> tuple[int, int]:
        """The part after a leading colon (if any), stripped."""
        start, end = self.strip(start, end)
        if start < end and self.read[start] in COLONS:
            start += 1
        return self.strip(start, end)

    def name(self, start: int, end: int) -> str:
        """The name in a marker's name part: after any label ("INSTRUCTION: Bob" -> "Bob")."""
        last_colon = max(self.read.rfind(colon, start, end) for colon in COLONS)
        start, end = self.strip(max(start, last_colon + 1), end)
        return self.original[start:end]


def _marker(kind: MarkerKind, body: _Body, start: int, end: int) -> Marker | str:
    """Build a marker from its body, or return the problem with it."""
    first, last = body.after_colon(0, len(body.read))
    if kind is MarkerKind.GAME_OVER:
        return Marker(kind, "", body.original[first:last], start, end)
    if kind is MarkerKind.SECRET:
        cuts = [i for i in (body.read.find(p, first, last) for p in PIPES) if i >= 0]
        if not cuts:
            return "a secret marker has no '|' between the player's name and the message"
        cut = min(cuts)
        name = body.name(first, cut)
        message = body.original[slice(*body.strip(cut + 1, last))]
        if not name:
            return "a secret marker has no player name before the '|'"
        if not message:
            return f"the secret marker for {name!r} has an empty message"
        return Marker(kind, name, message, start, end)
    name = body.name(first, last)
    if not name:
        return "a turn marker has no player name"
    return Marker(kind, name, "", start, end)


def find_markers(text: str) -> tuple[list[Marker], list[str], list[tuple[int, int]]]:
    """All well-formed markers, the problems found, and the spans of every marker-shaped text.

    Spans cover malformed-but-closed markers too, so callers can neutralise them. Characters
    are read in their compatibility form (:func:`fold`); names and texts keep their own.
    """
    markers: list[Marker] = []
    problems: list[str] = []
    spans: list[tuple[int, int]] = []
    read = fold(text)
    pos = 0
    while pos < len(read):
        if read[pos] not in OPENERS:
            pos += 1
            continue
        keyword = _match_keyword(read, pos + 1)
        if keyword is None:
            pos += 1
            continue
        kind, body_start = keyword
        close = _closing(read, pos)
        if close is None:
            label = "secret" if kind is MarkerKind.SECRET else kind.value.replace("_", " ")
            problems.append(f"a {label} marker is never closed with '】' or ']'")
            spans.append((pos, len(read)))
            break
        body = _Body(text[body_start:close], read[body_start:close])
        built = _marker(kind, body, pos, close + 1)
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
    outside = _remove_spans(fold(text), spans, lambda _span: " ")
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
    chars, read = list(text), fold(text)
    for start, end in spans:
        for index in range(start, end):
            if read[index] in OPENERS:
                chars[index] = "("
            elif read[index] in CLOSERS:
                chars[index] = ")"
    return "".join(chars)


_INERT = str.maketrans({**dict.fromkeys(OPENERS, "("), **dict.fromkeys(CLOSERS, ")")})
_INERT_PIPES = str.maketrans(dict.fromkeys(PIPES, "/"))
# A keyword and a colon would read as a secret written without its brackets.
_KEYWORD_COLON = re.compile(
    r"(秘密指示|秘密|secret(?:\s+(?:instruction|message))?)\s*[:：]", re.IGNORECASE
)
_GAME_OVER_WORDS = re.compile(r"(游戏)(结束)|\b(game)[\s_]*(over)\b", re.IGNORECASE)


def inert(text: str) -> str:
    """``text`` that no parse can read a marker in, however it is quoted: normalised (NFKC),
    every bracket the parser knows turned into a parenthesis, every pipe into ``/``, a
    keyword's colon into `` -`` and a game-over phrase broken with a middle dot
    (``game·over``). Used on everything a game master may quote but did not write."""
    text = unicodedata.normalize("NFKC", text).translate(_INERT).translate(_INERT_PIPES)
    text = _KEYWORD_COLON.sub(lambda m: f"{m.group(1)} -", text)
    return _GAME_OVER_WORDS.sub(lambda m: "·".join(g for g in m.groups() if g), text)
