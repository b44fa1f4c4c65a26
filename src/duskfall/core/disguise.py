"""Registered secrets found in disguise: the matcher behind :func:`duskfall.core.redaction.redact`.

A text is *squeezed* before it is searched: NFKC (full-width letters become ASCII), lower case,
and every character that is not a letter or digit dropped (spaces, dashes, dots, underscores,
zero-width spaces and joiners, soft hyphens, bidi controls, ``%``, ``&#``...). Each secret is
searched in the squeezed text in its plain form and in the forms it can be disguised as,
squeezed the same way: reversed, hex (which ``%XX`` escapes squeeze to), HTML decimal and hex
character references, and base64 at its three alignments. Any run of :data:`WINDOW` characters
of one of these forms counts: a key without its ``sk-`` prefix, or a long piece of one, is found
too. Only secrets whose squeezed form has at least :data:`WINDOW` characters are searched in
disguise (shorter ones only as they are), so ordinary words never match.

The search costs one pass of C-speed string operations over the text (NFKC only for non-ASCII
text) and a set lookup every :data:`GRAM` characters: every run of :data:`WINDOW` characters
holds a :data:`GRAM`-gram at a position divisible by :data:`GRAM`, so those positions are the
only ones looked up. Only a hit pays for mapping the squeezed text back to the original one,
where the disguised run is masked (the whole text when the mapping cannot place it). Texts in
which ``%XX`` or HTML references mix with plain characters are also searched decoded.
"""

from __future__ import annotations

import base64
import html
import re
import unicodedata
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, field

WINDOW = 12
"""A run of this many (squeezed) characters of a secret's form is masked wherever it appears."""
GRAM = WINDOW // 2
_NOT_ALNUM = re.compile(r"[\W_]+")
_ESCAPED = re.compile(r"%[0-9A-Fa-f]{2}|&#?[0-9A-Za-z]+;")


def squeeze(text: str) -> str:
    """``text`` as the matcher reads it: NFKC, lower case, letters and digits only."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return _NOT_ALNUM.sub("", text).lower()


def disguises(secret: str) -> list[str]:
    """The squeezed forms ``secret`` is searched in: plain, reversed, hex, HTML references,
    base64 (each alignment, whole groups only: the rest depends on the bytes around it)."""
    plain = squeeze(secret)
    raw = secret.encode()
    forms = [plain, plain[::-1], raw.hex()]
    forms.append("".join(str(ord(c)) for c in secret))  # &#115;&#107;...
    forms.append("".join(f"x{ord(c):x}" for c in secret))  # &#x73;&#x6b;...
    for start in range(3):
        whole = raw[start : start + (len(raw) - start) // 3 * 3]
        forms.append(squeeze(base64.b64encode(whole).decode()))
    return [form for form in dict.fromkeys(forms) if len(form) >= WINDOW]


@dataclass(frozen=True)
class DisguiseMatcher:
    """Finds runs of registered secrets' disguised forms in a text (see the module's doc)."""

    forms: tuple[str, ...]
    grams: dict[str, tuple[tuple[int, int], ...]] = field(repr=False)

    @classmethod
    def of(cls, secrets: Iterable[str]) -> DisguiseMatcher | None:
        """The matcher of ``secrets`` (None when none is long enough to search in disguise)."""
        forms = tuple(dict.fromkeys(f for secret in secrets for f in disguises(secret)))
        if not forms:
            return None
        grams: dict[str, list[tuple[int, int]]] = {}
        for number, form in enumerate(forms):
            for offset in range(len(form) - GRAM + 1):
                grams.setdefault(form[offset : offset + GRAM], []).append((number, offset))
        return cls(forms, {gram: tuple(places) for gram, places in grams.items()})

    def hits(self, squeezed: str) -> bool:
        """Whether ``squeezed`` may hold a run of a form (a :data:`GRAM`-gram of one at a
        position divisible by :data:`GRAM`: every run of :data:`WINDOW` has one)."""
        grams = self.grams
        return any(
            squeezed[q : q + GRAM] in grams for q in range(0, len(squeezed) - GRAM + 1, GRAM)
        )

    def runs(self, squeezed: str) -> list[tuple[int, int]]:
        """The ``[start, end)`` spans of ``squeezed`` that are runs of at least :data:`WINDOW`
        characters of a form, each grown as far as the form goes, overlaps merged."""
        found: list[tuple[int, int]] = []
        end = len(squeezed)
        for q in range(0, end - GRAM + 1, GRAM):
            for number, offset in self.grams.get(squeezed[q : q + GRAM], ()):
                form = self.forms[number]
                a, b = q, offset
                while a > 0 and b > 0 and squeezed[a - 1] == form[b - 1]:
                    a, b = a - 1, b - 1
                c, d = q + GRAM, offset + GRAM
                while c < end and d < len(form) and squeezed[c] == form[d]:
                    c, d = c + 1, d + 1
                if c - a >= WINDOW:
                    found.append((a, c))
        return _merged(found)

    def mask(self, text: str, mask: str) -> str:
        """``text`` with every disguised run masked (the text itself when there is none)."""
        if self._found(squeeze(text)):
            return self._masked(text, mask)
        if _ESCAPED.search(text) and self._found(squeeze(_decoded(text))):
            return mask  # found only once decoded: the run cannot be placed, so all of it
        return text

    def _found(self, squeezed: str) -> bool:
        return self.hits(squeezed) and bool(self.runs(squeezed))

    def _masked(self, text: str, mask: str) -> str:
        chars, origin = _mapped(text)
        spans = [(origin[a], origin[c - 1] + 1) for a, c in self.runs(chars)]
        if not spans:  # the whole text's NFKC differs from its characters' one by one
            return mask
        out, last = [], 0
        for start, stop in _merged(spans):
            out += [text[last:start], mask]
            last = stop
        out.append(text[last:])
        return "".join(out)


def _decoded(text: str) -> str:
    return html.unescape(urllib.parse.unquote(text))


def _mapped(text: str) -> tuple[str, list[int]]:
    """``squeeze(text)`` character by character, with each character's index in ``text``."""
    chars: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        normal = char if char.isascii() else unicodedata.normalize("NFKC", char)
        for one in normal.lower():
            if one.isalnum():
                chars.append(one)
                origin.append(index)
    return "".join(chars), origin


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, stop in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(stop, merged[-1][1]))
        else:
            merged.append((start, stop))
    return merged
