"""Standing orders in a host ruleset's scenario (``[[orders]]``): a combatant played otherwise from a time on.

An order says that from ``at`` seconds a combatant goes for other targets first (``priority_targets``,
as its scenario's own would) or is played by another of the ruleset's controllers (``controller``), or
both. It is how ``affray whatif --intent`` asks what a different intent from that point would have done;
the scenario holds its orders, so a log made with them re-simulates like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

import msgspec

from affray.errors import ScenarioError, excerpt
from affray.handlers.rulings import Moment
from affray.kernel.referee import moment
from affray.kernel.scenario import Section

C = TypeVar("C")


class Order(Section, frozen=True, kw_only=True, omit_defaults=True):
    """From ``at`` seconds on, ``combatant`` is played otherwise; the latest order in effect counts."""

    combatant: str
    at: Moment
    priority_targets: list[str] | None = None
    """Combatants to attack first while they stand, instead of its own."""
    controller: str | None = None
    """Another of the ruleset's controllers plays it."""
    reason: str = ""


def check_orders(
    orders: Sequence[Order], combatants: Sequence[str], controllers: Sequence[str], source: str
) -> None:
    """Each order names a combatant, changes something, and names combatants and a controller that exist."""
    for number, order in enumerate(orders):
        where = f"{source}: $.orders[{number}]"
        if order.combatant not in combatants:
            raise ScenarioError(f"{where}.combatant: no combatant {excerpt(order.combatant)!r}")
        if order.priority_targets is None and order.controller is None:
            raise ScenarioError(f"{where}: an order gives priority_targets or a controller")
        for index, target in enumerate(order.priority_targets or ()):
            if target not in combatants:
                raise ScenarioError(f"{where}.priority_targets[{index}]: no combatant {excerpt(target)!r}")
        if order.controller is not None and order.controller not in controllers:
            raise ScenarioError(
                f"{where}.controller: {excerpt(order.controller)!r} is none of {', '.join(controllers)}"
            )


class StandingOrders(Generic[C]):
    """The orders of one run: whom each combatant goes for and who plays it, at a moment.

    ``make(name, combatant)`` makes a controller by name; each order's controller is made once, when it
    first plays, so that it keeps its own memory from then on.
    """

    def __init__(self, orders: Sequence[Order], make: Callable[[str, str], C]) -> None:
        self._by_combatant: dict[str, list[tuple[int, int, Order]]] = {}
        for number, order in enumerate(orders):
            self._by_combatant.setdefault(order.combatant, []).append((moment(order.at), number, order))
        for listed in self._by_combatant.values():
            listed.sort(key=lambda entry: entry[:2])
        self._make = make
        self._made: dict[int, C] = {}

    def _in_effect(self, combatant: str, now: int, wanted: str) -> tuple[int, Order] | None:
        """The latest order at or before ``now`` that sets ``wanted``, with its number."""
        latest = None
        for start, number, order in self._by_combatant.get(combatant, ()):
            if start > now:
                break
            if getattr(order, wanted) is not None:
                latest = (number, order)
        return latest

    def priority(self, combatant: str, now: int, own: tuple[str, ...]) -> tuple[str, ...]:
        """Whom it goes for first at ``now``: the order's targets, else its own."""
        if combatant not in self._by_combatant:
            return own
        order = self._in_effect(combatant, now, "priority_targets")
        return own if order is None else tuple(order[1].priority_targets or ())

    def next_after(self, combatant: str, now: int) -> int | None:
        """When the first order for ``combatant`` given for after ``now`` takes effect (None: none is)."""
        return next((start for start, _, _ in self._by_combatant.get(combatant, ()) if start > now), None)

    def controller(self, combatant: str, now: int, own: C) -> C:
        """Who plays it at ``now``: the order's controller, else its own."""
        if combatant not in self._by_combatant:
            return own
        in_effect = self._in_effect(combatant, now, "controller")
        if in_effect is None:
            return own
        number, order = in_effect
        if number not in self._made:
            assert order.controller is not None
            self._made[number] = self._make(order.controller, combatant)
        return self._made[number]


Orders = list[Order] | msgspec.UnsetType
"""A scenario's ``orders``: not written when it gives none, so that logs made before orders read as they
were."""


def given(orders: Orders) -> list[Order]:
    """The orders a scenario gives (none when unset)."""
    return [] if isinstance(orders, msgspec.UnsetType) else orders
