"""Tests for the NPC controllers."""
