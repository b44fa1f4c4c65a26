"""What a worker on another machine needs from the driver's shell: declared variables and
absolute paths.

A worker started by Ray does not inherit the driver's environment, nor its working folder.
So the driver (:func:`worker_env`) reads the variables a run declares (secrets such as
``OPENAI_API_KEY``: by name, in the config's ``[execution] env`` or with ``--env NAME``) and
sends their values with each task, and makes every path a game reads absolute (the LLM
config file, local model files in agent specs, the ``llm_config`` and ``records_dir`` agent
options). A worker applies them
(:meth:`WorkerEnv.apply`) and registers the secrets for redaction, so a key echoed in an
error is masked wherever text enters the record. A value is never printed, logged or put in
Ray's ``runtime_env`` (whose agent logs what it is given).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from duskfall.core.errors import ConfigError
from duskfall.core.redaction import register_secret, register_secret_env

ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
PATH_VARIABLES = ("DUSKFALL_LLM_CONFIG",)  # variables that name a file: sent, made absolute
PATH_OPTIONS = ("llm_config", "records_dir")  # agent options that name a file or folder
_LOCAL = re.compile(r"^((?:llm|cognitive):local:)(.+)$")


class WorkerEnv:
    """Variables to set in a worker's environment; ``secrets`` are never shown (repr)."""

    def __init__(self, secrets: dict[str, str], paths: dict[str, str] | None = None) -> None:
        self.secrets = dict(secrets)
        self.paths = dict(paths or {})

    def __repr__(self) -> str:
        return f"WorkerEnv(secrets={sorted(self.secrets)}, paths={self.paths})"

    __str__ = __repr__

    def apply(self) -> None:
        """Set the variables here, and have the secrets redacted from anything recorded."""
        register_secret_env(*self.secrets)
        for value in self.secrets.values():
            register_secret(value)
        for name, value in {**self.secrets, **self.paths}.items():
            if os.environ.get(name) != value:
                os.environ[name] = value


def check_env_name(name: str) -> str:
    if not ENV_NAME.match(name):
        raise ConfigError(f"--env {name!r}: give the name of an environment variable")
    return name


def worker_env(names: Iterable[str]) -> WorkerEnv:
    """The declared variables' values from this shell (ConfigError naming the first one that
    is not set), and the path variables made absolute."""
    secrets: dict[str, str] = {}
    for name in dict.fromkeys(names):
        value = os.environ.get(check_env_name(name))
        if value is None:
            raise ConfigError(
                f"--env {name}: the variable is not set in this shell; set it here (workers get "
                "it from the driver)"
            )
        secrets[name] = value
    register_secret_env(*secrets)
    paths = {
        name: str(Path(os.environ[name]).resolve())
        for name in PATH_VARIABLES
        if os.environ.get(name)
    }
    return WorkerEnv(secrets, paths)


def absolute_spec(spec: str, base: Path) -> str:
    """``spec`` with a relative local model file made absolute from ``base`` (the driver's
    working folder), if that file exists there: a worker elsewhere finds the same file."""
    found = _LOCAL.match(spec)
    if found is None:
        return spec
    prefix, model = found.groups()
    path = Path(model)
    if path.is_absolute() or not (base / path).is_file():
        return spec
    return prefix + str((base / path).resolve())


def absolute_options(options: dict[str, Any], base: Path) -> dict[str, Any]:
    """``options`` with the agent options that name a file or folder made absolute from
    ``base`` (the driver's working folder)."""
    out = dict(options)
    for name in PATH_OPTIONS:
        value = out.get(name)
        if isinstance(value, str) and value and not Path(value).is_absolute():
            out[name] = str((base / value).resolve())
    return out
