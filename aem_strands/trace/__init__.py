"""Trajectory evaluation (SPEC §9): how the agent got there, from a trace, with or without gold."""
