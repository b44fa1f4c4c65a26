"""Reshaping a chat for backends that lack a role."""

from __future__ import annotations

from collections.abc import Sequence

from duskfall.llm.types import Message


def fold_system(messages: Sequence[Message]) -> list[Message]:
    """Move system text into the first user turn, for chat templates without a system role
    (llama.cpp's ``gemma`` format drops system turns; a template may reject them)."""
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    rest = [m for m in messages if m["role"] != "system"]
    if not system:
        return rest
    if rest and rest[0]["role"] == "user":
        first: Message = {"role": "user", "content": f"{system}\n\n{rest[0]['content']}"}
        return [first, *rest[1:]]
    return [{"role": "user", "content": system}, *rest]
