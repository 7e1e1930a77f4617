"""Hit locations on the clock (rules E20, E22) and unaware targets (E24): the location rolled before the
quality, bare locations on the Cloth column, location damage and what a disabled part does.

``a`` (skill 60, stats 100: every bonus 0) strikes bare-handed (Hand: type 17, damage 4); ``b`` stands 1 m
away with 10 damage points (shares: head 2.5, chest 4, arm 2, leg 3). Dice: the hit roll, then the location.
"""

from __future__ import annotations

from decimal import Decimal

from affray.events.energion.kinds import AttackResolved, LocationDisabled
from affray.events.shared import ActionRefused, CombatantOut, Moved
from affray.handlers.energion.scenario import EnergionScenario
from affray.kernel.encounter import Encounter
from affray.npc.energion.intents import Approach, Attack, ChangeWeapon, Intent, Wait
from tests.handlers.energion import TomlValue, fighter, of_kind, run, scenario

HAND: list[TomlValue] = [{"name": "Hand"}]
LOCATIONS: dict[str, TomlValue] = {"hit_locations": True}


def target(**fields: TomlValue) -> dict[str, TomlValue]:
    spec: dict[str, TomlValue] = {
        "weapons": HAND,
        "position": [1, 0],
        "prepared": True,
        "damage_points": 10,
        "armor": "Chain Suit",
        **fields,
    }
    return fighter("b", "raiders", **spec)


def fight(*rolls: int, b: dict[str, TomlValue] | None = None, seconds: int = 4) -> EnergionScenario:
    a = fighter("a", "ford", prepared=True, weapons=HAND)
    return scenario(a, b or target(), rolls=list(rolls), max_seconds=seconds, options=LOCATIONS)


def blow() -> Attack:
    return Attack(target="b", reason="r")


def test_a_bare_head_takes_the_cloth_columns_resistance() -> None:
    # rules E20, E22: location 7 = head, unarmored -> Cloth vs 17 = 8 (not the Chain Suit's 45);
    # 60 - 8 - 50 = quality 2
    encounter, _ = run(fight(50, 7, b=target(unarmored=["head"])), a=[blow()])
    (hit,) = of_kind(encounter, AttackResolved)
    assert hit.hit.location_roll is not None
    assert (hit.hit.location, hit.hit.location_roll.purpose, hit.hit.location_armored) == (
        "head",
        "location",
        False,
    )
    assert (hit.hit.armor_value, hit.hit.quality) == (8, Decimal(2))


def test_an_armored_location_takes_the_armors_resistance() -> None:
    # rule E20: location 20 = chest, covered -> Chain Suit vs 17 = 45; 60 - 45 - 10 = quality 5
    encounter, _ = run(fight(10, 20, b=target(unarmored=["head"])), a=[blow()])
    (hit,) = of_kind(encounter, AttackResolved)
    assert (hit.hit.location, hit.hit.location_armored, hit.hit.armor_value, hit.hit.quality) == (
        "chest",
        True,
        45,
        Decimal(5),
    )


def test_damage_counts_against_its_location() -> None:
    # rule E20: Cloth vs 17 = 8; 60 - 8 - 42 = 10 -> x0.2 of 4 = 0.8 to the abdomen (location 40)
    encounter, _ = run(fight(42, 40, b=target(armor="Cloth")), a=[blow()])
    assert encounter.state.combatants["b"].location_damage == {"abdomen": Decimal("0.8")}


def test_a_head_wound_reaching_its_share_is_mortal() -> None:
    # rule E20: head share 25% of 10 = 2.5; 60 - 8 - 2 = 50 -> x0.6 of 4 = 2.4 (not yet), then
    # 60 - 8 - 42 = 10 -> x0.2 of 4 = 0.8: 3.2 >= 2.5 -> death, with 6.8 DP still left
    encounter, _ = run(fight(2, 5, 42, 5, b=target(armor="Cloth")), a=[blow(), blow()])
    (disabled,) = of_kind(encounter, LocationDisabled)
    assert (disabled.location, disabled.effect, disabled.damage, disabled.share) == (
        "head",
        "dead",
        Decimal("3.2"),
        Decimal("2.5"),
    )
    (out,) = of_kind(encounter, CombatantOut)
    assert (out.combatant, out.reason) == ("b", "head wound of 3.2 damage points: death")


def right_arm_hit(b_intents: list[Intent]) -> Encounter:
    """b (listed first, so its hand is ready before a strikes) loses its right arm at 0 s: arm share 20% of
    10 = 2; 60 - 8 - 2 = 50 -> x0.6 of 4 = 2.4 >= 2 at location 55."""
    a = fighter("a", "ford", prepared=True, weapons=HAND)
    built = scenario(target(armor="Cloth"), a, rolls=[2, 55], max_seconds=4, options=LOCATIONS)
    encounter, _ = run(built, a=[blow()], b=[Wait(seconds=1, reason="r"), *b_intents])
    return encounter


