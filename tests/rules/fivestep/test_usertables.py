"""User-supplied five-step tables: the data format, loader errors naming file and field, require()
(rules F5-F9 and the inventory's rule on tables the text names but does not contain)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from affray.errors import TableError, UnknownTableEntry
from affray.rules.fivestep import usertables
from affray.rules.fivestep.usertables import (
    FAMILIES,
    ActionTable,
    AdversityTable,
    BounceTable,
    LocationTable,
    MissingTable,
    RangeTable,
    ThrowTable,
    load_table,
    load_tables,
    parse_table,
    require,
    table_id,
)

D = Decimal
EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "tables" / "fivestep"
SHIPPED = {
    "3-1": RangeTable,
    "3-2": RangeTable,
    "3-3.4": LocationTable,
    "3-4.0": ThrowTable,
    "3-4.1": BounceTable,
    "3-6": ActionTable,
    "3-7.0": AdversityTable,
}
HEADER = "# INVENTED EXAMPLE DATA, not the rules: the text names this table but does not contain it"

RANGE = """
table = "3-1"
example = false
key = "marks"
columns = [40, 80]
[[row]]
range_m_max = 10
values = [30, 60]
[[row]]
range_m_max = 100
values = [10, 40]
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- the example tables ------------------------------------------------------------------------------


# the shipped examples: each loads into its family and is marked example = true
@pytest.mark.parametrize(("name", "family"), SHIPPED.items())
def test_example_table_loads_and_is_marked_example(name: str, family: type) -> None:
    table = load_table(EXAMPLES / f"{name}.toml")
    assert isinstance(table, family)
    assert table.table == name
    assert table.example is True


# every shipped example says in its first line that it is invented, not the rules
@pytest.mark.parametrize("name", SHIPPED)
def test_example_table_has_the_invented_data_header(name: str) -> None:
    first = (EXAMPLES / f"{name}.toml").read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(HEADER)


# a scenario's list of the examples loads as one set of tables keyed by id
def test_examples_load_together(tmp_path: Path) -> None:
    tables = load_tables([Path(f"{name}.toml") for name in SHIPPED], relative_to=EXAMPLES)
    assert set(tables) == set(SHIPPED)


# table_id reads only the header, so a scenario can send damage tables (3-3, 3-8, ...) elsewhere
def test_table_id_reads_the_header() -> None:
    assert table_id(EXAMPLES / "3-4.1.toml") == "3-4.1"
    assert set(SHIPPED) <= set(FAMILIES)


# --- look-ups ----------------------------------------------------------------------------------------


# rule F8 (ruling: inclusive upper bounds): 10 m is the first band, 10.5 m the second; MARKS 40 the first
# column, 40.5 the second; MARKS above the last column reads the last
def test_range_lookup_bounds_are_inclusive() -> None:
    table = parse_table("t.toml", RANGE)
    assert isinstance(table, RangeTable)
    assert table.lookup(D(10), D(40)) == 30
    assert table.lookup(D("10.5"), D("40.5")) == 40
    assert table.lookup(D(5), D(95)) == 60


# rule F8 (ruling): beyond the last range row is off the table
def test_range_lookup_beyond_the_table_is_none() -> None:
    table = parse_table("t.toml", RANGE)
    assert isinstance(table, RangeTable)
    assert table.lookup(D("100.001"), D(50)) is None


# rule F8: the example random-hit table: 01-10 head, 11 chest, 100 left leg
def test_location_table_reads_each_roll() -> None:
    table = load_table(EXAMPLES / "3-3.4.toml")
    assert isinstance(table, LocationTable)
    assert [table.part_for(r) for r in (1, 10, 11, 100)] == ["head", "head", "chest", "left leg"]


# rule F9: the example throw table: strength 45, 0.8 kg -> row "up to 60", column "up to 1 kg" = 28 m;
# strength 200 reads the last row; 11 kg is too heavy (0 m)
def test_throw_table_distances() -> None:
    table = load_table(EXAMPLES / "3-4.0.toml")
    assert isinstance(table, ThrowTable)
    assert table.distance(45, D("0.8")) == 28
    assert table.distance(200, D("0.5")) == 65
    assert table.distance(45, D(11)) == 0


