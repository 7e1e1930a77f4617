"""Checks of a fivestep scenario against its tables (affray.handlers.fivestep.checks): each names the
table and the field, quoting at most a few dozen characters of what it refuses."""

from __future__ import annotations

import pytest

from affray.errors import TableError
from affray.handlers.fivestep.battle import FivestepBattle
from tests.handlers.fivestep import BODY, character, scenario


def test_a_body_lacking_a_part_table_3_3_4_names_is_quoted_in_a_few_dozen_characters() -> None:
    body = "x" * 100
    parts = [part for part in BODY if part["name"] != "left leg"]
    built = scenario(
        character("a", "left", body=body), character("b", "right", body=body), bodies={body: parts}
    )
    with pytest.raises(TableError, match=r"of Table 3-3\.4 is not a part of body") as caught:
        FivestepBattle(built)
    assert "x" * 41 not in str(caught.value)
