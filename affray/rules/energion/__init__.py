"""The Energion second-by-second combat rules (seed 002)."""
