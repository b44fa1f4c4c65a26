"""The cue words of the leak reader's rules (:mod:`duskfall.lab.reader`), in English, German,
French and Spanish, chat spellings included.

Entries are written as people spell them; the reader folds them as it folds speech
(:mod:`duskfall.lab.fold`: no accents, umlauts as two letters), so ``tué`` also matches
``tue``. An entry may hold several words (``en tant que``).
"""

from __future__ import annotations

# "I" as a subject, and "I am" (what may stand between it and a role word: FILLERS)
I_AM = (
    "i am", "i'm", "i was", "i've been", "i have been", "i've always been", "i play",
    "i'm playing", "i belong to", "i'm part of", "i am part of", "i'm on", "i am on",
    "i'm in", "i am in", "i'm with", "i am with", "i'm one of", "i am one of",
    "speaking as", "playing as", "talking as", "ich bin", "ich war", "bin", "ich gehöre",
    "ich spiele", "ich bin teil",
    "je suis", "j'étais", "j'ai été", "je fais partie", "je joue", "suis",
    "soy", "fui", "estoy", "formo parte", "me toca ser", "juego de", "ando con",
    "i run with", "i hunt with", "je chasse avec", "ich jage mit", "ich renne mit",
)  # fmt: skip
WE_ARE = ("we are", "we're", "we were", "wir sind", "wir waren", "nous sommes", "on est",
          "nous faisons partie", "somos", "éramos", "estamos", "formamos parte")  # fmt: skip
AS = ("as", "als", "en tant que", "como", "being")
WE = ("we", "us", "wir", "uns", "nous", "nous autres", "nosotros", "nosotras", "both of us",
      "uns beide", "uns beiden", "nous deux", "nosotros dos", "all of us")  # fmt: skip
OUR = ("our", "my", "mei", "mim", "unser", "unsere", "unserem", "unseren", "unseres", "unsrer",
       "mein", "meine", "meinem", "meinen", "notre", "nos", "ma", "mon", "mes", "nuestra",
       "nuestro", "nuestros", "nuestras", "mi", "mis")  # fmt: skip
FILLERS = (
    "a", "an", "the", "one", "of", "real", "true", "secret", "fellow", "with", "among", "on",
    "part", "team", "side", "this", "game", "round", "literally", "actually", "really",
    "totally", "obviously", "secretly", "technically", "kinda", "basically", "just", "also",
    "still", "indeed", "definitely", "the only", "big", "bad", "little", "whole", "dear",
    "own", "two", "propres", "propre", "propios", "propias", "eigenen", "eigene", "zwei",
    "deux", "dos",
    "ein", "eine", "einer", "eines", "einen", "der", "die", "den", "des", "dem", "von", "zu",
    "zum", "zur", "teil", "diese", "dieser", "runde", "seite", "wirklich", "echt", "halt",
    "eben", "auch", "doch", "tatsächlich", "von anfang an", "schon immer", "es",
    "un", "une", "l'un", "l'une", "de", "du", "le", "la", "les", "l'", "d'", "parmi",
    "avec", "équipe", "camp", "cette", "partie", "vraiment", "bien", "aussi", "en fait",
    "uno", "una", "unos", "el", "los", "las", "del", "en", "con", "entre", "equipo", "bando",
    "parte", "esta", "realmente", "también", "de verdad",
)  # fmt: skip
# first person in any role of a clause, for plans and kills: "tonight we eat", "beiß ich"
FIRST = ("i", "we", "let's", "ich", "wir", "je", "j'", "on", "nous", "moi", "yo", "me",
         "nos", "nosotros", "lass uns", "lasst uns")  # fmt: skip
