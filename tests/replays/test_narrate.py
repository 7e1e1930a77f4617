"""Narration, whatever the ruleset: one line per event, its game time in seconds and its seq first."""

from __future__ import annotations

import re

import pytest
from hypothesis import given

from affray.events.base import Event
from affray.events.energion.kinds import Perceived
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import EnergionScenario
from affray.kernel.clock import seconds
from tests.rulesets.energion.test_narration import joined
from tests.strategies import example_log, read, scenarios, tell

DUEL = read(example_log("duel")).events
SKIRMISH = read(example_log("skirmish")).events
LINE = re.compile(r"^ *(-?\d+\.\d{3}) s  #(\d+) +(.*)$")


@pytest.mark.parametrize("events", [DUEL, SKIRMISH], ids=["duel", "skirmish"])
def test_narrate_gives_one_line_per_event(events: list[Event]) -> None:
    lines = list(tell(events))
    assert len(lines) == len(events)
    assert all("\n" not in line for line in lines)


@given(scenarios())
def test_each_line_starts_with_the_events_game_time_in_seconds_and_its_seq(
    scenario: EnergionScenario,
) -> None:
    log = EnergionBattle(scenario).run().log
    for event, line in zip(log, tell(log), strict=True):
        match = LINE.match(line)
        assert match, line
        assert (match.group(1), int(match.group(2))) == (seconds(event.t), event.seq)


def test_the_time_column_is_right_aligned_in_seconds() -> None:
    lines = list(tell([joined("a", 1), Perceived(seq=2, t=12500, combatant="a", after_ms=12500)]))
    assert [line[:14] for line in lines] == ["    0.000 s  #", "   12.500 s  #"]
