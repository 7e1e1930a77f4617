"""Timed actions as SimPy processes: they roll dice, call rules and emit events."""
