"""Simulation and tournaments: many games, in parallel, with statistics."""
