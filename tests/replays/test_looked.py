"""A state's combatants noting those looked up (affray.replays.looked): what the page's frames and the
timeline's health look at after each event."""

from __future__ import annotations

from affray.replays.looked import Looked


def looked(*ids: str) -> Looked:
    combatants = Looked()
    for combatant in ids:
        dict.__setitem__(combatants, combatant, object())
    return combatants


def test_a_combatant_looked_up_by_key_or_get_is_noted() -> None:
    combatants = looked("a", "b", "c")
    _ = combatants["a"]
    combatants.get("b")
    assert combatants.fresh() == ({"a", "b"}, False)


def test_a_combatant_set_is_noted() -> None:
    combatants = looked()
    combatants["a"] = object()
    assert combatants.fresh() == ({"a"}, False)


def test_looking_at_every_combatant_is_noted_as_everyone() -> None:
    combatants = looked("a", "b")
    list(combatants.values())
    assert combatants.fresh() == (set(), True)


def test_fresh_starts_the_noting_anew() -> None:
    combatants = looked("a")
    _ = combatants["a"]
    combatants.fresh()
    assert combatants.fresh() == (set(), False)
