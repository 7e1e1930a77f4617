"""The nearest-enemy controller: whom it picks, and whether it attacks or approaches."""

from __future__ import annotations

from decimal import Decimal

import msgspec

from affray.events.energion.state import EnergionCombatant, EnergionState
from affray.npc.energion.intents import Approach, Attack, BreakHold, Intent
from affray.npc.energion.nearest import NearestEnemy
from affray.npc.energion.view import ArmView
from tests.npc.energion import view_of

REACH = Decimal(1)


def person(id: str, side: str, x: str, y: str = "0", *, out: bool = False) -> EnergionCombatant:
    return EnergionCombatant(
        id=id,
        name=id.title(),
        side=side,
        damage_points=Decimal(30),
        position=(Decimal(x), Decimal(y)),
        weapon="Sword, Long",
        armor="Cloth",
        weapon_ready=True,
        readied=True,
        out=out,
    )


def sword(reach: Decimal = REACH, uses_left: int | None = None) -> ArmView:
    """A melee weapon in hand with ``reach``; ``uses_left`` counts throws left (None: unlimited)."""
    return ArmView(
        index=0,
        name="Sword, Long",
        mode="melee" if uses_left is None else "hurled",
        reach=reach,
        ranges=(int(reach), 2, 0, 0, 0),
        speed_ms=8000,
        uses_left=uses_left,
    )


def decide(
    me: EnergionCombatant, *others: EnergionCombatant, reach: Decimal = REACH, arm: ArmView | None = None
) -> Intent | None:
    """What ``me`` does among ``others`` (kept in the given order, as the scenario's file order)."""
    state = EnergionState(combatants={c.id: c for c in (me, *others)})
    return NearestEnemy().decide(view_of(me, state, arms=(arm or sword(reach),), now=0))


def test_nearest_standing_enemy_is_chosen() -> None:
    intent = decide(person("me", "ford", "0"), person("far", "raiders", "5"), person("near", "raiders", "3"))
    assert isinstance(intent, Attack | Approach)
    assert intent.target == "near"


def test_tie_goes_to_the_enemy_listed_first() -> None:
    # both 3 m away; "zed" is listed before "abe", so file order (not the id) decides
    intent = decide(
        person("me", "ford", "0"), person("zed", "raiders", "3"), person("abe", "raiders", "0", "3")
    )
    assert isinstance(intent, Attack | Approach)
    assert intent.target == "zed"


def test_allies_are_ignored() -> None:
    intent = decide(person("me", "ford", "0"), person("friend", "ford", "1"), person("foe", "raiders", "4"))
    assert isinstance(intent, Attack | Approach)
    assert intent.target == "foe"


def test_out_enemies_are_ignored() -> None:
    intent = decide(
        person("me", "ford", "0"), person("fallen", "raiders", "1", out=True), person("foe", "raiders", "4")
    )
    assert isinstance(intent, Attack | Approach)
    assert intent.target == "foe"


def test_nothing_to_do_without_a_standing_enemy() -> None:
    assert decide(person("me", "ford", "0"), person("fallen", "raiders", "1", out=True)) is None


def test_enemy_within_reach_is_attacked() -> None:
    # exactly at reach (1.000 m) counts as within it
    intent = decide(person("me", "ford", "0"), person("foe", "raiders", "1"))
    assert isinstance(intent, Attack)
    assert intent.reason == "nearest enemy, 1.000 m away, within reach 1 m"


def test_enemy_beyond_reach_is_approached() -> None:
    intent = decide(person("me", "ford", "0"), person("foe", "raiders", "1.001"))
    assert isinstance(intent, Approach)
    assert intent.reason == "nearest enemy, 1.001 m away, beyond reach 1 m"


def test_longer_reach_attacks_from_further_away() -> None:
    # ruling 11: a weapon with PTB 5 reaches 5 m
    intent = decide(person("me", "ford", "0"), person("foe", "raiders", "3", "4"), reach=Decimal(5))
    assert isinstance(intent, Attack)


def test_spent_weapon_leaves_nothing_to_do() -> None:
    # a hurled weapon with no throws left: NearestEnemy never changes weapons, so it stops acting
    assert decide(person("me", "ford", "0"), person("foe", "raiders", "1"), arm=sword(uses_left=0)) is None


def test_weapon_not_ready_leaves_nothing_to_do() -> None:
    me = msgspec.structs.replace(person("me", "ford", "0"), weapon_ready=False)
    assert decide(me, person("foe", "raiders", "1")) is None


def test_tries_to_break_a_hold_it_is_in() -> None:
    # rule E15: a held combatant may do nothing else
    me = msgspec.structs.replace(person("me", "ford", "0"), held_by="foe", hold="Full Hold")
    intent = decide(me, person("foe", "raiders", "1"))
    assert isinstance(intent, BreakHold)
    assert intent.reason == "held by foe"


def decide_with_priority(
    me: EnergionCombatant, *others: EnergionCombatant, priority: tuple[str, ...]
) -> Intent | None:
    state = EnergionState(combatants={c.id: c for c in (me, *others)})
    return NearestEnemy().decide(view_of(me, state, arms=(sword(),), now=0, priority=priority))


def test_a_standing_priority_target_comes_before_the_nearest_enemy() -> None:
    intent = decide_with_priority(
        person("me", "ford", "0"),
        person("near", "raiders", "1"),
        person("vault", "raiders", "9"),
        priority=("vault",),
    )
    assert isinstance(intent, Approach)
    assert intent.target == "vault"


def test_a_fallen_priority_target_gives_way_to_the_nearest_enemy() -> None:
    intent = decide_with_priority(
        person("me", "ford", "0"),
        person("near", "raiders", "1"),
        person("vault", "raiders", "9", out=True),
        priority=("vault",),
    )
    assert isinstance(intent, Attack)
    assert intent.target == "near"


def test_an_unconscious_enemy_is_passed_over() -> None:
    # S4: unconscious until 60 s: it neither acts nor is chosen while it lasts
    sleeper = msgspec.structs.replace(person("sleeper", "raiders", "1"), conditions={"unconscious": 60000})
    intent = decide(person("me", "ford", "0"), sleeper, person("foe", "raiders", "4"))
    assert isinstance(intent, Approach)
    assert intent.target == "foe"
