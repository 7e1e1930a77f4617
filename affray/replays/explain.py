"""Explain one event of a log: the ruleset's derivation of it, with the earlier events it depends on.

The log is read up to the event and no further, folded as it goes, with the last event of each kind for
each combatant kept at hand for the explainers (``History``). A kind with no explainer is shown by its
rolls and fields, so every event of every ruleset can be explained.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from affray.events.base import Event
from affray.events.shared import kind_of
from affray.kernel.clock import game_time
from affray.kernel.explanation import Explainer, Explanation, Step, rolls_and_fields
from affray.kernel.fold import apply_checked
from affray.kernel.ruleset import Reading, Teller
from affray.replays.narrate import SHARED_TELLERS

NAMED = ("combatant", "attacker", "target")
"""The fields by which an event names the combatants it is about."""


class Index:
    """The last event of each kind that names each combatant, as the log is read (a ``History``), with
    the line the replay told it in; it holds no more than one event per kind and combatant."""

    def __init__(self) -> None:
        self._latest: dict[tuple[str, str], tuple[Event, str]] = {}

    def add(self, event: Event, told: str) -> None:
        """Note ``event``, told as ``told``."""
        kind = kind_of(type(event))
        for field in NAMED:
            who = getattr(event, field, None)
            if isinstance(who, str):
                self._latest[(kind, who)] = (event, told)

    def latest(self, kind: str, combatant: str) -> Event | None:
        """The last event of ``kind`` so far that names ``combatant``."""
        found = self._latest.get((kind, combatant))
        return None if found is None else found[0]

    def told(self) -> dict[int, str]:
        """The line of each event noted, by seq."""
        return {event.seq: line for event, line in self._latest.values()}


class Earlier(msgspec.Struct, frozen=True):
    """An earlier event an explained one depends on: its seq, why, and the replay's line for it."""

    seq: int
    why: str
    told: str


class Explained(msgspec.Struct, frozen=True, kw_only=True):
    """One event explained: its seq, time and kind, the replay's line for it, the derivation, and the
    earlier events it depends on."""

    seq: int
    t: int
    kind: str
    told: str
    steps: list[Step]
    depends_on: list[Earlier]


def generic(event: Event, state: Any, history: Any) -> Explanation:
    """A kind with no explainer of its own: its rolls and fields."""
    return rolls_and_fields(event)


def explain(events: Iterable[Event], seq: int, reading: Reading) -> Explained | None:
    """The event numbered ``seq`` explained, reading ``events`` no further than it; None when the events
    end before it. An event that does not fold raises FoldError."""
    vocabulary = reading.vocabulary()
    tellers: Mapping[type[Event], Teller] = {**SHARED_TELLERS, **reading.tellers()}
    explainers: dict[type[Event], Explainer] = reading.explainers()
    state = vocabulary.new_state()
    index = Index()
    for event in events:
        apply_checked(vocabulary, state, event)
        told = tellers[type(event)](event, state)
        if event.seq == seq:
            explainer: Explainer = explainers.get(type(event), generic)
            found = explainer(event, state, index)
            lines = index.told()
            return Explained(
                seq=seq,
                t=event.t,
                kind=kind_of(type(event)),
                told=told,
                steps=found.steps,
                depends_on=[Earlier(b.seq, b.why, lines.get(b.seq, "")) for b in found.depends_on],
            )
        index.add(event, told)
    return None


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
    return lines
