"""What a log's header records (``Recorded``): a scenario that decodes but cannot be made into a battle is
an error naming where it was read, the header of the log, as the scenario file would be named by ``run``."""

from __future__ import annotations

from hashlib import blake2b
from importlib.resources import files

import pytest

from affray import rulesets
from affray.errors import ScenarioError
from affray.events.codec import Pins
from tests.strategies import example, example_log, log_lines, read, rechain


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


# -- pins: what a log was made with --------------------------------------------------------------------


def test_a_header_pins_every_data_file_by_its_blake2b_digest() -> None:
    """The pin of energion/weapons.toml is BLAKE2b (16 bytes) of the file as shipped, computed here from
    the file itself."""
    scenario = example("duel")
    pins = rulesets.header(rulesets.ruleset("energion"), scenario).pins
    assert isinstance(pins, Pins)
    shipped = (files("affray.rules.energion") / "data" / "weapons.toml").read_bytes()
    assert pins.data["energion/weapons.toml"] == blake2b(shipped, digest_size=16).hexdigest()
    assert {name.partition("/")[0] for name in pins.data} == {"energion"}
    assert pins.modules == {}


def test_a_header_pins_the_modules_a_scenario_turns_on_and_their_data() -> None:
    scenario = example("robots")
    pins = rulesets.header(rulesets.ruleset("energion"), scenario).pins
    assert isinstance(pins, Pins)
    assert pins.modules == {"special_damage": rulesets.module("special_damage").version}
    assert "special_damage/healing.toml" in pins.data
