"""The contract every ruleset keeps, run over every registered ruleset (the toy of tests/toy included)."""
