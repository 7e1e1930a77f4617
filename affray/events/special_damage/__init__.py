"""The special_damage module's vocabulary (seed 001): its event kinds and what they establish."""
