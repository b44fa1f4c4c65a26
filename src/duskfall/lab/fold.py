"""Speech as the leak reader reads it: words folded to one spelling, each with where it stands.

:func:`fold` lower-cases a word, drops its accents (``tué`` -> ``tue``, ``wölfe`` ->
``woelfe``: a German umlaut is its two letters, so ``hätte`` stays apart from ``hatte``),
reads ``ß`` as ``ss`` and shortens a letter said three times or more to two
(``wooolf`` -> ``woolf``, ``elenaaa`` -> ``elenaa``; a :class:`Spelling` then reads a
one-letter slip as the word it misses). :func:`tokens` splits a speech into such words and
punctuation marks, each with its span in the speech (the reader quotes the speaker's own
words), and splits elisions and contractions as the lexicon writes them: ``j'ai`` -> ``j'``
``ai``, ``qu'elena`` -> ``qu'`` ``elena``, ``don't`` -> ``do`` ``n't``, ``I'm`` -> ``i``
``'m``, ``Elena's`` -> ``elena`` ``'s``; the apostrophe-less forms of chat (``im``,
``dont``, ``isnt``) are read as the forms with one. A hyphen is a space (``loup-garou``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

_TOKEN = re.compile(r"[^\W_]+(?:['’`´][^\W_]+)*['’]?|#\d+|[^\w\s-]")
_REPEATS = re.compile(r"([^\W\d_])\1\1+")
_DOUBLES = re.compile(r"([^\W\d_])\1")
_UMLAUTS = (("ß", "ss"), ("ä", "ae"), ("ö", "oe"), ("ü", "ue"))
ELISIONS = frozenset({"l", "d", "j", "c", "qu", "n", "s", "t", "m", "jusqu", "lorsqu", "puisqu"})
SUFFIXES = frozenset({"m", "s", "re", "ve", "ll", "d"})
# chat spellings without their apostrophe: what the lexicon writes for them
BARE = {
    "im": ("i", "'m"), "ive": ("i", "'ve"), "ill": ("i", "'ll"), "id": ("i", "'d"),
    "dont": ("do", "n't"), "doesnt": ("does", "n't"), "didnt": ("did", "n't"),
    "isnt": ("is", "n't"), "wasnt": ("was", "n't"), "arent": ("are", "n't"),
    "werent": ("were", "n't"), "cant": ("ca", "n't"), "wont": ("wo", "n't"),
    "wouldnt": ("would", "n't"), "shouldnt": ("should", "n't"), "couldnt": ("could", "n't"),
    "havent": ("have", "n't"), "hasnt": ("has", "n't"), "aint": ("ai", "n't"),
    "youre": ("you", "'re"), "theyre": ("they", "'re"), "were'": ("we", "'re"),
    "shes": ("she", "'s"), "hes": ("he", "'s"), "its": ("it", "'s"), "thats": ("that", "'s"),
    "whos": ("who", "'s"), "lets": ("let", "'s"), "shouldve": ("should", "'ve"),
    "wouldve": ("would", "'ve"), "couldve": ("could", "'ve"), "ud": ("you", "'d"),
    "u": ("you",), "ur": ("your",), "n": ("and",), "thru": ("through",), "nite": ("night",),
    "tonite": ("tonight",), "imma": ("i", "'m", "going", "to"), "gonna": ("going", "to"),
    "jsuis": ("je", "suis"), "chui": ("je", "suis"), "jdois": ("je", "dois"),
    "c": ("c'", "est"), "q": ("que",), "xq": ("porque",), "pk": ("pourquoi",),
    "bins": ("bin", "es"), "nich": ("nicht",), "nix": ("nichts",), "waer": ("wäre",),
    "haett": ("hätte",), "wuerd": ("würde",), "dus": ("du", "es"), "ichs": ("ich", "es"),
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Token:
    """One folded word (or mark) and its span in the speech."""

    word: str
    start: int
    end: int


@lru_cache(maxsize=65536)
def fold(word: str) -> str:
    """``word`` in lower case, without accents (umlauts as ``ae``, ``oe``, ``ue``; ``ß`` as
    ``ss``), ’ as ', long repeats cut."""
    lowered = word.lower().replace("’", "'").replace("`", "'").replace("´", "'")
    for umlaut, spelt in _UMLAUTS:
        lowered = lowered.replace(umlaut, spelt)
    bare = "".join(
        c for c in unicodedata.normalize("NFKD", lowered) if not unicodedata.combining(c)
    )
    return _REPEATS.sub(r"\1\1", bare)


