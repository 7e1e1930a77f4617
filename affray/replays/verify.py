"""Verify a log: its chain, its fold, and a re-simulation of its scenario compared event by event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from affray.errors import AffrayError, LogError, excerpt
from affray.events.base import Event
from affray.events.codec import LogFile, LogHeader, LogProblem, encode_event, line_hash
from affray.kernel.encounter import Encounter
from affray.kernel.fold import apply_checked, digest
from affray.kernel.ruleset import Recorded


class Verdict(msgspec.Struct, kw_only=True):
    """What verification found: ``ok``, or the first bad ``seq`` and why, plus what it checked."""

    ok: bool
    events: int
    seq: int | None = None
    where: str = ""
    message: str = ""
    final_digest: str | None = None


def resimulate(recorded: Recorded, events: list[Event], *, trace: bool = False) -> Encounter[Any]:
    """Simulate the recorded scenario again, and the aftermath of a module that the recorded events go on
    into (healing after the fight, say); ``trace`` logs the kernel's steps."""
    battle = recorded.battle()
    replay = battle.run(trace=trace)
    if len(events) <= len(replay.log):
        return replay
    follows = events[len(replay.log)]
    for aftermath in (m.aftermath for m in recorded.modules if m.aftermath is not None):
        days = aftermath.started_by(follows)
        if days is not None:
            aftermath.run(replay, battle, days)
            break
    return replay


def verify(log: LogFile, recorded: Callable[[], Recorded], *, trace: bool = False) -> Verdict:
    """Check the chain (as read), fold every event, re-simulate and compare line by line. ``recorded``
    gives what the header says was simulated (it may raise AffrayError: a damaged scenario, say).

    The first bad seq is the earliest of: where the log as read breaks, where the fold fails, and where
    the events differ from the re-simulation.
    """
    count = len(log.events)
    problem = log.problem
    vocabulary = log.vocabulary
    state = vocabulary.new_state()
    for event in log.events:
        try:
            apply_checked(vocabulary, state, event)
        except LogError as exc:
            return Verdict(ok=False, events=count, seq=event.seq, message=f"cannot be folded: {exc}")
    try:
        what = recorded()
        replay = resimulate(what, log.events, trace=trace)
    except AffrayError as exc:
        if problem is not None:
            return _broken(problem, count)
        return Verdict(ok=False, events=count, message=f"re-simulation failed: {exc}")
    header_difference = _header_difference(log.header, what.ruleset.header(what.scenario))
    if header_difference:
        return Verdict(ok=False, events=count, seq=0, where="line 1 (header)", message=header_difference)
    difference = first_difference(log.header_line, log.events, replay.log[:count] if problem else replay.log)
    if difference is not None:
        seq, message = difference
        return Verdict(ok=False, events=count, seq=seq, where=f"seq {seq}", message=message)
    if problem is not None:
        return _broken(problem, count)
    folded, live = digest(state), digest(replay.state)
    if folded != live:
        return Verdict(ok=False, events=count, message="folded state differs from the live state")
    return Verdict(ok=True, events=count, final_digest=folded)


def _header_difference(recorded: LogHeader, simulated: LogHeader) -> str:
    """How a recorded header disagrees with the one its own scenario re-simulates under ("" if not).

    The affray version and event versions may differ: a newer affray re-running (and upcasting) an old
    log is what regression tests do.
    """
    left: dict[str, Any] = msgspec.structs.asdict(recorded)
    right: dict[str, Any] = msgspec.structs.asdict(simulated)
    for key in ("affray_version", "event_versions", "scenario"):
        left.pop(key)
        right.pop(key)
    if recorded.seed != msgspec.json.decode(recorded.scenario).get("seed"):
        return "the header's seed is not its scenario's seed"
    differing = [f"{k} {left[k]!r} (this affray: {right[k]!r})" for k in left if left[k] != right.get(k)]
    return "the header disagrees with the re-simulation: " + "; ".join(differing) if differing else ""


def _broken(problem: LogProblem, count: int) -> Verdict:
    return Verdict(ok=False, events=count, seq=problem.seq, where=problem.where(), message=problem.message)


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
    shown = "; ".join(
        f"{k}: recorded {_quoted(left.get(k))}, simulated {_quoted(right.get(k))}" for k in keys[:3]
    )
    return f"{left['kind']} {shown}"


def _quoted(value: object, most: int = 60) -> str:
    """A value as the message quotes it: its repr, cut to ``most`` characters."""
    text = repr(value)
    return text if len(text) <= most else f"{excerpt(text, most - 20)} ({len(text)} characters)"