YOU = ("you", "du", "tu", "t'", "te", "dijiste", "ibas", "wolltest")
NEGATIONS = (
    "not", "never", "no", "n't", "nobody", "none", "nah", "nope", "nicht", "nichts", "kein",
    "keine", "keiner", "keinen", "keinem", "nie", "niemals", "niemand", "nee", "ne", "pas",
    "jamais", "personne", "aucun", "aucune", "ni", "nunca", "nadie", "ningún", "ninguno",
    "ninguna", "tampoco", "ni de coña", "weder", "neither", "nor", "net", "ned", "nöd",
    "anything but", "far from", "alles andere als", "weit entfernt", "tout sauf", "loin d'",
    "loin de", "todo menos", "lejos de", "nada de",
)  # fmt: skip
HYPOTHETICALS = (
    "if", "would", "'d", "suppose", "supposing", "imagine", "hypothetically", "pretend",
    "let's say", "what if", "whether", "in theory", "wenn", "falls", "würde", "wäre",
    "hätte", "angenommen", "stell dir vor", "ob", "theoretisch", "si", "serait", "serais",
    "aurait", "aurais", "imaginons", "supposons", "imagine", "hypothétiquement",
    "sería", "fuera", "fuese", "tuviera", "seria", "supongamos", "imagina", "imaginad",
)  # fmt: skip
# speech reported from someone else: "Tom said", "bruno sagt", "tom dit que", "dice"
REPORTING = (
    "said", "says", "say", "saying", "claims", "claimed", "claim", "claiming", "thinks",
    "think", "thought", "believes", "believe", "accuses", "accused", "accusing", "called",
    "calls", "suspects", "reckons", "insists", "insisted", "told", "tells", "wrote",
    "sagt", "sagte", "gesagt", "sagen", "sag", "sage", "digo", "dije", "meint", "meinte",
    "gemeint", "denkt", "glaubt",
    "behauptet", "behauptete", "beschuldigt", "wirft", "findet", "findest",
    "dit", "disait", "dis", "dire", "pense", "pensez", "pensent", "croit", "croyez",
    "prétend", "affirme", "accuse", "accusé", "soupçonne", "traite",
    "dice", "dijo", "decía", "dicen", "cree", "creéis", "creen", "piensa", "piensan",
    "afirma", "acusa", "acusó", "sospecha", "llama", "llamó", "diría", "dirais", "würde sagen",
    "tät sagen", "asks", "asked", "wonders", "fragt", "demande", "pregunta",
    "munkelt", "rumour", "rumor", "rumours", "on dit", "dicen que", "se dice",
)  # fmt: skip
# a reporting verb with these just before it is the speaker's own opinion ("I think")
OWN_VOICE = ("i", "ich", "je", "j'", "yo", "gut", "bauch", "instinct", "instinto", "me",
             "moi", "myself", "selbst", "mismo", "misma",
             "feeling", "bauchgefühl", "intuition", "gefühl")  # fmt: skip
# words that end a clause: the scope of a negation or a judgement
CLAUSE_WORDS = ("but", "aber", "mais", "pero", "sino", "though", "although", "whereas",
                "while", "während", "tandis", "mientras", "because", "weil", "parce",
                "porque")  # fmt: skip
# the speaker's team's night kills and plans: strong verbs need no night word
KILL_STRONG = (
    "eat", "eats", "ate", "eaten", "eating", "bite", "bit", "bitten", "devour", "devoured",
    "maul", "mauled", "munch", "munched", "feast", "feasted", "chomp", "snack on",
    "fressen", "fresse", "frisst", "gefressen", "beißen", "beiße", "beiß", "gebissen",
    "zerreißen", "verspeisen", "manger", "mange", "mangé", "mangeons", "bouffer", "bouffe",
    "bouffé", "bouffons", "croquer", "croque", "croqué", "mordre", "mords", "mordu",
    "mordrais", "dévorer", "dévore", "dévoré", "comer", "como", "comemos", "comimos",
    "comí", "morder", "muerdo", "mordí", "mordimos", "devorar", "devoramos", "fressn",
    "dine", "dined", "supper", "sup",
)  # fmt: skip
KILL_WEAK = (
    "kill", "kills", "killed", "killing", "take out", "took out", "picked off", "pick off",
    "got", "get", "take", "took", "murder", "murdered", "töten", "getötet", "töte", "holen",
    "geholt", "hole", "erledigt", "erledigen", "umlegen", "umgelegt", "tuer", "tue", "tué",
    "tuons", "eu", "éliminé", "buté", "matar", "mato", "matamos", "maté", "matado",
    "cargar", "cargo", "cargamos", "cargué", "cargó", "cargado", "hunt", "hunted", "hunting",
    "jagen", "gejagt", "jagd", "chasse", "chassé", "chassons", "cazamos", "cazando", "cazar",
    "visit", "pay a visit", "visite", "visitita", "visita", "vorknöpfen", "knöpfen",
    "take care of", "deal with", "s'occuper", "ocuparnos", "encargamos", "kümmern",
)  # fmt: skip
NIGHT = (
    "tonight", "last night", "night", "nights", "n1", "n2", "overnight", "heut nacht",
    "heute nacht", "letzte nacht", "nacht", "nachts", "cette nuit", "la nuit", "nuit",
    "cette nuit", "esta noche", "anoche", "noche", "la noche",
)  # fmt: skip
YESTERDAY = ("yesterday", "gestern", "hier", "ayer")
# what a team's night kill is called: "our kill", "unser Opfer", "notre proie"
KILL_NOUNS = (
    "kill", "kills", "victim", "prey", "dinner", "meal", "snack", "feast", "next meal",
    "opfer", "beute", "mahlzeit", "abendessen", "kill", "victime", "proie", "repas",
    "dîner", "festin", "víctima", "presa", "cena", "comida", "banquete",
)  # fmt: skip
KILL_TARGETS = ("target", "pick", "choice", "ziel", "wahl", "cible", "choix", "objetivo")
# body of a wolf in the first person: "i have fangs"
FANGS = ("fangs", "fang", "claws", "fur", "pelt", "reißzähne", "krallen", "fell", "fänge",
         "pelz", "crocs", "griffes", "fourrure", "colmillos", "colmillo", "garras",
         "pelaje")  # fmt: skip
