"""Numbers in the five-step user tables: every one finite and from -1,000,000 to 1,000,000, checked as the
file is read; TOML the reader cannot take (a 5000-digit integer, arrays nested 1000 deep) is a TableError
too (docs/rulesets/fivestep.md, "User-supplied tables")."""

from __future__ import annotations

from pathlib import Path

import pytest

from affray.errors import TableError
from affray.rules.fivestep import damage_tables, usertables
from affray.rules.tabledata import NUMBER_LIMIT

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "tables" / "fivestep"
DAMAGE_TABLES = {"3-3", "3-3.1", "3-15.1"}
LONG = "9" * 5000


def _parse(table: str, old: str, new: str) -> object:
    """Parse the example file of ``table`` with ``old`` replaced by ``new`` once."""
    text = (EXAMPLES / f"{table}.toml").read_text()
    assert old in text, old
    changed = text.replace(old, new, 1)
    parse = damage_tables.parse_table if table in DAMAGE_TABLES else usertables.parse_table
    return parse(f"{table}.toml", changed)


CASES = [
    pytest.param("3-1", "columns = [20", "columns = [nan", "$.columns[0]", id="3-1-column-nan"),
    pytest.param("3-1", "values = [25", "values = [nan", "$.row[0].values[0]", id="3-1-value-nan"),
    pytest.param(
        "3-1", "range_m_max = 3\n", "range_m_max = inf\n", "$.row[0].range_m_max", id="3-1-range-inf"
    ),
    pytest.param("3-2", "values = [0", "values = [inf", "$.row[0].values[0]", id="3-2-value-inf"),
    pytest.param("3-3", "range_m = [3,", "range_m = [nan,", "$.range_m[0]", id="3-3-range-nan"),
    pytest.param("3-3", "mod = 1\n", "mod = 99999999999999999999\n", "$.wep_mod[0].mod", id="3-3-mod-huge"),
    pytest.param("3-3", "damage = [6", "damage = [10000000", "$.wep_mod[0].damage[0]", id="3-3-damage-huge"),
    pytest.param(
        "3-3.1", "circulatory = 0.5", "circulatory = inf", "$.part[0].factors.circulatory", id="3-3.1-inf"
    ),
    pytest.param(
        "3-3.1", "circulatory = 0.5", "circulatory = nan", "$.part[0].factors.circulatory", id="3-3.1-nan"
    ),
    pytest.param(
        "3-3.1", "circulatory = 0.5", "circulatory = 1e308", "$.part[0].factors.circulatory", id="3-3.1-huge"
    ),
    pytest.param("3-4.0", "weights_kg = [0.5", "weights_kg = [nan", "$.weights_kg[0]", id="3-4.0-weight-nan"),
    pytest.param(
        "3-4.0", "distances_m = [20", "distances_m = [inf", "$.row[0].distances_m[0]", id="3-4.0-distance-inf"
    ),
    pytest.param(
        "3-4.0",
        "strength_max = 30",
        "strength_max = 9999999999",
        "$.row[0].strength_max",
        id="3-4.0-strength",
    ),
    pytest.param("3-4.1", "distance_m = 1\n", "distance_m = nan\n", "$.row[0].distance_m", id="3-4.1-nan"),
    pytest.param("3-6", "cost = 2\n", "cost = nan\n", "$.row[0].cost", id="3-6-cost-nan"),
    pytest.param("3-6", "cost = 2\n", "cost = inf\n", "$.row[0].cost", id="3-6-cost-inf"),
    pytest.param("3-6", "cost = 2\n", "cost = -inf\n", "$.row[0].cost", id="3-6-cost-minus-inf"),
    pytest.param("3-7.0", "modifier = 0", "modifier = nan", "$.row[0].modifier", id="3-7.0-nan"),
    pytest.param("3-7.1", "modifier = 8", "modifier = -inf", "$.row[0].modifier", id="3-7.1-minus-inf"),
    pytest.param("3-15.1", "at_least = 1\n", "at_least = nan\n", "$.row[0].at_least", id="3-15.1-nan"),
]


@pytest.mark.parametrize(("table", "old", "new", "path"), CASES)
def test_a_number_that_is_not_finite_or_huge_is_a_table_error_naming_file_and_field(
    table: str, old: str, new: str, path: str
) -> None:
    with pytest.raises(TableError, match="expected a finite number from -1,000,000 to 1,000,000") as caught:
        _parse(table, old, new)
    assert str(caught.value).startswith(f"{table}.toml: ")
    assert f"- at `{path}`" in str(caught.value)


@pytest.mark.parametrize("sign", [1, -1])
def test_a_number_is_up_to_a_million_either_way_and_no_more(sign: int) -> None:
    table = _parse("3-7.0", "modifier = 0", f"modifier = {sign * NUMBER_LIMIT}")
    assert isinstance(table, usertables.AdversityTable)
    assert table.row[0].modifier == sign * NUMBER_LIMIT
    with pytest.raises(TableError, match=r"- at `\$\.row\[0\]\.modifier`"):
        _parse("3-7.0", "modifier = 0", f"modifier = {sign * (NUMBER_LIMIT + 1)}")


def test_a_long_number_is_quoted_short() -> None:
    with pytest.raises(TableError) as caught:
        _parse("3-6", "cost = 2\n", f"cost = {'9' * 4000}\n")
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("table", ["3-6", "3-3.1"])
def test_an_integer_of_more_than_4300_digits_is_a_table_error_naming_its_line(table: str) -> None:
    old = "cost = 2\n" if table == "3-6" else "circulatory = 0.5"
    new = f"cost = {LONG}\n" if table == "3-6" else f"circulatory = {LONG}"
    with pytest.raises(TableError, match=r"line \d+: an integer has more than 4300 digits") as caught:
        _parse(table, old, new)
    assert str(caught.value).startswith(f"{table}.toml: ")


def test_arrays_nested_a_thousand_deep_are_a_table_error() -> None:
    with pytest.raises(TableError, match=r"^3-6\.toml: .*nested too deeply$"):
        _parse("3-6", "cost = 2\n", "cost = " + "[" * 1000 + "]" * 1000 + "\n")


def test_the_header_of_a_file_nested_too_deeply_is_a_table_error(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('table = "3-6"\nexample = true\nx = ' + "[" * 1000 + "]" * 1000 + "\n")
    with pytest.raises(TableError, match="nested too deeply"):
        usertables.table_id(path)
