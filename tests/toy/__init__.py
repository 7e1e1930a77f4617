"""The toy ruleset: a fourth ruleset made of new files only, the worked example of docs/extending.md.

Two or more fighters on sides trade swings on the clock: each swings every ``speed`` seconds at the
nearest standing enemy, hitting on a d20 at or under its ``skill`` for a d6 of damage, until one side
stands. It is registered by the tests (``affray.rulesets.register(RULESET)``) or found through an
``affray.rulesets`` entry point, and runs through the contract suite and the ``affray`` command like the
built-in rulesets.
"""

from __future__ import annotations

from tests.toy.ruleset import RULESET

__all__ = ["RULESET"]
