"""What a log's header records (``Recorded``): a scenario that decodes but cannot be made into a battle is
an error naming where it was read, the header of the log, as the scenario file would be named by ``run``."""

from __future__ import annotations

import pytest

from affray import rulesets
from affray.errors import ScenarioError
from tests.strategies import example_log, log_lines, read, rechain


def test_a_recorded_scenario_that_cannot_make_its_battle_names_the_header() -> None:
    # a sword with ammunition decodes, but only a missile weapon takes ammunition: a check made by the battle
    lines = log_lines(example_log("duel"))
    lines[0] = lines[0].replace(b'"count":1,"ammunition":null', b'"count":1,"ammunition":3', 1)
    header = read(rechain(lines)).header
    recorded = rulesets.recorded(header, "duel.jsonl")
    with pytest.raises(ScenarioError) as caught:
        recorded.battle()
    assert str(caught.value) == (
        "duel.jsonl: line 1 (header) scenario: $.combatants[0].weapons[0].ammunition: "
        "only missile weapons take ammunition"
    )
