"""Every kind of every built-in ruleset and module is explained under its rule ids (``affray explain``)."""

from __future__ import annotations

import pytest

from affray import rulesets
from affray.events.state import SHARED
from affray.kernel.ruleset import Reading


@pytest.mark.parametrize("name", sorted(rulesets.BUILT_IN_RULESETS))
def test_every_kind_of_a_built_in_ruleset_has_an_explainer(name: str) -> None:
    ruleset = rulesets.ruleset(name)
    reading = Reading(ruleset=ruleset, modules=tuple(map(rulesets.module, ruleset.modules)))
    kinds = set(ruleset.vocabulary(ruleset.modules).kinds) - set(SHARED.appliers)
    assert kinds - set(reading.explainers()) == set()
