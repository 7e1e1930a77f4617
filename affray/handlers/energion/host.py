"""What the Energion processes need of the battle they run in: the combatants' figures and controllers, the
charts, and the calls that settle what a blow or a spell does. The battle implements it; the processes
depend on this protocol, not on the battle class."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

import simpy

from affray.events.base import Roll
from affray.events.energion.kinds import AttackResolved
from affray.events.energion.state import EnergionState
from affray.handlers.energion.loadout import Arm, Loadout
from affray.handlers.energion.scenario import Seconds
from affray.handlers.orders import StandingOrders
from affray.handlers.outside import Decisions, Outside
from affray.kernel.encounter import Encounter
from affray.kernel.referee import Referee
from affray.npc.energion.intents import Controller
from affray.rules.energion.close_combat import GrapplingTable
from affray.rules.energion.locations import HitLocationTable

Arena = Encounter[EnergionState]
"""An Energion encounter."""
Player = Controller | Outside
"""Who plays a combatant: one of affray's controllers, or code outside affray."""


class EnergionHost(Protocol):
    """The battle, as its processes see it."""

    @property
    def loadouts(self) -> Mapping[str, Loadout]:
        """Every combatant's figures, by id."""
        ...

    @property
    def controllers(self) -> Mapping[str, Player]:
        """Every combatant's controller, by id."""
        ...

    @property
    def decisions(self) -> Mapping[str, Decisions]:
        """Where the decisions of the combatants played from outside come from in this run, by id."""
        ...

    @property
    def locations(self) -> HitLocationTable | None:
        """The hit location chart, with hit locations on (E20)."""
        ...

    @property
    def grappling(self) -> GrapplingTable:
        """The grappling procedures (E15)."""
        ...

    @property
    def processes(self) -> Mapping[str, simpy.Process]:
        """Each fighting combatant's process (a spell is interrupted through it, E23)."""
        ...

    @property
    def orders(self) -> StandingOrders[Player]:
        """The scenario's standing orders: whom each combatant goes for and who plays it, at a moment."""
        ...

    @property
    def referee(self) -> Referee:
        """The referee's rulings in this run."""
        ...

    @property
    def interrupted(self) -> set[str]:
        """Casters whose spell has been interrupted and who have not yet heard of it."""
        ...

    def duration(
        self, encounter: Arena, combatant: str, purpose: str, value: Seconds
    ) -> tuple[int, Roll | None]:
        """A time in ms from a scenario value: seconds as given, or dice read as seconds (and their roll)."""
        ...

    def after_attack(self, encounter: Arena, event: AttackResolved, attacker: Loadout, arm: Arm) -> None:
        """What a landed blow or shot does beyond its damage."""
        ...

    def after_damage(self, encounter: Arena, target_id: str) -> None:
        """What damage taken does: out at no points left, a spell lost."""
        ...

    def put_out(self, encounter: Arena, target_id: str, reason: str) -> None:
        """The target is out."""
        ...