HAVE = ("have", "'ve", "got", "hab", "habe", "ai", "j'ai", "tengo")
TASTY = ("tasty", "tasted", "delicious", "yummy", "lecker", "köstlich", "délicieux",
         "délicieuse", "succulent", "succulente", "riquísimo", "riquísima", "delicioso",
         "deliciosa", "sabroso", "sabrosa", "rico", "rica")  # fmt: skip
MEAL_THANKS = ("thanks for the meal", "thx for the meal", "thanks for dinner",
               "danke fürs essen", "danke für das essen", "merci pour le repas",
               "gracias por la cena", "gracias por la comida")  # fmt: skip
# a partner, and the word that makes one: "my wolf buddy", "ma pote louve"
PARTNERS = (
    "partner", "partners", "teammate", "teammates", "ally", "allies", "accomplice",
    "accomplices", "packmate", "buddy", "buddies", "mate", "pal", "bro", "homie",
    "partner in crime", "partnerin", "verbündete", "verbündeter", "komplize", "komplizin",
    "teamkollege", "teamkollegin", "kumpel", "kollege", "kollegin", "partenaire", "complice",
    "coéquipier", "coéquipière", "acolyte", "pote", "collègue", "associé", "associée",
    "cómplice", "aliado", "aliada", "compañero", "compañera", "socio", "socia", "colega",
    "compa", "brethren", "kin", "kinsman", "sister", "brother", "sisters", "brothers",
    "schwester", "bruder", "geschwister", "artgenossen", "gefährte", "gefährtin",
    "sœur", "frère", "frères", "sœurs", "hermana", "hermano", "hermanos", "hermanas",
)  # fmt: skip
FELLOW = ("fellow", "my fellow", "mit", "mein mit", "meine mit")
# the speaker's group: "on my team", "one of us", "same side"
MY_GROUP = (
    "my team", "my side", "same team", "same side", "meinem team", "meinem rudel",
    "selben team", "gleichen team", "selben seite", "mon équipe", "mon camp",
    "même équipe", "même camp", "mi equipo", "mismo equipo", "mismo bando", "my crew",
)  # fmt: skip
ONE_OF_US = ("one of us", "one of ours", "with us", "einer von uns", "eine von uns",
             "l'un des nôtres", "l'une des nôtres", "un des nôtres", "des nôtres",
             "uno de los nuestros", "una de los nuestros", "de los nuestros",
             "uno de nosotros", "una de nosotros", "una de las nuestras")  # fmt: skip
