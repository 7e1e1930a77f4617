"""Bad table data is a TableError naming the file and the field path (rules S3, S5, S7, S9)."""

from __future__ import annotations

from importlib.resources import files

import pytest

from affray.errors import TableError
from affray.rules.special_damage import recovery, tables


def _text(name: str) -> str:
    return (files("affray.rules.special_damage") / "data" / name).read_text(encoding="utf-8")


# rule S3: a gap between 3 and 5 (the arm wound row moved to 5) names the row and field
def test_gap_in_the_living_table() -> None:
    text = _text(tables.LIVING_FILE).replace("low = 4\nhigh = 4\n", "low = 5\nhigh = 4\n", 1)
    with pytest.raises(TableError, match=r"living\.toml: expected 4 .* at `\$\.row\[3\]\.low`"):
        tables.parse_living(text)


# rule S5: the last row must reach the "or more" sentinel
def test_last_robot_row_must_reach_or_more() -> None:
    text = _text(tables.ROBOTS_FILE).replace("high = 1000\nstamina", "high = 999\nstamina", 1)
    with pytest.raises(
        TableError, match=r"robots\.toml: the last row must end at 1000 - at `\$\.row\[16\]\.high`"
    ):
        tables.parse_robots(text)


# rule S3: a row naming no effect entry
def test_row_with_unknown_effect() -> None:
    text = _text(tables.LIVING_FILE).replace('effect = "Dead"', 'effect = "Deceased"', 1)
    with pytest.raises(TableError, match=r"no effect named 'Deceased' - at `\$\.row\[16\]\.effect`"):
        tables.parse_living(text)


# rule S4: an unknown field is refused, with its path
def test_unknown_effect_field() -> None:
    text = _text(tables.LIVING_FILE).replace("to_hit = -5\n", "to_hitt = -5\n", 1)
    with pytest.raises(TableError, match=r"living\.toml: .*to_hitt.*\$\.effect\[0\]"):
        tables.parse_living(text)


# rule S5: `same_as` must name an entry printed before
def test_same_as_must_name_an_earlier_effect() -> None:
    text = _text(tables.ROBOTS_FILE).replace('same_as = "Arm broken"', 'same_as = "Arm smashed"', 1)
    with pytest.raises(
        TableError, match=r"'Arm smashed' is not an effect printed before - at `\$\.effect\[9\]"
    ):
        tables.parse_robots(text)


# rule S5: a bad dice expression is refused
def test_bad_dice_expression() -> None:
    text = _text(tables.ROBOTS_FILE).replace('stun = "1d100"', 'stun = "d100"', 1)
    with pytest.raises(TableError, match=r"robots\.toml: .*\$\.effect\[5\]\.stun"):
        tables.parse_robots(text)


# rule S9: a duplicate reason in Table 1
def test_duplicate_modifier_reason() -> None:
    text = _text(tables.MODIFIERS_FILE).replace('"Point blank range"', '"Short range"', 1)
    with pytest.raises(TableError, match=r"duplicate name 'Short range' - at `\$\.modifier\[1\]\.reason`"):
        tables.parse_modifiers(text)


# rule S7: `treatment` without `otherwise`
def test_healing_treatment_needs_otherwise() -> None:
    text = _text(recovery.HEALING_FILE).replace('otherwise = { dice = "3d10", unit = "days" }\n', "", 1)
    with pytest.raises(TableError, match=r"healing\.toml: .*go together - at `\$\.kind\[5\]\.otherwise`"):
        recovery.parse_healing(text)
