"""Every row of Tables 1-4, every effect sentence and the healing/repair texts against the seed text.

The seed's tables are plain text lines as the scan left them: a row's first line carries its numbers and
the lines after it (until the next row) continue its name. Rows are parsed that way and compared cell by
cell with the packaged data; the one row the scan scrambled ("1 or 0 None 0" / "less") is hand-listed.
"""

from __future__ import annotations

import re

import pytest

from affray.rules.special_damage.recovery import load_healing, load_repair
from affray.rules.special_damage.tables import (
    OR_LESS,
    OR_MORE,
    LivingRow,
    RobotRow,
    load_living,
    load_modifiers,
    load_robots,
    load_weapon_modifiers,
)
from tests.rules.special_damage.conftest import section

_T1_ROW = re.compile(r"^(?P<mod>[+-]\d+) (?P<reason>.+)$")
_T2_ROW = re.compile(r"^(?P<name>.+?)(?: (?P<stars>\*+))? (?P<mod>[+-]\d+)$")
_T34_ROW = re.compile(r"^(?P<range>\d+(?:-\d+)?\+?) (?P<stamina>[\d,]+) (?P<damage>.+) (?P<units>\d+)$")
_STARS = re.compile(r"^(?P<text>.+?)(?: (?P<stars>\*+))?$")


def _group(lines: list[str], starts_row: re.Pattern[str]) -> list[list[str]]:
    """Lines grouped by row: a line matching ``starts_row`` opens a row, the others continue it."""
    rows: list[list[str]] = []
    for line in lines:
        if starts_row.match(line) or not rows:
            rows.append([line])
        else:
            rows[-1].append(line)
    return rows


def _split_footnotes(lines: list[str]) -> tuple[list[str], dict[str, str]]:
    first = next(i for i, line in enumerate(lines) if line.startswith("*"))
    notes = {}
    for line in lines[first:]:
        stars, text = line.split(" ", 1)
        notes[stars] = text
    return lines[:first], notes


def _range(cell: str) -> tuple[int, int]:
    if cell.endswith("+"):
        return int(cell[:-1]), OR_MORE
    low, _, high = cell.partition("-")
    return int(low), int(high or low)


# rule S9: Table 1, every row: modifier, reason and its footnote
def test_table_1_matches_every_seed_row(seed_lines: list[str]) -> None:
    lines = section(seed_lines, "Table 1: Special Damage Modifiers", "Table 2")
    assert lines[0] == "Modifier Reason"
    body, notes = _split_footnotes(lines[1:])
    printed = [" ".join(group) for group in _group(body, _T1_ROW)]
    table = load_modifiers().modifiers
    assert len(printed) == len(table) == 19
    for text, row in zip(printed, table, strict=True):
        match = _T1_ROW.match(text)
        assert match is not None, text
        reason = _STARS.match(match["reason"])
        assert reason is not None
        assert (int(match["mod"]), reason["text"]) == (row.modifier, row.reason)
        stars = reason["stars"]
        assert row.footnote == (notes[stars] if stars else "")
        assert (stars == "*") == (row.max is not None)
        assert (stars == "**") == bool(row.applies_to)
        assert (stars == "***") == row.once
        assert (row.per is not None) == (row.reason.startswith("Per ") or stars == "*")


# rule S9: the counted rows, as the reasons and footnotes read
def test_table_1_counted_rows_are_transcribed() -> None:
    table = load_modifiers()
    assert table.named("careful aiming").per == "round of aiming"
    assert table.named("careful aiming").max == 5
    assert table.named("per 5 seu used by weapon").per == "5 SEU"
    assert table.named("per skill level with weapon").per == "skill level"
    robotics = table.named("per robotics or computer skill")
    assert (robotics.per, robotics.applies_to) == ("robotics or computer skill level", ("robot", "computer"))
    assert table.named("moving target").once


# rule S9: Table 2, every row: weapon type, modifier and footnotes
def test_table_2_matches_every_seed_row(seed_lines: list[str]) -> None:
    lines = section(seed_lines, "Table 2: Weapon Modifiers", "Table 3")
    assert lines[0] == "Weapon type Modifier"
    body, notes = _split_footnotes(lines[1:])
    table = load_weapon_modifiers().weapons
    groups = _group(body, _T2_ROW)
    assert len(groups) == len(table) == 15
    for group, row in zip(groups, table, strict=True):
        match = _T2_ROW.match(group[0])
        assert match is not None, group
        name = " ".join([match["name"], *group[1:]])
        assert (name, int(match["mod"])) == (row.name, row.modifier)
        stars = match["stars"]
        assert row.footnote == (notes[stars] if stars else "")


