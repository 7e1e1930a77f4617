"""Tests for the special_damage module on the clock (over Energion scenarios)."""
