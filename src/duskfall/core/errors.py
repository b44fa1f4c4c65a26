"""Typed errors. Each carries a message a user (or a player, as a hint) can act on."""


class DuskfallError(Exception):
    """Base of every error duskfall raises on purpose."""


class ConfigError(DuskfallError):
    """A configuration, option or spec is wrong; the message says what to do."""


class IllegalAction(DuskfallError):
    """An action the rules refuse. ``hint`` is safe to show to the acting seat.

    ``code`` is a stable machine-readable reason (``not_your_turn``, ``invalid_action``,
    ``invalid_target``, ``bad_format``).
    """

    def __init__(self, hint: str, code: str = "invalid_action") -> None:
        super().__init__(hint)
        self.hint = hint
        self.code = code


class ReplayMismatch(DuskfallError):
    """Re-applying a log's actions did not reproduce its events."""


class LogCorrupt(DuskfallError):
    """A game log is truncated or malformed; ``good_events`` is how many whole events precede it."""

    def __init__(self, message: str, good_events: int = 0) -> None:
        super().__init__(message)
        self.good_events = good_events


class MissingDependency(DuskfallError):
    """An optional extra is not installed."""

    def __init__(self, package: str, extra: str) -> None:
        super().__init__(
            f"{package} is not installed; install it with: pip install 'duskfall[{extra}]'"
        )
        self.package = package
        self.extra = extra