# rule S9: the * footnote's examples of short and long melee weapons, word for word
def test_table_2_melee_examples_are_the_footnotes(seed_lines: list[str]) -> None:
    table = load_weapon_modifiers()
    note = next(line for line in seed_lines if line.startswith("* Whips"))
    long_part, short_part = note[2:].split("; ")
    assert long_part.endswith(" are long")
    assert short_part.endswith(", etc., are short.")
    for word in table.named("long melee").examples:
        assert word in long_part.casefold()
    for word in table.named("short melee").examples:
        assert word in short_part


# rule S9: only fragmentation or incendiary grenades, and they count as explosive on Table 1
def test_grenade_row_names_the_only_grenades_and_the_explosive_row() -> None:
    grenade = load_weapon_modifiers().named("Grenade")
    assert grenade.only == ("fragmentation", "incendiary")
    assert grenade.counts_as is not None
    assert load_modifiers().named(grenade.counts_as).modifier == 2


def _damage_rows(lines: list[str], first_row: tuple[str, str]) -> tuple[list[list[str]], dict[str, str]]:
    """The printed rows of Table 3 or 4 after its three header lines, and its footnotes."""
    assert lines[:3] == [
        "Modified Stamina Special Units of",
        "1d10 damage damage lost",
        "roll equipment",
    ] or (lines[:3] == ["Modified Stamina Units of", "1d10 damage Special damage lost", "roll equipment"])
    body = lines[3:]
    notes: dict[str, str] = {}
    if any(line.startswith("*") for line in body):
        body, notes = _split_footnotes(body)
    assert tuple(body[:2]) == first_row  # the scan put the 0 cells on the roll's first line
    return _group(body[2:], _T34_ROW), notes


def _check_rows(groups: list[list[str]], rows: tuple[LivingRow, ...] | tuple[RobotRow, ...]) -> None:
    # the hand-listed first row: "1 or less" (or "lower"), 0 Stamina, "None", 0 units
    first = rows[0]
    assert (first.low, first.high, first.stamina, first.damage, first.equipment) == (OR_LESS, 1, 0, "None", 0)
    assert len(groups) == len(rows) - 1 == 16
    for group, row in zip(groups, rows[1:], strict=True):
        match = _T34_ROW.match(group[0])
        assert match is not None, group
        low, high = _range(match["range"])
        damage = _STARS.match(" ".join([match["damage"], *group[1:]]))
        assert damage is not None
        side = {"*": "secondary", "**": "primary", None: None}[damage["stars"]]
        assert (low, high) == (row.low, row.high)
        assert int(match["stamina"].replace(",", "")) == row.stamina
        assert damage["text"] == row.damage
        assert side == getattr(row, "side", None)
        assert int(match["units"]) == row.equipment


# rules S3, S4: Table 3, every row: range, Stamina, special damage (and side), units of equipment
def test_table_3_matches_every_seed_row(seed_lines: list[str]) -> None:
    lines = section(seed_lines, "Table 3: Damage Results Table: Living Beings", "Special Damage Effects")
    groups, notes = _damage_rows(lines, ("1 or 0 None 0", "less"))
    assert notes["*"].startswith("Secondary side")
    assert notes["**"].startswith("Primary side")
    _check_rows(groups, load_living().rows)


# rule S5: Table 4, every row: range, Stamina, special damage, units of equipment
def test_table_4_matches_every_seed_row(seed_lines: list[str]) -> None:
    lines = section(seed_lines, "Table 4: Damage Results Table: Robots", "Special Damage Effects")
    groups, notes = _damage_rows(lines, ("1 or 0 None 0", "lower"))
    assert notes == {}
    _check_rows(groups, load_robots().rows)


def _effects_lines(seed_lines: list[str], robots: bool) -> list[str]:
    start = seed_lines.index("Table 4: Damage Results Table: Robots") if robots else 0
    return section(seed_lines[start:], "Special Damage Effects", "Table 4")


@pytest.mark.parametrize("robots", [False, True], ids=["living", "robots"])
# rules S4, S5: every effect sentence, in printed order, word for word
def test_effects_are_every_printed_sentence(seed_lines: list[str], robots: bool) -> None:
    table = load_robots() if robots else load_living()
    printed = [tuple(line.split(": ", 1)) for line in _effects_lines(seed_lines, robots)]
    assert printed == [(e.name, e.text) for e in table.effects]


# rules S7, S8: every healing and repair text is the seed's wording
def test_healing_and_repair_texts_are_in_the_seed(seed_lines: list[str]) -> None:
    text = " ".join(seed_lines)
    for kind in load_healing().kinds:
        assert kind.text in text, kind.name
    for repair in load_repair().kinds:
        assert repair.text in text, repair.name
