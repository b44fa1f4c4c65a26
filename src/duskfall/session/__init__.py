"""Game assembly: the one place a game is put together (new, resumed, or a GM game's log).

A game is a variant's state, a participant per seat, and an event stream whose observers are
the log writer, the game index, the caller's observers (web page, server seats) and the feeds
of participants that keep their own records. This package is the only one that knows
runtime, agents and store together; the CLI, the server, the web app, the arena and GM mode
call it.
"""

from duskfall.session.game import (
    DEFAULT_LOG_DIR,
    GameSetup,
    PreparedGame,
    new_game_id,
    prepare_game,
    run_game,
)
from duskfall.session.record import open_record
from duskfall.session.resume import (
    CannotResume,
    ResumedGame,
    log_path_for,
    prepare_resume,
    resume_game,
)

__all__ = [
    "DEFAULT_LOG_DIR",
    "CannotResume",
    "GameSetup",
    "PreparedGame",
    "ResumedGame",
    "log_path_for",
    "new_game_id",
    "open_record",
    "prepare_game",
    "prepare_resume",
    "resume_game",
    "run_game",
]
