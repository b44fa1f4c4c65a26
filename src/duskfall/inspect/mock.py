"""``duskfall/scripted``: an inspect_ai model that answers every duskfall decision offline.

``inspect eval duskfall/werewolf --model duskfall/scripted`` plays real games with no network
and no download: each reply is a valid instance of the request's JSON schema, chosen by a
hash of the conversation (and of ``-M seed=N``), as the ``llm:scripted`` model of duskfall
chooses it; its usage is counted by duskfall's estimate (inspect's own count, and its mock
model's, needs tiktoken's data from the network). It is the example to try a task with, and
what the tests run tasks against.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from duskfall.llm.schema import example
from duskfall.llm.types import approx_tokens

PLAIN_REPLY = "I have nothing to add."


class ScriptedAPI(ModelAPI):
    """Schema-valid replies chosen from the request (module docstring)."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        seed: int = 0,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())
        self.seed = int(seed)

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        texts = [message.text for message in input]
        digest = hashlib.sha256(json.dumps([self.seed, texts]).encode()).digest()
        schema = config.response_schema
        if schema is None:
            reply = PLAIN_REPLY
        else:
            shape = schema.json_schema.model_dump(exclude_none=True)
            reply = json.dumps(example(shape, random.Random(digest)))
        output = ModelOutput.from_content(self.model_name, reply)
        prompt = sum(approx_tokens(text) for text in texts)
        completion = approx_tokens(reply)
        output.usage = ModelUsage(
            input_tokens=prompt, output_tokens=completion, total_tokens=prompt + completion
        )
        return output

    async def count_text_tokens(self, text: str) -> int:
        return approx_tokens(text)
