"""A fivestep scenario made into an encounter: tables parsed and checked against the procedures chosen,
characters equipped, the rounds run on the clock (rules F1-F13)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal

from affray.errors import AffrayError, ScenarioError, excerpt
from affray.events.base import Event
from affray.events.fivestep.kinds import BodyPart, CombatantJoined, StepChosen
from affray.events.fivestep.state import vocabulary
from affray.events.fivestep.steps import STEPS
from affray.handlers.fivestep.checks import check_special_types, check_tables
from affray.handlers.fivestep.fighters import Arm, Fighter
from affray.handlers.fivestep.host import Arena, Player
from affray.handlers.fivestep.rounds import rounds
from affray.handlers.fivestep.scenario import RULES_ON, Character, FivestepScenario, TableFile, Weapon
from affray.handlers.fivestep.turns import LAST_RANK
from affray.handlers.orders import StandingOrders, given
from affray.handlers.outside import Decisions, Outside, Replayed, Stepped, decisions_for, seat_for
from affray.handlers.rulings import after_the_run, on_the_clock
from affray.handlers.shared import Finisher, time_limit
from affray.handlers.special_damage.host import SpecialProfile
from affray.handlers.special_damage.module import SpecialDamageModule
from affray.handlers.special_damage.scenario import MODULE, SpecialDamageOptions
from affray.kernel.dice import Dice
from affray.kernel.encounter import Encounter, EventSink
from affray.kernel.referee import Referee
from affray.kernel.space import metres
from affray.npc.fivestep.controllers import FivestepController, NearestFirst
from affray.npc.outside import is_outside
from affray.rules.fivestep.damage import parse_damage_die_roll
from affray.rules.fivestep.hitting import HAND_TO_HAND_REACH_M, WEAPONRY_MAX_M
from affray.rules.fivestep.sequence import action_cost
from affray.rules.fivestep.tableset import TableSet, parse_table_set
from affray.rules.fivestep.usertables import require

AVERAGE_SIZE_M2 = Decimal("0.75")
OWN: dict[str, type[FivestepController]] = {"nearest": NearestFirst}
"""affray's own fivestep controllers, by the name a scenario gives them."""


def controller_for(name: str) -> Player:
    """The controller a scenario names: one of affray's own, or one from outside affray."""
    return Outside(name) if is_outside(name) else OWN[name]()