@lru_cache(maxsize=65536)
def _split(word: str) -> tuple[str, ...]:
    """A folded word as the lexicon writes it (module docstring)."""
    if word in BARE:
        return tuple(fold(part) for part in BARE[word])
    if word.endswith("'") and word[:-1] in ELISIONS:
        return (word,)
    if "'" not in word.strip("'"):
        return (word.strip("'"),) if word.strip("'") else ()
    head, _, rest = word.partition("'")
    if rest == "t" and head.endswith("n"):
        return (head[:-1], "n't") if head[:-1] else ("n't",)
    if head in ELISIONS and rest:
        return (f"{head}'", *_split(rest))
    if rest in SUFFIXES:
        return (head, f"'{rest}")
    return (word,)


def tokens(text: str) -> list[Token]:
    """The folded words and marks of ``text`` (module docstring)."""
    out = []
    for found in _TOKEN.finditer(text):
        start, end = found.span()
        for part in _split(fold(found.group(0))):
            out.append(Token(part, start, end))
    return out


@lru_cache(maxsize=65536)
def phrase(entry: str) -> tuple[str, ...]:
    """A lexicon entry as the words :func:`tokens` gives for it (``'ll``, ``'s``: the
    second half of a contraction, as :func:`tokens` splits it)."""
    if entry.startswith("'") and " " not in entry:
        return (fold(entry),)
    return tuple(t.word for t in tokens(entry))


class Phrases:
    """A set of lexicon entries, matched on folded words (the longest first)."""

    def __init__(self, entries: Iterable[str]) -> None:
        self.first: dict[str, list[tuple[str, ...]]] = {}
        for entry in entries:
            words = phrase(entry)
            if words:
                self.first.setdefault(words[0], []).append(words)
        for found in self.first.values():
            found.sort(key=len, reverse=True)

    def at(self, words: list[str], i: int) -> int:
        """How many words of an entry start at ``words[i]`` (0: none)."""
        for entry in self.first.get(words[i], ()):
            if tuple(words[i : i + len(entry)]) == entry:
                return len(entry)
        return 0

    def find(self, words: list[str], lo: int, hi: int) -> int:
        """The first index in ``lo..hi`` where an entry starts, or -1."""
        for i in range(max(lo, 0), min(hi, len(words))):
            if words[i] in self.first and self.at(words, i):
                return i
        return -1

    def __contains__(self, word: str) -> bool:
        return (word,) in self.first.get(word, ())


class Spelling:
    """Reads a word one letter away from a known word of five letters or more as that word:
    a letter too many or too few (``werewollf``, ``elenaa``, ``inspeced``), or, in a word of
    seven letters or more, one letter changed or two swapped (``investigatd``); a known
    word, or an ``exempt`` one (every cue word of the reader), is read as itself."""

    def __init__(self, known: Iterable[str], exempt: Iterable[str] = ()) -> None:
        targets = frozenset(known)
        self.known = targets | frozenset(exempt)
        self.targets = targets
        self.near: dict[str, str] = {}
        for word in sorted(targets):
            if len(word) >= 5 and word.isalpha():
                for variant in _deletions(word):
                    self.near.setdefault(variant, word)
        self._memo: dict[str, str] = {}

    def __call__(self, word: str) -> str:
        found = self._memo.get(word)
        if found is None:
            found = word
            single = _DOUBLES.sub(r"\1", word)
            if word not in self.known and single in self.targets:
                found = single  # a letter said twice: "loooup", "wolff"
            elif word not in self.known and len(word) >= 5 and word.isalpha():
                for variant in (word, *_deletions(word)):
                    if variant in self.targets and len(variant) >= 5:
                        found = variant  # a letter too many
                        break
                    near = self.near.get(variant)
                    if near is None:
                        continue
                    if variant == word or (len(word) >= 7 and len(near) == len(word)):
                        found = near  # a letter too few, or (long words) one changed
                        break
            self._memo[word] = found
        return found


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def known_words(*tables: Iterable[str] | Mapping[str, object]) -> set[str]:
    """Every single word of the entries of ``tables``."""
    return {word for table in tables for entry in table for word in phrase(entry)}
