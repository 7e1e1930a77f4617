"""Machinery that knows no ruleset: the encounter and its clock, dice streams, space, the fold over a
vocabulary, the scenario machinery, and the Ruleset, Module and Battle interfaces."""
