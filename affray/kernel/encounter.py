"""The encounter: a SimPy environment on a millisecond clock, and ``emit``, the only way state changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

import msgspec
import simpy
from simpy.events import NORMAL, URGENT, EventPriority

from affray.errors import DiceExhausted
from affray.events.base import Event
from affray.events.shared import kind_of
from affray.events.vocabulary import Folded, Vocabulary
from affray.kernel.clock import game_time
from affray.kernel.dice import Dice

_DEBUG = 10
"""logging.DEBUG, named here so that a run not traced never imports logging."""
EventSink = Callable[[Event], None]
E = TypeVar("E", bound=Event)
S = TypeVar("S", bound=Folded)


def _kernel_log() -> Any:
    """The kernel's structlog logger; structlog is imported only for a traced run."""
    import structlog

    return structlog.get_logger("affray.kernel")


class OrderedTimeout(simpy.Event):
    """A timeout with its own place among the events due at the same instant.

    SimPy orders events at one instant by (priority, insertion); a fight whose actions may end at the
    same millisecond orders them by a rule (the attack order, say) instead of by when they were planned.
    """

    def __init__(self, env: simpy.Environment, delay: int, priority: int) -> None:
        if delay < 0:
            raise ValueError(f"negative delay {delay}")
        super().__init__(env)
        self._ok = True  # triggered with no value, as simpy.Timeout is
        self._value = None
        env.schedule(self, EventPriority(priority), delay)


class Encounter(simpy.Environment, Generic[S]):
    """A SimPy environment whose ``now`` is game time in integer milliseconds.

    Handlers run as processes on it, roll through ``dice`` and call ``emit``; ``emit`` stamps the event's
    ``seq`` and ``t``, applies it to ``state`` with the ``vocabulary``'s applier of its kind, as replays
    do (``Vocabulary.apply``), appends it to ``log`` and hands it to every sink (a log writer, say).
    ``count`` is how many events were emitted and ``last`` the latest. Without ``keep_log`` the events
    only go to the sinks and ``log`` stays empty, so a run of any length takes memory for its state
    alone. ``changes`` counts the events that may change what an action is checked against
    (``Event.CHANGES_THE_WORLD``). With ``trace`` every emit is also logged through structlog at debug
    level, with ``seq`` and ``t`` bound; without it the hot path never touches the logger. ``warnings``
    holds what the user should be told once the run is over (a ruling never used, say), one line each,
    which the battle adds when it closes the run; a command that fights one scenario prints them.
    """

    def __init__(
        self, dice: Dice, vocabulary: Vocabulary[S], *, trace: bool = False, keep_log: bool = True
    ) -> None:
        super().__init__(initial_time=0)
        self.dice = dice
        self.vocabulary = vocabulary
        self.state: S = vocabulary.new_state()
        self._recorders: dict[type[Event], Callable[[Any], None]] = {}
        self.moved: dict[str, int] = {}
        """Each combatant an event that moves the field named (``Event.MOVES_THE_FIELD``), with the seq of
        the last such event, the most recent last: what changed on the field since a given seq."""
        self.log: list[Event] = []
        self._keep_log = keep_log
        self.count = 0
        self.changes = 0
        self.last: Event | None = None
        self.sinks: list[EventSink] = []
        self._sink_failed: BaseException | None = None
        self.finished = self.event()
        self.warnings: list[str] = []
        """What the user should be told about the run once it is over, one line each (no log holds it)."""
        self._log: Any = _kernel_log() if trace else None
        self._trace = self._log is not None and bool(self._log.is_enabled_for(_DEBUG))

    def run(self, until: simpy.core.SimTime | simpy.Event | None = None) -> object:
        """SimPy's run; a manual roll missing or not fitting its die says when it was wanted, after what.

        What a sink raised is raised from here, even when the run would have stopped at that instant
        first (SimPy raises a process's failure only once its turn comes, after the run's end, if due then).
        """
        try:
            result = super().run(until)
        except DiceExhausted as exc:
            last = self.last
            after = f"after seq {last.seq} ({kind_of(type(last))})" if last else "before any event"
            raise exc.during(f"at {game_time(int(self.now))} {after}") from None
        except BaseException:
            if self._sink_failed is not None:
                raise self._sink_failed from None
            raise
        if self._sink_failed is not None:
            raise self._sink_failed
        return result

    def emit(self, event: E) -> E:
        """Stamp ``event`` with the next seq and the time now and record it (``recorder``); return the
        stamped event."""
        stamped = msgspec.structs.replace(event, seq=self.count + 1, t=int(self.now))
        record = self._recorders.get(type(event)) or self.recorder(type(event))
        record(stamped)
        return stamped

    def recorder(self, kind: type[E]) -> Callable[[E], None]:
        """The function that applies events of ``kind`` to ``state`` with the vocabulary's applier (as
        ``Vocabulary.apply`` does), counts, keeps and hands each to the sinks: for events built already
        with the next seq and the time now (``emit`` stamps its events; a handler that builds many of one
        kind stamps them as it builds them, saving emit's copy). Once a sink has raised, every event
        recorded raises that again: no sink sees an event after one it failed on."""
        kept = self._recorders.get(kind)
        if kept is not None:
            return kept
        apply = self.vocabulary.appliers[kind]
        state = self.state
        changes_the_world = kind.CHANGES_THE_WORLD
        moves_the_field, moved = kind.MOVES_THE_FIELD, self.moved

        def record(event: E) -> None:
            if self._sink_failed is not None:
                raise self._sink_failed
            self.count = event.seq
            apply(state, event)
            state.seq = event.seq
            state.t = event.t
            if changes_the_world:
                self.changes += 1
            if moves_the_field:
                mover = cast(Any, event).combatant
                moved.pop(mover, None)
                moved[mover] = event.seq
            self.last = event
            if self._keep_log:
                self.log.append(event)
            if self.sinks:
                self._to_sinks(event)
            if self._trace:
                self._log.debug("emit", seq=event.seq, t=event.t, kind=kind_of(kind))

        self._recorders[kind] = record
        return record

    def _to_sinks(self, event: Event) -> None:
        try:
            for sink in self.sinks:
                sink(event)
        except BaseException as exc:
            self._sink_failed = exc
            raise

    def at_rank(self, delay: int, rank: int) -> OrderedTimeout:
        """A timeout of ``delay`` ms that fires after plain events at that instant, lower ranks first."""
        return OrderedTimeout(self, delay, NORMAL + 1 + rank)

    def ahead(self, delay: int) -> OrderedTimeout:
        """A timeout of ``delay`` ms that fires before the plain events due at that instant: for what is
        settled before anyone acts then (a weapon ready at that instant is ready for its actions)."""
        return OrderedTimeout(self, delay, URGENT)

    def finish(self) -> None:
        """Stop the run after the events already due at this instant."""
        if not self.finished.triggered:
            self.finished.succeed()