class FivestepBattle(Finisher):
    """A fivestep encounter built from a scenario; ``run`` simulates it into an Encounter."""

    scenario: FivestepScenario

    def __init__(self, scenario: FivestepScenario) -> None:
        self.scenario = scenario
        self.procedures = scenario.procedures
        self.options = scenario.options
        self.tables = _table_set(tuple(_table_files(scenario.tables).items()))
        check_tables(scenario, self.tables)
        self.fighters: dict[str, Fighter] = {
            c.id: self._fighter(index, c) for index, c in enumerate(scenario.combatants)
        }
        self.controllers: dict[str, Player] = {
            c.id: controller_for(c.controller) for c in scenario.combatants
        }
        self.decisions: dict[str, Decisions] = {}
        self._replayed: Replayed | None = None
        self.stepped: Stepped | None = None
        """The source of the ``external`` characters' decisions, once :meth:`step_outside` is called."""
        self.sides = {side.id: side for side in scenario.sides}
        self.special = (
            SpecialDamageModule(scenario.special_damage, scenario.rulings)
            if MODULE in scenario.modules
            else None
        )
        if self.special is not None:
            check_special_types(scenario, self.special)
        self.vocabulary = vocabulary(scenario.modules)
        self.referee = Referee(scenario.rulings, RULES_ON)
        self.orders = self._orders()

    @property
    def special_options(self) -> SpecialDamageOptions:
        """How the special_damage module sits on this battle."""
        return self.scenario.special_damage

    def replay_decisions(self, recorded: Callable[[], Event | None], *, strict: bool = False) -> None:
        """Take the steps of the characters played from outside from a log being re-simulated
        (``recorded()`` is its next event not yet compared), not from their controllers; ``strict``, a
        step not recorded there is an error."""
        played = {c.id: c.controller for c in self.scenario.combatants if is_outside(c.controller)}
        self._replayed = Replayed(recorded, StepChosen, field="step", strict=strict, controllers=played)

    def step_outside(self) -> Stepped:
        """Have the ``external`` characters' steps given between steps of the run (affray.envs)."""
        self.stepped = Stepped(STEPS)
        return self.stepped

    def _decisions(self) -> dict[str, Decisions]:
        seats = [
            (f"$.combatants[{i}].controller", seat_for(c.id, c.side, c.controller, self.scenario.seed))
            for i, c in enumerate(self.scenario.combatants)
            if is_outside(c.controller)
        ]
        return decisions_for(seats, STEPS, self._replayed, self.stepped)

    def notices(self) -> list[str]:
        """Tables of invented example data, which a user should replace with the real ones."""
        if not self.tables.examples:
            return []
        tables = ", ".join(self.tables.examples)
        return [f"Tables {tables} are invented example data (example = true), not the rules"]

    def _orders(self) -> StandingOrders[Player]:
        """The scenario's standing orders, fresh for a run (an order's controller keeps its own memory)."""
        return StandingOrders(given(self.scenario.orders), lambda name, who: controller_for(name))

    def run(self, sinks: Iterable[EventSink] = (), *, trace: bool = False, keep_log: bool = True) -> Arena:
        """Simulate the encounter to its end and return it, its state and its log."""
        encounter = self.start(sinks, trace=trace, keep_log=keep_log)
        encounter.run(until=encounter.finished)
        self.close(encounter)
        return encounter

    def start(self, sinks: Iterable[EventSink] = (), *, trace: bool = False, keep_log: bool = True) -> Arena:
        """The encounter made ready to run, at 0 ms: step it with its ``step()``."""
        encounter: Arena = Encounter(
            Dice(self.scenario.dice.source_for(self.scenario.seed)),
            self.vocabulary,
            trace=trace,
            keep_log=keep_log,
        )
        encounter.sinks.extend(sinks)
        self.referee = Referee(self.scenario.rulings, RULES_ON)
        on_the_clock(encounter, self.referee)
        self.orders = self._orders()
        self.decisions = self._decisions()
        encounter.process(rounds(encounter, self))
        encounter.process(time_limit(encounter, self.scenario.max_seconds, rank=LAST_RANK))
        return encounter

    def close(self, encounter: Arena) -> None:
        """After the run: every general ruling has taken effect (RulingError names one that did not); the
        rulings on special damage never used are a warning (S10)."""
        after_the_run(encounter, self.referee, self.special)

    def join(self, encounter: Arena, side: str) -> None:
        """The characters of ``side`` enter the encounter (``combatant_joined``), in file order."""
        for fighter in self.fighters.values():
            spec = fighter.spec
            if spec.side != side:
                continue
            encounter.emit(
                CombatantJoined(
                    combatant=spec.id,
                    name=spec.name,
                    side=spec.side,
                    damage_points=Decimal(sum(p.points for p in fighter.parts)),
                    position=(metres(spec.position[0]), metres(spec.position[1])),
                    weapon=spec.weapons[0].name if spec.weapons else "",
                    armor="",
                    parts=tuple(BodyPart(name=p.name, points=p.points) for p in fighter.parts),
                    body=spec.kind,
                )
            )

    # --- what a fight's damage does, and what the special_damage module reads --------------------------

    def after_damage(self, encounter: Arena, target_id: str) -> None:
        """A vital part without function puts the character out (ruling 45), and so does losing every point
        of its body (an explosion of the special_damage module strikes no part)."""
        target = encounter.state.combatants[target_id]
        if target.out:
            return
        for part in self.fighters[target_id].parts:
            taken = target.location_damage.get(part.name, Decimal(0))
            if part.vital and taken >= part.points:
                self.put_out(
                    encounter, target_id, f"{part.name} without function ({taken} of {part.points} points)"
                )
                return
        if target.damage_left <= 0:
            self.put_out(encounter, target_id, f"every point of its body lost ({target.damage_taken})")

    def profile(self, combatant: str) -> SpecialProfile:
        """What the special_damage module reads of ``combatant``: Reaction Speed is Agility // rs_divisor,
        and every character is of average size (fivestep has no target size)."""
        fighter = self.fighters[combatant]
        return SpecialProfile(
            traits=fighter.spec,
            size_m2=AVERAGE_SIZE_M2,
            reaction_speed=fighter.spec.agility // self.scenario.special_damage.rs_divisor,
            weapons=tuple(arm.spec.name for arm in fighter.arms),
        )

    def joins_at_ms(self, side: str) -> int:
        """When ``side`` joins the fight (0 unless the scenario says)."""
        spec = self.sides.get(side)
        return 0 if spec is None else spec.joins_at * 1000

    def _fighter(self, index: int, spec: Character) -> Fighter:
        where = f"$.combatants[{index}]"
        parts = tuple(self.scenario.bodies[spec.body])
        if spec.aim_at and not any(
            spec.aim_at.casefold() in {p.name.casefold() for p in b} for b in self.scenario.bodies.values()
        ):
            raise ScenarioError(f"{where}.aim_at: no body has a part {excerpt(spec.aim_at)!r}")
        if self.procedures.action == 2:
            points = spec.agility
            move_name = spec.move_action or self.options.move_action
            if not move_name:
                raise ScenarioError(
                    f"{where}.move_action: action procedure 2 needs the Table 3-6 action that moves it 1 m "
                    "(or options.move_action)"
                )
            move_cost = self._cost(move_name, spec.agility, f"{where}.move_action")
            step_m = Decimal(1)
        else:
            points = self.options.discretion_actions
            move_name = "move"
            move_cost = 1
            step_m = metres(self.options.discretion_move_m)
        arms = tuple(
            self._arm(number, weapon, spec, f"{where}.weapons[{number}]")
            for number, weapon in enumerate(spec.weapons)
        )
        return Fighter(
            spec=spec,
            rank=index,
            points=points,
            move_action=move_name,
            move_cost=move_cost,
            step_m=step_m,
            parts=parts,
            arms=arms,
        )

    def _cost(self, action: str, agility: int, where: str) -> int:
        """Table 3-6's cost of ``action``; an action that costs nothing could be repeated without end."""
        try:
            cost = action_cost(self.tables.user, action, agility)
        except AffrayError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
        if cost == 0:
            raise ScenarioError(
                f"{where}: {excerpt(action)!r} costs no Agility Points on Table 3-6; "
                "a move or attack must cost some"
            )
        return cost

    def _arm(self, number: int, weapon: Weapon, spec: Character, where: str) -> Arm:
        die_roll = None
        if self.procedures.damage == 2:
            if weapon.damage is None:
                raise ScenarioError(
                    f'{where}.damage: damage procedure 2 needs its DAMAGE DIE ROLL (such as "4+2")'
                )
            try:
                die_roll = parse_damage_die_roll(weapon.damage)
            except ValueError as exc:
                raise ScenarioError(f"{where}.damage: {exc}") from None
        else:
            if weapon.wep_mod is None:
                raise ScenarioError(f"{where}.wep_mod: damage procedure 3 needs its WEP MOD")
            try:
                self.tables.damage.wep_mod().row(weapon.wep_mod)
            except AffrayError as exc:
                raise ScenarioError(f"{where}.wep_mod: {exc}") from None
        if self.procedures.action == 2:
            if not weapon.action:
                raise ScenarioError(
                    f"{where}.action: action procedure 2 needs the Table 3-6 action one use costs"
                )
            cost = self._cost(weapon.action, spec.agility, f"{where}.action")
        else:
            cost = 1
        return Arm(index=number, spec=weapon, die_roll=die_roll, cost=cost, reach_m=self._reach(weapon, spec))

    def _reach(self, weapon: Weapon, spec: Character) -> Decimal:
        """How far the weapon can be used: 3 m hand to hand (F1); a throw's distance (F9); weaponry to 3 km
        (F1), and no further than the last range of Table 3-1 when the procedure reads it (F8) or of Table 3-3
        when damage procedure 3 does (F10)."""
        if weapon.combat == "hand_to_hand":
            return HAND_TO_HAND_REACH_M
        if weapon.combat == "grenade":
            return require(self.tables.user, "3-4.0", "a grenade").distance(
                spec.strength, Decimal(str(weapon.weight_kg))
            )
        reach = WEAPONRY_MAX_M
        if self.procedures.to_hit >= 2:
            reach = min(require(self.tables.user, "3-1", "to hit").row[-1].range_m_max, reach)
        if self.procedures.damage == 3:
            reach = min(self.tables.damage.wep_mod().range_m[-1], reach)
        return reach


TABLE_SETS_KEPT = 16
"""How many scenarios' parsed tables are kept: a batch fights one scenario's tables over and over."""


@functools.lru_cache(maxsize=TABLE_SETS_KEPT)
def _table_set(files: tuple[tuple[str, tuple[str, str]], ...]) -> TableSet:
    """The parsed table set of ``files`` (``(id, (source, text))``, as the scenario embeds them), parsed
    once per text and kept: parsing is most of a battle's set-up."""
    return parse_table_set(dict(files))


def _table_files(tables: Mapping[str, str | TableFile]) -> dict[str, tuple[str, str]]:
    """``id -> (source, text)`` of the embedded tables; a path not yet read is an error (a scenario from a
    file has its tables read at load; one in a log header holds their text)."""
    files: dict[str, tuple[str, str]] = {}
    for key, table in tables.items():
        if isinstance(table, str):
            raise ScenarioError(f"$.tables.{key}: the table file {excerpt(table)!r} was not read")
        files[key] = (table.path, table.text)
    return files
