"""A recorded fight fought on from a point (``affray battle LOG@N``): every roll up to event ``N`` as the
log recorded it, every later roll drawn from a run's own seed.

The continuation is a scenario like any other: the log header's, with each roll the first ``N`` events
made entered by stream and draw (``dice.rolled``) and no stream left manual, so that a run's seed draws
all the rest. A roll entered on a generated stream still advances that stream (kernel/dice.py), so a
stream's later draws are the run's own. Its fair seed, if it had one, is left out: the runs' seeds are
the batch's.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from affray.errors import AffrayError
from affray.events.base import Event, Roll, rolls_in
from affray.events.reader import LogFile
from affray.events.shared import kind_of
from affray.kernel.ruleset import Ruleset
from affray.kernel.scenario import recorded_mapping
from affray.replays.diff import event_differences
from affray.replays.whatif import logged_rolls, with_rolls_entered

AT_SEQ = re.compile(r"^(?P<log>.+)@(?P<seq>[0-9]{1,9})$")
"""``LOG@N``: a log, and the seq of the event after which it is fought on."""


def continued_scenario(log: LogFile, after: int, where: str) -> dict[str, Any]:
    """The scenario that fights ``log`` on after event ``after`` (its mapping, as a header holds one);
    errors name ``where``, the log as the user gave it."""
    last = log.events[-1].seq if log.events else 0
    if after > last:
        raise AffrayError(f"{where}@{after}: the log's events run to seq {last}")
    prefix = [event for event in log.events if event.seq <= after]
    return scenario_with_rolls(
        log, {key: list(roll.faces) for key, (_, roll) in logged_rolls(prefix).items()}
    )


def scenario_with_rolls(log: LogFile, rolled: dict[str, list[int]]) -> dict[str, Any]:
    """The log's scenario (its mapping) with ``rolled`` entered by stream and draw and every other roll
    drawn from the seed; without its fair seed, for each run has its own seed."""
    scenario: dict[str, Any] = recorded_mapping(log.header)
    scenario.pop("fair_seed", None)
    return with_rolls_entered(scenario, rolled)


class RollMade(msgspec.Struct, frozen=True):
    """One roll of a recorded fight, in the order rolls were made: its stream and draw
    (``gorm/hit#1``), the roll, and the seq, time and kind of the event that holds it."""

    key: str
    roll: Roll
    seq: int
    t: int
    kind: str


def rolls_made(log: LogFile) -> list[RollMade]:
    """Every roll of the fight, in the order it was made (docs/log-format.md: no event holds a roll made
    after one a later event holds, and an event's rolls are in the order made)."""
    return [
        RollMade(f"{roll.stream}#{roll.draw}", roll, event.seq, event.t, kind_of(type(event)))
        for event in log.events
        for roll in rolls_in(event)
    ]


def check_prefix(ruleset: Ruleset[Any, Any], scenario: Any, log: LogFile, after: int, where: str) -> None:
    """A continuation's first ``after`` events are the log's (but that its rolls were entered): else the
    fight does not replay as it was recorded, and fighting it on would tell of another fight."""
    differs = replayed_otherwise(ruleset, scenario, log, after)
    if differs:
        raise AffrayError(f"{where}@{after}: {differs}; it cannot be fought on")


def replayed_otherwise(ruleset: Ruleset[Any, Any], scenario: Any, log: LogFile, after: int) -> str:
    """How ``scenario`` fought today parts from the log's first ``after`` events (its rolls' source
    aside), in words; "" when it does not."""
    fought: list[Event] = []
    ruleset.battle(scenario).run(sinks=[fought.append], keep_log=False)
    recorded = [event for event in log.events if event.seq <= after]
    for made, kept in zip(fought, recorded, strict=False):
        differing = [d for d in event_differences(made, kept) if not d.path.endswith(".source")]
        if differing:
            return (
                f"seq {kept.seq} does not replay as recorded ({differing[0].path}: {differing[0].a!r} today, "
                f"{differing[0].b!r} recorded)"
            )
    if len(fought) < len(recorded):
        return f"the fight ends at seq {len(fought)} today"
    return ""


def split_at(argument: str) -> tuple[str, int | None]:
    """``LOG@N`` as the log and ``N``; any other argument as itself and None."""
    match = AT_SEQ.match(argument)
    return (match["log"], int(match["seq"])) if match else (argument, None)
