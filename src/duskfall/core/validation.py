"""pydantic validation errors as one clear line (a :class:`ConfigError`)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from duskfall.core.errors import ConfigError

ModelT = TypeVar("ModelT", bound=BaseModel)


def describe_errors(
    exc: ValidationError, default: str = "value", *, known: Collection[str] = ()
) -> str:
    """``'retries: Input should be ... (got 50); ...'``: every problem on one line.

    An unknown key says which keys are ``known``; the ``Value error,`` pydantic puts before
    a validator's own message is dropped.
    """
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or default
        if err["type"] == "extra_forbidden":
            valid = f" (valid keys: {', '.join(sorted(known))})" if known else ""
            parts.append(f"unknown key {where!r}{valid}")
            continue
        message = str(err["msg"]).removeprefix("Value error, ")
        got = err.get("input")
        shown = (
            f" (got {got!r})"
            if isinstance(got, int | float | str)
            and len(repr(got)) < 40
            and repr(got) not in message
            else ""
        )
        parts.append(f"{where}: {message}{shown}")
    return "; ".join(parts)


def validated(model: type[ModelT], data: Mapping[str, Any], what: str) -> ModelT:
    """``data`` validated as ``model``; a bad value raises one ConfigError naming ``what``."""
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        problems = describe_errors(exc, known=model.model_fields)
        raise ConfigError(f"invalid {what}: {problems}") from None


MAX_DEPTH = 32  # nesting of user-given data (configs, options): far more than any needs


def check_depth(value: Any, what: str, limit: int = MAX_DEPTH) -> None:
    """Refuse data nested deeper than ``limit`` (lists and mappings) with one ConfigError."""
    level: list[Any] = [value]
    for _ in range(limit + 1):
        level = [
            child
            for item in level
            if isinstance(item, Mapping | list | tuple)
            for child in (item.values() if isinstance(item, Mapping) else item)
        ]
        if not level:
            return
    raise ConfigError(f"{what} is nested more than {limit} levels deep")
