"""What the fivestep processes need of the battle they run in. The battle implements it; the processes
depend on this protocol, not on the battle class."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from affray.events.fivestep.state import FivestepState
from affray.handlers.fivestep.fighters import Fighter
from affray.handlers.fivestep.scenario import FivestepScenario, Options, Procedures, Side
from affray.handlers.orders import StandingOrders
from affray.handlers.outside import Decisions, Outside
from affray.handlers.special_damage.host import SpecialHost
from affray.handlers.special_damage.module import SpecialDamageModule
from affray.kernel.encounter import Encounter
from affray.kernel.referee import Referee
from affray.npc.fivestep.controllers import FivestepController
from affray.rules.fivestep.tableset import TableSet

Arena = Encounter[FivestepState]
Player = FivestepController | Outside
"""Who declares a character's steps: one of affray's controllers, or a controller from outside affray."""
"""A fivestep encounter."""


class FivestepHost(SpecialHost, Protocol):
    """The battle, as its processes see it: the scenario's procedures, options and tables, the characters,
    and the calls that settle what damage does."""

    @property
    def scenario(self) -> FivestepScenario:
        """The scenario simulated."""
        ...

    @property
    def procedures(self) -> Procedures:
        """The procedure chosen for each step (F4)."""
        ...

    @property
    def options(self) -> Options:
        """The rulings the scenario sets (docs/rulesets/fivestep.md)."""
        ...

    @property
    def tables(self) -> TableSet:
        """The tables the scenario supplies, parsed."""
        ...

    @property
    def fighters(self) -> Mapping[str, Fighter]:
        """Every character ready for the rules, by id."""
        ...

    @property
    def controllers(self) -> Mapping[str, Player]:
        """Every character's controller, by id."""
        ...

    @property
    def decisions(self) -> Mapping[str, Decisions]:
        """Where the decisions of the characters played from outside come from in this run, by id."""
        ...

    @property
    def sides(self) -> Mapping[str, Side]:
        """The sides the scenario lists, by id."""
        ...

    @property
    def orders(self) -> StandingOrders[Player]:
        """The scenario's standing orders: whom each character goes for and who plays it, at a moment."""
        ...

    @property
    def referee(self) -> Referee:
        """The referee's rulings in this run."""
        ...

    @property
    def special(self) -> SpecialDamageModule | None:
        """The special_damage module, when the scenario turns it on."""
        ...

    def join(self, encounter: Arena, side: str) -> None:
        """The characters of ``side`` enter the encounter."""
        ...

    def joins_at_ms(self, side: str) -> int:
        """When ``side`` joins the fight."""
        ...

    def after_damage(self, encounter: Arena, target_id: str) -> None:
        """What damage taken does to the character (out when a vital part has no function)."""
        ...
