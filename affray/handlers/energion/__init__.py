"""The Energion ruleset on the clock (seed 002): the battle, each combatant's process, its actions."""
