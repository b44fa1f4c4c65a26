"""The documented recipe for serving the bundled model over HTTP (``python -m llama_cpp.server``
with ``--chat_format gemma`` and duskfall's ``fold_system``): legal, complete replies without
chat-template debris, one request at a time learnt from the server, the output form and the
seed recorded."""

from __future__ import annotations

import asyncio
import json

import pytest

from duskfall.core.events import Event
from duskfall.core.registry import get_variant
from duskfall.core.variant import parse_config
from duskfall.llm import CallOptions, CallRecord, get_model
from duskfall.llm.endpoints import endpoint_state, forget_endpoints
from duskfall.llm.envelope import envelope_schema
from duskfall.runtime.parsing import decode_reply
from duskfall.testing.llama_server import AGENT_OPTIONS, LlamaServer
from duskfall.testing.require import require

DEBRIS = ("[INST]", "[/INST]", "<<SYS>>", "</SYS>", "<start_of_turn>", "<end_of_turn>")


@pytest.mark.llm
@pytest.mark.subprocess
async def test_the_bundled_model_served_by_llama_cpp_server_answers_cleanly() -> None:
    require("llama_cpp.server", "pip install 'duskfall[all]'")
    forget_endpoints()
    variant = get_variant("werewolf")
    state = variant.new_game(parse_config(variant, {"preset": "werewolf-6"}), 1)
    seat = state.pending()[0].seat
    print("starting python -m llama_cpp.server with the bundled model (the docs' recipe)")
    with LlamaServer(threads=1) as server:  # one thread: robust on a shared, busy machine
        model = get_model(server.agent_spec.removeprefix("llm:"), fold_system=True, timeout=300)
        events: list[Event] = []

        async def ask(seed: int) -> str:
            legal = state.legal(seat)
            system, user = variant.render_prompts(state.observe(seat), legal, None)
            messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
            schema = envelope_schema(legal.schema(), AGENT_OPTIONS["reasoning_chars"])
            options = CallOptions(max_tokens=AGENT_OPTIONS["max_tokens"], seed=seed)
            reply = await model.complete(
                messages, schema, options=options, record=CallRecord(events.append, seat=seat)
            )
            legal.parse(decode_reply(reply.text).action)  # a legal action, or IllegalAction
            return reply.text

        print(f"asking seat {seat} twice at once (seeds 1 and 2)")
        replies = await asyncio.gather(ask(1), ask(2))
    assert all(json.loads(r)["action"] for r in replies)
    assert not [r for r in replies if any(d in r for d in DEBRIS)]
    assert endpoint_state(model.provider.endpoint).limit(16) == 1  # it serves one at a time
    assert {e.payload["output_form"] for e in events} == {"json_object"}
    assert sorted(e.payload["sampling"]["seed"] for e in events) == [1, 2]
    assert max(e.payload["queue_s"] for e in events) > 0  # the second waited in duskfall's queue
    forget_endpoints()
