"""Prices per million tokens, used to put a cost on every call. Users can add their own.

Prices are matched on the model name by longest prefix, so ``gpt-4o-mini-2024-07-18`` finds
``gpt-4o-mini``. A price registered for ``provider:model`` wins over the bare model name.
Unknown models (and the embedded local model) cost nothing. Prompt tokens read from the
provider's cache are billed at the cached-input price and those written to it at the
cache-write price (both default to the input price).
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, replace

from duskfall.llm.types import Usage


@dataclass(frozen=True, slots=True)
class Price:
    """US dollars per million input (prompt) and output (completion) tokens; prompt tokens
    read from the provider's cache and written to it may have their own prices (``None``:
    the input price)."""

    input_per_mtok: float
    output_per_mtok: float
    cached_input_per_mtok: float | None = None
    cache_write_per_mtok: float | None = None

    def cost(self, usage: Usage) -> float:
        """What ``usage`` costs at these prices."""
        fresh = usage.prompt_tokens - usage.cached_tokens - usage.cache_write_tokens
        return (
            fresh * self.input_per_mtok
            + usage.cached_tokens * _or(self.cached_input_per_mtok, self.input_per_mtok)
            + usage.cache_write_tokens * _or(self.cache_write_per_mtok, self.input_per_mtok)
            + usage.completion_tokens * self.output_per_mtok
        ) / 1e6


def _or(price: float | None, default: float) -> float:
    return default if price is None else price


# Published list prices (USD per 1M tokens: input, output, cached input, cache write) at the
# time of writing; override as they change. OpenAI caches on its own and bills no writes;
# Anthropic bills cache reads at a tenth of the input price and 5-minute writes at 1.25 times.
_PRICES: dict[str, Price] = {
    "gpt-4o-mini": Price(0.15, 0.60, 0.075),
    "gpt-4o": Price(2.50, 10.00, 1.25),
    "gpt-4.1-nano": Price(0.10, 0.40, 0.025),
    "gpt-4.1-mini": Price(0.40, 1.60, 0.10),
    "gpt-4.1": Price(2.00, 8.00, 0.50),
    "o3-mini": Price(1.10, 4.40, 0.55),
    "o4-mini": Price(1.10, 4.40, 0.275),
    "claude-3-haiku": Price(0.25, 1.25, 0.03, 0.30),
    "claude-3-5-haiku": Price(0.80, 4.00, 0.08, 1.00),
    "claude-haiku-4-5": Price(1.00, 5.00, 0.10, 1.25),
    "claude-3-5-sonnet": Price(3.00, 15.00, 0.30, 3.75),
    "claude-3-7-sonnet": Price(3.00, 15.00, 0.30, 3.75),
    "claude-sonnet-4": Price(3.00, 15.00, 0.30, 3.75),
    "claude-opus-4": Price(15.00, 75.00, 1.50, 18.75),
}


def register_price(
    model: str,
    input_per_mtok: float,
    output_per_mtok: float,
    cached_input_per_mtok: float | None = None,
    cache_write_per_mtok: float | None = None,
) -> None:
    """Set the price of ``model`` (a name prefix, optionally ``provider:name``); cached
    input and cache writes cost the input price unless given."""
    price = Price(input_per_mtok, output_per_mtok, cached_input_per_mtok, cache_write_per_mtok)
    if any(value is not None and value < 0 for value in astuple(price)):
        raise ValueError("prices cannot be negative")
    _PRICES[model] = price


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
    return replace(usage, cost_usd=price.cost(usage))
