"""Pure rules, one package per ruleset."""