# rule F7: action names match ignoring case; an unknown one names the table and what it lists
def test_action_lookup_ignores_case_and_names_unknowns() -> None:
    table = load_table(EXAMPLES / "3-6.toml")
    assert isinstance(table, ActionTable)
    assert table.named("  PUNCH ").cost == 15
    with pytest.raises(UnknownTableEntry, match="Table 3-6 has no action 'somersault'"):
        table.named("somersault")


def test_an_unknown_action_is_told_quoting_a_few_dozen_characters_of_each_name() -> None:
    text = (EXAMPLES / "3-6.toml").read_text().replace('"punch"', f'"{"x" * 100}"')
    table = usertables.parse_table("3-6.toml", text)
    assert isinstance(table, ActionTable)
    with pytest.raises(UnknownTableEntry) as caught:
        table.named("y" * 100)
    assert "x" * 41 not in str(caught.value)
    assert "y" * 41 not in str(caught.value)


# --- require -----------------------------------------------------------------------------------------


# the inventory: a procedure that needs a missing table fails with a clear error naming the table
def test_require_names_the_missing_table_and_the_procedure() -> None:
    with pytest.raises(
        MissingTable, match="procedure 2 to hit needs Table 3-1, which the scenario does not supply"
    ):
        require({}, "3-1", "procedure 2 to hit")


# a MissingTable is a TableError (an AffrayError: the CLI prints it on one line)
def test_missing_table_is_a_table_error() -> None:
    assert issubclass(MissingTable, TableError)


# require hands back the supplied table
def test_require_returns_the_table() -> None:
    table = parse_table("t.toml", RANGE)
    assert require({"3-1": table}, "3-1", "procedure 2 to hit") is table


# --- loader errors name the file and the field path ---------------------------------------------------


# a missing file is named
def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"nope\.toml: no such file"):
        load_table(tmp_path / "nope.toml")


# a table id affray does not know is refused at $.table
def test_unknown_table_id(tmp_path: Path) -> None:
    path = _write(tmp_path, "x.toml", 'table = "3-99"\nexample = true\n[[row]]\n')
    with pytest.raises(TableError, match=r"x\.toml: unknown table '3-99'.* - at `\$\.table`"):
        load_table(path)


# the header needs `example`
def test_example_flag_is_required(tmp_path: Path) -> None:
    path = _write(tmp_path, "x.toml", RANGE.replace("example = false\n", ""))
    with pytest.raises(TableError, match=r"x\.toml: Object missing required field `example`"):
        load_table(path)


# an unknown field is refused with its path
def test_unknown_field_names_its_path(tmp_path: Path) -> None:
    path = _write(tmp_path, "r.toml", RANGE.replace("range_m_max = 100", "range_max = 100"))
    with pytest.raises(TableError, match=r"r\.toml: .*`range_max` - at `\$\.row\[1\]`"):
        load_table(path)


# range rows must rise: 100 then 10 is out of order
def test_range_rows_must_rise(tmp_path: Path) -> None:
    text = RANGE.replace("range_m_max = 10\n", "range_m_max = 200\n")
    with pytest.raises(
        TableError, match=r"r\.toml: range bounds must rise.* - at `\$\.row\[1\]\.range_m_max`"
    ):
        load_table(_write(tmp_path, "r.toml", text))


# column bounds must rise too
def test_columns_must_rise(tmp_path: Path) -> None:
    text = RANGE.replace("columns = [40, 80]", "columns = [40, 40]")
    with pytest.raises(TableError, match=r"column bounds must rise: 40 after 40 - at `\$\.columns\[1\]`"):
        load_table(_write(tmp_path, "r.toml", text))


# each row has one value per column
def test_row_needs_one_value_per_column(tmp_path: Path) -> None:
    text = RANGE.replace("values = [10, 40]", "values = [10]")
    with pytest.raises(TableError, match=r"expected 2 values \(one per column\) - at `\$\.row\[1\]\.values`"):
        load_table(_write(tmp_path, "r.toml", text))


