"""Tests for the handlers layer, per ruleset."""
