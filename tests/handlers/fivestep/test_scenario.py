"""Checks of a fivestep scenario at load (affray.handlers.fivestep.scenario): each names the field, quoting
at most a few dozen characters of what it refuses."""

from __future__ import annotations

import pytest

from affray.errors import AffrayError, ScenarioError
from tests.handlers.fivestep import FIST, TABLES, character, scenario

LONG = "x" * 100


def test_a_body_the_scenario_does_not_define_is_quoted_in_a_few_dozen_characters() -> None:
    with pytest.raises(ScenarioError, match=r"\$\.combatants\[0\]\.body: no body") as caught:
        scenario(character("a", "left", body=LONG), character("b", "right"))
    assert "x" * 41 not in str(caught.value)


def test_a_weapon_listed_twice_is_quoted_in_a_few_dozen_characters() -> None:
    twice = [{**FIST, "name": LONG}, {**FIST, "name": LONG}]
    with pytest.raises(ScenarioError, match="is listed twice") as caught:
        scenario(character("a", "left", weapons=twice), character("b", "right"))
    assert "x" * 41 not in str(caught.value)


def test_a_table_path_that_cannot_be_read_is_quoted_in_a_few_dozen_characters() -> None:
    tables = {**TABLES, "3-6": "x" * 5000}
    with pytest.raises(AffrayError, match=r"\$\.tables\.3-6: x+\.\.\.: cannot read") as caught:
        scenario(character("a", "left"), character("b", "right"), tables=tables)
    assert "x" * 41 not in str(caught.value)
