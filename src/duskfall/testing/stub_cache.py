"""The prompt caches a :class:`~duskfall.testing.stub_server.StubServer` pretends to have.

Token counts are the provider-independent estimate (:func:`~duskfall.llm.types.approx_tokens`).

* :class:`AutomaticCache`, as OpenAI-compatible servers: every request's message prefixes are
  kept, and a request reads the longest one it starts with.
* :class:`BreakpointCache`, as Anthropic's Messages API: a request's content (tools, system
  blocks, message blocks) is kept up to each block marked with ``cache_control`` (at most
  four marks); a request reads the longest kept prefix that ends at or before its last mark,
  and writes what lies between that and its last mark.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.llm.types import approx_tokens

MAX_BREAKPOINTS = 4


class TooManyBreakpoints(ValueError):
    """A request marked more blocks with ``cache_control`` than the API allows."""


@dataclass(frozen=True)
class Block:
    """One unit of a prompt: who says it, its text, and whether a cache breakpoint ends it."""

    role: str
    text: str
    breakpoint: bool = False


def _digests(blocks: Sequence[Block]) -> list[str]:
    """The digest of each prefix ``blocks[: i + 1]`` (marks left out: they change no content)."""
    running = hashlib.sha256()
    out = []
    for block in blocks:
        running.update(json.dumps([block.role, block.text]).encode())
        out.append(running.copy().hexdigest())
    return out


def _tokens(blocks: Iterable[Block]) -> int:
    return sum(approx_tokens(block.text) for block in blocks)


@dataclass
class AutomaticCache:
    """Every message prefix seen is cached."""

    seen: set[str] = field(default_factory=set)

    def read(self, messages: Sequence[Mapping[str, Any]]) -> int:
        """The cached tokens of a request with ``messages``, which are then cached too."""
        blocks = [Block(str(m.get("role")), str(m.get("content", ""))) for m in messages]
        digests = _digests(blocks)
        hit = max((i + 1 for i, d in enumerate(digests) if d in self.seen), default=0)
        self.seen.update(digests)
        return _tokens(blocks[:hit])


@dataclass
class BreakpointCache:
    """Prefixes are cached where requests mark them."""

    written: set[str] = field(default_factory=set)

    def read_write(self, blocks: Sequence[Block]) -> tuple[int, int]:
        """Tokens of a request read from the cache and written to it."""
        marks = [i for i, block in enumerate(blocks) if block.breakpoint]
        if len(marks) > MAX_BREAKPOINTS:
            raise TooManyBreakpoints(
                f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided. "
                f"Found {len(marks)}."
            )
        if not marks:
            return 0, 0
        digests = _digests(blocks)
        last = marks[-1]
        hit = max((i + 1 for i in range(last + 1) if digests[i] in self.written), default=0)
        self.written.update(digests[i] for i in marks)
        return _tokens(blocks[:hit]), _tokens(blocks[hit : last + 1])


def anthropic_blocks(request: Mapping[str, Any]) -> list[Block]:
    """The blocks of a Messages API request, in cache order: tools, system, messages."""
    blocks = [
        Block("tool", json.dumps(_unmarked(tool), sort_keys=True), "cache_control" in tool)
        for tool in request.get("tools") or []
    ]
    blocks += _content_blocks("system", request.get("system") or [])
    for message in request.get("messages") or []:
        blocks += _content_blocks(str(message.get("role")), message.get("content") or [])
    return blocks


def _unmarked(block: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in block.items() if key != "cache_control"}


def _content_blocks(role: str, content: str | Sequence[Mapping[str, Any]]) -> list[Block]:
    if isinstance(content, str):
        return [Block(role, content)]
    return [Block(role, str(b.get("text", "")), "cache_control" in b) for b in content]
