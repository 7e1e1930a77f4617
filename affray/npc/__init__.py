"""Controllers that pick the next intent for a combatant."""
