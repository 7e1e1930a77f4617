"""The tactician: which weapon for the distance, how long to aim, when to hold cover (rules E3, E8, E17)."""

from __future__ import annotations

from decimal import Decimal

import msgspec
import pytest

from affray.events.energion.state import EnergionCombatant, EnergionState
from affray.npc.energion.intents import (
    Aim,
    Approach,
    Attack,
    BreakHold,
    Cast,
    ChangeWeapon,
    Grapple,
    Intent,
    Wait,
)
from affray.npc.energion.tactician import Tactician
from affray.npc.energion.view import ArmView, SpellView
from tests.npc.energion import BOW, SWORD, view_of


def person(id: str, side: str, y: str, **fields: object) -> EnergionCombatant:
    return EnergionCombatant(
        id=id,
        name=id.title(),
        side=side,
        damage_points=Decimal(30),
        position=(Decimal(0), Decimal(y)),
        weapon="Bow, Self, Long",
        armor="Cloth",
        weapon_ready=True,
        readied=True,
        **fields,  # type: ignore[arg-type]
    )


def decide(
    gap: str,
    *,
    arms: tuple[ArmView, ...] = (BOW, SWORD),
    now: int = 0,
    spells: tuple[SpellView, ...] = (),
    **me_fields: object,
) -> Intent | None:
    """What ``me`` at the origin does against one foe ``gap`` metres away."""
    me = person("me", "wall", "0", **me_fields)
    foe = person("foe", "raiders", gap)
    state = EnergionState(combatants={"me": me, "foe": foe})
    return Tactician().decide(view_of(me, state, arms=arms, now=now, spells=spells))


@pytest.mark.parametrize(
    ("gap", "band", "seconds"),
    [
        ("30", "SHT", 3),  # gap 2.5 s + 0 -> 3 whole seconds
        ("85", "MED", 5),  # 2.5 + 2 = 4.5 -> 5
        ("120", "LNG", 8),  # 2.5 + 5 = 7.5 -> 8
        ("190", "EXT", 13),  # 2.5 + 10 = 12.5 -> 13
    ],
)
def test_aim_seconds_grow_with_the_range_band(gap: str, band: str, seconds: int) -> None:
    # rule E17: the gap must be spent aiming; extra aim (+10 a second) is worth it at longer bands. It
    # aims a second at a time, looking again after each (ruling 51), and says how long it means to aim
    intent = decide(gap)
    assert isinstance(intent, Aim)
    assert (intent.target, intent.seconds) == ("foe", 1)
    assert f"({band}): aim {seconds} s more before the shot" in intent.reason


def test_aim_already_spent_counts_toward_the_seconds_wanted() -> None:
    # MED wants 4.5 s; aimed 3 s at foe already -> 1.5 s more -> 2 whole seconds
    intent = decide("85", now=3000, aim_target="foe", aim_since_ms=0)
    assert isinstance(intent, Aim)
    assert "aim 2 s more" in intent.reason


def test_shoots_once_aimed_long_enough() -> None:
    intent = decide("85", now=4500, aim_target="foe", aim_since_ms=0)
    assert isinstance(intent, Attack)
    assert intent.reason == "aimed 4.5 s at foe, 85.000 m (MED)"


def test_aim_at_another_target_does_not_count() -> None:
    intent = decide("85", now=4500, aim_target="other", aim_since_ms=0)
    assert isinstance(intent, Aim)
    assert "aim 5 s more" in intent.reason


def test_holds_cover_while_the_enemy_is_out_of_range() -> None:
    # rule E8: 250 m is beyond the bow's EXT 200 m; behind cover it waits rather than leave it (E16)
    intent = decide("250", cover=60)
    assert isinstance(intent, Wait)
    assert intent.seconds == 1


def test_approaches_when_out_of_range_without_cover() -> None:
    intent = decide("250")
    assert isinstance(intent, Approach)
    assert intent.target == "foe"


