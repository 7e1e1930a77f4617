"""``affray rules``: the rulesets' and modules' tables, one table, the rows named like what was typed."""

from __future__ import annotations

import json

import pytest

from affray.errors import excerpt
from affray.rules.energion.tables import load_tables
from tests.cli.conftest import Affray, assert_user_error

LONG_NAME = "x" * 5000


def test_the_catalogue_lists_every_ruleset_and_module_with_its_tables(affray: Affray) -> None:
    result = affray("rules")
    assert result.code == 0, result
    owners = [line.split()[0] for line in result.out.splitlines() if not line.startswith(" ")]
    assert {"energion", "fivestep", "special_damage"} <= set(owners)
    assert "  weapons " in result.out
    assert "  living " in result.out


def test_a_table_lists_every_row_of_the_chart(affray: Affray) -> None:
    result = affray("rules", "energion", "weapons")
    assert result.code == 0, result
    title, heading, *rows = result.out.splitlines()
    assert title.startswith("energion weapons: Weapon chart")
    assert heading.split()[:3] == ["name", "class", "type"]
    charted = sum(len(c.weapons) for c in load_tables().classes)
    assert len(rows) == charted


def test_mace_offers_the_three_maces(affray: Affray) -> None:
    rows = affray("rules", "energion", "weapons", "Mace").out.splitlines()[2:]
    assert [row.split("  ")[0] for row in rows] == ["Mace, Small", "Mace, Large", "Mace, 2 Handed"]


def test_longbow_finds_the_long_bows_without_naming_the_table(affray: Affray) -> None:
    result = affray("rules", "energion", "Longbow")
    assert result.code == 0, result
    lines = result.out.splitlines()
    assert lines[0].startswith("energion weapons:")
    assert [line.split("  ")[0] for line in lines[2:4]] == ["Bow, Self, Long", "Bow, Compound, Long"]


def test_an_exact_name_shows_that_row_alone(affray: Affray) -> None:
    rows = affray("rules", "energion", "shields", "small").out.splitlines()[2:]
    assert rows == ["Small  20     4"]


def test_json_gives_the_rows_as_records_with_numbers(affray: Affray) -> None:
    result = affray("rules", "energion", "weapons", "Mace, Small", "--json")
    assert result.code == 0, result
    [table] = json.loads(result.out)
    assert (table["of"], table["name"], table["columns"][0]) == ("energion", "weapons", "name")
    assert table["rows"] == [
        {
            "name": "Mace, Small",
            "class": "Maces",
            "type": 4,
            "hands": 1,
            "mechanical": False,
            "initiative": 12,
            "speed": 10,
            "PTB": 1,
            "SHT": 2,
            "MED": 3,
            "LNG": 4,
            "EXT": 5,
            "damage": 12,
            "parry": 0,
            "note": None,
        }
    ]


def test_json_catalogue_counts_each_tables_rows(affray: Affray) -> None:
    listed = json.loads(affray("rules", "special_damage", "--json").out)
    [module] = listed
    assert (module["kind"], module["version"]) == ("module", "4")
    assert {"name": "healing", "rows": 8}.items() <= next(
        t for t in module["tables"] if t["name"] == "healing"
    ).items()


def test_fivestep_lists_the_tables_a_scenario_supplies(affray: Affray) -> None:
    result = affray("rules", "fivestep", "tables", "3-6")
    assert result.code == 0, result
    assert result.out.splitlines()[2].split()[:3] == ["3-6", "action", "F7"]


def test_an_unknown_ruleset_is_a_user_error_naming_those_there_are(affray: Affray) -> None:
    assert_user_error(affray("rules", "energon"), "no ruleset or module 'energon'", "energion, fivestep")


def test_a_name_no_table_holds_is_a_user_error_listing_the_tables(affray: Affray) -> None:
    assert_user_error(
        affray("rules", "energion", "Zzyzx"), "energion: no table or entry 'Zzyzx'", "weapons, classes"
    )


def test_an_entry_the_table_lacks_is_a_user_error(affray: Affray) -> None:
    assert_user_error(
        affray("rules", "energion", "weapons", "Zzyzx"),
        "energion weapons: nothing is named like 'Zzyzx'",
        "affray rules energion weapons",
    )


@pytest.mark.parametrize(
    "args",
    [
        pytest.param([LONG_NAME], id="ruleset"),
        pytest.param(["energion", LONG_NAME], id="table"),
        pytest.param(["energion", "weapons", LONG_NAME], id="entry"),
    ],
)
def test_a_long_unknown_name_is_quoted_in_at_most_a_few_dozen_characters(
    affray: Affray, args: list[str]
) -> None:
    result = affray("rules", *args)
    assert_user_error(result, repr(excerpt(LONG_NAME)))
    assert LONG_NAME not in result.err
