"""The cognitive agent's budgets, from agent options, with a compact profile for local models.

Options (``AgentContext.options``; all optional):

* ``max_sessions`` (default 2; 1 for ``local``): investigation sessions per decision (0:
  planner and writer only);
* ``max_steps`` (default 3; 2 for ``local``): model calls per session, tool rounds between;
* ``session_tokens`` (320), ``plan_tokens`` (80; 48 for ``local``) and ``max_tokens`` (400):
  the token caps of a session step, the planner and the writer;
* ``tool_chars`` (1500; 800 for ``local``): the size of one tool's output;
* ``max_tools`` (3; 2 for ``local``), ``max_updates`` (6; 3), ``reasoning_chars`` (400; 200)
  and ``notes_chars`` (120; 80): the size of a session step's JSON, which must fit in
  ``session_tokens`` (a cut-off step is not valid JSON);
* ``reflect`` (default true): let the reflector ask for one revision;
* ``beliefs``: ``off`` (default) or ``daily``: once a day, after its investigations, the seat
  states P(evil) of every other living player, as the ``llm`` agent does;
* ``records_dir``: where games' record folders go (default: beside the game's log);
* ``temperature``, ``top_k``, ``top_p``, ``min_p``, ``repeat_penalty``, ``timeout``,
  ``retries``, ``retry_delay``, ``decision_timeout``, ``llm_config``: as for the ``llm`` agent.

A bad value is one clear ConfigError.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Literal

from pydantic import TypeAdapter, ValidationError

from duskfall.agents.cognitive.session import SessionLimits
from duskfall.core.errors import ConfigError


@dataclass(frozen=True)
class CognitiveSettings:
    max_sessions: int = 2
    max_steps: int = 3
    session_tokens: int = 320
    plan_tokens: int = 80
    max_tokens: int = 400
    tool_chars: int = 1500
    max_tools: int = 3
    max_updates: int = 6
    reasoning_chars: int = 400
    notes_chars: int = 120
    reflect: bool = True
    beliefs: Literal["off", "daily"] = "off"
    records_dir: Path | None = None
    temperature: float | None = None
    decision_timeout: float | None = None

    @property
    def limits(self) -> SessionLimits:
        return SessionLimits(
            max_steps=self.max_steps,
            max_tokens=self.session_tokens,
            max_tools=self.max_tools,
            max_updates=self.max_updates,
            reasoning_chars=self.reasoning_chars,
            notes_chars=self.notes_chars,
        )

    @classmethod
    def from_options(cls, options: Mapping[str, Any], model_spec: str) -> CognitiveSettings:
        base = cls(
            max_sessions=1,
            max_steps=2,
            session_tokens=320,
            plan_tokens=48,
            tool_chars=800,
            max_tools=2,
            max_updates=3,
            reasoning_chars=200,
            notes_chars=80,
        )
        settings = base if model_spec.split(":")[0] == "local" else cls()
        given = {f.name: options[f.name] for f in fields(cls) if options.get(f.name) is not None}
        if not given:
            return settings
        try:
            return TypeAdapter(cls).validate_python({**asdict(settings), **given})
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors()
            )
            raise ConfigError(f"invalid cognitive agent option {problems}") from None