def test_an_unusable_right_arm_drops_the_weapon() -> None:
    # rule E20 (ruling 40)
    encounter = right_arm_hit([])
    (disabled,) = of_kind(encounter, LocationDisabled)
    assert (disabled.location, disabled.effect) == ("right arm", "unusable")
    assert not encounter.state.combatants["b"].weapon_ready


def test_an_unusable_right_arm_refuses_attacks_and_weapon_changes() -> None:
    # rule E20 (ruling 40)
    encounter = right_arm_hit(
        [Attack(target="a", reason="r"), ChangeWeapon(index=0, method="drop_and_grab", reason="r")]
    )
    assert [(e.t, e.action, e.reason) for e in of_kind(encounter, ActionRefused)] == [
        (1000, "attack a", "its weapon arm is unusable"),
        (2000, "change to weapon 0", "its weapon arm is unusable"),
    ]


def test_a_weapon_is_not_readied_in_an_arm_already_unusable() -> None:
    # a is listed first and strikes at 0 s before b's in-hand weapon is readied (also at 0 s)
    encounter, _ = run(fight(2, 55, b=target(armor="Cloth")), a=[blow()])
    assert "right arm" in encounter.state.combatants["b"].disabled
    assert not encounter.state.combatants["b"].weapon_ready


def test_an_unusable_left_arm_neither_parries_with_nor_adds_the_shield() -> None:
    # rule E20 (ruling 40): b (parry 0, Small shield +20: parry 20, gap 4 s) in Cloth. First blow at the left
    # arm (65): 60 - (8 + 20) - 2 = 30 -> parry roll 99 fails; x0.4 of 4 = 1.6 < 2. Second at 1 s (no
    # parry: the shield's 4 s gap): 60 - 28 - 22 = 10 -> x0.2 = 0.8: 2.4 >= 2, unusable. Third at 5 s, past
    # the gap: 60 - 8 - 42 = 10, no shield plus and no parry roll
    encounter, _ = run(
        fight(2, 65, 99, 22, 65, 42, 20, b=target(armor="Cloth", shield="Small"), seconds=6),
        a=[blow(), blow(), Wait(seconds=3, reason="r"), blow()],
    )
    first, second, third = of_kind(encounter, AttackResolved)
    assert (first.hit.shield_bonus, second.hit.shield_bonus, third.hit.shield_bonus) == (20, 20, 0)
    assert (third.t, third.hit.quality, third.parry) == (5000, Decimal(10), None)
    (disabled,) = of_kind(encounter, LocationDisabled)
    assert (disabled.t, disabled.location) == (1000, "left arm")


def pace(a_intents: list[Intent]) -> Decimal:
    """How far b (move rate 3 m/s) steps in its third second toward c, 10 m away."""
    c = fighter("c", "ford", prepared=True, weapons=HAND, position=[11, 0])
    a = fighter("a", "ford", prepared=True, weapons=HAND)
    built = scenario(a, target(armor="Cloth"), c, rolls=[2, 80, 42, 80], max_seconds=4, options=LOCATIONS)
    encounter, _ = run(built, a=a_intents, b=[Wait(seconds=2, reason="r"), Approach(target="c", reason="r")])
    (step,) = of_kind(encounter, Moved)
    return step.distance


def test_an_unusable_leg_halves_the_pace() -> None:
    # rule E20 (ruling 40): leg share 30% of 10 = 3; 60 - 8 - 2 = 50 -> x0.6 of 4 = 2.4, then
    # 60 - 8 - 42 = 10 -> x0.2 = 0.8: 3.2 >= 3 -> right leg (80) unusable; 3 m -> 1.5 m
    assert pace([]) == Decimal(3)
    assert pace([blow(), blow()]) == Decimal("1.5")


# --- unaware targets (E24) ------------------------------------------------------------------------------


def test_an_unaware_target_cannot_parry_but_its_shield_still_adds_to_armor() -> None:
    # rule E24 (ruling 37): b (Small shield +20, parry 20) reacts only at 5 s; hit locations off:
    # 60 - (Cloth vs 17 = 8 + 20) - 10 = quality 22, no parry roll -> x0.3 of 4 = 1.2
    b = target(armor="Cloth", shield="Small", prepared=False, reaction=5)
    built = scenario(fighter("a", "ford", prepared=True, weapons=HAND), b, rolls=[10], max_seconds=2)
    encounter, _ = run(built, a=[blow()])
    (hit,) = of_kind(encounter, AttackResolved)
    assert hit.damage is not None
    assert (hit.hit.shield_bonus, hit.hit.quality, hit.parry, hit.damage.damage) == (
        20,
        Decimal(22),
        None,
        Decimal("1.2"),
    )
