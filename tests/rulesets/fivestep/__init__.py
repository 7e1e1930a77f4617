"""Tests of the fivestep ruleset's value: how its encounters are shown."""
