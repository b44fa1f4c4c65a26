"""A call's cost: the price of a model served by a provider, put on the call's usage.

The user's prices (:func:`duskfall.llm.prices.register_price`, the config file's ``[prices]``)
win over the list prices providers declare (:func:`duskfall.llm.provider_kinds.declared_prices`);
a name matches its longest price prefix.
"""

from __future__ import annotations

from dataclasses import replace

from duskfall.llm.prices import _PRICES, Price
from duskfall.llm.provider_kinds import declared_prices
from duskfall.llm.types import Usage


def price_of(provider: str, model: str) -> Price | None:
    """The price for ``model`` served by ``provider``, or None if unknown: the user's
    ``provider:model`` price, else the longest matching name prefix among the user's prices
    and the list prices providers declare."""
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
