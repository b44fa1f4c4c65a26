"""The prompt checks of the kit: a seat is shown its whole history, and one clear contract.

* :func:`check_prompt_history`: at every decision of random games, every event the seat could
  see so far is in its prompt (its line verbatim for the current and previous day, its digest
  line for older days) and in its conversation (verbatim, or as the digest after a restart);
  no line of an event it could not see is; its system prompt never changes during the game.
* :func:`check_prompt_contract`: for every decision kind, the example answer's fields match the
  schema a model is asked in (:func:`~duskfall.core.llm_form.llm_schema`): each placeholder
  replaced by a value the schema allows, it validates; every real choice in it is a placeholder
  (no example names a legal target); and the prompts ask for no envelope field beyond
  ``reasoning`` and ``action``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from duskfall.core.events import Event, visible_to
from duskfall.core.llm_form import llm_schema
from duskfall.core.prompting import Entry, PromptKit, flatten, is_placeholder
from duskfall.core.rng import derive_rng
from duskfall.core.transcript import (
    build_sections,
    current_day,
    is_recent,
    stateless_prompts,
    system_prompt,
)
from duskfall.core.variant import State, Variant, parse_config
from duskfall.llm.conversation import SeatConversation
from duskfall.testing.playouts import MAX_STEPS

ANSWER = '{"reasoning": "", "action": {}}'
RETIRED_FIELDS = ("think", "says")


def kit_of(variant: Variant) -> PromptKit:
    kit = variant.info.prompt_kit
    if kit is None:
        raise AssertionError(f"variant {variant.id!r} declares no VariantInfo(prompt_kit=...)")
    return kit


def _games(
    variant: Variant, configs: Iterable[Mapping[str, Any]], seeds: Iterable[int]
) -> Iterator[Iterator[tuple[State, list[Event], int]]]:
    """Random games, each as (state, events so far, seat to act) before every decision."""
    seed_list = list(seeds)
    for config in configs:
        for seed in seed_list:
            yield _decisions(variant, config, seed)


def _decisions(
    variant: Variant, config: Mapping[str, Any], seed: int
) -> Iterator[tuple[State, list[Event], int]]:
    state = variant.new_game(parse_config(variant, config), seed)
    events = list(state.opening_events())
    rng = derive_rng(seed, "kit")
    for _ in range(MAX_STEPS):
        if state.outcome() is not None:
            return
        pending = state.pending()
        decision = pending[rng.randrange(len(pending))]
        yield state, events, decision.seat
        action = state.legal(decision.seat).sample(rng)
        events.extend(state.apply(decision.seat, action))


def split_seen(events: Sequence[Event], state: State, seat: int) -> tuple[list[Entry], list[Entry]]:
    """The rules events of ``events`` that ``seat`` could see, and those it could not."""
    channels = state.channels(seat)
    seen: list[Entry] = []
    unseen: list[Entry] = []
    for event in events:
        if event.source != "rules":
            continue
        (seen if visible_to(event, seat, channels) else unseen).append(flatten(event))
    return seen, unseen


def check_prompt_history(
    variant: Variant, configs: Iterable[Mapping[str, Any]], seeds: Iterable[int]
) -> int:
    """See the module docstring; returns how many decisions were checked."""
    kit = kit_of(variant)
    checked = 0
    for game in _games(variant, configs, seeds):
        systems: dict[int, str] = {}
        conversations: dict[int, SeatConversation] = {}
        for state, events, seat in game:
            obs, legal = state.observe(seat), state.legal(seat)
            seen, unseen = split_seen(events, state, seat)
            system, user = stateless_prompts(kit, obs, legal, seen)
            fixed = systems.setdefault(seat, system)
            assert system == fixed, f"seat {seat}'s system prompt changed during the game"
            conversation = conversations.setdefault(
                seat, SeatConversation(kit, functools.partial(system_prompt, kit))
            )
            talk = "\n".join(m["content"] for m in conversation.messages(obs, legal, seen))
            conversation.answered(ANSWER)
            check_shown(kit, obs, seat, seen, unseen, user, talk)
            checked += 1
    return checked


def check_shown(
    kit: PromptKit,
    obs: Mapping[str, Any],
    seat: int,
    seen: Sequence[Entry],
    unseen: Sequence[Entry],
    user: str,
    talk: str,
) -> None:
    """Every ``seen`` entry is in the stateless prompt ``user`` (verbatim for the current and
    previous day, as its digest before) and in the conversation ``talk``; no line of an
    ``unseen`` entry is in either."""
    sections = build_sections(kit, seen, obs)
    now = current_day(sections)
    shown: set[str] = set()
    for section in sections:
        for line in section.lines:
            want = line.text if is_recent(section, now) else line.summary
            assert want in user, f"seat {seat} is not shown {want!r}"
            assert line.text in talk or line.summary in talk, (
                f"seat {seat}'s conversation lacks {line.text!r}"
            )
            shown.update((line.text, line.summary))
    for entry in unseen:
        hidden = kit.line(entry, obs)
        if hidden is not None and hidden.text not in shown:
            assert hidden.text not in user and hidden.text not in talk, (
                f"seat {seat} is shown {hidden.text!r}, which it could not see"
            )


def check_prompt_contract(
    variant: Variant,
    configs: Iterable[Mapping[str, Any]],
    seeds: Iterable[int],
    per_kind: int = 5,
) -> set[str]:
    """See the module docstring; returns the decision kinds checked."""
    import jsonschema

    kit = kit_of(variant)
    counts: dict[str, int] = {}
    for state, events, seat in (item for game in _games(variant, configs, seeds) for item in game):
        legal = state.legal(seat)
        kind = legal.kind
        if counts.get(kind, 0) >= per_kind:
            continue
        counts[kind] = counts.get(kind, 0) + 1
        obs = state.observe(seat)
        schema = llm_schema(legal)
        for coaching in (False, True):
            example = kit.decision(obs, legal, coaching=coaching).example
            where = f"{variant.id} {kind} example {dict(example)!r}"
            for branch in _branches(schema):  # an anyOf of actions: the example fits each
                _check_choices_are_placeholders(example, branch, where)
                filled = _fill(example, branch, random.Random(0))
                try:
                    jsonschema.validate(filled, branch)
                except jsonschema.ValidationError as exc:
                    raise AssertionError(
                        f"{where} does not fit the schema: {exc.message}"
                    ) from None
        seen, _ = split_seen(events, state, seat)
        prompts = "\n".join(stateless_prompts(kit, obs, legal, seen))
        fields = set(schema.get("properties", {}))
        for name in RETIRED_FIELDS:
            if name not in fields:
                assert f'"{name}"' not in prompts, f"{variant.id} {kind} prompt asks for {name!r}"
    return set(counts)


def _branches(schema: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The object schemas of a decision: its ``anyOf``/``oneOf`` branches, or itself."""
    options = schema.get("anyOf") or schema.get("oneOf")
    if options and "properties" not in schema:
        return list(options)
    return [schema]


