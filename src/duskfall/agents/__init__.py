"""Agents: the LLM agent, the deliberating agent (``cognitive/``), people at a terminal,
``mix:`` agents of known strength, and agent specs (``random``, ``heuristic``, ``llm:...``)
that pick a participant per seat; a variant's own bots live in its package."""
