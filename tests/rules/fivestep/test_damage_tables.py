"""The user-supplied five-step damage tables (rules F10, F11, F12): loading, validation and error paths."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from affray.errors import TableError
from affray.rules.fivestep import damage_tables as dt

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "tables" / "fivestep"
HEADER = "# INVENTED EXAMPLE DATA, not the rules: the text names this table but does not contain it."
EXAMPLE_FILES = ("3-3.toml", "3-3.1.toml", "3-8.toml", "3-15.1.toml")


def _text(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def _parse(name: str, text: str) -> dt.DamageTable:
    return dt.parse_table(name, text)


# --- the shipped example tables ------------------------------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_example_table_loads_and_is_marked_example(name: str) -> None:
    # rules F10/F11/F12: every shipped table is invented data and says so in its `example` field
    table = dt.load_table(EXAMPLES / name)
    assert table.example is True
    assert table.source == str(EXAMPLES / name)


@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_example_table_starts_with_the_invented_data_header(name: str) -> None:
    # rules F10/F11/F12: the first line of each example file warns that it is not the rules
    assert _text(name).splitlines()[0] == HEADER


def test_example_tables_bundle_one_of_each_kind() -> None:
    # rules F10/F11/F12: 3-3, 3-3.1, one description table (blade) and one organ table (circulatory)
    tables = dt.load_tables([EXAMPLES / name for name in EXAMPLE_FILES])
    assert tables.wep_mod().table == "3-3"
    assert tables.factors().table == "3-3.1"
    assert tables.description("Blade").table == "3-8"
    assert tables.organ("circulatory").table == "3-15.1"


def test_toml_floats_decode_to_exact_decimals() -> None:
    # rule F12: Table 3-3.1's head/respiratory 0.3 is Decimal('0.3'), not the binary float 0.29999...
    table = dt.load_table(EXAMPLES / "3-3.1.toml")
    assert isinstance(table, dt.OrganFactorTable)
    assert table.factor("head", "respiratory") == Decimal("0.3")


# --- look-ups ---------------------------------------------------------------------------------------


def test_wep_mod_table_reads_the_first_band_at_or_above_the_range() -> None:
    # rule F10: bands end at 3, 10, 25, 50 m; 30 m is in the fourth band (25 < 30 <= 50): WEP MOD 3 -> 12
    table = dt.load_table(EXAMPLES / "3-3.toml")
    assert isinstance(table, dt.WepModTable)
    assert table.damage(3, Decimal(30)) == 12


def test_wep_mod_table_band_bound_is_inclusive() -> None:
    # rule F10: 25 m is the last range of the band ending at 25 m (the third): WEP MOD 3 -> 15
    table = dt.load_table(EXAMPLES / "3-3.toml")
    assert isinstance(table, dt.WepModTable)
    assert table.damage(3, Decimal(25)) == 15


def test_range_beyond_the_last_band_names_table_and_path() -> None:
    # rule F10: the example's last band ends at 3000 m; 3500 m has no figure
    table = dt.load_table(EXAMPLES / "3-3.toml")
    assert isinstance(table, dt.WepModTable)
    with pytest.raises(
        TableError, match=r"3-3\.toml: table 3-3 has no range band for 3500 m .* `\$\.range_m`"
    ):
        table.damage(1, Decimal(3500))


def test_unknown_wep_mod_names_table() -> None:
    # rule F10: WEP MOD 9 is not a row of the example table
    table = dt.load_table(EXAMPLES / "3-3.toml")
    assert isinstance(table, dt.WepModTable)
    with pytest.raises(TableError, match=r"3-3\.toml: table 3-3 has no row for WEP MOD 9 \(it has 1, 2, 3"):
        table.damage(9, Decimal(5))


def test_an_unknown_body_part_is_told_quoting_a_few_dozen_characters_of_each_name() -> None:
    text = (EXAMPLES / "3-3.1.toml").read_text().replace('"neck"', f'"{"x" * 100}"')
    table = dt.parse_table("3-3.1.toml", text)
    assert isinstance(table, dt.OrganFactorTable)
    with pytest.raises(TableError) as caught:
        table.factor("y" * 100, "circulatory")
    assert "x" * 41 not in str(caught.value)
    assert "y" * 41 not in str(caught.value)


def test_unknown_body_part_names_table() -> None:
    # rule F12: Table 3-3.1 has no "tail" row in the example
    table = dt.load_table(EXAMPLES / "3-3.1.toml")
    assert isinstance(table, dt.OrganFactorTable)
    with pytest.raises(TableError, match=r"table 3-3\.1 has no body part 'tail'"):
        table.factor("tail", "circulatory")


def test_organ_table_value_below_first_row_is_no_effect() -> None:
    # rule F12: the example's first row starts at 1; a value of 0.5 reads nothing
    table = dt.load_table(EXAMPLES / "3-15.1.toml")
    assert isinstance(table, dt.OrganTable)
    assert table.effect(Decimal("0.5")) is None


def test_organ_table_value_beyond_last_row_reads_last_row() -> None:
    # rule F12: 150 is beyond the last row (at least 100): it reads that row
    table = dt.load_table(EXAMPLES / "3-15.1.toml")
    assert isinstance(table, dt.OrganTable)
    effect = table.effect(Decimal(150))
    assert effect is not None
    assert effect.at_least == 100


# --- missing tables ---------------------------------------------------------------------------------


def test_missing_wep_mod_table_names_table_3_3() -> None:
    # rule F10: procedure (3) needs Table 3-3; an empty bundle says it is user-supplied
    with pytest.raises(TableError, match=r"table 3-3 \(WEP MOD vs range\) is needed but was not supplied"):
        dt.DamageTables().wep_mod()


def test_missing_factor_table_names_table_3_3_1() -> None:
    # rule F12
    with pytest.raises(TableError, match=r"table 3-3\.1 .* user-supplied data"):
        dt.DamageTables().factors()


def test_missing_description_table_names_the_damage_type() -> None:
    # rule F11: no table was supplied for laser damage
    with pytest.raises(TableError, match=r"table 3-8 to 3-14 \(descriptions of damage type 'laser'\)"):
        dt.DamageTables().description("laser")


def test_missing_organ_table_names_the_system() -> None:
    # rule F12
    with pytest.raises(TableError, match=r"table 3-15\.x \(respiratory organ system damage\)"):
        dt.DamageTables().organ("respiratory")


def test_a_table_supplied_twice_is_refused() -> None:
    # rules F10/F12: two files both claiming Table 3-3
    first = _parse("a.toml", _text("3-3.toml"))
    second = _parse("b.toml", _text("3-3.toml"))
    with pytest.raises(TableError, match=r"b\.toml: 3-3 is also supplied by a\.toml - at `\$\.table`"):
        dt.bundle([first, second])


# --- loader errors: file and field path ---------------------------------------------------------------


def test_missing_file_is_named() -> None:
    with pytest.raises(TableError, match=r"nowhere\.toml: no such file"):
        dt.load_table(EXAMPLES / "nowhere.toml")


def test_unknown_table_id() -> None:
    # rules F10/F11/F12: "3-7" is not a damage table
    text = _text("3-3.toml").replace('\ntable = "3-3"', '\ntable = "3-7"', 1)
    with pytest.raises(TableError, match=r"x\.toml: expected a damage table .* got '3-7' - at `\$\.table`"):
        _parse("x.toml", text)


def test_missing_example_flag() -> None:
    # every damage table says whether it is example data
    text = _text("3-3.toml").replace("example = true\n", "", 1)
    with pytest.raises(TableError, match=r"x\.toml: Object missing required field `example`"):
        _parse("x.toml", text)


def test_wep_mod_row_of_the_wrong_length() -> None:
    # rule F10: nine range bands, but WEP MOD 2 gives eight figures
    text = _text("3-3.toml").replace("[12, 10, 8, 6, 4, 3, 2, 1, 0]", "[12, 10, 8, 6, 4, 3, 2, 1]", 1)
    with pytest.raises(
        TableError, match=r"3-3\.toml: expected 9 figures, .* got 8 - at `\$\.wep_mod\[1\]\.damage`"
    ):
        _parse("3-3.toml", text)


def test_negative_damage_figure() -> None:
    # rule F10: damage points are 0 or more
    text = _text("3-3.toml").replace("damage = [6, 5,", "damage = [-6, 5,", 1)
    with pytest.raises(
        TableError, match=r"3-3\.toml: Expected `int` >= 0 - at `\$\.wep_mod\[0\]\.damage\[0\]`"
    ):
        _parse("3-3.toml", text)


def test_range_bands_out_of_order() -> None:
    # rule F10: band bounds increase
    text = _text("3-3.toml").replace("[3, 10, 25,", "[3, 25, 10,", 1)
    with pytest.raises(TableError, match=r"increasing order - at `\$\.range_m\[2\]`"):
        _parse("3-3.toml", text)


def test_duplicate_wep_mod() -> None:
    # rule F10
    text = _text("3-3.toml").replace("mod = 2\n", "mod = 1\n", 1)
    with pytest.raises(TableError, match=r"duplicate WEP MOD 1 - at `\$\.wep_mod\[1\]\.mod`"):
        _parse("3-3.toml", text)


def test_factor_row_missing_a_system() -> None:
    # rule F12: the head row leaves out digestive-excretory
    text = _text("3-3.1.toml").replace(", digestive-excretory = 0.1 }", " }", 1)
    with pytest.raises(
        TableError,
        match=r"3-3\.1\.toml: expected a factor for digestive-excretory - at `\$\.part\[0\]\.factors`",
    ):
        _parse("3-3.1.toml", text)


def test_factor_for_an_unknown_system() -> None:
    # rule F12: there are four organ systems; "skeletal" is not one
    text = _text("3-3.1.toml").replace("circulatory = 0.5", "skeletal = 0.5", 1)
    with pytest.raises(
        TableError, match=r"3-3\.1\.toml: Invalid enum value 'skeletal' .*\$\.part\[0\]\.factors"
    ):
        _parse("3-3.1.toml", text)


def test_negative_factor() -> None:
    # rule F12
    text = _text("3-3.1.toml").replace("circulatory = 0.5", "circulatory = -0.5", 1)
    with pytest.raises(
        TableError, match=r"expected 0 or more, got -0\.5 - at `\$\.part\[0\]\.factors\.circulatory`"
    ):
        _parse("3-3.1.toml", text)


def test_description_table_with_nineteen_categories() -> None:
    # rule F11: dropping the last category leaves 19
    text = _text("3-8.toml").split("[[category]] # 96-100")[0]
    with pytest.raises(TableError, match=r"3-8\.toml: expected 20 categories, got 19 - at `\$\.category`"):
        _parse("3-8.toml", text)


def test_description_layers_must_be_adjacent() -> None:
    # rule F11: a "skin" row among the muscle rows splits the muscle layer
    text = _text("3-8.toml").replace(
        'layer = "muscle"\ntext = "A shallow gash', 'layer = "skin"\ntext = "A shallow gash', 1
    )
    with pytest.raises(TableError, match=r"layer 'skin' must be adjacent - at `\$\.category\[4\]\.layer`"):
        _parse("3-8.toml", text)


def test_bone_layer_must_name_a_layer() -> None:
    # rule F11: exoskeleton races need the bone layer to exist
    text = _text("3-8.toml").replace('bone_layer = "bone"', 'bone_layer = "chitin"', 1)
    with pytest.raises(TableError, match=r"no category has layer 'chitin' - at `\$\.bone_layer`"):
        _parse("3-8.toml", text)


def test_description_table_declared_as_organ_table() -> None:
    # rules F11/F12: description tables are 3-8 to 3-14; a file saying 3-15.1 is read as an organ table
    text = _text("3-8.toml").replace('\ntable = "3-8"', '\ntable = "3-15.1"', 1)
    with pytest.raises(TableError, match=r"3-8\.toml: Object contains unknown field `damage_type`"):
        _parse("3-8.toml", text)


def test_organ_rows_must_increase() -> None:
    # rule F12
    text = _text("3-15.1.toml").replace("at_least = 40", "at_least = 10", 1)
    with pytest.raises(
        TableError, match=r"expected values in increasing order - at `\$\.row\[2\]\.at_least`"
    ):
        _parse("3-15.1.toml", text)


def test_organ_first_row_above_zero() -> None:
    # rule F12: 0 is no organ damage, so no row starts there
    text = _text("3-15.1.toml").replace("at_least = 1\n", "at_least = 0\n", 1)
    with pytest.raises(TableError, match=r"expected a value above 0 .* at `\$\.row\[0\]\.at_least`"):
        _parse("3-15.1.toml", text)


def test_unknown_field_is_refused_with_its_path() -> None:
    # rule F12: a misspelt `txt`
    text = _text("3-15.1.toml").replace('text = "Minor blood loss; no effect."', 'txt = "Minor"', 1)
    with pytest.raises(
        TableError, match=r"3-15\.1\.toml: Object contains unknown field `txt` - at `\$\.row\[0\]`"
    ):
        _parse("3-15.1.toml", text)


def test_file_may_not_set_source() -> None:
    # `source` is the loader's: a file setting it is refused
    text = _text("3-15.1.toml").replace('system = "circulatory"', 'system = "circulatory"\nsource = "x"', 1)
    with pytest.raises(TableError, match=r"`source` is set by the loader"):
        _parse("3-15.1.toml", text)


def test_malformed_toml_names_file() -> None:
    with pytest.raises(TableError, match=r"^broken\.toml: "):
        _parse("broken.toml", "table = ")


def test_a_bone_layer_no_category_has_is_quoted_in_a_few_dozen_characters() -> None:
    text = (EXAMPLES / "3-8.toml").read_text().replace('bone_layer = "bone"', f'bone_layer = "{"x" * 100}"')
    with pytest.raises(TableError, match="no category has layer") as caught:
        dt.parse_table("3-8.toml", text)
    assert "x" * 41 not in str(caught.value)
