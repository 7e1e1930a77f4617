"""Where the decisions of combatants played from outside affray come from, in one run.

A combatant's process asks (:meth:`Decisions.ask`) where one of affray's own controllers would decide,
records the answer (``intent_chosen``) and carries it out at once, so the events of an instant keep one
order whichever source answers:

- :class:`Called`: each combatant's controller, made by its factory for this run, is called;
- :class:`Replayed`: the answers recorded in a log being re-simulated, taken in order (how such logs
  verify, and are healed or changed in a what-if, without the controllers' code);
- :class:`Stepped`: the run pauses until code that runs it step by step gives the answer (the PettingZoo
  environment); the answer then fires before anything else due at that instant.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import simpy
from simpy.events import URGENT, EventPriority

from affray.errors import ControllerError, ScenarioError, UnrecordedDecision
from affray.events.base import Event
from affray.npc.outside import (
    EXTERNAL,
    NOTHING,
    Chosen,
    Seat,
    chosen,
    imported,
    seat_seed,
    where_it_failed,
)


class Outside:
    """The controller of a combatant played from outside affray (``name``, as its scenario gives it):
    its decisions come from the battle's :class:`Decisions`, and are recorded."""

    def __init__(self, name: str) -> None:
        self.name = name


@dataclass(frozen=True)
class Offer:
    """What a combatant is offered to choose from: the view and the legal intents, made when asked for."""

    view: Callable[[], Any]
    legal: Callable[[], tuple[Any, ...]]


FIRST = URGENT - 1
"""The place of an awaited answer among the events due at its instant: before all of them."""


class Reply(simpy.Event):
    """An answer awaited from outside the run. Once given, it fires before anything else due at this
    instant, so the combatant goes on as though it had decided at once."""

    def give(self, chosen: Chosen) -> None:
        """Fire with ``chosen`` as the value."""
        self._ok = True
        self._value = chosen
        self.env.schedule(self, EventPriority(FIRST))


class Decisions(Protocol):
    """A source of answers for the combatants played from outside."""

    def ask(self, encounter: simpy.Environment, combatant: str, offer: Offer) -> Chosen | Reply:
        """The answer now, or a :class:`Reply` to yield for it. Asking happens where one of affray's own
        controllers would decide, and either way the combatant goes on at that point: the events of an
        instant keep one order whichever source answers."""
        ...


class Called:
    """The controllers that the scenario's factories make for this run, by combatant, called at once;
    ``places`` names each in errors (the scenario field that names it, and its combatant)."""

    def __init__(
        self, controllers: Mapping[str, Any], places: Mapping[str, str], intents: tuple[type, ...]
    ) -> None:
        self._controllers = controllers
        self._places = places
        self._intents = intents

    @classmethod
    def for_seats(cls, seated: Sequence[tuple[str, Seat]], intents: tuple[type, ...]) -> Called:
        """A controller for each seat, made by its factory as imported from a folder already (this
        imports nothing); ``where`` is the field that names it (``$.combatants[0].controller``). A
        combatant that is only ever played step by step (``external``) has none: ScenarioError says so."""
        controllers, places = {}, {}
        for where, seat in seated:
            if ":" not in seat.controller:
                raise ScenarioError(
                    f"{where}: {seat.combatant}'s controller is {seat.controller!r}: it is played step by "
                    "step from outside (affray.envs), not by affray; give it another controller to run "
                    "it here"
                )
            place = f"{where} ({seat.controller}) of {seat.combatant}"
            try:
                made = imported(seat.controller)
            except ControllerError as exc:
                raise ControllerError(f"{place}: {exc}") from None
            try:
                controllers[seat.combatant] = made(seat)
            except Exception as exc:  # the user's factory failed
                raise ControllerError(f"{place}: its factory failed: {where_it_failed(exc)}") from None
            places[seat.combatant] = place
        return cls(controllers, places, intents)

    def ask(self, encounter: simpy.Environment, combatant: str, offer: Offer) -> Chosen:
        """Call the combatant's controller now with the view and the legal intents."""
        controller, who = self._controllers[combatant], self._places[combatant]
        try:
            answer = controller.decide(offer.view(), offer.legal())
        except Exception as exc:  # the user's controller failed
            raise ControllerError(f"{who} failed: {where_it_failed(exc)}") from None
        return chosen(answer, self._intents, who)


