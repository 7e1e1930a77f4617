"""The fivestep ruleset on the clock (seed 000): rounds, turns and attacks as SimPy processes."""
