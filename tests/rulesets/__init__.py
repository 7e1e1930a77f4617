"""Tests for the rulesets layer: each ruleset's narration and state display."""
