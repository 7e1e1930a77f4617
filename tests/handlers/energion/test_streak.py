"""A plain blow struck again without its checks while nothing changes (handlers/energion/streak.py, rule E1).

The streak is only a shortcut: every test here runs a fight twice, with streaks and with every blow
checked (``Acting.streak`` patched to keep none), and asks for the same log, byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from hypothesis import given

from affray.events.energion.kinds import AttackResolved
from affray.handlers.energion.actions import Acting
from affray.handlers.energion.scenario import decode_scenario
from affray.handlers.energion.streak import Streak
from tests.strategies import log_bytes, read, ruled_duel, scenarios

THREE_AT_ONCE = """\
ruleset = "energion"
seed = 7
name = "a swordsman between two"
max_seconds = 40

[[combatants]]
id = "a"
name = "A"
side = "ford"
prepared = true
damage_points = 400
skill = 70
weapons = [{ name = "Dagger, Normal" }]

[[combatants]]
id = "b"
name = "B"
side = "raiders"
position = [1, 0]
damage_points = 400
skill = 10
weapons = [{ name = "Dagger, Normal" }]

[[combatants]]
id = "c"
name = "C"
side = "raiders"
position = [0, 1]
damage_points = 400
skill = 10
weapons = [{ name = "Dagger, Normal" }]
"""
"""a (nearest enemy) strikes b, 1 m away, every 4 s (a dagger's speed); c, 1 m away too, is within reach."""


KNOCKED_OUT_FOR_A_MINUTE = """\
ruleset = "energion"
seed = 7
name = "b knocked out for a minute"
max_seconds = 90
modules = ["special_damage"]

[dice.rolled]
"a/hit#1" = [5]
"b/rs-check#1" = [100]
"a/special#1" = [6]
"b/unconscious#1" = [1]
"b/unconscious-time#1" = [1]

[special_damage]
level_divisor = 60

[[combatants]]
id = "a"
name = "A"
side = "ford"
prepared = true
damage_points = 400
skill = 60
weapons = [{ name = "Dagger, Normal" }]

[[combatants]]
id = "b"
name = "B"
side = "raiders"
position = [0.9, 0]
damage_points = 400
skill = 10
weapons = [{ name = "Dagger, Normal" }]

[[combatants]]
id = "c"
name = "C"
side = "raiders"
position = [1, 0]
damage_points = 400
skill = 10
weapons = [{ name = "Dagger, Normal" }]
"""
"""a's first blow at b, the nearer, is a special damage (S1: skill 60 // level divisor 60 = level 1,
chance 3 + 2 x 1 = 5 %, hit roll 5; b's RS check 100 fails; type roll 6 + 1 per level + 1 short melee
= 8: a head wound, S3, S4) that knocks b out (roll 1 of 50 %) for 1 minute (roll 1): a strikes c every
4 s until b comes round at 60 s."""


@contextmanager
def every_blow_checked() -> Iterator[None]:
    """Runs in which no streak is kept: every blow goes through the checks."""
    with mock.patch.object(Acting, "streak", return_value=None):
        yield


@contextmanager
def strikes_counted() -> Iterator[list[Streak]]:
    """The streaks whose blows were struck without checks, one entry per blow."""
    struck: list[Streak] = []
    strike = Streak.strike

    def counted(self: Streak) -> int:
        struck.append(self)
        return strike(self)

    with mock.patch.object(Streak, "strike", counted):
        yield struck


def both_ways(scenario: Any) -> tuple[bytes, bytes]:
    """The log with streaks, and with every blow checked."""
    streaked = log_bytes(scenario)
    with every_blow_checked():
        checked = log_bytes(scenario)
    return streaked, checked


def three_at_once(orders: str = "") -> Any:
    return decode_scenario(THREE_AT_ONCE + orders, "three.toml")


@given(scenarios())
def test_streaks_strike_the_blows_the_checked_path_strikes(scenario: Any) -> None:
    streaked, checked = both_ways(scenario)
    assert streaked == checked


def test_most_blows_of_a_still_melee_are_struck_in_streaks() -> None:
    """Not a vacuous equality: a strikes b every 4 s from 0 s to 36 s, and all but its first two blows
    are struck in streaks (b and c choosing their targets after a's first blow end its first streak)."""
    scenario = three_at_once()
    with strikes_counted() as struck:
        streaked = log_bytes(scenario)
    by_a = [kept for kept in struck if kept.attacker.id == "a"]
    assert len(by_a) == 8
    assert streaked == both_ways(scenario)[1]


def test_a_standing_order_due_ends_a_streak() -> None:
    """From 21 s a goes for c first: its blow at 24 s, the first after the order, is at c."""
    scenario = three_at_once('\n[[orders]]\ncombatant = "a"\nat = 21\npriority_targets = ["c"]\n')
    streaked, checked = both_ways(scenario)
    assert streaked == checked
    blows = [
        (e.t, e.target) for e in read(streaked).events if isinstance(e, AttackResolved) and e.attacker == "a"
    ]
    assert blows[5:7] == [(20000, "b"), (24000, "c")]


def test_a_condition_running_out_ends_a_streak() -> None:
    """b, knocked out at 0 s, comes round at 60 s: a, striking c in a streak meanwhile, goes back for b,
    the nearer, with its blow at 60 s, as the checked path does."""
    scenario = decode_scenario(KNOCKED_OUT_FOR_A_MINUTE, "knocked-out.toml")
    streaked, checked = both_ways(scenario)
    assert streaked == checked
    events = read(streaked).events
    blows = [(e.t, e.target) for e in events if isinstance(e, AttackResolved) and e.attacker == "a"]
    assert blows[:2] == [(0, "b"), (4000, "c")]
    assert (56000, "c") in blows
    assert (60000, "b") in blows


def test_no_streak_while_a_referee_rules_on_the_fight() -> None:
    scenario = ruled_duel()
    with strikes_counted() as struck:
        streaked = log_bytes(scenario)
    assert struck == []
    assert streaked == both_ways(scenario)[1]