# a range of 0 m or less is refused by the schema
def test_range_bound_must_be_positive(tmp_path: Path) -> None:
    text = RANGE.replace("range_m_max = 10\n", "range_m_max = 0\n")
    with pytest.raises(
        TableError, match=r"expected a number above 0, got 0 - at `\$\.row\[0\]\.range_m_max`"
    ):
        load_table(_write(tmp_path, "r.toml", text))


# a location table with a gap (11 missing: the second row starts at 12) names the row
def test_location_gap(tmp_path: Path) -> None:
    text = (EXAMPLES / "3-3.4.toml").read_text(encoding="utf-8").replace("low = 11\n", "low = 12\n")
    with pytest.raises(
        TableError, match=r"l\.toml: expected 11 \(no gaps or overlaps\) - at `\$\.row\[1\]\.low`"
    ):
        load_table(_write(tmp_path, "l.toml", text))


# a location table must reach 100
def test_location_must_reach_100(tmp_path: Path) -> None:
    text = (EXAMPLES / "3-3.4.toml").read_text(encoding="utf-8").replace("high = 100\n", "high = 99\n")
    with pytest.raises(TableError, match=r"the last row must end at 100 - at `\$\.row\[6\]\.high`"):
        load_table(_write(tmp_path, "l.toml", text))


# the bounce table must cover up to 20 over (rule F9)
def test_bounce_table_must_end_at_20(tmp_path: Path) -> None:
    text = (EXAMPLES / "3-4.1.toml").read_text(encoding="utf-8").replace("over_max = 20\n", "over_max = 19\n")
    with pytest.raises(
        TableError, match=r"b\.toml: the last row must end at 20 - at `\$\.row\[3\]\.over_max`"
    ):
        load_table(_write(tmp_path, "b.toml", text))


# a negative action cost is refused with its path
def test_negative_cost(tmp_path: Path) -> None:
    text = (EXAMPLES / "3-6.toml").read_text(encoding="utf-8").replace("cost = 15\n", "cost = -15\n")
    with pytest.raises(
        TableError, match=r"c\.toml: expected a number 0 or more, got -15 - at `\$\.row\[4\]\.cost`"
    ):
        load_table(_write(tmp_path, "c.toml", text))


# a throw row needs one distance per weight column
def test_throw_row_needs_one_distance_per_weight(tmp_path: Path) -> None:
    text = (EXAMPLES / "3-4.0.toml").read_text(encoding="utf-8").replace("[20, 15, 8, 4, 1]", "[20, 15]")
    with pytest.raises(TableError, match=r"expected 5 distances - at `\$\.row\[0\]\.distances_m`"):
        load_table(_write(tmp_path, "w.toml", text))


# adversity conditions are unique (ignoring case)
def test_duplicate_condition(tmp_path: Path) -> None:
    text = (EXAMPLES / "3-7.0.toml").read_text(encoding="utf-8").replace('"fog"', '"Light Rain"')
    with pytest.raises(TableError, match=r"duplicate name 'Light Rain' - at `\$\.row\[3\]\.condition`"):
        load_table(_write(tmp_path, "a.toml", text))


# malformed TOML is a TableError naming the file
def test_malformed_toml(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"m\.toml: "):
        load_table(_write(tmp_path, "m.toml", 'table = "3-1"\n[[row]\n'))


# two files of the same table in one scenario are refused, naming the first
def test_two_files_of_one_table(tmp_path: Path) -> None:
    first = _write(tmp_path, "a.toml", RANGE)
    second = _write(tmp_path, "b.toml", RANGE)
    with pytest.raises(
        TableError, match=r"b\.toml: Table 3-1 is already supplied by .*a\.toml - at `\$\.table`"
    ):
        load_tables([first, second])


# a table with no rows is refused
def test_table_needs_rows(tmp_path: Path) -> None:
    path = _write(tmp_path, "e.toml", 'table = "3-6"\nexample = true\nrow = []\n')
    with pytest.raises(TableError, match=r"e\.toml: expected at least one row - at `\$\.row`"):
        usertables.load_table(path)


def test_an_unknown_table_id_is_quoted_in_a_few_dozen_characters() -> None:
    with pytest.raises(TableError, match="unknown table") as caught:
        usertables.parse_table("x.toml", f'table = "{"x" * 100}"\nexample = true\n')
    assert "x" * 41 not in str(caught.value)
