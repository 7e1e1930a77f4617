"""Tests for the Energion equipment tables (rules E5, E9, E10, E11, E12)."""

import re
from importlib.resources import files

import msgspec
import pytest

from affray.errors import TableError, UnknownTableEntry
from affray.rules.energion.tables import (
    ARMOR_FILE,
    SHIELDS_FILE,
    WEAPON_TYPES_FILE,
    WEAPONS_FILE,
    EnergionTables,
    load_tables,
    parse_tables,
)
from tests.rules.energion.conftest import cells

ARMOR_ORDER = [
    "Field Plate",
    "Force Field",
    "Plate",
    "Chain Suit",
    "Studded Leather",
    "Leather Suit",
    "Cloth",
]


@pytest.fixture(scope="module")
def tables() -> EnergionTables:
    return load_tables()


def _section(lines: list[str], start: str, end: str) -> list[str]:
    """Return the lines strictly between the first line starting with `start` and `end`."""
    first = next(i for i, line in enumerate(lines) if line.startswith(start))
    last = next(i for i in range(first + 1, len(lines)) if lines[i].startswith(end))
    return lines[first + 1 : last]


def _table_rows(lines: list[str]) -> list[list[str]]:
    return [cells(line) for line in lines if line.startswith("|")]


def _packaged_texts() -> dict[str, bytes]:
    data = files("affray.rules.energion") / "data"
    return {
        name: (data / name).read_bytes()
        for name in (ARMOR_FILE, WEAPONS_FILE, WEAPON_TYPES_FILE, SHIELDS_FILE)
    }


# --- every cell against the seed text -------------------------------------------------------


# rule E9
def test_armor_chart_matches_every_seed_cell(tables: EnergionTables, seed_lines: list[str]) -> None:
    rows = _table_rows(_section(seed_lines, "Armor Chart", "Weapons"))
    header, body = rows[0], rows[1:]
    assert header[1:] == list(tables.armor)
    labels = [row[0] for row in body]
    assert labels == [str(t) for t in range(1, 18)] + [
        "Weight",
        "Encumbrance Factor",
        "Damage",
        "Maneuver Factor",
    ]
    checked = 0
    for column, name in enumerate(header[1:], start=1):
        armor = tables.armor_named(name)
        for row in body:
            cell = row[column]
            if row[0].isdigit():
                assert armor.value_against(int(row[0])) == int(cell), (name, row[0])
            elif row[0] == "Weight":
                assert armor.weight == float(cell), name
            elif row[0] == "Encumbrance Factor":
                assert armor.encumbrance_factor == float(cell), name
            elif row[0] == "Damage":
                assert armor.damage == int(cell), name
            else:
                assert armor.maneuver_factor == float(cell), name
            checked += 1
    assert checked == 7 * 21


# rule E10
def test_weapon_chart_matches_every_seed_row(tables: EnergionTables, seed_lines: list[str]) -> None:
    class_names = [c.name for c in tables.classes]
    printed: dict[str, list[list[str]]] = {}
    notes: dict[tuple[str, str], str] = {}
    current: str | None = None
    for line in _section(seed_lines, "Weapon Chart", "Weapon Types:"):
        if not line.startswith("|"):
            if line in class_names:
                current = line
                printed[current] = []
            continue
        row = cells(line)
        assert current is not None, line
        if row[0] == "Name":
            continue
        if all(cell == "" for cell in row[1:]):
            notes[current, printed[current][-1][0]] = row[0]
            continue
        printed[current].append(row)
    assert list(printed) == class_names
    checked = 0
    for cls in tables.classes:
        rows = printed[cls.name]
        assert [w.name for w in cls.weapons] == [row[0] for row in rows], cls.name
        for weapon, row in zip(cls.weapons, rows, strict=True):
            t, h, m, ini, sp, ptb, sht, med, lng, ext, dmg, parry = (int(c) for c in row[1:])
            assert weapon.training_class == cls.name
            assert weapon.type == t, weapon.name
            assert weapon.hands == h, weapon.name
            assert weapon.mechanical is (m == 1), weapon.name
            assert weapon.initiative == ini, weapon.name
            assert weapon.speed == sp, weapon.name
            assert weapon.ranges == (ptb, sht, med, lng, ext), weapon.name
            assert weapon.damage == dmg, weapon.name
            assert weapon.parry == parry, weapon.name
            assert weapon.note == notes.get((cls.name, weapon.name), ""), weapon.name
            checked += 1
    assert checked == sum(len(rows) for rows in printed.values()) == 64


# rule E11
def test_weapon_types_match_seed(tables: EnergionTables, seed_lines: list[str]) -> None:
    rows = _table_rows(_section(seed_lines, "Weapon Types:", "Weapon Proficiency"))
    assert len(rows) == 17
    for row in rows:
        number, name, note = int(row[0]), row[1], row[2] if len(row) > 2 else ""
        assert tables.weapon_types[number].name == name
        assert tables.weapon_types[number].note == note


