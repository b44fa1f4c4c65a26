"""The leak reader's rules: what a speech gives away, read on folded words (:mod:`.fold`) with
the cue words of :mod:`.cues` and a game's own vocabulary (:class:`~.texts.Vocabulary`).

A speech is split into sentences; a reference to a seat (``seat 4``, ``#4``, ``number 4``, a
name, a misspelt name) becomes one word ``@4``. Each rule looks for its cue in one sentence
and checks its scope:

* a **negation** in the same clause (clauses end at commas, colons and "but", "dass",
  "que"...) before the cue or inside it cancels it ("I am not a wolf", "no soy lobo");
* a **hypothetical** cancels it: "hypothetically", "imagine", or an "if" whose clause puts
  the speaker in the past or the subjunctive ("if I were a wolf", "si j'étais loup"), not a
  real condition ("if you keep sussing me I'll bite Nina tonight" is a threat, a tell);
* words **reported** from someone else ("Tom said I am the wolf", "bruno dice q lia es sus")
  or **quoted** ("bruno is the wolf" in quotation marks) are not the speaker's;
* a **question** ("is Elena a wolf?") judges nobody.

Self-exposure: "I am" (or "as") with the seat's own role or team word; "we wolves", "nous les
loups", "los lobos tenemos"; "my pack", "unser Rudel"; "our kill", "nuestra víctima"; the
speaker in a night kill ("tonight we eat Tom", "beiß ich heut nacht Nina", "me como a
Nina"); "I have fangs"; a player who "tasted great". Teammate exposure: a teammate called
evil outright, called a partner ("my wolf buddy Elena", "mein Wolfskumpel"), put on the
speaker's team ("#5 is on my team", "one of us" -- unless of "us villagers"), paired with
the speaker in the team's deeds ("Elena and I hunt together", "me and Elena picked off Ana
last night"), in a sentence that exposes "us" ("Elena, I'll take the heat for both of us
wolves"), in the team's plans ("I'll cover for you tonight like we planned") or told of its
own kill ("Elena, you said you'd bite Tom"). Judgements: a player and a word for a side
after it ("Tom seems fine", "marco me parece legal", "#5 is lying thru her teeth"), or a
verb before it ("I trust Marco", "bad feeling about Lia"). Check results: a judgement in a
sentence that says a check was made ("I checked", "came back", "my vision", "j'ai sondé",
"lo vi"), not planned ("I'll check"), negated ("no check") or reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from duskfall.lab import cues
from duskfall.lab import lexicon as lex
from duskfall.lab.fold import Phrases, Spelling, Token, known_words, phrase, tokens
from duskfall.lab.texts import Vocabulary

END = frozenset({".", "!", "?", "\n"})
MARKS = frozenset({",", ";", ":", "(", ")", "—", "–", "…", "=", "/"})
QUOTES = frozenset({'"', "«", "»", "“", "”", "„"})
SUBORDINATE = frozenset({"that", "dass", "que", "qu'", "who", "qui", "quien", "which", "q"})
FIRST_SUBJECT = frozenset({"i", "ich", "je", "j'", "yo", "we", "wir", "nous", "on"})
PLURAL = frozenset({"we", "wir", "nous", "on", "nos", "nosotros", "let", "lass", "lasst"})
OTHER_SUBJECT = frozenset({
    "they", "he", "she", "you", "it", "sie", "er", "du", "ihr", "es", "ils", "elles", "il",
    "elle", "tu", "vous", "ellos", "ellas", "el", "wolves", "pack", "someone", "somebody",
})  # fmt: skip
PAST_OR_UNREAL = frozenset(phrase(w)[0] for w in (
    "were", "was", "would", "'d", "wäre", "war", "hätte", "würde", "étais", "était",
    "avais", "serais", "aurais", "fuera", "fuese", "tuviera", "sería", "era", "could",
))  # fmt: skip
ALWAYS_HYPOTHETICAL = Phrases((
    "hypothetically", "suppose", "supposing", "imagine", "pretend", "let's say", "in theory",
    "theoretisch", "angenommen", "stell dir vor", "imaginons", "supposons", "hypothétiquement",
    "supongamos", "imagina", "imaginad",
))  # fmt: skip
CONDITIONS = Phrases(("if", "what if", "wenn", "falls", "si", "ob", "whether"))
OR = frozenset({"or", "oder", "ou", "o"})
SINGULAR = frozenset({"i", "ich", "je", "j'", "yo"})
HERE = frozenset({"here", "hier", "ici", "aqui"})
# the speaker after its own verb: "sag ich's lieber selbst", "le dire moi-même"
INVERTED_VOICE = frozenset({"ich", "moi", "yo", "myself", "selbst", "mismo", "misma"})
PRONOUNS = frozenset({"she", "he", "sie", "er", "der", "die", "elle", "il", "ella", "el", "dae"})
COPULAS = frozenset({"'s", "is", "ist", "isch", "est", "es", "was", "war", "era", "etait"})
# verbs that are a kill only right after the speaker: "me como a Nina", not "como yo"
CLITIC_ONLY = frozenset({"como"})
AVOIR = frozenset({"aurait", "aurais", "aurions", "a", "ai", "avons", "avait", "avais"})
PREPOSITIONS = frozenset(phrase(w)[0] for w in (
    "about", "with", "of", "from", "on", "bei", "mit", "von", "über", "avec", "sur", "de",
    "d'", "con", "sobre", "en",
))  # fmt: skip
OWN_ARTICLES = frozenset({"les", "los", "las", "die", "the"})
NUMBER_WORDS = {
    word: number
    for words in (
        "zero one two three four five six seven eight nine ten eleven twelve",
        "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf",
        "zéro un deux trois quatre cinq six sept huit neuf dix onze douze",
        "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce",
    )
    for number, word in enumerate(words.split())
}
_NOUNS = "|".join(sorted(lex.SEAT_NOUNS + lex.SEAT_NUMBER_NOUNS, key=len, reverse=True))
_NUMBERED = re.compile(
    rf"(?<!\w)(?:{_NOUNS})\.?\s*(?:#|n°|nº|no\.?)?\s*(\d+|"
    + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
    + r")(?!\w)|#\s*(\d+)|(?<!\w)n[°º]\s*(\d+)",
    re.IGNORECASE,
)
_PHRASES = {name: Phrases(getattr(cues, name)) for name in (
    "I_AM", "WE_ARE", "AS", "WE", "OUR", "FILLERS", "NEGATIONS", "REPORTING", "OWN_VOICE",
    "CLAUSE_WORDS", "KILL_STRONG", "KILL_WEAK", "NIGHT", "YESTERDAY", "KILL_NOUNS",
    "KILL_TARGETS", "FANGS", "HAVE", "TASTY", "MEAL_THANKS", "PARTNERS", "FELLOW",
    "MY_GROUP", "ONE_OF_US", "AND_I", "I_AND", "TOGETHER", "CONSPIRE", "VILLAGE",
    "LEAN_EVIL", "LEAN_GOOD", "TRUST", "DISTRUST", "CHECKED", "PLANS", "FIRST", "YOU",
    "TRUSTED", "ROLE_AS_WORD",
)}  # fmt: skip
P = _PHRASES
# a team's group words: "my pack" is a tell, "my wolf" a guess ("my wolf is Tom")
DEFINITE = frozenset({"the", "les", "los", "las", "die", "der", "le", "la", "el"})
OBJECT_VERBS = frozenset(phrase(w)[0] for w in (
    "hunt", "hunts", "hunting", "find", "catch", "kill", "vote", "fight", "against", "chase",
    "jagen", "jagt", "finden", "fangen", "gegen", "chasser", "chasse", "trouver", "contre",
    "cazar", "caza", "encontrar", "contra",
))  # fmt: skip
GROUPS = frozenset(phrase(w)[0] for w in ("pack", "rudel", "rudels", "meute", "manada"))
# the words a self-exposure can start with (besides the seat's own words and players)
STARTERS = frozenset(
    first
    for name in ("I_AM", "AS", "WE_ARE", "WE", "OUR", "FELLOW", "FIRST", "MEAL_THANKS")
    for first in P[name].first
) | {"i", "ich", "j'", "yo", "je"}
EVERY_CUE = known_words(*(getattr(cues, name) for name in dir(cues) if name.isupper()))
CUE_NEGATIONS = Phrases((*cues.NEGATIONS, "sin", "sans", "without", "ohne", "nada"))
NEGATION_WORDS = frozenset(p[0] for p in map(phrase, cues.NEGATIONS) if len(p) == 1)
# a negated pronoun denies the whole sentence ("nobody can prove that I am a wolf")
NOBODY = frozenset(phrase(w)[0] for w in ("nobody", "noone", "niemand", "personne", "nadie"))


@dataclass(frozen=True)
class Sentence:
    """One sentence's folded words (a reference is ``@SEAT``) and each word's span."""

    words: list[str]
    spans: list[tuple[int, int]]
    text: str

    def quote(self, lo: int, hi: int) -> str:
        """The speaker's own words from word ``lo`` to word ``hi`` (exclusive)."""
        hi = max(lo + 1, min(hi, len(self.spans)))
        return self.text[self.spans[lo][0] : self.spans[hi - 1][1]].strip()

    def seat(self, i: int) -> int | None:
        word = self.words[i]
        return int(word[1:]) if word.startswith("@") else None

    def clause(self, i: int) -> tuple[int, int]:
        """The clause around word ``i``: from after the last mark to the next one."""
        lo = i
        while lo > 0 and not _bound(self.words[lo - 1]):
            lo -= 1
        hi = i + 1
        while hi < len(self.words) and not _bound(self.words[hi]):
            hi += 1
        return lo, hi

    def question(self, i: int) -> bool:
        """Whether the clause of word ``i`` ends the sentence with a question mark."""
        _, hi = self.clause(i)
        return (hi < len(self.words) and self.words[hi] == "?") or (
            self.words[-1] == "?" and all(not _bound(w) for w in self.words[i:-1])
        )

    def quoted(self, i: int) -> bool:
        return sum(w in QUOTES for w in self.words[:i]) % 2 == 1


