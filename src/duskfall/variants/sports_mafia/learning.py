"""Sports mafia's learning declaration: its encoder, its token observation and the tunable
seed-001 bot (each module imported, with numpy where it needs it, on use)."""

from __future__ import annotations

from duskfall.core.learning import Learning, SeatEncoder, TokenEncoding, Tunable


def encoder(seats: int, seat: int) -> SeatEncoder:
    from duskfall.variants.sports_mafia.encoder import SportsMafiaEncoder

    return SportsMafiaEncoder(seats, seat)


def tokens() -> TokenEncoding:
    from duskfall.variants.sports_mafia import tokens as words

    return TokenEncoding(words.VOCABULARY, words.MAX_TOKENS, words.tokens)


def tunable() -> Tunable:
    from duskfall.variants.sports_mafia.searched import TUNABLE

    return TUNABLE


LEARNING = Learning(encoder, tokens, tunable)
