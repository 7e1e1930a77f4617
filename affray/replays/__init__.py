"""Reading logs, for every ruleset: rebuild state, narrate, show the state, verify."""