AND_I = ("and i", "and me", "and myself", "und ich", "und mir", "et moi", "y yo")
I_AND = ("me and", "i and", "ich und", "moi et", "yo y")
TOGETHER = ("together", "zusammen", "gemeinsam", "ensemble", "juntos", "juntas", "hunt",
            "hunted", "jagen", "chassons", "chasse", "cazamos", "cazar", "side by side",
            "seite an seite", "côte à côte", "codo a codo", "den", "lair", "höhle",
            "tanière", "guarida", "two wolves", "zwei wölfe", "deux loups",
            "dos lobos")  # fmt: skip
# in it together beyond words: "partner in crime", "unter einer Decke", "de mèche"
CONSPIRE = (
    "partner in crime", "partners in crime", "unter einer decke", "de mèche",
    "uña y carne", "like we planned", "as we planned", "as planned", "like we agreed",
    "as agreed", "wie abgesprochen", "wie besprochen", "wie geplant", "comme prévu",
    "comme convenu", "como quedamos", "como acordamos", "lo planeado", "cover for you",
    "cover you", "deck dich", "decke dich", "je te couvre", "te couvre", "te cubro",
    "stick to the plan", "our plan", "unser plan", "notre plan", "nuestro plan",
    "c'est nous la nuit", "cosa nuestra", "waren wir", "we do the kills", "as we agreed",
    "we agreed", "we rehearsed", "the story we", "our story", "stick to the story",
    "wie wir abgemacht", "abgemacht", "comme on l'a prévu", "on l'a prévu", "l'histoire qu'on",
    "la historia que", "como lo planeamos", "lo que planeamos",
)  # fmt: skip
# the village's words: a group named with one is the speaker's public side, not a tell
VILLAGE = (
    "village", "villager", "villagers", "town", "townie", "villageois", "villageoise",
    "villageoises", "dorf", "dorfbewohner", "dorfbewohnerin", "dorfleute", "dorfleuten",
    "dorfies", "pueblo", "aldeano", "aldeana", "aldeanos", "aldeanas", "team dorf",
)  # fmt: skip
# judgements beyond the game's own words (those come from :class:`~.texts.Vocabulary`)
LEAN_EVIL = (
    "sus", "sussy", "suspicious", "sketchy", "shady", "fishy", "dodgy", "lying", "liar",
    "lies", "lied", "bad news", "red", "wolfy", "fake", "faking", "bluffing", "log",
    "gelogen", "menti", "mintió", "scummy", "verdächtig", "komisch", "lügt",
    "lügner", "lügnerin", "falsch", "rot", "böse", "louche", "ment", "menteur",
    "menteuse", "suspect", "suspecte", "rouge", "pue", "chelou", "sospechoso",
    "sospechosa", "miente", "mentiroso", "mentirosa", "roja", "rojo",
    "huele mal", "mala espina", "turbio", "turbia", "anguille sous roche", "gato encerrado",
    "rotten", "faul", "podrido", "podrida", "pourri", "pourrie", "one of them",
    "einer von denen", "einen von denen", "eine von denen", "uno de ellos", "una de ellos",
    "una de ellas", "des leurs", "l'un d'eux", "beast", "bestie", "bête", "bestia",
    "stimmt was nicht", "dreck am stecken", "knallrot", "desenmascaró", "démasquée",
    "démasqué", "entlarvt", "unmasked", "pack", "rudel", "meute", "manada", "wicked",
    "guilty", "schuldig", "coupable", "culpable", "bad guy", "bad guys", "baddie", "traitor",
    "verräter", "traître", "traidor", "traidora", "bösewicht", "méchants", "malos",
)  # fmt: skip
LEAN_GOOD = (
    "fine", "legit", "safe", "honest", "trustworthy", "villagey", "townie", "harmless",
    "green", "save", "ehrlich", "vertrauenswürdig", "harmlos", "dorfi", "grün",
    "réglo", "fiable", "honnête", "vert", "villageoise", "legal", "fiable", "de confianza",
    "honesto", "honesta", "verde", "in ordnung", "okay", "correct", "correcto", "correcta",
    "está bien", "inofensivo", "inofensiva", "inoffensif", "inoffensive", "limpiecito",
    "limpiecita", "blitzsauber", "geheuer", "decent", "favourable", "favorable", "passed",
    "bestanden", "pasó", "réussi", "trust him", "trust her", "trau ich", "vertrau ich",
    "lui fais confiance", "le creo", "la creo", "confiaría", "confierais", "pan de dios",
    "bonne pâte", "ehrliche haut", "good egg", "good guy", "good guys", "one of the good guys",
    "einer von den guten", "einer der guten", "gentils", "buenos", "buenas", "not guilty",
    "innocente", "unschuldig",
)  # fmt: skip
# "I trust Marco" (good), "I suspect Lia" (evil): the verb judges the player after it
TRUST = ("trust", "vertraue", "traue", "fais confiance à", "fais confiance a", "confío en",
         "me fío de", "fiaos de", "believe in")  # fmt: skip
