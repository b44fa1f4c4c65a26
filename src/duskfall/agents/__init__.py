"""Agents: built-in bots per variant, LLM agents, humans, remote seats; and agent specs."""
