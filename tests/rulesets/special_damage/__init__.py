"""Tests for the special_damage module's narration."""
