"""The shape a language model is asked to answer a decision in.

A legal view's ``schema()`` is its wire form: what every action's ``to_dict()`` satisfies and
what a strict server holds protocol clients to. A view may also offer ``llm_schema()``: a shape
easier for a model to write and for a JSON-schema grammar to enforce (small choices as enums,
short lists instead of matrices), which its ``parse()`` accepts as well as the wire form.
:func:`llm_schema` is the schema to ask a model in; the wire form never changes.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from duskfall.core.legal import LegalActions


@runtime_checkable
class HasLLMSchema(Protocol):
    """A legal view with its own LLM-facing action shape."""

    def llm_schema(self) -> dict[str, Any]: ...


def llm_schema(legal: LegalActions) -> dict[str, Any]:
    """The view's LLM-facing schema where it has one, else its wire schema."""
    if isinstance(legal, HasLLMSchema):
        return legal.llm_schema()
    return legal.schema()
