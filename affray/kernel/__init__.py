"""The clock and the loop: the encounter, dice streams, state and its fold."""
