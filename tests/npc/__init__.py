"""Tests for the controllers, per ruleset."""
