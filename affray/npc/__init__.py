"""Controllers that pick the next intent for a combatant from a frozen view; per ruleset, with the roster
and targeting shared."""
