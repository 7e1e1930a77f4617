"""Timed actions as SimPy processes, per ruleset: they roll dice, call rules and emit events."""