def test_switches_to_melee_at_close_quarters() -> None:
    # 2 m is close quarters: drop the bow (1 s) and grab the sword (rule E3)
    intent = decide("2")
    assert isinstance(intent, ChangeWeapon)
    assert (intent.index, intent.method) == (1, "drop_and_grab")


def test_keeps_shooting_just_beyond_close_quarters() -> None:
    assert isinstance(decide("2.001"), Aim)


SPENT = msgspec.structs.replace(BOW, uses_left=0)


def test_takes_up_a_spare_weapon_when_spent() -> None:
    # the bow has no arrows left; the foe is in range but the only other weapon is the sword
    intent = decide("50", arms=(SPENT, SWORD))
    assert isinstance(intent, ChangeWeapon)
    assert (intent.index, intent.method) == (1, "drop_and_grab")


def test_takes_up_a_ranged_spare_before_the_melee_one() -> None:
    sling = ArmView(
        index=2,
        name="Sling",
        mode="missile",
        reach=Decimal(8),
        ranges=(8, 40, 90, 180, 210),
        speed_ms=4000,
        uses_left=None,
    )
    intent = decide("50", arms=(SPENT, SWORD, sling))
    assert isinstance(intent, ChangeWeapon)
    assert intent.index == 2


def test_puts_away_melee_for_a_ranged_weapon_at_ten_metres() -> None:
    # sword in hand, bow carried; the foe 10 m away is worth shooting: put the sword away safely (E3)
    intent = decide("10", weapon_index=1)
    assert isinstance(intent, ChangeWeapon)
    assert (intent.index, intent.method) == (0, "put_away")


def test_closes_in_with_melee_under_ten_metres() -> None:
    intent = decide("9.999", weapon_index=1)
    assert isinstance(intent, Approach)


def test_strikes_with_melee_within_reach() -> None:
    intent = decide("1", weapon_index=1)
    assert isinstance(intent, Attack)


def test_nothing_to_do_without_a_standing_enemy() -> None:
    me = person("me", "wall", "0")
    state = EnergionState(combatants={"me": me})
    assert Tactician().decide(view_of(me, state, arms=(BOW, SWORD), now=0)) is None


# -- spells (rule E23) -------------------------------------------------------------------------------

SPARK = SpellView(index=0, name="Spark", range_m=Decimal(10), total_ms=2000)
LANCE = SpellView(index=1, name="Lance", range_m=Decimal(40), total_ms=8000)


def test_casts_the_first_spell_whose_range_reaches_the_enemy() -> None:
    # 30 m: beyond Spark's 10 m, within Lance's 40 m
    intent = decide("30", spells=(SPARK, LANCE))
    assert isinstance(intent, Cast)
    assert (intent.spell, intent.target) == (1, "foe")
    assert intent.reason == "foe at 30.000 m, within Lance's 40 m"


def test_casts_the_first_listed_spell_when_several_reach() -> None:
    intent = decide("5", spells=(SPARK, LANCE))
    assert isinstance(intent, Cast)
    assert intent.spell == 0


def test_casts_rather_than_shoots_when_a_spell_reaches() -> None:
    # the bow in hand would aim at 30 m (SHT); the spell comes first
    assert isinstance(decide("30", spells=(LANCE,)), Cast)


def test_falls_back_to_weapons_when_no_spell_reaches() -> None:
    # 85 m is beyond Lance's 40 m: the bow aims as without spells
    assert isinstance(decide("85", spells=(SPARK, LANCE)), Aim)


def test_strikes_with_a_ready_melee_weapon_at_close_quarters_rather_than_cast() -> None:
    # sword in hand, foe at 1 m (within reach and close quarters): a blow, not a spell
    assert isinstance(decide("1", weapon_index=1, spells=(SPARK, LANCE)), Attack)


def test_closes_in_with_a_ready_melee_weapon_at_close_quarters_rather_than_cast() -> None:
    # 2 m is close quarters but beyond the sword's 1 m reach: step in rather than cast
    assert isinstance(decide("2", weapon_index=1, spells=(SPARK,)), Approach)


