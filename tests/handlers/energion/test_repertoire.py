"""Each Energion intent declared once (affray/handlers/energion/repertoire.py): the menu, the legal intents
and the carrying out are derived from the declarations."""

from __future__ import annotations

from affray.events.energion.intents import INTENTS
from affray.handlers.energion.repertoire import REPERTOIRE, RULES_OF


def test_every_intent_a_controller_may_return_is_declared() -> None:
    assert set(RULES_OF) == set(INTENTS)


def test_no_intent_is_declared_twice() -> None:
    assert len(REPERTOIRE) == len(RULES_OF)


def test_an_intent_offered_once_is_not_aimed_at_a_combatant() -> None:
    # an aimed intent needs an enemy to aim at, which only the per-enemy offers are given
    assert [rules.kind.__name__ for rules in REPERTOIRE if rules.aimed and not rules.per_enemy] == []
