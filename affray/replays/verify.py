"""Verify a log: its chain, its fold, and a re-simulation of its scenario compared event by event."""

from __future__ import annotations

from typing import Any

import msgspec

from affray.errors import AffrayError
from affray.events.base import Event
from affray.events.codec import LogFile, encode_event, line_hash
from affray.handlers.battle import Battle
from affray.kernel.state import EncounterState, apply, digest
from affray.scenario import Scenario, convert_scenario


class Verdict(msgspec.Struct, kw_only=True):
    """What verification found: ``ok``, or the first bad ``seq`` and why, plus what it checked."""

    ok: bool
    events: int
    seq: int | None = None
    message: str = ""
    final_digest: str | None = None


def scenario_of(log: LogFile, source: str) -> Scenario:
    """The scenario embedded in a log's header, checked as a scenario file would be."""
    return convert_scenario(msgspec.json.decode(log.header.scenario), f"{source}: header scenario")


def verify(log: LogFile, source: str) -> Verdict:
    """Check the chain (as read), fold every event, re-simulate and compare line by line."""
    if log.problem is not None:
        p = log.problem
        return Verdict(ok=False, events=len(log.events), seq=p.seq, message=f"line {p.line}: {p.message}")
    state = EncounterState()
    for event in log.events:
        try:
            apply(state, event)
        except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
            return Verdict(
                ok=False,
                events=len(log.events),
                seq=event.seq,
                message=f"cannot be folded ({exc!r})",
            )
    try:
        battle = Battle(scenario_of(log, source))
        replay = battle.run()
    except AffrayError as exc:
        return Verdict(ok=False, events=len(log.events), message=f"re-simulation failed: {exc}")
    difference = first_difference(log.header_line, log.events, replay.log)
    if difference is not None:
        seq, message = difference
        return Verdict(ok=False, events=len(log.events), seq=seq, message=message)
    folded, live = digest(state), digest(replay.state)
    if folded != live:
        return Verdict(ok=False, events=len(log.events), message="folded state differs from the live state")
    return Verdict(ok=True, events=len(log.events), final_digest=folded)


def first_difference(
    header_line: bytes, recorded: list[Event], simulated: list[Event]
) -> tuple[int, str] | None:
    """The first seq whose line differs between two runs, and how; None when they are identical."""
    prev = line_hash(header_line)
    for index in range(max(len(recorded), len(simulated))):
        seq = index + 1
        if index >= len(recorded):
            return (
                seq,
                f"the log stops at seq {len(recorded)}; the re-simulation goes on to seq {len(simulated)}",
            )
        if index >= len(simulated):
            return seq, f"the re-simulation ends at seq {len(simulated)}; the log goes on"
        ours, theirs = encode_event(recorded[index], prev), encode_event(simulated[index], prev)
        if ours != theirs:
            return seq, "differs from the re-simulation: " + _fields_differ(recorded[index], simulated[index])
        prev = line_hash(ours)
    return None


def _fields_differ(a: Event, b: Event) -> str:
    left: Any = msgspec.to_builtins(a)
    right: Any = msgspec.to_builtins(b)
    if left.get("kind") != right.get("kind"):
        return f"recorded {left.get('kind')}, simulated {right.get('kind')}"
    keys = [k for k in left if left.get(k) != right.get(k)]
    shown = "; ".join(f"{k}: recorded {left.get(k)!r}, simulated {right.get(k)!r}" for k in keys[:3])
    return f"{left['kind']} {shown}"
