"""A ruleset's tables as people read them: found by name, aligned as text, as JSON records."""

from __future__ import annotations

from decimal import Decimal

import pytest

from affray.kernel.tables import RulesTable, table_record, table_summary

SHIELDS = RulesTable(
    name="shields",
    title="Shields",
    rules="E5",
    source="seed 002, as printed",
    columns=("name", "parry", "weight", "note"),
    rows=(("Buckler", 10, 1.5, None), ("Large", 40, 6.0, "heavy"), ("Large force field", 40, 0.0, True)),
)


def test_a_row_of_the_wrong_width_is_refused() -> None:
    with pytest.raises(ValueError, match="4 cells"):
        RulesTable(name="t", title="T", rules="E5", source="s", columns=("a", "b", "c", "d"), rows=(("x",),))


def test_an_exact_name_gives_only_that_row() -> None:
    assert SHIELDS.matching("large").rows == (("Large", 40, 6.0, "heavy"),)


def test_a_partial_name_gives_every_close_row() -> None:
    assert SHIELDS.matching("force").names() == ["Large force field"]
    assert SHIELDS.matching("Buckelr").names() == ["Buckler"]
    assert SHIELDS.matching("zzz").rows == ()


def test_lines_align_the_columns_and_spell_out_empty_and_yes_no_cells() -> None:
    assert SHIELDS.lines() == [
        "name               parry  weight  note",
        "Buckler            10     1.5     -",
        "Large              40     6       heavy",
        "Large force field  40     0       yes",
    ]


def test_records_map_each_heading_to_its_cell() -> None:
    table = RulesTable(
        name="t", title="T", rules="E7", source="s", columns=("name", "d"), rows=(("x", Decimal("1.5")),)
    )
    assert table.records() == [{"name": "x", "d": Decimal("1.5")}]
    assert table_record("energion", table)["rows"] == [{"name": "x", "d": Decimal("1.5")}]
    assert table_summary(table)["rows"] == 1