def _choices(schema: Mapping[str, Any]) -> list[Any] | None:
    """The values a schema allows when it lists them (const, enum, or anyOf of those)."""
    if "const" in schema:
        return [schema["const"]]
    if "enum" in schema:
        return list(schema["enum"])
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        found: list[Any] = []
        for option in options:
            values = _choices(option)
            if values is None:
                return None
            found.extend(values)
        return found
    if schema.get("type") == "null":
        return [None]
    return None


def _check_choices_are_placeholders(example: Any, schema: Mapping[str, Any], where: str) -> None:
    """A leaf of the example is a placeholder unless the schema allows it alone."""
    if is_placeholder(example):
        return
    if isinstance(example, Mapping):
        properties = schema.get("properties", {})
        unknown = set(example) - set(properties)
        assert not unknown, f"{where}: fields {sorted(unknown)} are not in the schema"
        missing = set(schema.get("required", ())) - set(example)
        assert not missing, f"{where}: required fields {sorted(missing)} are missing"
        for key, value in example.items():
            _check_choices_are_placeholders(value, properties[key], where)
        return
    if isinstance(example, list):
        for value in example:
            _check_choices_are_placeholders(value, schema.get("items", {}), where)
        return
    allowed = _choices(schema)
    assert allowed is not None and len(allowed) == 1 and allowed[0] == example, (
        f'{where}: {example!r} is a real choice; use a placeholder such as "<seat>"'
    )


def _fill(example: Any, schema: Mapping[str, Any], rng: random.Random) -> Any:
    """The example with each placeholder replaced by a value its schema allows."""
    if isinstance(example, Mapping):
        properties = schema.get("properties", {})
        return {key: _fill(value, properties.get(key, {}), rng) for key, value in example.items()}
    if isinstance(example, list):
        return [_fill(value, schema.get("items", {}), rng) for value in example]
    if not is_placeholder(example):
        return example
    return _value_for(schema, rng)


def _value_for(schema: Mapping[str, Any], rng: random.Random) -> Any:
    allowed = _choices(schema)
    if allowed:
        return rng.choice(allowed)
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        return _value_for(options[0], rng)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "integer":
        return int(schema.get("minimum", 0))
    if kind == "number":
        return float(schema.get("minimum", 0))
    if kind == "boolean":
        return True
    if kind == "string":
        return "x" * int(schema.get("minLength", 1))
    if kind == "array":
        return [_value_for(schema.get("items", {}), rng) for _ in range(schema.get("minItems", 0))]
    if kind == "null":
        return None
    return {}
