"""The five-step ruleset's vocabulary (seed 000): its event kinds and the state they establish."""