# rule E12
def test_training_costs_match_seed(tables: EnergionTables, seed_lines: list[str]) -> None:
    rows = _table_rows(_section(seed_lines, "Most weapons have a basic", "Modifications for Martial Artist"))
    assert [(c.name, c.training_cost) for c in tables.classes] == [(row[0], int(row[1])) for row in rows]


# rule E5
def test_shields_match_seed(tables: EnergionTables, seed_lines: list[str]) -> None:
    pattern = re.compile(r"^\| (\w+) \| \+(\d+)% parry \| Speed (\d+) \|$")
    printed = [m.groups() for line in seed_lines if (m := pattern.match(line))]
    assert len(printed) == 4
    assert [(s.name, s.parry, s.speed) for s in tables.shields.values()] == [
        (name, int(parry), int(speed)) for name, parry, speed in printed
    ]


# --- focused cases ------------------------------------------------------------------------


# rule E9
def test_armor_in_chart_order(tables: EnergionTables) -> None:
    assert list(tables.armor) == ARMOR_ORDER


# rule E9
def test_chain_suit_against_whips_is_75(tables: EnergionTables) -> None:
    assert tables.armor_named("Chain Suit").value_against(8) == 75


# rule E9
def test_force_field_weighs_nothing(tables: EnergionTables) -> None:
    assert tables.armor_named("Force Field").weight == 0


# rule E9
def test_armor_lookup_ignores_case_and_spaces(tables: EnergionTables) -> None:
    assert tables.armor_named("  studded leather ").name == "Studded Leather"


# rule E9
def test_unknown_armor_raises_unknown_table_entry(tables: EnergionTables) -> None:
    with pytest.raises(UnknownTableEntry, match="'Plate'"):
        tables.armor_named("Plait")


# rule E9
def test_armor_value_against_type_outside_chart_raises(tables: EnergionTables) -> None:
    with pytest.raises(UnknownTableEntry, match="weapon type 18"):
        tables.armor_named("Cloth").value_against(18)


# rule E10
def test_long_sword_row(tables: EnergionTables) -> None:
    sword = tables.weapon("Sword, Long")
    assert (sword.type, sword.initiative, sword.speed, sword.damage) == (2, 10, 8, 18)


# rule E10
def test_normal_dagger_defaults_to_daggers_class(tables: EnergionTables) -> None:
    assert tables.weapon("Dagger, Normal").training_class == "Daggers"


# rule E10
def test_normal_dagger_in_thrown_light_missiles_has_its_own_row(
    tables: EnergionTables,
) -> None:
    thrown = tables.weapon("dagger, normal", "Thrown light missiles")
    assert thrown.training_class == "Thrown light missiles"
    assert thrown.note.startswith("Someone with dagger skill")


# rule E10
def test_short_sword_dagger_skill_is_in_daggers(tables: EnergionTables) -> None:
    sword = tables.weapon("Sword, Short (Dagger Skill)", "Daggers")
    assert sword.training_class == "Daggers"
    assert sword.type == 2


# rule E10: a scenario's "Mace" or "Longbow" names no row, but the error offers the rows meant
def test_unknown_weapon_offers_the_rows_holding_its_words(tables: EnergionTables) -> None:
    with pytest.raises(
        UnknownTableEntry, match=r"close matches: 'Mace, Small', 'Mace, Large', 'Mace, 2 Handed'$"
    ):
        tables.weapon("Mace")
    with pytest.raises(UnknownTableEntry, match=r"close matches: 'Bow, Self, Long', 'Bow, Compound, Long'$"):
        tables.weapon("Longbow")


# rule E10
def test_unknown_weapon_names_close_matches(tables: EnergionTables) -> None:
    with pytest.raises(UnknownTableEntry, match=r"close matches: .*'Sword, Long'"):
        tables.weapon("Sword, Lung")


# rule E10
def test_weapon_not_listed_in_the_given_class_raises(tables: EnergionTables) -> None:
    with pytest.raises(UnknownTableEntry, match="listed in: 'Daggers', 'Thrown light missiles'"):
        tables.weapon("Knife", "Maces")


# rule E10
def test_unknown_training_class_raises(tables: EnergionTables) -> None:
    with pytest.raises(UnknownTableEntry, match="'Maces'"):
        tables.weapon("Club, 1 Handed", "Macs")


# rule E10
def test_thrown_dagger_keeps_zero_hands_as_printed(tables: EnergionTables) -> None:
    assert tables.weapon("Dagger, Thrown").hands == 0


# rule E10
def test_bullwhip_keeps_zero_speed_as_printed(tables: EnergionTables) -> None:
    assert tables.weapon("Bullwhip").speed == 0


# rule E10
def test_reach_is_point_blank_range(tables: EnergionTables) -> None:
    assert tables.weapon("Trident").reach_m == 1


