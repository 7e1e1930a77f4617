"""Tests for Energion close combat (rules E13, E14, E15, E24): hand-computed cases and the seed table."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from importlib.resources import files

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.errors import TableError, UnknownTableEntry
from affray.rules.energion import close_combat as cc
from affray.rules.energion import formulas
from affray.rules.energion.close_combat import GrapplingTable, load_grappling, parse_grappling
from affray.rules.energion.tables import load_tables
from tests.rules.energion.conftest import cells

D = Decimal

ARMOR = {"Normal": "normal", "AG/Luck": "ag_luck"}
EFFECT = {"KD": "KD", "Pin": "Pin", "P": "Pin", "Disable": "Disable"}
AVOIDANCE = {".5AG": "half_ag", "AG": "ag", "Parry Roll": "parry_roll"}

amounts = st.decimals(min_value=0, max_value=500, places=2, allow_nan=False, allow_infinity=False)
rolls = st.integers(min_value=1, max_value=100)
targets = st.decimals(min_value=-50, max_value=150, places=1, allow_nan=False, allow_infinity=False)


@pytest.fixture(scope="module")
def table() -> GrapplingTable:
    return load_grappling()


def _packaged_text() -> str:
    return (files("affray.rules.energion") / "data" / cc.GRAPPLING_FILE).read_text(encoding="utf-8")


# --- every cell against the seed text -------------------------------------------------------------


# rule E15
def test_procedures_match_every_seed_cell(table: GrapplingTable, seed_lines: list[str]) -> None:
    first = next(i for i, line in enumerate(seed_lines) if line.startswith("| Procedure |"))
    assert cells(seed_lines[first]) == [
        "Procedure",
        "Applicable Armor",
        "Damage",
        "Effect",
        "Avoidance",
        "Mod",
        "Note",
    ]
    rows: list[list[str]] = []
    for line in seed_lines[first + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(cells(line))
    assert len(rows) == len(table.procedures) == 7
    checked = 0
    for procedure, row in zip(table.procedures, rows, strict=True):
        # the Full Hold row is printed without its (empty) Note cell
        name, armor, damage, effect, avoidance, mod, note = [*row, ""][:7]
        assert procedure.name.casefold() == name.casefold()  # printed "Full HOld"
        assert procedure.armor == ARMOR[armor], name
        assert procedure.damage == damage, name
        assert list(procedure.effects) == [EFFECT[e] for e in effect.split("/")], name
        assert procedure.avoidance == AVOIDANCE[avoidance], name
        assert procedure.modifier == (0 if mod == "None" else int(mod)), name
        assert procedure.note == note, name
        assert procedure.recovery_seconds == (2 if note == "2 sec recover" else 0), name
        checked += 1
    assert checked == 7


# rule E15
def test_procedures_in_printed_order(table: GrapplingTable) -> None:
    assert [p.name for p in table.procedures] == [
        "Double Kick",
        "Flying Tackle",
        "Overbear",
        "Hold Down",
        "Trip",
        "Partial Hold",
        "Full Hold",
    ]


# --- avoidance (E15) ------------------------------------------------------------------------------


# rule E15: Double Kick is avoided under .5AG, Mod None: AG 90 -> 0.5 * 90 + 0 = 45
def test_double_kick_avoidance_is_half_agility(table: GrapplingTable) -> None:
    assert cc.avoidance_target(table.procedure("Double Kick"), 90, D(60)) == 45


# rule E15: .5AG of an odd agility keeps the half: AG 75 -> 37.5
def test_half_agility_keeps_the_half_point(table: GrapplingTable) -> None:
    assert cc.avoidance_target(table.procedure("Double Kick"), 75, D(60)) == D("37.5")


# rule E15: Trip is avoided under full AG, Mod None: AG 90 -> 90
def test_trip_avoidance_is_full_agility(table: GrapplingTable) -> None:
    assert cc.avoidance_target(table.procedure("Trip"), 90, D(60)) == 90


# rule E15 (ruling: the Mod is added to the target): Flying Tackle, parry 50, Mod -20 -> 50 - 20 = 30
def test_flying_tackle_avoidance_is_parry_minus_20(table: GrapplingTable) -> None:
    assert cc.avoidance_target(table.procedure("Flying Tackle"), 90, D(50)) == 30


# rule E15: Overbear, parry 50, Mod -30 -> 20
def test_overbear_avoidance_is_parry_minus_30(table: GrapplingTable) -> None:
    assert cc.avoidance_target(table.procedure("Overbear"), 90, D(50)) == 20


# rule E15: Hold Down, parry 50, Mod -1 as printed -> 49
def test_hold_down_avoidance_is_parry_minus_1(table: GrapplingTable) -> None:
    assert cc.avoidance_target(table.procedure("Hold Down"), 90, D(50)) == 49


# rule E15: Partial Hold, parry 50, Mod None -> 50
def test_partial_hold_avoidance_is_the_parry_chance(table: GrapplingTable) -> None:
    assert cc.avoidance_target(table.procedure("Partial Hold"), 90, D(50)) == 50


# rule E24 (ruling): an unaware or unconscious target cannot react, so its avoidance target is 0
def test_target_unable_to_react_has_no_avoidance(table: GrapplingTable) -> None:
    assert cc.avoidance_target(table.procedure("Trip"), 90, D(50), able_to_react=False) == 0


# rule E24: with a target of 0 even a roll of 1 fails
def test_unable_to_react_never_avoids(table: GrapplingTable) -> None:
    target = cc.avoidance_target(table.procedure("Partial Hold"), 90, D(99), able_to_react=False)
    assert not cc.avoided(1, target)


# rule E15 (ruling: "under" is at or under): target 45, roll 45 -> avoided
def test_roll_equal_to_target_avoids() -> None:
    assert cc.avoided(45, D(45))


# rule E15: target 45, roll 46 -> not avoided
def test_roll_above_target_does_not_avoid() -> None:
    assert not cc.avoided(46, D(45))


# rule E15: target 37.5 (AG 75 halved): 37 avoids, 38 does not
def test_half_point_target_splits_between_rolls() -> None:
    assert (cc.avoided(37, D("37.5")), cc.avoided(38, D("37.5"))) == (True, False)


# rule E15 (ruling): avoided exactly when roll <= target
@given(roll=rolls, target=targets)
def test_avoided_exactly_at_or_under_target(roll: int, target: Decimal) -> None:
    assert cc.avoided(roll, target) is (roll <= target)


# rule E15: a stronger negative Mod never makes avoiding easier: Overbear (-30) <= Partial Hold (None)
@given(parry=targets)
def test_modifier_only_lowers_the_parry_target(parry: Decimal) -> None:
    table = load_grappling()
    overbear = cc.avoidance_target(table.procedure("Overbear"), 100, parry)
    partial = cc.avoidance_target(table.procedure("Partial Hold"), 100, parry)
    assert overbear == partial - 30


# --- grappling constants (E15) --------------------------------------------------------------------


# rule E15: "1/2s=1/2 point per second" -> 0.5 per second, the Hold Down row's damage
def test_hold_down_inflicts_half_a_point_per_second(table: GrapplingTable) -> None:
    assert D("0.5") == cc.HOLD_DOWN_DAMAGE_PER_SECOND
    assert table.procedure("Hold Down").damage == "1/2s"


# rule E15: an uncontrolled 1-3 m fall does 1d10
def test_uncontrolled_fall_is_1d10() -> None:
    assert cc.FALL_DIE == "1d10"


# rule E13, E15: the double kick's 2 s recovery and knockdown are in the table too
def test_double_kick_row_agrees_with_martial_arts_rule(table: GrapplingTable) -> None:
    kick = table.procedure("Double Kick")
    assert kick.recovery_seconds == cc.DOUBLE_KICK_RECOVERY_SECONDS == 2
    assert "KD" in kick.effects


# rule E15: everything but the Double Kick meets agility/luck armor
def test_only_double_kick_meets_normal_armor(table: GrapplingTable) -> None:
    assert [p.name for p in table.procedures if p.armor == "normal"] == ["Double Kick"]


# --- striking to subdue (E14) ---------------------------------------------------------------------


# rule E14: DP 20, nothing taken, blow 12: 0 + 12 = 12 is not > 20 -> half damage, 12 / 2 = 6 dealt
def test_blow_below_damage_points_does_half_damage() -> None:
    assert cc.subdue_outcome(D(12), D(20)) == ("half_damage", D(6))


# rule E14: DP 20, blow 21: 21 > 20 -> knocked out, no further damage (ruling)
def test_blow_above_damage_points_knocks_out() -> None:
    assert cc.subdue_outcome(D(21), D(20)) == ("knocked_out", D(0))


# rule E14: "greater than": DP 20, blow 20 -> not a knock-out; 20 / 2 = 10 dealt
def test_blow_equal_to_damage_points_does_not_knock_out() -> None:
    assert cc.subdue_outcome(D(20), D(20)) == ("half_damage", D(10))


# rule E14 (ruling: the total includes damage already taken): DP 20, taken 10, blow 12: 22 > 20 -> out
def test_damage_already_taken_counts_toward_the_total() -> None:
    assert cc.subdue_outcome(D(12), D(20), D(10)) == ("knocked_out", D(0))


# rule E14: "the procedure is repeated as necessary": DP 20, blows of 12:
# 0 + 12 = 12 -> 6 dealt; 6 + 12 = 18 -> 6 dealt; 12 + 12 = 24 > 20 -> knocked out
def test_repeated_subduing_blows_wear_the_target_down() -> None:
    taken = D(0)
    outcomes = []
    for _ in range(3):
        outcome, dealt = cc.subdue_outcome(D(12), D(20), taken)
        outcomes.append(outcome)
        taken += dealt
    assert outcomes == ["half_damage", "half_damage", "knocked_out"]
    assert taken == 12


# rule E14: an odd blow halves exactly: 7 -> 3.5
def test_half_damage_is_exact() -> None:
    assert cc.subdue_outcome(D(7), D(20)) == ("half_damage", D("3.5"))


# rule E14: knocked out exactly when taken + blow > DP; otherwise exactly half the blow is dealt
@given(blow=amounts, points=amounts, taken=amounts)
def test_subdue_outcome_property(blow: Decimal, points: Decimal, taken: Decimal) -> None:
    outcome, dealt = cc.subdue_outcome(blow, points, taken)
    if taken + blow > points:
        assert (outcome, dealt) == ("knocked_out", D(0))
    else:
        assert (outcome, dealt) == ("half_damage", blow / 2)


# --- martial artists (E13) ------------------------------------------------------------------------


# rule E13: speed minimum 0: chart speed 4 - adjustment 5 = -1 -> 0 (1 for others)
def test_martial_artist_speed_can_reach_zero() -> None:
    assert formulas.modified_speed(4, D(5), minimum=cc.martial_speed_minimum) == 0


# rule E13 (ruling): initiative minimum 1: chart initiative 2 - 6/2 = -1 -> 1 (0 for others, E1)
def test_martial_artist_initiative_stops_at_one() -> None:
    assert formulas.modified_initiative(2, D(6), minimum=cc.martial_initiative_minimum) == 1


# rule E13: open hand is type 4, one handed bludgeon; kicks type 5, two handed bludgeon
def test_open_hand_and_kick_weapon_types() -> None:
    types = load_tables().weapon_types
    assert types[cc.open_hand_type].name == "Bludgeon,One Handed"
    assert types[cc.kick_type].name == "Bludgeon,Two Handed"


# rule E13: Cloth against an open hand (type 4) is 2, against a kick (type 5) is 1
def test_open_hand_and_kick_meet_their_armor_columns() -> None:
    cloth = load_tables().armor_named("Cloth")
    assert (cloth.value_against(cc.open_hand_type), cloth.value_against(cc.kick_type)) == (2, 1)


# rule E13: dodge AGbonus/4 + 1% per level: AGbonus 20, level 3 -> 20/4 + 3 = 8
def test_martial_dodge() -> None:
    assert cc.martial_dodge(D(20), 3) == 8


# rule E13: AGbonus -10, level 2 -> -10/4 + 2 = -0.5
def test_martial_dodge_with_weak_agility() -> None:
    assert cc.martial_dodge(D(-10), 2) == D("-0.5")


# rule E13: +1% per level to hit with open hand: level 7 -> +7
def test_open_hand_hit_bonus_is_one_per_level() -> None:
    assert cc.open_hand_hit_bonus(7) == 7


# rule E13 (ruling: full levels): +1 damage per 5 levels: levels 4, 5, 9, 14 -> 0, 1, 1, 2
@pytest.mark.parametrize(("level", "bonus"), [(0, 0), (4, 0), (5, 1), (9, 1), (14, 2)])
def test_open_hand_damage_bonus_counts_full_five_levels(level: int, bonus: int) -> None:
    assert cc.open_hand_damage_bonus(level) == bonus


# rule E13: a level is never negative
@pytest.mark.parametrize(
    "function",
    [cc.open_hand_hit_bonus, cc.open_hand_damage_bonus, lambda level: cc.martial_dodge(D(0), level)],
)
def test_negative_level_is_a_value_error(function: Callable[[int], Decimal]) -> None:
    with pytest.raises(ValueError, match="got -1"):
        function(-1)


# rule E13: at most two attacks a second; a kick's next second is recovery
def test_attack_and_recovery_limits() -> None:
    assert (cc.MAX_ATTACKS_PER_SECOND, cc.KICK_RECOVERY_SECONDS, cc.DOUBLE_KICK_RECOVERY_SECONDS) == (2, 1, 2)


# --- table and loader -----------------------------------------------------------------------------


# rule E15
def test_procedure_lookup_ignores_case_and_spaces(table: GrapplingTable) -> None:
    assert table.procedure(" full HOld ").name == "Full Hold"


# rule E15
def test_unknown_procedure_raises_unknown_table_entry(table: GrapplingTable) -> None:
    with pytest.raises(UnknownTableEntry, match=r"unknown grappling procedure 'Ful Hold'.*'Full Hold'"):
        table.procedure("Ful Hold")


def test_load_grappling_is_cached() -> None:
    assert load_grappling() is load_grappling()


def test_packaged_file_is_the_one_loaded() -> None:
    assert parse_grappling(_packaged_text()) == load_grappling()


def test_procedures_are_frozen(table: GrapplingTable) -> None:
    with pytest.raises(AttributeError):
        table.procedures[0].modifier = 5  # type: ignore[misc]


# rule E15: armor is "normal" or "ag_luck"
def test_unknown_armor_is_a_table_error() -> None:
    text = _packaged_text().replace('armor = "normal"', 'armor = "plate"', 1)
    with pytest.raises(TableError, match=r"grappling\.toml: .*\$\.procedure\[0\]\.armor"):
        parse_grappling(text)


# rule E15: effects are KD, Pin or Disable
def test_unknown_effect_is_a_table_error() -> None:
    text = _packaged_text().replace('effects = ["KD"]', 'effects = ["Stun"]', 1)
    with pytest.raises(TableError, match=r"grappling\.toml: .*\$\.procedure\[0\]\.effects\[0\]"):
        parse_grappling(text)


# rule E15
def test_repeated_effect_is_a_table_error() -> None:
    text = _packaged_text().replace('effects = ["KD"]', 'effects = ["KD", "KD"]', 1)
    with pytest.raises(TableError, match=r"listed twice .* - at `\$\.procedure\[0\]\.effects`"):
        parse_grappling(text)


# rule E15
def test_unknown_avoidance_is_a_table_error() -> None:
    text = _packaged_text().replace('avoidance = "half_ag"', 'avoidance = ".5AG"', 1)
    with pytest.raises(TableError, match=r"grappling\.toml: .*\$\.procedure\[0\]\.avoidance"):
        parse_grappling(text)


# rule E15
def test_negative_recovery_is_a_table_error() -> None:
    text = _packaged_text().replace("recovery_seconds = 2", "recovery_seconds = -2", 1)
    with pytest.raises(TableError, match=r"grappling\.toml: .*\$\.procedure\[0\]\.recovery_seconds"):
        parse_grappling(text)


# rule E15
def test_duplicate_procedure_is_a_table_error() -> None:
    text = _packaged_text().replace('name = "Flying Tackle"', 'name = "double kick"', 1)
    with pytest.raises(TableError, match=r"duplicate name 'double kick' - at `\$\.procedure\[1\]\.name`"):
        parse_grappling(text)


def test_unknown_field_is_a_table_error() -> None:
    text = _packaged_text().replace('name = "Trip"', 'name = "Trip"\nrange = 1', 1)
    with pytest.raises(TableError, match=r"grappling\.toml: .*range.*\$\.procedure\[4\]"):
        parse_grappling(text)


def test_malformed_toml_is_a_table_error() -> None:
    with pytest.raises(TableError, match=r"grappling\.toml"):
        parse_grappling("[[procedure]\n")
