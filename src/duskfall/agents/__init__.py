"""Agents: built-in bots per variant, LLM agents, humans; and agent specs."""
