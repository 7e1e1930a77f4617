"""Tests for the Energion narration."""