DISTRUST = ("suspect", "verdächtige", "soupçonne", "sospecho de", "me méfie de",
            "me méfie d'", "desconfío de", "bad feeling about", "ein schlechtes gefühl bei",
            "mauvais pressentiment sur", "mala espina con")  # fmt: skip
# a role word that only qualifies the next one: "a wolf hunter", "my wolf read", "wolf vibes"
ROLE_AS_WORD = (
    "hunter", "hunters", "hunt", "hunting", "read", "reads", "theory", "guess", "list",
    "suspect", "suspects", "pick", "picks", "candidate", "candidates", "slot", "slots",
    "radar", "vibes", "lean", "energy", "jäger", "jagd", "verdacht", "liste", "tipp",
    "chasseur", "chasseurs", "chasseuse", "liste", "cazador", "cazadores", "cazadora", "caza",
    "lista", "sospechoso", "sospechosos",
)  # fmt: skip
# a trust said of a player named before: "Tom had nothing to do with it, I trust him"
TRUSTED = ("i trust him", "i trust her", "trau ich", "vertrau ich", "ich trau ihm",
           "ich trau ihr", "je lui fais confiance", "lui fais confiance", "yo le creo",
           "le creo", "la creo", "me fío de él", "me fío de ella")  # fmt: skip
# a check's result told: the speaker checked, saw, or its result came back
CHECKED = (
    "checked", "check", "checks", "checking", "inspected", "investigated", "looked at",
    "looked into", "peeked", "peeked at", "peek", "scanned", "scried", "saw", "i saw",
    "came back", "flipped", "showed", "revealed", "vision", "visions", "dream", "result",
    "results", "report", "seer here", "crystal ball", "orb", "my power", "my ability",
    "my card", "read", "gecheckt", "gechecked", "geprüft", "überprüft", "untersucht",
    "angeschaut", "angesehen", "reingeschaut", "gesehen", "zurückgekommen", "gezeigt",
    "prüfung", "ergebnis", "ergebnisse", "kugel", "meine gabe", "seherin hier", "seher hier",
    "sondé", "vérifié", "vérification", "inspecté", "enquêté", "regardé", "vu", "revenu",
    "revenue", "sorti", "sortie", "ressorti", "ressortie", "montré", "résultat",
    "boule de cristal", "mon pouvoir", "jeté un oeil", "voyante ici", "voyant ici",
    "chequeé", "chequee", "revisé", "miré", "mire", "vi", "investigué", "inspeccioné",
    "comprobé", "comprobación", "salió", "salio", "mostró", "visión", "resultado",
    "bola de cristal", "mi poder", "eché un ojo", "vidente aquí", "geschaut", "nachgeschaut",
    "kristallkugel", "unter die lupe", "geister", "spiegel", "blick", "aagluegt",
    "came up", "pinged", "pinged as", "divined", "my divination", "scried", "checked out",
    "mirror", "gaze", "oracle", "peered", "peered into", "gazed", "inspection", "spirits",
    "esprits", "miroir", "espíritus", "espejo", "inspección", "mi don", "mon don", "meine gabe",
    "los ojos", "les yeux",
)  # fmt: skip
# what makes a check a plan, not a result told: "I'll check", "my plan is to look"
PLANS = (
    "will", "'ll", "going to", "gonna", "plan", "plans", "planning", "want to", "wanna",
    "should", "shall", "next", "werde", "werd", "soll", "sollte", "will ich", "plane",
    "vais", "va", "veux", "devrait", "dois", "compte", "prochain", "voy a", "vamos a",
    "quiero", "debería", "pienso", "próximo", "luego", "later", "demain", "tomorrow",
    "morgen", "mañana", "can", "could", "kann", "peux", "puedo", "puede",
)  # fmt: skip
