"""Tests for the Energion hit locations (rules E20, E22) against hand-computed cases and the seed chart."""

from __future__ import annotations

import re
from decimal import Decimal
from importlib.resources import files

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.errors import TableError, UnknownTableEntry
from affray.rules.energion.locations import (
    HIT_LOCATIONS_FILE,
    UNARMORED_COLUMN,
    BodyPart,
    HitLocationTable,
    disabling_damage,
    load_hit_locations,
    location_armor_value,
    location_for,
    location_state,
    parse_hit_locations,
)
from affray.rules.energion.tables import load_tables
from tests.rules.energion.conftest import cells

D = Decimal

rolls = st.integers(min_value=1, max_value=100)
damage_points = st.decimals(min_value=1, max_value=1000, places=2, allow_nan=False, allow_infinity=False)


@pytest.fixture(scope="module")
def chart() -> HitLocationTable:
    return load_hit_locations()


def _chart_rows(lines: list[str]) -> list[str]:
    """Return the seed's hit location chart lines, from its header to its last `|` line."""
    first = next(i for i, line in enumerate(lines) if line.startswith("| Percent | Target |"))
    rows: list[str] = []
    for line in lines[first:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def _packaged_text() -> str:
    return (files("affray.rules.energion") / "data" / HIT_LOCATIONS_FILE).read_text(encoding="utf-8")


# --- every cell against the seed text -------------------------------------------------------------


# rule E20
def test_chart_matches_every_seed_cell(chart: HitLocationTable, seed_lines: list[str]) -> None:
    rows = [cells(line) for line in _chart_rows(seed_lines)]
    assert rows[0] == ["Percent", "Target", "Percentage of DP", "Disabled"]
    body = [row for row in rows[2:] if not row[0].startswith("Joint")]
    assert len(body) == len(chart.locations) == 7
    for location, (percent, target, share, disabled) in zip(chart.locations, body, strict=True):
        low, high = percent.split("-")
        assert (location.low, location.high) == (int(low), int(high)), target
        assert location.name == target.lower()
        assert f"{location.share_percent}%" == share, target
        assert location.disabled == disabled.lower(), target


# rule E20
def test_joint_share_matches_seed_row(chart: HitLocationTable, seed_lines: list[str]) -> None:
    # printed as "| Joint 10% \u2013 unusable | |||" (an en dash; the cells run together)
    joint = [line for line in _chart_rows(seed_lines) if "Joint" in line]
    assert len(joint) == 1
    match = re.search(r"Joint (\d+)% \W unusable", joint[0])
    assert match is not None
    assert chart.joint_share_percent == int(match.group(1)) == 10


# --- location_for (E20) ---------------------------------------------------------------------------


# rule E20: 01-10 head, 11-30 chest, 31-50 abdomen, 51-60 right arm, 61-70 left arm, 71-85 right leg,
# 86-100 left leg; each boundary roll lands in its own row
@pytest.mark.parametrize(
    ("roll", "name"),
    [
        (1, "head"),
        (10, "head"),
        (11, "chest"),
        (30, "chest"),
        (31, "abdomen"),
        (50, "abdomen"),
        (51, "right arm"),
        (60, "right arm"),
        (61, "left arm"),
        (70, "left arm"),
        (71, "right leg"),
        (85, "right leg"),
        (86, "left leg"),
        (100, "left leg"),
    ],
)
def test_boundary_rolls_hit_their_row(chart: HitLocationTable, roll: int, name: str) -> None:
    assert location_for(chart, roll).name == name


# rule E20: the rows cover 1..100 with no gap or overlap
@given(roll=rolls)
def test_every_roll_is_in_exactly_one_row(roll: int) -> None:
    chart = load_hit_locations()
    covering = [location for location in chart.locations if location.low <= roll <= location.high]
    assert len(covering) == 1
    assert location_for(chart, roll) is covering[0]


# rule E20: the Percent column is also the part's share of the profile: 10 + 20 + 20 + 10 + 10 + 15 + 15 = 100
def test_row_widths_are_the_profile_percentages(chart: HitLocationTable) -> None:
    widths = {location.name: location.high - location.low + 1 for location in chart.locations}
    assert widths == {
        "head": 10,
        "chest": 20,
        "abdomen": 20,
        "right arm": 10,
        "left arm": 10,
        "right leg": 15,
        "left leg": 15,
    }
    assert sum(widths.values()) == 100


# rule E20: a d100 roll is 1..100 (00 is read as 100)
@pytest.mark.parametrize("roll", [0, 101, -5])
def test_roll_outside_d100_is_a_value_error(chart: HitLocationTable, roll: int) -> None:
    with pytest.raises(ValueError, match=f"got {roll}"):
        location_for(chart, roll)


# --- disabling damage and state (E20) -------------------------------------------------------------


# rule E20: DP 40, head 25% -> 40 * 25 / 100 = 10
def test_head_is_disabled_by_a_quarter_of_the_damage_points(chart: HitLocationTable) -> None:
    assert disabling_damage(D(40), chart.location_named("head")) == 10


# rule E20: DP 40, chest 40% -> 40 * 40 / 100 = 16
def test_chest_is_disabled_by_forty_percent(chart: HitLocationTable) -> None:
    assert disabling_damage(D(40), chart.location_named("chest")) == 16


# rule E20: DP 33, right arm 20% -> 33 * 20 / 100 = 6.6, exact
def test_disabling_damage_keeps_fractions_exact(chart: HitLocationTable) -> None:
    assert str(disabling_damage(D(33), chart.location_named("right arm"))) == "6.6"


def _joint(chart: HitLocationTable) -> BodyPart:
    """The chart's joint row as a part: its share disables, never kills (E20)."""
    return BodyPart(name="joint", share_percent=chart.joint_share_percent, disabled="unusable")


# rule E20: DP 40, joint 10% -> 40 * 10 / 100 = 4
def test_joint_is_disabled_by_ten_percent(chart: HitLocationTable) -> None:
    assert disabling_damage(D(40), _joint(chart)) == 4


# rule E20: DP 40, head needs 10; 9.9 done -> ok
def test_part_below_its_share_is_ok(chart: HitLocationTable) -> None:
    assert location_state(D(40), chart.location_named("head"), D("9.9")) == "ok"


# rule E20 (ruling: reaching the share disables): DP 40, head 10 done = 40 * 25 / 100 -> dead
def test_head_at_exactly_its_share_is_death(chart: HitLocationTable) -> None:
    assert location_state(D(40), chart.location_named("head"), D(10)) == "dead"


# rule E20: DP 40, abdomen 40% -> 16; 20 done -> dead
def test_abdomen_above_its_share_is_death(chart: HitLocationTable) -> None:
    assert location_state(D(40), chart.location_named("abdomen"), D(20)) == "dead"


# rule E20: DP 40, left leg 30% -> 12; 12 done -> unusable, not death
def test_leg_at_its_share_is_unusable(chart: HitLocationTable) -> None:
    assert location_state(D(40), chart.location_named("left leg"), D(12)) == "unusable"


# rule E20: DP 40, joint 10% -> 4; 4 done -> unusable
def test_joint_at_its_share_is_unusable(chart: HitLocationTable) -> None:
    assert location_state(D(40), _joint(chart), D(4)) == "unusable"


# rule E20: the state is "ok" exactly when the damage done is below DP * share / 100
@given(points=damage_points, done=damage_points, roll=rolls)
def test_state_is_ok_exactly_below_the_disabling_damage(points: Decimal, done: Decimal, roll: int) -> None:
    location = location_for(load_hit_locations(), roll)
    state = location_state(points, location, done)
    assert (state == "ok") == (done < points * location.share_percent / 100)


# rule E20: only head, chest and abdomen kill
def test_only_head_chest_and_abdomen_are_fatal(chart: HitLocationTable) -> None:
    fatal = [location.name for location in chart.locations if location.disabled == "death"]
    assert fatal == ["head", "chest", "abdomen"]


# --- armor by location (E22) ----------------------------------------------------------------------


# rule E22: an armored location takes the wearer's armor value, whatever the part
def test_armored_location_uses_the_worn_armor_value() -> None:
    assert location_armor_value(75, 5, location_armored=True) == 75


# rule E22: an unarmored location (no helmet, head hit) takes the unarmored value
def test_unarmored_location_uses_the_unarmored_value() -> None:
    assert location_armor_value(75, 5, location_armored=False) == 5


# rule E22 (ruling: unarmored resistance is the Cloth column): Plate vs type 1 is 75, Cloth vs type 1 is 5;
# a dagger hitting a bare head meets 5
def test_unarmored_value_comes_from_the_cloth_column() -> None:
    tables = load_tables()
    armor = tables.armor_named("Plate").value_against(1)
    bare = tables.armor_named(UNARMORED_COLUMN).value_against(1)
    assert location_armor_value(armor, bare, location_armored=False) == 5


# --- table and loader -----------------------------------------------------------------------------


# rule E20
def test_location_lookup_ignores_case_and_spaces(chart: HitLocationTable) -> None:
    assert chart.location_named("  Right Arm ").name == "right arm"


# rule E20
def test_unknown_location_raises_unknown_table_entry(chart: HitLocationTable) -> None:
    with pytest.raises(UnknownTableEntry, match=r"unknown hit location 'heda'.*'head'"):
        chart.location_named("heda")


def test_load_hit_locations_is_cached() -> None:
    assert load_hit_locations() is load_hit_locations()


def test_packaged_file_is_the_one_loaded() -> None:
    assert parse_hit_locations(_packaged_text()) == load_hit_locations()


def test_locations_are_frozen(chart: HitLocationTable) -> None:
    with pytest.raises(AttributeError):
        chart.locations[0].share_percent = 50  # type: ignore[misc]


# rule E20: a gap (head 01-09, chest from 11) is a table error naming the row after it
def test_gap_between_rows_is_a_table_error() -> None:
    text = _packaged_text().replace("low = 1\nhigh = 10\n", "low = 1\nhigh = 9\n", 1)
    with pytest.raises(TableError, match=r"hit_locations\.toml: expected 10 .*\$\.location\[1\]\.low"):
        parse_hit_locations(text)


# rule E20: an overlap (head 01-11, chest from 11) is a table error naming the row after it
def test_overlapping_rows_are_a_table_error() -> None:
    text = _packaged_text().replace("low = 1\nhigh = 10\n", "low = 1\nhigh = 11\n", 1)
    with pytest.raises(TableError, match=r"hit_locations\.toml: expected 12 .*\$\.location\[1\]\.low"):
        parse_hit_locations(text)


# rule E20: rows that stop short of 100 are a table error naming the last row
def test_chart_ending_before_100_is_a_table_error() -> None:
    text = _packaged_text().replace("low = 86\nhigh = 100\n", "low = 86\nhigh = 99\n", 1)
    with pytest.raises(TableError, match=r"must end at 100 - at `\$\.location\[6\]\.high`"):
        parse_hit_locations(text)


# rule E20
def test_row_with_high_below_low_is_a_table_error() -> None:
    text = _packaged_text().replace("low = 1\nhigh = 10\n", "low = 1\nhigh = 0\n", 1)
    with pytest.raises(TableError, match=r"hit_locations\.toml: .*\$\.location\[0\]\.high"):
        parse_hit_locations(text)


# rule E20: "Death" or "unusable" only
def test_unknown_disabled_value_is_a_table_error() -> None:
    text = _packaged_text().replace('disabled = "death"', 'disabled = "maimed"', 1)
    with pytest.raises(TableError, match=r"hit_locations\.toml: .*\$\.location\[0\]\.disabled"):
        parse_hit_locations(text)


# rule E20: a share is 1..100 percent
def test_share_above_100_percent_is_a_table_error() -> None:
    text = _packaged_text().replace("share_percent = 25", "share_percent = 125", 1)
    with pytest.raises(TableError, match=r"hit_locations\.toml: .*\$\.location\[0\]\.share_percent"):
        parse_hit_locations(text)


# rule E20
def test_duplicate_location_name_is_a_table_error() -> None:
    text = _packaged_text().replace('name = "chest"', 'name = "Head"', 1)
    with pytest.raises(TableError, match=r"duplicate name 'Head' - at `\$\.location\[1\]\.name`"):
        parse_hit_locations(text)


def test_unknown_field_is_a_table_error() -> None:
    text = _packaged_text().replace('name = "head"', 'name = "head"\narmored = true', 1)
    with pytest.raises(TableError, match=r"hit_locations\.toml: .*armored.*\$\.location\[0\]"):
        parse_hit_locations(text)


def test_missing_joint_share_is_a_table_error() -> None:
    text = _packaged_text().replace("joint_share_percent = 10\n", "", 1)
    with pytest.raises(TableError, match=r"hit_locations\.toml: .*joint_share_percent"):
        parse_hit_locations(text)


def test_malformed_toml_is_a_table_error() -> None:
    with pytest.raises(TableError, match=r"hit_locations\.toml"):
        parse_hit_locations("[[location]\n")