# rule E10
def test_two_handed_means_two_or_more_hands(tables: EnergionTables) -> None:
    assert tables.weapon("Sword, 2 Handed").two_handed
    assert not tables.weapon("Sword, Long").two_handed


# rule E10
def test_siege_weapons_class_is_empty(tables: EnergionTables) -> None:
    siege = next(c for c in tables.classes if c.name == "Siege Weapons")
    assert siege.weapons == ()


# rule E10
def test_the_chart_names_61_weapons_three_of_them_in_two_classes(tables: EnergionTables) -> None:
    listed = [weapon.name for weapon_class in tables.classes for weapon in weapon_class.weapons]
    assert listed[:2] == ["Dagger, Normal", "Dagger, Parrying"]
    assert (len(listed), len(set(listed))) == (64, 61)


# rule E12
def test_long_and_giant_bows_cost_4000(tables: EnergionTables) -> None:
    bows = next(c for c in tables.classes if c.name == "Bows, Long/Giant")
    assert bows.training_cost == 4000


# rule E11
def test_seventeen_weapon_types(tables: EnergionTables) -> None:
    assert sorted(tables.weapon_types) == list(range(1, 18))


# rule E5
def test_shield_parry_and_speed(tables: EnergionTables) -> None:
    assert [(s.parry, s.speed) for s in tables.shields.values()] == [
        (10, 2),
        (20, 4),
        (30, 6),
        (40, 8),
    ]


# rule E5
def test_shield_lookup_ignores_case(tables: EnergionTables) -> None:
    assert tables.shield("buckler").parry == 10


# rule E5
def test_unknown_shield_raises(tables: EnergionTables) -> None:
    with pytest.raises(UnknownTableEntry, match="'Large'"):
        tables.shield("Larg")


# rule E5
def test_force_field_shield_stays_at_speed_2(tables: EnergionTables) -> None:
    assert tables.force_field_shield_speed == 2


# --- loader --------------------------------------------------------------------------------


def test_load_tables_is_cached() -> None:
    assert load_tables() is load_tables()


def test_rows_are_frozen(tables: EnergionTables) -> None:
    with pytest.raises(AttributeError):
        tables.weapon("Staff").damage = 99  # type: ignore[misc]


# rule E9
def test_armor_with_16_values_is_a_table_error() -> None:
    texts = _packaged_texts()
    texts[ARMOR_FILE] = texts[ARMOR_FILE].replace(b"[85, 70, 50, ", b"[70, 50, ", 1)
    with pytest.raises(TableError, match=r"armor\.toml: expected 17 .*\$\.armor\[0\]\.values"):
        parse_tables(texts)


# rule E10
def test_weapon_type_out_of_range_is_a_table_error() -> None:
    texts = _packaged_texts()
    texts[WEAPONS_FILE] = texts[WEAPONS_FILE].replace(b"type = 1\n", b"type = 18\n", 1)
    with pytest.raises(TableError, match=r"weapons\.toml: .*\$\.class\[0\]\.weapons\[0\]\.type"):
        parse_tables(texts)


# rule E10
def test_weapon_with_four_ranges_is_a_table_error() -> None:
    texts = _packaged_texts()
    texts[WEAPONS_FILE] = texts[WEAPONS_FILE].replace(b"[1, 3, 6, 9, 12]", b"[1, 3, 6, 9]", 1)
    with pytest.raises(TableError, match=r"weapons\.toml: .*\$\.class\[0\]\.weapons\[0\]\.ranges"):
        parse_tables(texts)


# rule E11
def test_weapon_type_number_out_of_range_is_a_table_error() -> None:
    texts = _packaged_texts()
    texts[WEAPON_TYPES_FILE] = texts[WEAPON_TYPES_FILE].replace(b"number = 1\n", b"number = 0\n")
    with pytest.raises(TableError, match=r"weapon_types\.toml: .*\$\.type\[0\]\.number"):
        parse_tables(texts)


# rule E5
def test_unknown_field_is_a_table_error() -> None:
    texts = _packaged_texts()
    texts[SHIELDS_FILE] = texts[SHIELDS_FILE] + b"\n[[shield]]\nname = 'X'\nparry = 1\nspeed = 1\nx = 1\n"
    with pytest.raises(TableError, match=r"shields\.toml: .*\$\.shield\[4\]"):
        parse_tables(texts)


def test_malformed_toml_is_a_table_error() -> None:
    texts = _packaged_texts()
    texts[ARMOR_FILE] = b"[[armor]\n"
    with pytest.raises(TableError, match=r"armor\.toml"):
        parse_tables(texts)


def test_packaged_files_are_the_ones_loaded() -> None:
    assert parse_tables(_packaged_texts()) == load_tables()


def test_decoded_structs_round_trip_to_plain_data(tables: EnergionTables) -> None:
    plain = msgspec.to_builtins(tables)
    assert plain["classes"][0]["weapons"][0]["name"] == "Dagger, Normal"
