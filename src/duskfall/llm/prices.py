"""Prices per million tokens, used to put a cost on every call. Users can add their own.

Prices are matched on the model name by longest prefix, so ``gpt-4o-mini-2024-07-18`` finds
``gpt-4o-mini``. A price registered for ``provider:model`` wins over the bare model name.
Unknown models (and the embedded local model) cost nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from duskfall.llm.types import Usage


@dataclass(frozen=True, slots=True)
class Price:
    """US dollars per million input (prompt) and output (completion) tokens."""

    input_per_mtok: float
    output_per_mtok: float

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (
            prompt_tokens * self.input_per_mtok + completion_tokens * self.output_per_mtok
        ) / 1e6


# Published list prices (USD per 1M tokens) at the time of writing; override as they change.
_PRICES: dict[str, Price] = {
    "gpt-4o-mini": Price(0.15, 0.60),
    "gpt-4o": Price(2.50, 10.00),
    "gpt-4.1-nano": Price(0.10, 0.40),
    "gpt-4.1-mini": Price(0.40, 1.60),
    "gpt-4.1": Price(2.00, 8.00),
    "o3-mini": Price(1.10, 4.40),
    "o4-mini": Price(1.10, 4.40),
    "claude-3-haiku": Price(0.25, 1.25),
    "claude-3-5-haiku": Price(0.80, 4.00),
    "claude-haiku-4-5": Price(1.00, 5.00),
    "claude-3-5-sonnet": Price(3.00, 15.00),
    "claude-3-7-sonnet": Price(3.00, 15.00),
    "claude-sonnet-4": Price(3.00, 15.00),
    "claude-opus-4": Price(15.00, 75.00),
}


def register_price(model: str, input_per_mtok: float, output_per_mtok: float) -> None:
    """Set the price of ``model`` (a name prefix, optionally ``provider:name``)."""
    if input_per_mtok < 0 or output_per_mtok < 0:
        raise ValueError("prices cannot be negative")
    _PRICES[model] = Price(input_per_mtok, output_per_mtok)


def price_of(provider: str, model: str) -> Price | None:
    """The price for ``model`` served by ``provider``, or None if unknown."""
    for key in (f"{provider}:{model}", model):
        best = max((k for k in _PRICES if key.startswith(k)), key=len, default=None)
        if best is not None:
            return _PRICES[best]
    return None


def priced(usage: Usage, provider: str, model: str) -> Usage:
    """``usage`` with its cost filled in from the table (a provider's own cost is kept)."""
    if usage.cost_usd:
        return usage
    price = price_of(provider, model)
    if price is None:
        return usage
    cost = price.cost(usage.prompt_tokens, usage.completion_tokens)
    return Usage(usage.prompt_tokens, usage.completion_tokens, cost)
