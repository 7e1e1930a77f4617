"""Reading logs: rebuild state, verify, narrate."""