class Replayed:
    """The answers recorded in a log, taken as the re-simulation reaches them. ``recorded()`` is the log's
    next event not yet compared, which is where this combatant's decision is recorded if the fight went
    as the log says: an event of ``kind`` holding the answer in its member ``field``. Anything else there
    answers None, and the comparison reports the first event that differs; or, ``strict``, is an
    UnrecordedDecision naming the combatant and its controller (``controllers``, by combatant)."""

    def __init__(
        self,
        recorded: Callable[[], Event | None],
        kind: type[Event],
        *,
        field: str = "intent",
        strict: bool = False,
        controllers: Mapping[str, str] | None = None,
    ) -> None:
        self._recorded = recorded
        self._kind = kind
        self._field = field
        self._strict = strict
        self._controllers = controllers or {}

    def ask(self, encounter: simpy.Environment, combatant: str, offer: Offer) -> Chosen:
        """The decision recorded next, if it is this combatant's."""
        event = self._recorded()
        decided: Any = event
        if isinstance(event, self._kind) and decided.combatant == combatant:
            return Chosen(getattr(decided, self._field), decided.scores)
        if self._strict:
            raise UnrecordedDecision(combatant, self._controllers.get(combatant, ""), int(encounter.now))
        return NOTHING


class Stepped:
    """Answers given between steps of the run: asking leaves the question in ``waiting`` and a
    :class:`Reply` that fires when :meth:`answer` is called. The code that steps the run stops while a
    question waits."""

    def __init__(self, intents: tuple[type, ...]) -> None:
        self._intents = intents
        self.waiting: tuple[str, Offer] | None = None
        self._reply: Reply | None = None

    def ask(self, encounter: simpy.Environment, combatant: str, offer: Offer) -> Reply:
        """Leave the question waiting."""
        self.waiting = (combatant, offer)
        self._reply = Reply(encounter)
        return self._reply

    def answer(self, answer: object) -> None:
        """Answer the waiting question (an intent, a Decision or None) and let the run go on."""
        if self.waiting is None or self._reply is None:
            raise RuntimeError("no question is waiting")
        combatant, _ = self.waiting
        made = chosen(answer, self._intents, f"the answer for {combatant}")
        self.waiting, reply, self._reply = None, self._reply, None
        reply.give(made)


def decisions_for(
    seats: Sequence[tuple[str, Seat]],
    answers: tuple[type, ...],
    recorded: Replayed | None,
    stepped: Stepped | None,
) -> dict[str, Decisions]:
    """Where each outside combatant's decisions come from in a run: the log being re-simulated
    (``recorded``), the code stepping the run (``stepped``, for those played ``external``), or the
    controllers their factories make for the run (answering one of ``answers``). ``seats`` pairs each
    seat with the scenario field that names its controller."""
    if recorded is not None:
        return {seat.combatant: recorded for _, seat in seats}
    decisions: dict[str, Decisions] = {}
    if stepped is not None:
        decisions.update((seat.combatant, stepped) for _, seat in seats if seat.controller == EXTERNAL)
    called = [(where, seat) for where, seat in seats if seat.combatant not in decisions]
    if called:
        controllers = Called.for_seats(called, answers)
        decisions.update((seat.combatant, controllers) for _, seat in called)
    return decisions


def seat_for(combatant: str, side: str, controller: str, encounter_seed: int) -> Seat:
    """The seat of a combatant played from outside by ``controller``, with a seed of its own."""
    return Seat(
        combatant=combatant, side=side, controller=controller, seed=seat_seed(encounter_seed, combatant)
    )
