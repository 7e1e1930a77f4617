"""The special_damage module on the clock over any host (seed 001): scoring, losses, aftermath."""
