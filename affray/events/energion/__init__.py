"""The Energion ruleset's vocabulary (seed 002): its event kinds and the state they establish."""
