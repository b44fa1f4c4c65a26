"""Prices per million tokens, used to put a cost on every call. Users can add their own.

Providers declare the list prices of the models they serve (``Provider.prices``); prices
are matched on the model name by longest prefix, so ``gpt-4o-mini-2024-07-18`` finds
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


# Prices set by the user (the config file's ``[prices]``, :func:`register_price`); the list
# prices of known models are declared by their providers (``Provider.prices``).
_PRICES: dict[str, Price] = {}


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
    """The price for ``model`` served by ``provider``, or None if unknown: the user's
    ``provider:model`` price, else the longest matching name prefix among the user's prices
    and the list prices providers declare."""
    from duskfall.llm.registry import declared_prices  # the registry builds on this module

    table = {**declared_prices(provider), **_PRICES}
    for key in (f"{provider}:{model}", model):
        best = max((k for k in table if key.startswith(k)), key=len, default=None)
        if best is not None:
            return table[best]
    return None


def priced(usage: Usage, provider: str, model: str) -> Usage:
    """``usage`` with its cost filled in from the table (a provider's own cost is kept)."""
    if usage.cost_usd:
        return usage
    price = price_of(provider, model)
    if price is None:
        return usage
    return replace(usage, cost_usd=price.cost(usage))