def _number(found: re.Match[str]) -> int:
    said = next(g for g in found.groups() if g)
    return int(said) if said.isdigit() else NUMBER_WORDS[said.lower()]


def _bound(word: str) -> bool:
    return word in MARKS or word in END or word in QUOTES or word in CLAUSE_ENDS


CLAUSE_ENDS = frozenset(w for entry in cues.CLAUSE_WORDS for w in phrase(entry))


def _find_all(
    phrases: Phrases, words: list[str], lo: int = 0, hi: int | None = None
) -> list[tuple[int, int]]:
    """Every (start, length) of an entry of ``phrases`` in ``words[lo:hi]``."""
    end = len(words) if hi is None else min(hi, len(words))
    out, i = [], max(lo, 0)
    while i < end:
        n = phrases.at(words, i) if words[i] in phrases.first else 0
        if n:
            out.append((i, n))
            i += n
        else:
            i += 1
    return out


def _negated(s: Sentence, lo: int, hi: int) -> bool:
    """Whether a negation ("not", "kein", "anything but", "ni de coña") is in ``lo..hi``."""
    lo = max(lo, 0)
    return any(w in NEGATION_WORDS for w in s.words[lo:hi]) or (
        P["NEGATIONS"].find(s.words, lo, hi) != -1
    )


