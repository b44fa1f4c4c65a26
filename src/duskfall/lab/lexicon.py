"""The words the leak reader reads speeches with, in English, German, French and Spanish.

A game's own vocabulary (its roles, teams and names: :class:`duskfall.lab.texts.Vocabulary`)
is English; a model may speak another language. :func:`translated` adds, for each English
role or team word a game has, its words in the other languages (``werewolf``: Werwolf,
loup-garou, hombre lobo...), and the tables below give what the patterns of
:mod:`duskfall.lab.leaks` are built from: how a speaker says "I" or "we", how a sentence is
negated or made hypothetical, how a player is referred to, judged, called a partner, or said
to have been checked. Every entry is lower case; an entry may hold spaces, hyphens and
apostrophes (``loup-garou``, ``j'étais``).
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

# how a speaker puts itself in a group: "I am", "we are", "as", "I belong to"
FIRST_PERSON = (
    "i am", "i'm", "i was", "we are", "we're", "we were", "as", "i play", "i'm playing",
    "i belong to", "i'm part of", "i am part of", "i'm on", "i am on", "i'm in", "i am in",
    "ich bin", "ich war", "wir sind", "wir waren", "als", "ich gehöre", "wir gehören",
    "ich spiele", "ich bin teil", "je suis", "j'étais", "j'ai été", "nous sommes", "on est",
    "en tant que", "je fais partie", "nous faisons partie", "je joue", "soy", "fui", "era",
    "somos", "éramos", "como", "estoy", "estamos", "formo parte", "formamos parte",
    "me toca ser", "juego de",
)  # fmt: skip
WE = ("we", "us", "wir", "uns", "nous", "nosotros", "nosotras")
OUR = ("our", "my", "unser", "unsere", "unserem", "unseres", "mein", "meine", "meinem",
       "notre", "nos", "ma", "mon", "mes", "nuestra", "nuestro", "nuestros", "nuestras", "mi",
       "mis")  # fmt: skip
FELLOW = ("my fellow", "fellow", "mein mit", "meine mit")
# words that may stand between "I am" and the role: "one of the", "einer der", "l'un des"
FILLERS = (
    "a", "an", "the", "one", "of", "real", "true", "secret", "fellow", "with", "among", "on",
    "part", "team", "side", "this", "game", "round", "wolf", "ein", "eine", "einer", "eines",
    "einen", "der", "die", "den", "des", "dem", "von", "zu", "zum", "zur", "teil", "diese",
    "dieser", "runde", "team", "seite", "un", "une", "l'un", "l'une", "de", "du", "le", "la",
    "les", "l'", "d'", "parmi", "avec", "équipe", "camp", "cette", "partie", "uno", "una",
    "unos", "el", "los", "las", "del", "en", "con", "entre", "equipo", "bando", "parte", "esta",
)  # fmt: skip
NEGATIONS = (
    "not", "never", "no", "n't", "nobody", "none", "nicht", "kein", "keine", "keiner",
    "keinen", "nie", "niemals", "niemand", "ne", "pas", "jamais", "personne", "aucun",
    "aucune", "ni", "nunca", "nadie", "ningún", "ninguno", "ninguna",
)  # fmt: skip
HYPOTHETICALS = ("if", "would", "were", "wenn", "falls", "würde", "wäre", "si", "serait",
                 "sería", "fuera", "fuese")  # fmt: skip
SEAT_NOUNS = ("seat", "player", "sitz", "platz", "spieler", "spielerin", "siège", "siege",
              "joueur", "joueuse", "place", "asiento", "jugador", "jugadora", "puesto",
              "número", "numero", "nummer", "nr")  # fmt: skip
SEAT_NUMBER_NOUNS = ("number", "numéro", "nro")  # "number 5": a seat to the leak reader
COPULAS = ("is", "was", "are", "'s", "ist", "war", "sind", "est", "était", "c'est", "es",
           "era", "está", "esta", "es de", "is on", "came back as", "ressortie", "ressorti",
           "salió", "kam als")  # fmt: skip
ADVERBS = (
    "definitely", "clearly", "surely", "really", "certainly", "obviously", "100%", "also",
    "too", "ganz", "sicher", "bestimmt", "wirklich", "eindeutig", "auch", "sûrement",
    "clairement", "vraiment", "certainement", "aussi", "bien", "seguro", "seguramente",
    "claramente", "realmente", "sin duda", "también",
)  # fmt: skip
JUDGED_FILLERS = ("a", "an", "the", "one of the", "ein", "eine", "einer der", "eine der",
                  "un", "une", "l'un des", "l'une des", "un des", "uno", "una", "uno de los",
                  "una de los", "una de las", "del")  # fmt: skip
PRONOUNS = ("she", "he", "they", "sie", "er", "elle", "il", "ella", "él")
# "seat 4 is my partner", "Elena ist meine Verbündete", "ma complice", "mi aliada"
PARTNERS = (
    "partner", "partners", "teammate", "teammates", "ally", "allies", "accomplice",
    "packmate", "buddy", "mate", "partnerin", "verbündete", "verbündeter", "komplize",
    "komplizin", "teamkollege", "teamkollegin", "partenaire", "complice", "coéquipier",
    "coéquipière", "acolyte", "cómplice", "aliado", "aliada", "compañero", "compañera",
    "socio", "socia",
)  # fmt: skip
# "on my team", "in meinem Team", "dans mon équipe", "en mi equipo", "my pack", "ma meute"
MY_GROUP = (
    "my team", "my pack", "my side", "same team", "same side", "meinem team", "meinem rudel",
    "selben team", "gleichen team", "selben seite", "mon équipe", "ma meute", "mon camp",
    "même équipe", "même camp", "mi equipo", "mi manada", "mismo equipo", "mismo bando",
)  # fmt: skip
ONE_OF_US = ("one of us", "one of ours", "with us", "einer von uns", "eine von uns",
             "l'un des nôtres", "l'une des nôtres", "un des nôtres", "des nôtres",
             "uno de los nuestros", "una de los nuestros", "de los nuestros",
             "uno de nosotros", "una de nosotros")  # fmt: skip
AND_I = ("and i", "and me", "und ich", "et moi", "y yo")
I_AND = ("me and", "i and", "ich und", "moi et", "yo y")
TOGETHER = ("together", "both", "zusammen", "gemeinsam", "beide", "ensemble",
            "tous les deux", "toutes les deux", "juntos", "juntas", "los dos", "las dos",
            "hunt", "jagen", "chassons", "cazamos")  # fmt: skip
CHECKED = (
    "checked", "check on", "my check", "inspected", "investigated", "looked into",
    "vision", "my result", "check result", "my power", "came back", "geprüft", "überprüft",
    "untersucht", "prüfung", "ergebnis", "meine gabe", "sondé", "vérifié", "vérification",
    "inspecté", "enquêté", "résultat", "mon pouvoir", "ressorti", "revisé", "investigué",
    "comprobé", "comprobación", "visión", "resultado", "mi poder", "salió",
)  # fmt: skip


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
