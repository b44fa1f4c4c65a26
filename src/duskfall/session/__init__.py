"""Game assembly: the one place a game is put together (new, resumed, forked, or a GM game's
log).

A game is a variant's state, a participant per seat, and an event stream whose observers are
the log writer, the game index, the caller's observers (web page, server seats) and the feeds
of participants that keep their own records. This package is the only one that knows
runtime, agents and store together; the CLI, the server, the web app, the arena and GM mode
call it.
"""

from duskfall.session.game import (
    DEFAULT_LOG_DIR,
    GamePlan,
    GameSetup,
    PreparedGame,
    RunOptions,
    assemble,
    logged_options,
    new_game_id,
    options_of,
    plan_game,
    plan_seats,
    prepare_checked_game,
    prepare_game,
    roster_of,
    run_game,
)
from duskfall.session.preflight import SeatNotReady
from duskfall.session.record import open_record
from duskfall.session.resume import (
    CannotResume,
    ResumedGame,
    ResumePlan,
    log_path_for,
    plan_resume,
    prepare_resume,
    resume_game,
)

__all__ = [
    "DEFAULT_LOG_DIR",
    "CannotResume",
    "GamePlan",
    "GameSetup",
    "PreparedGame",
    "ResumePlan",
    "ResumedGame",
    "RunOptions",
    "SeatNotReady",
    "assemble",
    "log_path_for",
    "logged_options",
    "new_game_id",
    "open_record",
    "options_of",
    "plan_game",
    "plan_resume",
    "plan_seats",
    "prepare_checked_game",
    "prepare_game",
    "prepare_resume",
    "resume_game",
    "roster_of",
    "run_game",
]