def _scope_start(s: Sentence, i: int) -> int:
    """Where a negation before word ``i`` still reaches it: its clause, cut at "that"."""
    lo, _ = s.clause(i)
    for k in range(i - 1, lo - 1, -1):
        if s.words[k] in SUBORDINATE:
            return k + 1
    return lo


def _hypothetical(s: Sentence, i: int, j: int) -> bool:
    """Whether the words ``i..j`` are said in a hypothetical (module docstring)."""
    if _find_all(ALWAYS_HYPOTHETICAL, s.words, 0, i):
        return True
    for k, n in _find_all(CONDITIONS, s.words, 0, i + 1):
        _, end = s.clause(k)
        if any(w in FIRST_SUBJECT for w in s.words[k + n : min(i, end)]) or any(
            w in PAST_OR_UNREAL for w in s.words[k + n : max(j, end)]
        ):
            return True
    return any(
        w in PAST_OR_UNREAL and w in {"would", "'d", "wuerde", "haette"} for w in s.words[i:j]
    )


def _reported(s: Sentence, i: int) -> bool:
    """Whether word ``i`` stands after words reported from someone else, or a negated "I
    say" ("I'm not saying Nina is evil")."""
    for k, n in _find_all(P["REPORTING"], s.words, 0, i):
        own = _own_voice(s, k, n)
        negated = _negated(s, k - 2, k) or _negated(s, k + n, k + n + 2)
        if not own or negated:
            return True
    return False


