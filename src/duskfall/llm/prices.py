"""Prices per million tokens, used to put a cost on every call. Users can add their own.

Providers declare the list prices of the models they serve (``Provider.prices``); prices
are matched on the model name by longest prefix, so ``gpt-4o-mini-2024-07-18`` finds
``gpt-4o-mini``. A price registered for ``provider:model`` wins over the bare model name.
Unknown models (and the embedded local model) cost nothing. Prompt tokens read from the
provider's cache are billed at the cached-input price and those written to it at the
cache-write price (both default to the input price). This module holds a price and the
user's table; :mod:`duskfall.llm.pricing` looks a model's price up and puts it on a call.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass

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
