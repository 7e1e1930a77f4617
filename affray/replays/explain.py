"""Explain one event of a log: the ruleset's derivation of it, with the earlier events it depends on.

The log is read up to the event and no further, folded as it goes, with the last event of each kind for
each combatant kept at hand for the explainers (``History``). A kind with no explainer is shown by its
rolls and fields, so every event of every ruleset can be explained.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple

import msgspec

from affray.events.base import Event, named_fields
from affray.events.sealed import sealed_values
from affray.events.shared import RulingApplied, kind_of
from affray.kernel.clock import game_time
from affray.kernel.explanation import Because, Explainer, Explanation, Step, rolls_and_fields
from affray.kernel.fold import apply_checked
from affray.kernel.ruleset import Reading, Teller
from affray.replays.narrate import SHARED_TELLERS


class Index:
    """The last event of each kind that names each combatant, as the log is read (a ``History``), with
    the line the replay told it in; it holds no more than one event per kind and combatant."""

    def __init__(self) -> None:
        self._latest: dict[tuple[str, str], tuple[Event, str]] = {}
        self._as: dict[tuple[str, str, str], Event] = {}
        self._told: dict[int, tuple[str, int]] = {}
        """The line of each event still kept, by seq, and under how many keys it is kept."""

    def add(self, event: Event, told: str) -> None:
        """Note ``event``, told as ``told``; one that names no combatant is kept under ""."""
        kind = kind_of(type(event))
        named = False
        for field in named_fields(type(event)):
            who = getattr(event, field)
            if isinstance(who, str):
                self._keep((kind, who), event, told)
                self._as[(kind, field, who)] = event
                named = True
        if not named:
            self._keep((kind, ""), event, told)

    def _keep(self, key: tuple[str, str], event: Event, told: str) -> None:
        before = self._latest.get(key)
        if before is not None and before[0] is event:
            return
        if before is not None:
            line, keys = self._told[before[0].seq]
            if keys > 1:
                self._told[before[0].seq] = (line, keys - 1)
            else:
                del self._told[before[0].seq]
        self._latest[key] = (event, told)
        _, keys = self._told.get(event.seq, (told, 0))
        self._told[event.seq] = (told, keys + 1)

    def latest(self, kind: str, combatant: str) -> Event | None:
        """The last event of ``kind`` so far that names ``combatant`` (in any role; "" for one that names
        no one)."""
        kept = self._latest.get((kind, combatant))
        return None if kept is None else kept[0]

    def latest_as(self, kind: str, role: str, combatant: str) -> Event | None:
        """The last event of ``kind`` so far whose field ``role`` is ``combatant``."""
        return self._as.get((kind, role, combatant))

    def told(self, seq: int) -> str:
        """The line of the event ``seq``, if it is still kept ("" if not)."""
        kept = self._told.get(seq)
        return "" if kept is None else kept[0]

    def kept(self) -> list[int]:
        """The seqs of the events it holds, in order. Adding those events again in that order, each with its
        line (``told``), to a new index makes this index again (affray.replays.snapshots)."""
        held = {event.seq for event, _ in self._latest.values()}
        held.update(event.seq for event in self._as.values())
        return sorted(held)


class Earlier(msgspec.Struct, frozen=True):
    """An earlier event an explained one depends on: its seq, why, and the replay's line for it."""

    seq: int
    why: str
    told: str


class RollLuck(msgspec.Struct, frozen=True):
    """One roll's luck, as ``affray odds`` found it: each side's chance (0 to 1) just before and just after
    the roll."""

    roll: str
    before: dict[str, float]
    after: dict[str, float]


class Explained(msgspec.Struct, frozen=True, kw_only=True):
    """One event explained: its seq, time and kind, the replay's line for it, the derivation, and the
    earlier events it depends on."""

    seq: int
    t: int
    kind: str
    told: str
    steps: list[Step]
    depends_on: list[Earlier]
    ruled_by: list[Earlier] = msgspec.field(default_factory=list)
    """The referee's rulings that took effect on it (the ``ruling_applied`` events right after it)."""
    luck: list[RollLuck] | msgspec.UnsetType = msgspec.UNSET
    """The luck of each of its rolls, when an odds report is given (``explain --odds``)."""


def generic(event: Event, state: Any, history: Any) -> Explanation:
    """A kind with no explainer of its own: its rolls and fields."""
    return rolls_and_fields(event)


def ruling(event: RulingApplied, state: Any, history: Any) -> Explanation:
    """A referee's ruling: what it did, why, and the event it ruled on."""
    step = Step(
        what="ruling", value=event.effect, how=event.reason, source=f"the scenario's rulings[{event.ruling}]"
    )
    return Explanation(steps=[step], depends_on=[Because(event.rules_on, "the event it rules on")])


def _sealed(event: Event, withheld: int) -> Explanation:
    """An event of a players' copy that withholds some of its values: its fields as they are, for its
    derivation cannot be checked without them."""
    shown = rolls_and_fields(event)
    note = Step(
        what="sealed",
        value=str(withheld),
        how="values a players' copy withholds: the derivation is explained from the referee's log",
    )
    return Explanation(steps=[note, *(step for step in shown.steps if step.value not in ("-", "[]"))])


