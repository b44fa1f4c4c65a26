"""A person at the terminal answering free-form prompts (a GM game's seat, model spec ``human``).

It is a provider like any model's: it shows the person the prompt built for its seat (the
public chat, its own secrets, what is asked now) and returns the line typed. The caller's
deadline cancels the wait cleanly; lines typed while it was not the person's turn are
dropped, so a late answer never becomes the next turn's.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from duskfall.agents.human_input import LineReader, reader_for
from duskfall.core.redaction import redact
from duskfall.core.terminal import printable
from duskfall.llm.errors import LLMError
from duskfall.llm.model import Model
from duskfall.llm.provider import Capabilities, Provider
from duskfall.llm.retry import RetryPolicy
from duskfall.llm.types import Completion, Message

SPEC = "human"


class HumanChatProvider(Provider):
    """A person at a terminal; see the module docstring."""

    name = SPEC
    capabilities = Capabilities(ping=True)
    model = SPEC
    max_concurrency = 1

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.reader: LineReader = reader_for(stdin or sys.stdin)
        self.stdout = stdout or sys.stdout
        self.endpoint = f"human:{id(self.reader)}"

    async def ping(self) -> None:
        """Nothing to check: the person is there or is recorded as silent."""

    async def complete(
        self, messages: Sequence[Message], schema: Mapping[str, Any] | None = None, **options: Any
    ) -> Completion:
        self.reader.drop_pending()
        prompt = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
        self.stdout.write(f"\n{printable(redact(prompt))}\n> ")  # others' words: shown, not obeyed
        self.stdout.flush()
        line = await self.reader.readline()
        if line is None:
            raise LLMError("the terminal closed")
        return Completion(line.strip())


def human_model(timeout: float, stdin: TextIO | None = None, stdout: TextIO | None = None) -> Model:
    """A person as a model: asked once (no retries), for at most ``timeout`` seconds."""
    provider = HumanChatProvider(stdin, stdout)
    return Model(
        provider, spec=SPEC, retry=RetryPolicy(retries=0, format_retries=0), timeout=timeout
    )
