"""Fivestep controllers: the steps a character declares for its turn (rule F7)."""