class Explaining:
    """The explaining of a log's events as they are read: its fold, history, tellers and explainers; from
    the start, or from a ``state`` and ``index`` kept part-way (affray.replays.snapshots)."""

    def __init__(self, reading: Reading, state: Any = None, index: Index | None = None) -> None:
        self.vocabulary = reading.vocabulary()
        self.tellers: Mapping[type[Event], Teller] = {**SHARED_TELLERS, **reading.tellers()}
        self.explainers: dict[type[Event], Explainer] = {RulingApplied: ruling, **reading.explainers()}
        self.state = self.vocabulary.new_state() if state is None else state
        self.index = Index() if index is None else index
        self.sealed = reading.sealed
        """A players' copy's events are explained by their fields where they withhold a value."""

    def read(self, event: Event) -> str:
        """Fold ``event`` and note it; the line it is told in."""
        apply_checked(self.vocabulary, self.state, event)
        told = self.tellers[type(event)](event, self.state)
        self.index.add(event, told)
        return told

    def explained(self, event: Event, told: str) -> Explained:
        """``event``, just read, explained (its rulings left for the caller)."""
        withheld = sealed_values(event) if self.sealed else 0
        if withheld:
            explanation = _sealed(event, withheld)
        else:
            explainer: Explainer = self.explainers.get(type(event), generic)
            explanation = explainer(event, self.state, self.index)
        told_of = self.index.told
        return Explained(
            seq=event.seq,
            t=event.t,
            kind=kind_of(type(event)),
            told=told,
            steps=explanation.steps,
            depends_on=[Earlier(b.seq, b.why, told_of(b.seq)) for b in explanation.depends_on],
        )


def explain(
    events: Iterable[Event], seq: int, reading: Reading, explaining: Explaining | None = None
) -> Explained | None:
    """The event numbered ``seq`` explained, reading ``events`` no further than it and the rulings on it
    right after; None when the events end before it. An event that does not fold raises FoldError. The
    events are read from the start, or from where ``explaining`` was left."""
    explaining = Explaining(reading) if explaining is None else explaining
    reading_on = iter(events)
    for event in reading_on:
        told = explaining.read(event)
        if event.seq == seq:
            explained = explaining.explained(event, told)
            rulings = _rulings_after(reading_on, seq, explaining.state, explaining.tellers)
            return msgspec.structs.replace(explained, ruled_by=rulings)
    return None


class Read(NamedTuple):
    """One event as an explaining reading met it: the state right after it and its explanation, the
    rulings on it not yet attached (they follow it)."""

    event: Event
    state: Any
    explained: Explained


def explain_each(
    events: Iterable[Event], explaining: Explaining, wanted: Callable[[Event], bool] | None = None
) -> Iterator[Read]:
    """Every event in turn, folded (into ``explaining``'s state), told and explained in one reading (only
    those ``wanted``, when it is given: the others' explanations are their lines alone); the state is
    shared, so it is the state right after the event only until the next is read."""
    for event in events:
        told = explaining.read(event)
        if wanted is None or wanted(event):
            explained = explaining.explained(event, told)
        else:
            explained = Explained(
                seq=event.seq, t=event.t, kind=kind_of(type(event)), told=told, steps=[], depends_on=[]
            )
        yield Read(event, explaining.state, explained)


def with_rulings(read: Iterable[Read]) -> Iterator[Explained]:
    """The explanations of ``read``, each with the rulings on it (the ``ruling_applied`` events that
    follow it), in order."""
    held: list[Explained] = []
    """The last event that is not a ruling, then the rulings on it: held until the rulings end."""
    for event, _, explained in read:
        if isinstance(event, RulingApplied) and held and event.rules_on == held[0].seq:
            ruled = Earlier(event.seq, event.reason, explained.told)
            held[0] = msgspec.structs.replace(held[0], ruled_by=[*held[0].ruled_by, ruled])
            held.append(explained)
        else:
            yield from held
            held = [explained]
    yield from held


def explain_all(events: Iterable[Event], reading: Reading) -> Iterator[Explained]:
    """Every event explained, in one reading, each with the rulings on it (which follow it)."""
    return with_rulings(explain_each(events, Explaining(reading)))


def _rulings_after(
    events: Iterable[Event], seq: int, state: Any, tellers: Mapping[type[Event], Teller]
) -> list[Earlier]:
    """The ``ruling_applied`` events that follow the event at ``seq`` and rule on it."""
    rulings = []
    for event in events:
        if not isinstance(event, RulingApplied) or event.rules_on != seq:
            break
        rulings.append(Earlier(event.seq, event.reason, tellers[RulingApplied](event, state)))
    return rulings


def tell_explained(explained: Explained) -> list[str]:
    """An explanation as lines for people: the event, its derivation step by step, what it depends on."""
    lines = [f"seq {explained.seq} at {game_time(explained.t)}: {explained.kind}", f"  {explained.told}"]
    if explained.steps:
        width = max(len(step.what) for step in explained.steps)
        value = max(len(step.value) for step in explained.steps)
        rule = max([len(step.rule) for step in explained.steps])
        lines.append("derivation:")
        for step in explained.steps:
            detail = "; ".join(part for part in (step.how, step.source) if part)
            lines.append(
                f"  {step.rule:<{rule}}  {step.what:<{width}}  {step.value:<{value}}  {detail}".rstrip()
            )
    if explained.depends_on:
        lines.append("depends on:")
        lines += [f"  #{e.seq:<4} {e.why}: {e.told}" for e in explained.depends_on]
    if explained.ruled_by:
        lines.append("ruled by:")
        lines += [f"  #{e.seq:<4} {e.told}" for e in explained.ruled_by]
    if explained.luck:
        lines.append("luck (each side's chance to win just before -> just after the roll, affray odds):")
        lines += [f"  {luck.roll}: {_moved(luck)}" for luck in explained.luck]
    return lines


def _moved(luck: RollLuck) -> str:
    """``ford 61.0 % -> 88.0 % (+27.0), raiders ...``."""
    moved = [(side, before, luck.after.get(side, before)) for side, before in luck.before.items()]
    return ", ".join(
        f"{side} {100 * before:.1f} % -> {100 * after:.1f} % ({100 * (after - before):+.1f})"
        for side, before, after in moved
    )