def _own_voice(s: Sentence, k: int, n: int) -> bool:
    """Whether the reporting verb at ``k`` is the speaker's ("I think", "sag ich")."""
    w = s.words
    if k + n < len(w) and w[k + n] in INVERTED_VOICE:
        return True
    for b in range(k - 1, max(-1, k - 4), -1):
        if w[b] in P["OWN_VOICE"]:
            return True
        if w[b] in OTHER_SUBJECT or w[b].startswith("@") or _bound(w[b]):
            return False
    return False


def _guarded(s: Sentence, i: int, j: int) -> bool:
    """Negated, hypothetical, reported or quoted (the module docstring's scope rules)."""
    return (
        _negated(s, _scope_start(s, i), j)
        or any(w in NOBODY for w in s.words[:i])
        or _hypothetical(s, i, j)
        or _reported(s, i)
        or s.quoted(i)
    )


LEAN_EVIL = frozenset(cues.LEAN_EVIL)
LEAN_GOOD = frozenset(cues.LEAN_GOOD)
SPELT = frozenset(cues.PARTNERS + cues.CHECKED + cues.KILL_STRONG + cues.LEAN_EVIL + cues.LEAN_GOOD)


@lru_cache(maxsize=256)
def _phrases(entries: frozenset[str]) -> Phrases:
    """The entries as :class:`Phrases` (a game's words: built once for every game of the
    same roles)."""
    return Phrases(entries)


@lru_cache(maxsize=64)
def _spelling(words: frozenset[str]) -> Spelling:
    """Slips read as the game's words and the one-word cues (not words of longer cues)."""
    single = [found[0] for found in map(phrase, words | SPELT) if len(found) == 1]
    return Spelling(single, EVERY_CUE)


@lru_cache(maxsize=64)
def _tails(own: frozenset[str]) -> list[str]:
    """The second words of the compounds read (``wolfskumpel``): partners, own words."""
    return sorted(
        {w for w in known_words(cues.PARTNERS, own) if len(w) >= 4}, key=len, reverse=True
    )