def test_casts_at_close_quarters_with_a_missile_weapon_in_hand() -> None:
    # the bow is no melee weapon: at 2 m the spell is cast instead of changing to the sword
    assert isinstance(decide("2", spells=(SPARK,)), Cast)


def test_casts_beyond_close_quarters_with_a_melee_weapon_in_hand() -> None:
    # sword in hand but the foe 5 m away, within Spark's 10 m: cast rather than close in
    assert isinstance(decide("5", weapon_index=1, spells=(SPARK,)), Cast)


def test_casts_at_close_quarters_when_the_melee_weapon_is_spent() -> None:
    # a melee weapon that cannot be used is no reason to hold the spell
    spent_sword = msgspec.structs.replace(SWORD, uses_left=0)
    assert isinstance(decide("1", arms=(BOW, spent_sword), weapon_index=1, spells=(SPARK,)), Cast)


# -- grappling (rule E15) and martial artists (rule E13) ----------------------------------------------------

HAND = ArmView(
    index=0,
    name="Hand",
    mode="melee",
    reach=Decimal(1),
    ranges=(1, 0, 0, 0, 0),
    speed_ms=1000,
    uses_left=None,
)
FOOT = msgspec.structs.replace(HAND, name="Foot", martial="kick", speed_ms=0)
PUNCH = msgspec.structs.replace(HAND, index=1, martial="punch", speed_ms=0)


def close(
    *,
    arms: tuple[ArmView, ...] = (HAND,),
    grapples: tuple[str, ...] = (),
    now: int = 0,
    foe_fields: dict[str, object] | None = None,
    **me_fields: object,
) -> Intent | None:
    """What ``me`` does against one foe at arm's length (1 m)."""
    me = person("me", "wall", "0", **me_fields)
    foe = person("foe", "raiders", "1", **(foe_fields or {}))
    state = EnergionState(combatants={"me": me, "foe": foe})
    return Tactician().decide(view_of(me, state, arms=arms, now=now, grapples=grapples))


def test_tries_to_break_a_hold_it_is_in() -> None:
    intent = close(held_by="foe", hold="Full Hold")
    assert isinstance(intent, BreakHold)
    assert intent.reason == "held by foe (Full Hold): try to break free"


def test_uses_its_first_grapple_on_a_standing_unheld_foe_at_arms_length() -> None:
    intent = close(grapples=("Full Hold", "Trip"))
    assert isinstance(intent, Grapple)
    assert (intent.procedure, intent.target, intent.reason) == (
        "Full Hold",
        "foe",
        "foe within reach: Full Hold",
    )


def test_strikes_rather_than_grapples_a_foe_knocked_down() -> None:
    assert isinstance(close(grapples=("Trip",), foe_fields={"knocked_down": True}), Attack)


def test_strikes_rather_than_grapples_a_foe_already_held() -> None:
    assert isinstance(
        close(grapples=("Hold Down",), foe_fields={"held_by": "x", "hold": "Hold Down"}), Attack
    )


def test_a_martial_artist_kicks_when_not_recovering() -> None:
    intent = close(arms=(FOOT, PUNCH))
    assert isinstance(intent, Attack)
    assert (intent.arm, intent.reason) == (0, "kick foe")


def test_a_martial_artist_punches_in_the_second_after_a_kick() -> None:
    # rule E13: kicked at 0 s; at 0.5 s it is recovering
    intent = close(arms=(FOOT, PUNCH), kicked_ms=0, now=500)
    assert isinstance(intent, Attack)
    assert (intent.arm, intent.reason) == (1, "punch: recovering from the kick")


def test_a_martial_artist_kicks_again_a_second_after_its_kick() -> None:
    intent = close(arms=(FOOT, PUNCH), kicked_ms=0, now=1000)
    assert isinstance(intent, Attack)
    assert intent.arm == 0
