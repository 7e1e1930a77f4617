"""Verify a log: its chain, its fold, and a re-simulation of its scenario compared event by event.

Both go along together: the log is read line by line, each event is folded as it is read, and the
re-simulation, which keeps no log, hands each event it emits to a comparison with the next one read. So
verification takes memory for two states and one line, whatever the log's length.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Literal, Protocol

import msgspec

from affray.errors import QUOTE_LIMIT, AffrayError, LogError
from affray.events.base import Event
from affray.events.codec import ENCODER, LogHeader, Pins
from affray.events.reader import LogProblem
from affray.events.sealed import sealed_values
from affray.events.shared import kind_of
from affray.events.vocabulary import Vocabulary
from affray.kernel.encounter import Encounter
from affray.kernel.fold import apply_checked, digest
from affray.kernel.ruleset import Recorded
from affray.replays.diff import FieldDifference, event_differences, shown, written_otherwise

Finding = Literal["ok", "damaged", "changed", "other_version"]
"""What verification found of a log: it holds (``ok``); its chain, its lines or its fold are broken
(``damaged``: edited by hand, cut, or not affray's); it is whole but this affray's rules simulate it
otherwise (``changed``: a rule or a table changed since); it is whole but was made under another version
of its ruleset, which this affray does not simulate (``other_version``)."""


class Verdict(msgspec.Struct, kw_only=True):
    """What verification found: ``ok``, or the first bad ``seq`` and why, plus how many events it read,
    and the :data:`Finding`."""

    ok: bool
    events: int
    seq: int | None = None
    where: str = ""
    message: str = ""
    final_digest: str | None = None
    finding: Finding = "ok"
    sealed: int = 0
    """How many values the events withhold (a players' copy's, which is folded, not re-simulated)."""


class RecordedLog(Protocol):
    """A log to verify, read whole (``LogFile``) or as it goes (``LogReader``): iterating yields its
    events up to its first problem, which is ``problem`` once they are read."""

    header: LogHeader
    header_line: bytes
    vocabulary: Vocabulary[Any]
    problem: LogProblem | None
    disowned: list[Event]
    """The events of a format 2 block found changed (``LogReader.disowned``)."""

    def __iter__(self) -> Iterator[Event]: ...


class Mismatch(Exception):
    """Where a log first fails: its ``seq`` (0 for the header), ``where`` in words, and ``message``."""

    def __init__(self, seq: int, where: str, message: str, finding: Finding = "damaged") -> None:
        # SimPy re-raises a failed process's exception from its args
        super().__init__(seq, where, message, finding)
        self.seq = seq
        self.where = where
        self.message = message
        self.finding: Finding = finding

    @classmethod
    def at_seq(cls, seq: int, message: str, finding: Finding = "damaged") -> Mismatch:
        """A mismatch at event ``seq``, on line ``seq + 1``."""
        return cls(seq, f"line {seq + 1} (seq {seq})", message, finding)

    @classmethod
    def of(cls, problem: LogProblem) -> Mismatch:
        """The mismatch of a problem found while reading."""
        return cls(problem.seq, problem.where(), problem.message)


class Comparison:
    """An event sink comparing each simulated event, as it is emitted, with the next recorded one, by the
    bytes both would be written as; the first that differs raises Mismatch. ``finish`` checks that the
    recorded events end where the simulation did."""

    def __init__(self, recorded: Iterable[Event]) -> None:
        self._recorded = iter(recorded)
        self._peeked: Event | None = None
        self.compared = 0
        self.simulated = 0

    def peek(self) -> Event | None:
        """The next recorded event, not yet compared (None after the last)."""
        if self._peeked is None:
            self._peeked = next(self._recorded, None)
        return self._peeked

    def __call__(self, simulated: Event) -> None:
        self.simulated += 1
        if self.simulated > self.compared + 1:
            return  # the log stopped before: count how far the simulation goes on
        recorded, self._peeked = self.peek(), None
        if recorded is None:
            return
        if ENCODER.encode(recorded) != ENCODER.encode(simulated):
            raise Mismatch.at_seq(
                self.simulated,
                "differs from the re-simulation: " + _fields_differ(recorded, simulated),
                "changed",
            )
        self.compared = self.simulated

    def finish(self) -> None:
        """After the simulation: raise Mismatch if the recorded events stop before it or go on after."""
        after = self.compared + 1
        if self.simulated > self.compared:
            raise Mismatch.at_seq(
                after,
                f"the log stops at seq {self.compared}; the re-simulation goes on to seq {self.simulated}",
                "changed",
            )
        if self.peek() is not None:
            raise Mismatch.at_seq(
                after, f"the re-simulation ends at seq {self.compared}; the log goes on", "changed"
            )


class _Folding:
    """A log's events, each folded into ``state`` as it is read; a fold that fails, or the log's problem
    once its events are read, raises Mismatch. ``count`` is how many were read. It is one iterator: what
    one loop leaves, the next goes on with."""

    def __init__(self, log: RecordedLog) -> None:
        self._log = log
        self.state = log.vocabulary.new_state()
        self.count = 0
        self._events = self._read()

    def __iter__(self) -> Iterator[Event]:
        return self._events

    def _read(self) -> Iterator[Event]:
        vocabulary, state = self._log.vocabulary, self.state
        for event in self._log:
            self.count += 1
            try:
                apply_checked(vocabulary, state, event)
            except LogError as exc:
                raise Mismatch.at_seq(event.seq, f"cannot be folded: {exc}") from None
            yield event
        if self._log.problem is not None:
            # a changed block's events are compared too, so that the re-simulation names the line changed
            yield from self._log.disowned
            raise Mismatch.of(self._log.problem)


def verify(log: RecordedLog, recorded: Callable[[], Recorded], *, trace: bool = False) -> Verdict:
    """Check the chain (as read), fold every event, re-simulate and compare line by line. ``recorded``
    gives what the header says was simulated (it may raise AffrayError: a damaged scenario, say).

    The first bad seq is the earliest of: where the log as read breaks, where the fold fails, and where
    the events differ from the re-simulation; ``trace`` logs the kernel's steps.
    """
    folding = _Folding(log)
    try:
        return _verified(log, folding, recorded, trace)
    except Mismatch as mismatch:
        finding, message = mismatch.finding, mismatch.message
        if finding != "damaged":
            damage = _damage_in_the_rest(folding)
            if damage is not None:
                finding, message = "damaged", f"{message}; and {damage.where}: {damage.message}"
        return Verdict(
            ok=False,
            events=folding.count,
            seq=mismatch.seq,
            where=mismatch.where,
            message=message,
            finding=finding,
        )


def fold_only(log: RecordedLog) -> Verdict:
    """Check the chain (as read) and fold every event, without re-simulating: a players' copy's check,
    whose seed and sealed rolls are withheld. Its ``sealed`` counts the values its events withhold."""
    folding = _Folding(log)
    sealed = 0
    try:
        for event in folding:
            sealed += sealed_values(event)
    except Mismatch as mismatch:
        return Verdict(
            ok=False, events=folding.count, seq=mismatch.seq, where=mismatch.where, message=mismatch.message
        )
    return Verdict(ok=True, events=folding.count, final_digest=digest(folding.state), sealed=sealed)


def _damage_in_the_rest(folding: _Folding) -> Mismatch | None:
    """Read and fold the rest of a log whose re-simulation differed: where it is damaged, if it is (a log
    edited by hand differs from the re-simulation first, and breaks its chain after)."""
    try:
        for _ in folding:
            pass
    except Mismatch as damage:
        return damage
    return None


def _verified(log: RecordedLog, folding: _Folding, recorded: Callable[[], Recorded], trace: bool) -> Verdict:
    try:
        what = recorded()
    except AffrayError as exc:
        return _failed(folding, exc, "damaged", 0)
    simulated = what.ruleset.header(what.scenario, what.modules)
    other = _other_version(log.header, simulated)
    if other:
        raise Mismatch(0, "line 1 (header)", other, "other_version")
    header_difference = _header_difference(log.header, simulated)
    if header_difference:
        raise Mismatch(0, "line 1 (header)", header_difference)
    comparison = Comparison(folding)
    try:
        live = resimulate(what, comparison, trace=trace).state
    except AffrayError as exc:
        return _failed(folding, exc, "changed", comparison.simulated + 1)
    comparison.finish()
    folded = digest(folding.state)
    if folded != digest(live):
        message = "folded state differs from the live state"
        return Verdict(ok=False, events=folding.count, message=message, finding="changed")
    return Verdict(ok=True, events=folding.count, final_digest=folded)


class Follower(Protocol):
    """A sink that sees each re-simulated event and can show the recorded event due next (a
    :class:`Comparison`, say): where recorded decisions and an aftermath's start are read."""

    def __call__(self, simulated: Event, /) -> None: ...

    def peek(self) -> Event | None:
        """The recorded event due next (None after the last)."""
        ...


def resimulate(recorded: Recorded, comparison: Follower, *, trace: bool = False) -> Encounter[Any]:
    """Simulate the recorded scenario again into ``comparison``, keeping no log, and the aftermath of a
    module that the recorded events go on into (healing after the fight, say). Combatants played from
    outside affray take their recorded decisions: their controllers' code is not needed."""
    battle = recorded.battle()
    battle.replay_decisions(comparison.peek)
    encounter = battle.run(sinks=[comparison], trace=trace, keep_log=False)
    follows = comparison.peek()
    if follows is None:
        return encounter
    for aftermath in (m.aftermath for m in recorded.modules if m.aftermath is not None):
        days = aftermath.started_by(follows)
        if days is not None:
            aftermath.run(encounter, battle, days)
            break
    return encounter


def _failed(folding: _Folding, exc: AffrayError, finding: Finding, seq: int) -> Verdict:
    """A re-simulation that could not be made (the header's scenario cannot be read: ``damaged``) or
    finished (today's rules stop it: ``changed``): the log's own problem, if it has one, is what it says
    first. ``seq`` is where it stopped (0: the header)."""
    for _ in folding:
        pass
    where = "line 1 (header)" if seq == 0 else f"line {seq + 1} (seq {seq})"
    message = f"re-simulation failed: {exc}"
    return Verdict(ok=False, events=folding.count, seq=seq, where=where, message=message, finding=finding)


def _other_version(recorded: LogHeader, simulated: LogHeader) -> str:
    """How the log was made under another version of its ruleset or another dice algorithm than this
    affray simulates ("" if it was not)."""
    if recorded.ruleset_version != simulated.ruleset_version:
        return (
            f"made under {recorded.ruleset} version {shown(recorded.ruleset_version, QUOTE_LIMIT)}; this "
            f"affray simulates version {simulated.ruleset_version}, so it is not re-simulated"
        )
    made = recorded.pins.modules if isinstance(recorded.pins, Pins) else {}
    today = simulated.pins.modules if isinstance(simulated.pins, Pins) else {}
    for module, version in made.items():
        if module in today and today[module] != version:
            return (
                f"made under the {module} module version {shown(version, QUOTE_LIMIT)}; this affray "
                f"simulates version {today[module]}, so it is not re-simulated"
            )
    if recorded.dice != simulated.dice:
        return (
            f"its dice are {shown(recorded.dice, QUOTE_LIMIT)!r}; this affray rolls {simulated.dice!r}, "
            "so it is not re-simulated"
        )
    return ""


def _header_difference(recorded: LogHeader, simulated: LogHeader) -> str:
    """How a recorded header disagrees with the one its own scenario re-simulates under ("" if not).

    The affray version, the log format's and the event versions may differ: a newer affray re-running (and
    upcasting) an old log is what regression tests do. A what-if's parent and changes say where it came
    from; its scenario holds the changes.
    """
    left: dict[str, Any] = msgspec.structs.asdict(recorded)
    right: dict[str, Any] = msgspec.structs.asdict(simulated)
    ignored = ("affray_version", "format_version", "event_versions", "scenario", "parent", "changes", "pins")
    for key in ignored:
        left.pop(key)
        right.pop(key)
    if recorded.seed != msgspec.json.decode(recorded.scenario).get("seed"):
        return "the header's seed is not its scenario's seed"
    differing = [
        f"{k} {shown(left[k], QUOTE_LIMIT)!r} (this affray: {shown(right.get(k), QUOTE_LIMIT)!r})"
        for k in left
        if left[k] != right.get(k)
    ]
    return "the header disagrees with the re-simulation: " + "; ".join(differing) if differing else ""


def _field_shown(field: FieldDifference) -> str:
    """``hit.chance: recorded 80, simulated 82.5``; a number only written otherwise says so."""
    recorded, simulated = field.shown(QUOTE_LIMIT)
    if written_otherwise(field.a, field.b):
        return (
            f"{field.path}: recorded {recorded}, simulated {simulated} (the same number, written otherwise)"
        )
    return f"{field.path}: recorded {recorded}, simulated {simulated}"


def _fields_differ(recorded: Event, simulated: Event) -> str:
    """The first fields by which a recorded event differs from the simulated one, as ``diff`` shows them."""
    fields = event_differences(recorded, simulated)
    kind = kind_of(type(recorded))
    if any(f.path == "kind" for f in fields):
        return f"recorded {kind}, simulated {kind_of(type(simulated))}"
    shown_fields = "; ".join(_field_shown(f) for f in fields[:3])
    more = f" (and {len(fields) - 3} more)" if len(fields) > 3 else ""
    return f"{kind} {shown_fields}{more}"
