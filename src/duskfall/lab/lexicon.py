"""The words of a game's vocabulary in English, German, French and Spanish.

A game's own vocabulary (its roles, teams and names: :class:`duskfall.lab.texts.Vocabulary`)
is English; a model may speak another language. :func:`translated` adds, for each English
role or team word a game has, its words in the other languages (``werewolf``: Werwolf,
loup-garou, hombre lobo...), :func:`own_words` a team's own words ("pack" for the wolves);
the judgement words and the nouns a seat is referred to by are here too. The cue words the
leak reader reads speeches with are :mod:`duskfall.lab.cues`. Every entry is lower case; an
entry may hold spaces, hyphens and apostrophes (``loup-garou``).
"""

from __future__ import annotations

from collections.abc import Iterable

TRANSLATIONS: dict[str, tuple[str, ...]] = {
    "werewolf": (
        "werwolf", "werwölfe", "werwölfen", "werwolfs", "loup-garou", "loups-garous",
        "loup garou", "loups garous", "hombre lobo", "hombres lobo", "mujer lobo",
        "mujeres lobo", "lobo", "lobos", "loba", "lobas",
    ),
    "wolf": ("wolf", "wölfe", "wölfen", "wolfs", "wölfin", "wölfinnen", "loup", "loups",
             "louve", "louves", "lobo", "lobos", "loba", "lobas"),
    "pack": ("pack", "rudel", "rudels", "meute", "manada"),
    "beast": ("bestie", "bête", "bestia"),
    "beasts": ("bestien", "bêtes", "bestias"),
    "mafia": ("mafia", "mafiosi", "mafioso", "mafiosa", "mafiosos", "mafiosas", "mafieux",
              "mafieuse", "mafieuses"),
    "scum": ("abschaum", "racaille", "escoria"),
    "villager": ("dorfbewohner", "dorfbewohnerin", "villageois", "villageoise", "villageoises",
                 "aldeano", "aldeana", "aldeanos", "aldeanas"),
    "village": ("dorf", "dorfes", "village", "pueblo", "aldea"),
    "town": ("stadt", "ville", "pueblo"),
    "good": ("gut", "gute", "guter", "gentil", "gentille", "bueno", "buena"),
}  # fmt: skip
"""Each English word's words in German, French and Spanish (the English one is kept)."""

# a team's own words also say "pack": "our pack", "Teil des Rudels", "ma meute"
TEAM_EXTRA: dict[str, tuple[str, ...]] = {
    "werewolf": ("pack", "beast", "beasts"),
    "wolf": ("pack", "beast", "beasts"),
}

EVIL_WORDS = frozenset({
    "evil", "bad", "scum", "böse", "bösen", "böser", "schlecht", "méchant", "méchante",
    "mauvais", "mauvaise", "malo", "mala", "malos", "malas", "malvado", "malvada",
})  # fmt: skip
GOOD_WORDS = frozenset({
    "good", "innocent", "innocente", "clean", "clear", "cleared", "town", "townie", "villager",
    "sauber", "unschuldig", "harmlos", "gut", "gute", "guter", "gentil", "gentille", "propre",
    "blanc", "blanche", "inocente", "limpio", "limpia", "bueno", "buena",
})  # fmt: skip

SEAT_NOUNS = ("seat", "player", "sitz", "platz", "spieler", "spielerin", "siège", "siege",
              "joueur", "joueuse", "place", "asiento", "jugador", "jugadora", "puesto",
              "número", "numero", "nummer", "nr")  # fmt: skip
SEAT_NUMBER_NOUNS = ("number", "numéro", "nro")  # "number 5": a seat to the leak reader


def translated(words: Iterable[str]) -> set[str]:
    """``words`` with the words of the other languages for each English one."""
    out = set(words)
    for word in list(out):
        out.update(TRANSLATIONS.get(word, ()))
    return out


def own_words(words: Iterable[str]) -> set[str]:
    """A team's own words in every language, its "pack" included for a wolf team."""
    base = set(words)
    for word in list(base):
        base.update(TEAM_EXTRA.get(word, ()))
    return translated(base)