class Reader:
    """The rules over one game's vocabulary (module docstring)."""

    def __init__(self, words: Vocabulary) -> None:
        self.words = words
        self.names = {phrase(name)[0]: seat for name, seat in words.names.items() if phrase(name)}
        evil, good = frozenset(words.evil), frozenset(words.good)
        self.evil, self.good = _phrases(evil), _phrases(good)
        self.lean_evil = _phrases(evil | LEAN_EVIL)
        self.lean_good = _phrases(good | LEAN_GOOD)
        self.fangs = P["FANGS"]
        self._own: dict[int, Phrases] = {}
        own = frozenset(w for seat_words in words.own.values() for w in seat_words)
        self.own_first = {p[0] for p in map(phrase, own) if p}
        self.spelling = _spelling(frozenset(self.names) | own | evil | good)
        self.compound_tails = _tails(own)
        self.memo: dict[tuple[object, ...], Any] = {}  # readings of speeches said before
        self._keys: dict[int, tuple[frozenset[str], frozenset[int]]] = {}
        self._read_words: dict[str, list[str]] = {}

    def seat_key(self, seat: int) -> tuple[frozenset[str], frozenset[int]]:
        """What a reading depends on of its seat: its own words and its teammates."""
        key = self._keys.get(seat)
        if key is None:
            own = frozenset(self.words.own.get(seat, set()))
            key = self._keys[seat] = (own, frozenset(self.words.teammates(seat)))
        return key

    # -- reading a speech into sentences
    def sentences(self, text: str) -> list[Sentence]:
        numbered = [(m.start(), m.end(), _number(m)) for m in _NUMBERED.finditer(text)]
        out: list[Sentence] = []
        words: list[str] = []
        spans: list[tuple[int, int]] = []
        last_ref = None
        for token in tokens(text):
            ref = None
            if numbered:
                ref = next((r for r in numbered if r[0] <= token.start < r[1]), None)
            if ref is not None:
                if ref is not last_ref:
                    words.append(f"@{ref[2]}")
                    spans.append((ref[0], ref[1]))
                last_ref = ref
                continue
            last_ref = None
            if text[token.start : token.end].lower() == "sí":
                token = Token("yes", token.start, token.end)
            for word in self._word(token):
                words.append(word)
                spans.append((token.start, token.end))
            if token.word in END or text[token.end : token.end + 1] == "\n":
                if words:
                    out.append(Sentence(words, spans, text))
                words, spans = [], []
        if words:
            out.append(Sentence(words, spans, text))
        return out

    def _word(self, token: Token) -> list[str]:
        found = self._read_words.get(token.word)
        if found is None:
            found = self._read_words[token.word] = self._read_word(token.word)
        return found

    def _read_word(self, word: str) -> list[str]:
        if word in self.names:
            return [f"@{self.names[word]}"]
        if word.endswith("s") and word[:-1] in self.names:
            return [f"@{self.names[word[:-1]]}", "'s"]
        fixed = self.spelling(word)
        if fixed in self.names:
            return [f"@{self.names[fixed]}"]
        if fixed == word and word not in self.spelling.known and len(word) >= 7:
            return self._compound(word)
        return [fixed]

    def _compound(self, word: str) -> list[str]:
        """A German compound of two known words: ``wolfskumpel`` -> wolf kumpel."""
        if word.startswith("mit") and word[3:] in self.own_first:
            return ["mit", word[3:]]
        for tail in self.compound_tails:
            if word.endswith(tail) and len(word) > len(tail) + 2:
                head = word[: -len(tail)]
                for stem in (head, head[:-1] if head.endswith("s") else head):
                    if stem in self.own_first:
                        return [stem, tail]
        return [word]

    # -- the seat's own side
    def own(self, seat: int) -> Phrases:
        found = self._own.get(seat)
        if found is None:
            found = self._own[seat] = _phrases(frozenset(self.words.own.get(seat, set())))
        return found

    def self_exposure(self, seat: int, s: Sentence, plural_only: bool = False) -> str | None:
        """The words in which ``seat`` names its own side in ``s`` (module docstring)."""
        own = self.own(seat)
        w = s.words
        for i in range(len(w)):
            word = w[i]
            if not (word in STARTERS or word in own.first or word[0] == "@" or word[-3:] == "mos"):
                continue
            found = self._self_at(own, s, i, plural_only)
            if found is not None:
                lo, hi = found
                if not _guarded(s, lo, hi) and not (
                    s.question(hi - 1) and w[lo] in P["I_AM"].first
                ):
                    return s.quote(lo, hi)
        return None

    def _self_at(
        self, own: Phrases, s: Sentence, i: int, plural_only: bool
    ) -> tuple[int, int] | None:
        w = s.words
        subjects = [] if plural_only else ["I_AM", "AS"]
        for name in (*subjects, "WE_ARE", "WE", "OUR"):
            n = P[name].at(w, i) if w[i] in P[name].first else 0
            if not n:
                continue
            if name == "AS" and s.clause(i)[0] != i:
                continue
            after = w[i + n : i + n + 2]
            if name == "AS" and len(after) == 2 and after[0] in DEFINITE and after[1][-1] == "s":
                continue  # "as a wolf, I...", "as the mafia", not "as the wolves would say"
            k = i + n
            if name == "WE" and k < len(w) and w[k] == ",":
                k += 1
            if name == "WE" and k < len(w) and w[k] in OWN_ARTICLES:
                k += 1
            while k < len(w) and (name not in {"WE"} and P["FILLERS"].at(w, k)):
                k += P["FILLERS"].at(w, k)
            m = own.at(w, k) if k < len(w) else 0
            if m and k + m < len(w) and P["ROLE_AS_WORD"].at(w, k + m):
                continue  # "I'm a wolf hunter", "my wolf read is Tom"
            if m and (name != "OUR" or w[k + m - 1] in GROUPS):
                return i, k + m  # "my pack", not "my wolf" (a guess: "mon loup c'est Tom")
            if name == "OUR" and k < len(w):
                m = P["FANGS"].at(w, k)
                if m:
                    return i, k + m  # "our fangs", "mes propres crocs"
                m = P["PARTNERS"].at(w, k)
                if m and P["FANGS"].find(w, k + m, k + m + 4) != -1:
                    return i, P["FANGS"].find(w, k + m, k + m + 4) + 1  # "mis hermanos de pelaje"
                m = P["KILL_NOUNS"].at(w, k)
                if m:
                    return i, k + m
                m = P["KILL_TARGETS"].at(w, k)
                if m and (_find_all(P["NIGHT"], w) or _find_all(P["YESTERDAY"], w)):
                    return i, k + m
        if w[i] in P["FELLOW"].first and P["FELLOW"].at(w, i):
            k = i + P["FELLOW"].at(w, i)
            if k < len(w) and own.at(w, k):
                return i, k + own.at(w, k)
        # "wolf here", "loup ici": the speaker's introduction
        n = own.at(w, i)
        if n and i + n < len(w) and w[i + n] in HERE and s.clause(i)[0] == i:
            return i, i + n + 1
        # "los lobos tenemos", "nous les loups on doit"
        if own.at(w, i) and i >= 1 and w[i - 1] in OWN_ARTICLES:
            k = i + own.at(w, i)
            if k < len(w) and (
                w[k].endswith("mos") or w[k] == "on" or (i >= 2 and w[i - 2] in PLURAL)
            ):
                return i - 1, k + 1
        kill = self._kill_at(s, i, plural_only=plural_only)
        if kill is not None:
            return kill
        if not plural_only:
            return self._traits_at(s, i)
        return None

    def _kill_at(
        self, s: Sentence, i: int, *, plural_only: bool, any_kill: bool = False
    ) -> tuple[int, int] | None:
        """The speaker (word ``i``) in a night kill: "tonight we eat Tom" (module docstring)."""
        w = s.words
        plural_verb = len(w[i]) >= 6 and w[i].endswith("mos")  # "matamos", "teníamos"
        if not plural_verb and (w[i] not in P["FIRST"].first or not P["FIRST"].at(w, i)):
            return None
        if plural_only and w[i] not in PLURAL and not plural_verb:
            return None
        clause_lo, clause_hi = s.clause(i)
        for k in range(max(clause_lo, i - 3), min(clause_hi, i + 6)):
            if k == i:
                continue
            strong = P["KILL_STRONG"].at(w, k)
            weak = 0 if strong else P["KILL_WEAK"].at(w, k)
            if not strong and not weak:
                continue
            between = w[i + 1 : k]
            if k > i and any(
                (x in OTHER_SUBJECT and not (x == "du" and b in AVOIR))
                or (x.startswith("@") and w[i] not in {"ich", "wir"})
                for b, x in zip([w[i], *between], between, strict=False)
            ):
                continue
            if k < i and w[i] in {"me", "nos", "moi"}:
                continue
            if w[k] in CLITIC_ONLY and k != i + 1:
                continue
            if k < i and any(x in OTHER_SUBJECT for x in w[k + 1 : i]):
                continue
            lo, hi = min(i, k), max(i, k)
            if self.evil.find(w, lo, min(clause_hi, hi + 4)) != -1:
                continue  # "we hunt the wolves", "kill the wolf"
            has_ref = any(x.startswith("@") for x in w[clause_lo:clause_hi])
            object_ref = any(x.startswith("@") for x in w[k + 1 : k + 4])
            night = bool(_find_all(P["NIGHT"], w))
            if (
                any_kill
                or (strong and (has_ref or night))
                or (weak and night)
                or (weak and has_ref and _find_all(P["YESTERDAY"], w))
                or (weak and object_ref and w[i] in SINGULAR and k > i)  # "I killed Ana"
            ):
                lo, hi = min(i, k), max(i, k) + (strong or weak)
                return lo, hi
        return None

    def _traits_at(self, s: Sentence, i: int) -> tuple[int, int] | None:
        """ "I have fangs", "ana tasted great", "thanks for the meal"."""
        w = s.words
        n = P["MEAL_THANKS"].at(w, i) if w[i] in P["MEAL_THANKS"].first else 0
        if n:
            return i, i + n
        if w[i] in {"i", "ich", "j'", "yo", "je"}:
            for k in range(i + 1, min(len(w), i + 4)):
                if P["FANGS"].at(w, k) and P["HAVE"].find(w, i + 1, k) != -1:
                    return i, k + 1
        if w[i].startswith("@"):
            for k in range(i + 1, min(len(w), i + 4)):
                if P["TASTY"].at(w, k):
                    return i, k + 1
        return None

    # -- a teammate
    def teammate(self, seat: int, s: Sentence) -> str | None:
        """The words in which ``seat`` gives a teammate away in ``s`` (module docstring)."""
        mates = {f"@{mate}" for mate in self.seat_key(seat)[1]}
        refs = [i for i, word in enumerate(s.words) if word in mates]
        if not refs:
            return None
        refs += [  # "Elena ... she and I"
            i
            for i in range(refs[0] + 1, len(s.words) - 1)
            if s.words[i] in PRONOUNS and P["AND_I"].at(s.words, i + 1)
        ]
        for found_seat, evil, said, firm in self.judgements(s):
            if f"@{found_seat}" in mates and evil and firm:
                return said
        w = s.words
        village = bool(_find_all(P["VILLAGE"], w))
        for j in refs:
            found = self._mate_cue(seat, s, j, village)
            if found is not None:
                lo, hi = found
                return s.quote(min(lo, j), max(hi, j + 1))
        return None

    def _mate_cue(self, seat: int, s: Sentence, j: int, village: bool) -> tuple[int, int] | None:
        w = s.words
        own = self.own(seat)
        # a partner, or the speaker's team, anywhere in the sentence
        for name in ("PARTNERS", "MY_GROUP", "ONE_OF_US"):
            for k, n in _find_all(P[name], w):
                lo, hi = (j, k) if k > j else (k, j)
                same = s.clause(j) == s.clause(k)
                if (same and _negated(s, lo, hi)) or _negated(s, k - 3, k):
                    continue
                if _hypothetical(s, lo, hi) or s.quoted(k):
                    continue
                if name != "PARTNERS" and village:
                    continue
                if name == "PARTNERS" and any(
                    not _bound(x) and P["VILLAGE"].at(w, x_i)
                    for x_i, x in enumerate(w[k : s.clause(k)[1]], start=k)
                ):
                    continue
                return k, k + n
        # "Elena and I ...", "me and Elena ..."
        paired = (j + 1 < len(w) and P["AND_I"].at(w, j + 1)) or (
            j >= 2 and P["I_AND"].at(w, j - 2) == 2
        )
        if paired and not (_reported(s, j) or s.quoted(j) or self._conditioned(s, j)):
            rest = j + 1 + (P["AND_I"].at(w, j + 1) if j + 1 < len(w) else 0)
            for name in ("TOGETHER", "CONSPIRE", "MY_GROUP", "KILL_STRONG", "KILL_WEAK", ""):
                phrases = P[name] if name else own
                k = phrases.find(w, rest, len(w))
                lo, hi = s.clause(k) if k != -1 else (0, 0)
                if k == -1 or _negated(s, max(lo, rest), k) or _hypothetical(s, j, k):
                    continue
                if not name and any(x.startswith("@") or x in OBJECT_VERBS for x in w[rest:k]):
                    continue  # "Elena and I both think Tom is the wolf", "... hunt the wolves"
                if name and self.evil.find(w, k, min(len(w), k + 4)) != -1:
                    continue  # "Elena and I will hunt the wolves together"
                if name not in {"", "CONSPIRE"} and _find_all(P["VILLAGE"], w, lo, hi):
                    continue
                return j, k + phrases.at(w, k)
        # the team's plans, or a sentence that exposes "us"
        k = P["CONSPIRE"].find(w, 0, len(w))
        if k != -1 and not _guarded(s, k, k + 1):
            return k, k + P["CONSPIRE"].at(w, k)
        us = self.self_exposure(seat, s, plural_only=True)
        if us is not None:
            i = next(
                i for i in range(len(w)) if s.quote(i, i + 1) and us.startswith(s.quote(i, i + 1))
            )
            return i, i + 1
        for i in range(len(w)):
            kill = self._kill_at(s, i, plural_only=True, any_kill=True)
            if kill is not None and not _guarded(s, *kill):
                return kill
        # told of its own kill: "Elena, you said you'd bite Tom"
        for k, n in _find_all(P["KILL_STRONG"], w):
            if P["YOU"].find(w, max(0, k - 4), k) != -1 and not s.question(k):
                return k, k + n
        return None

    # -- judgements and results
    def judgements(
        self, s: Sentence, *, window: int = 10, crossings: int = 1
    ) -> list[tuple[int, bool, str, bool]]:
        """(seat, evil, the words, firm) of each judgement of a player in ``s``; ``firm``:
        said with the game's own words for a side ("seat 4 is a werewolf", not "sus")."""
        w = s.words
        if w and w[-1] == "?":
            return []
        out = []
        for j in (j for j, word in enumerate(w) if word.startswith("@")):
            seat = s.seat(j)
            if seat is None or self._reporter(s, j) or _reported(s, j) or s.quoted(j):
                continue
            if self._conditioned(s, j):
                continue
            found = (
                self._judged_after(s, j, window, crossings)
                or self._judged_before(s, j)
                or self._judged_later(s, j)
            )
            if found is not None:
                evil, lo, hi, firm = found
                out.append((seat, evil, s.quote(min(lo, j), max(hi, j + 1)), firm))
        return out

    def _conditioned(self, s: Sentence, j: int) -> bool:
        """Whether a condition ("if", "ob", "si") stands before word ``j``."""
        return bool(_find_all(CONDITIONS, s.words, 0, j)) or bool(
            _find_all(ALWAYS_HYPOTHETICAL, s.words, 0, j)
        )

    def _judged_later(self, s: Sentence, j: int) -> tuple[bool, int, int, bool] | None:
        """A later clause of the sentence that judges the player by a pronoun: "Elena's
        every word reeks of the forest; I'd stake my life she's a wolf"."""
        w = s.words
        for k in range(j + 1, len(w) - 1):
            if w[k].startswith("@"):
                return None
            starts = w[k] in PRONOUNS or (w[k] in COPULAS and _bound(w[k - 1]))
            if starts and (w[k] in COPULAS or w[k + 1] in COPULAS):
                found = self._judged_after(s, k if w[k] in COPULAS else k + 1, 5, 0)
                if found is not None:
                    evil, _, hi, firm = found
                    return evil, k, hi, firm
            n = P["TRUSTED"].at(w, k)
            if n and not _negated(s, s.clause(k)[0], k):
                return False, k, k + n, False
        return None

    def _reporter(self, s: Sentence, j: int) -> bool:
        """Whether the player at ``j`` is the one whose words are reported ("Tom said")."""
        w = s.words
        for k in range(j + 1, min(len(w), j + 4)):
            if P["REPORTING"].at(w, k):
                return True
            if w[k].startswith("@") or _bound(w[k]):
                return False
        return False

    def _judged_after(
        self, s: Sentence, j: int, window: int, crossings: int
    ) -> tuple[bool, int, int, bool] | None:
        w = s.words
        crossed = 0
        found = None
        k = j + 1
        while k < min(len(w), j + 1 + window):
            word = w[k]
            if word.startswith("@") or word in END or word in QUOTES or P["REPORTING"].at(w, k):
                break
            if word in OBJECT_VERBS:
                break  # "Elena and I will hunt the wolves": the side is its object
            if word in MARKS or word in CLAUSE_ENDS:
                crossed += 1
                if crossed > crossings or word in CLAUSE_ENDS:
                    break
            evil_n = self.lean_evil.at(w, k) or self.fangs.at(w, k)
            good_n = self.lean_good.at(w, k)
            if evil_n or good_n:
                evil = evil_n >= good_n
                n = max(evil_n, good_n)
                if found is not None:
                    if found[0] != evil and w[k - 1] in OR:
                        return None
                    break
                firm = bool((self.evil if evil else self.good).at(w, k))
                if _negated(s, max(j + 1, s.clause(k)[0]), k):
                    evil = not evil
                found = (evil, j, k + n, firm)
                k += n
                continue
            k += 1
        return found

    def _judged_before(self, s: Sentence, j: int) -> tuple[bool, int, int, bool] | None:
        w = s.words
        lo, _ = s.clause(j)
        for name, evil in (("TRUST", False), ("DISTRUST", True)):
            for k, n in _find_all(P[name], w, max(lo, j - 5), j):
                if k + n >= j - 1 and not any(x.startswith("@") for x in w[k + n : j]):
                    flipped = _negated(s, max(lo, k - 3), k) or _negated(s, j + 1, j + 2)
                    return (evil != flipped, k, j + 1, False)
        if j >= 1 and w[j - 1] in PREPOSITIONS:
            for k in range(max(lo, j - 5), j - 1):
                n = self.lean_evil.at(w, k) or self.lean_good.at(w, k)
                if n and not any(x.startswith("@") for x in w[k:j]):
                    evil = bool(self.lean_evil.at(w, k))
                    return (evil != _negated(s, lo, k), k, j + 1, False)
        return None

    def disclosed(self, s: Sentence) -> list[tuple[int, bool, str]]:
        """(seat, told evil, the words) of each check result told in ``s``."""
        w = s.words
        if w and w[-1] == "?":
            return []
        told = None
        for k, n in _find_all(P["CHECKED"], w):
            lo, _ = s.clause(k)
            if CUE_NEGATIONS.find(w, max(lo, k - 2), k) != -1:
                continue
            if P["PLANS"].find(w, max(lo, k - 4), k) != -1 or _hypothetical(s, k, k + n):
                continue
            if _reported(s, k) or s.quoted(k):
                continue
            told = k
            break
        if told is None:
            return []
        out = []
        for seat, evil, said, _ in self.judgements(s, window=14, crossings=2):
            out.append((seat, evil, said))
        return out
