"""Simulation: many games in parallel worker processes, with win-rate statistics."""
