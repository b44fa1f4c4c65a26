"""Text from outside cut to a bounded size before it is kept or shown.

A participant chooses how long its answers and the errors they cause are (a client once sent a
``type`` of a million characters): :func:`capped` keeps the head of such a text and says how long
it was; :func:`one_line` also shows line breaks and other control characters escaped, so that a
field printed on a terminal stays one short line.
"""

from __future__ import annotations

CLIENT_TEXT = 200  # characters kept of a text a client's frame caused (an ERROR's detail)
ERROR_TEXT = 500  # characters kept of any error text recorded in a game's log


def capped(text: str, limit: int = CLIENT_TEXT) -> str:
    """``text`` if it has at most ``limit`` characters, else its head and its length."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} chars)"


def one_line(text: str, limit: int = CLIENT_TEXT) -> str:
    """:func:`capped`, with every character that is not printable (line breaks, escapes, zero
    widths, bidi controls) written as its Python escape."""
    head = capped(text, limit)
    if head.isprintable():
        return head
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in head)
