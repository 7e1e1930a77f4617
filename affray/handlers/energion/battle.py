"""A scenario made into an encounter: combatants join, their processes start, the clock runs to the end."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal

import simpy

from affray.errors import AffrayError, ScenarioError
from affray.events.base import Event, Roll
from affray.events.energion.intents import INTENTS
from affray.events.energion.kinds import AttackResolved, CombatantJoined, IntentChosen, LocationDisabled
from affray.events.energion.state import vocabulary
from affray.handlers.energion.fighter import fighter
from affray.handlers.energion.host import Arena, Player
from affray.handlers.energion.loadout import Arm, Loadout, loadouts_for
from affray.handlers.energion.scenario import RULES_ON, EnergionScenario, Seconds
from affray.handlers.energion.special import energion_hit
from affray.handlers.orders import StandingOrders, given
from affray.handlers.outside import Decisions, Outside, Replayed, Stepped, decisions_for, seat_for
from affray.handlers.rulings import after_the_run, on_the_clock
from affray.handlers.shared import Finisher, time_limit
from affray.handlers.special_damage.host import SpecialProfile
from affray.handlers.special_damage.module import SpecialDamageModule
from affray.handlers.special_damage.scenario import MODULE, SpecialDamageOptions
from affray.kernel.clock import MS_PER_SECOND, to_ms
from affray.kernel.dice import Dice
from affray.kernel.encounter import Encounter, EventSink
from affray.kernel.referee import Referee
from affray.kernel.space import metres
from affray.npc.energion.nearest import NearestEnemy
from affray.npc.energion.tactician import Tactician
from affray.npc.outside import is_outside
from affray.rules.energion.close_combat import load_grappling
from affray.rules.energion.formulas import tidy
from affray.rules.energion.locations import disabling_damage, load_hit_locations, location_state
from affray.rules.energion.tables import EnergionTables, load_tables


def controller_for(loadout: Loadout, name: str | None = None) -> Player:
    r"""The combatant's controller (or the one ``name``\ d); "auto" picks the tactician for one with more
    than a single melee weapon to use: spells, grappling, martial arts, a missile or hurled weapon, or
    several weapons (ruling 50)."""
    spec = loadout.spec
    name = name or spec.controller
    if is_outside(name):
        return Outside(name)
    if name == "auto":
        armed = len(loadout.arms) > 1 or any(arm.ranged for arm in loadout.arms)
        versatile = armed or spec.spells or spec.grapples or spec.martial_arts_level
        name = "tactician" if versatile else "nearest"
    return Tactician(cornered=spec.cornered) if name == "tactician" else NearestEnemy()


class EnergionBattle(Finisher):
    """An Energion encounter built from a scenario; ``run`` simulates it into an Encounter."""

    scenario: EnergionScenario

    def __init__(self, scenario: EnergionScenario, tables: EnergionTables | None = None) -> None:
        self.scenario = scenario
        self.loadouts: dict[str, Loadout] = loadouts_for(scenario, tables or load_tables())
        self.locations = load_hit_locations() if scenario.options.hit_locations else None
        self.grappling = load_grappling()
        self.special = (
            SpecialDamageModule(scenario.special_damage, scenario.rulings)
            if MODULE in scenario.modules
            else None
        )
        if self.special is not None:
            self._check_special_types(self.special)
        self.vocabulary = vocabulary(scenario.modules)
        self.processes: dict[str, simpy.Process] = {}
        self.referee = Referee(scenario.rulings, RULES_ON)
        self.orders = self._orders()
        self.interrupted: set[str] = set()
        """Casters whose spell has been interrupted and who have not yet heard of it."""
        self.controllers: dict[str, Player] = {
            spec.id: controller_for(self.loadouts[spec.id]) for spec in scenario.combatants
        }
        self.decisions: dict[str, Decisions] = {}
        self._recorded: Callable[[], Event | None] | None = None
        self._strict = False
        self.stepped: Stepped | None = None
        """The source of the ``external`` combatants' decisions, once :meth:`step_outside` is called."""

    def replay_decisions(self, recorded: Callable[[], Event | None], *, strict: bool = False) -> None:
        """Take the decisions of the combatants played from outside from a log being re-simulated
        (``recorded()`` is its next event not yet compared), not from their controllers; ``strict``, a
        decision not recorded there is an error (handlers/outside.py's Unrecorded)."""
        self._recorded = recorded
        self._strict = strict

    def step_outside(self) -> Stepped:
        """Have the ``external`` combatants' decisions given between steps of the run (affray.envs)."""
        self.stepped = Stepped(INTENTS)
        return self.stepped

    def _decisions(self) -> dict[str, Decisions]:
        """Where each outside combatant's decisions come from in a run: the log being re-simulated, the
        code stepping the run (``external``), or the controllers its factory makes for the run."""
        seats = [
            (f"$.combatants[{i}].controller", seat_for(c.id, c.side, c.controller, self.scenario.seed))
            for i, c in enumerate(self.scenario.combatants)
            if is_outside(c.controller)
        ]
        replayed = None
        if self._recorded is not None:
            played = {seat.combatant: seat.controller for _, seat in seats}
            replayed = Replayed(self._recorded, IntentChosen, strict=self._strict, controllers=played)
        return decisions_for(seats, INTENTS, replayed, self.stepped)

    def _orders(self) -> StandingOrders[Player]:
        """The scenario's standing orders, fresh for a run (an order's controller keeps its own memory)."""
        return StandingOrders(
            given(self.scenario.orders), lambda name, who: controller_for(self.loadouts[who], name)
        )

    def _check_special_types(self, special: SpecialDamageModule) -> None:
        """Every weapon's ``special_type`` is a Table 2 weapon type (rule S9): named at load, with its field,
        rather than at the first hit that reads it."""
        for i, spec in enumerate(self.scenario.combatants):
            for n, weapon in enumerate(spec.weapons):
                if weapon.special_type is None:
                    continue
                try:
                    special.weapons.named(weapon.special_type)
                except AffrayError as exc:
                    raise ScenarioError(f"$.combatants[{i}].weapons[{n}].special_type: {exc}") from None

    @property
    def special_options(self) -> SpecialDamageOptions:
        """How the special_damage module sits on this battle."""
        return self.scenario.special_damage

    def notices(self) -> list[str]:
        """Nothing to note: the Energion charts are the seed's own."""
        return []

    def run(self, sinks: Iterable[EventSink] = (), *, trace: bool = False, keep_log: bool = True) -> Arena:
        """Simulate the encounter to its end and return it, its state and its log."""
        encounter = self.start(sinks, trace=trace, keep_log=keep_log)
        encounter.run(until=encounter.finished)
        self.close(encounter)
        return encounter

    def start(self, sinks: Iterable[EventSink] = (), *, trace: bool = False, keep_log: bool = True) -> Arena:
        """The encounter made ready to run: the combatants joined, their processes started, at 0 ms."""
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
        perceptions = {
            loadout.id: self.duration(encounter, loadout.id, "perception", loadout.spec.perception)
            for loadout in self.loadouts.values()
            if loadout.spec.kind != "computer"
        }
        self.join(encounter, {combatant: roll for combatant, (_, roll) in perceptions.items()})
        first = min(ms for ms, _ in perceptions.values())
        for loadout in self.loadouts.values():
            if loadout.spec.kind == "computer":
                continue  # a computer is a target: it does not fight
            ms, _ = perceptions[loadout.id]
            self.processes[loadout.id] = encounter.process(fighter(encounter, self, loadout, ms - first))
        encounter.process(time_limit(encounter, self.scenario.max_seconds))
        return encounter

    def close(self, encounter: Arena) -> None:
        """After the run: every general ruling has taken effect (RulingError names one that did not); the
        rulings on special damage never used are a warning (S10)."""
        after_the_run(encounter, self.referee, self.special)

    def join(self, encounter: Arena, perception_rolls: Mapping[str, Roll | None] | None = None) -> None:
        """Every combatant enters the encounter (``combatant_joined``), in file order, with the roll of its
        perception time when one was rolled: a roll is logged when it is made."""
        rolls = perception_rolls or {}
        for loadout in self.loadouts.values():
            spec = loadout.spec
            encounter.emit(
                CombatantJoined(
                    combatant=loadout.id,
                    name=spec.name,
                    side=spec.side,
                    damage_points=Decimal(spec.damage_points),
                    position=(metres(spec.position[0]), metres(spec.position[1])),
                    weapon=loadout.arms[0].weapon.name if loadout.arms else "",
                    armor=loadout.armor.name,
                    shield=loadout.shield.name if loadout.shield else None,
                    cover=spec.cover,
                    body=spec.kind,
                    perception_roll=rolls.get(loadout.id),
                )
            )

    def duration(
        self, encounter: Arena, combatant: str, purpose: str, value: Seconds
    ) -> tuple[int, Roll | None]:
        """A time in milliseconds from a scenario value: seconds as given, or rolled dice read as seconds."""
        if isinstance(value, str):
            roll = encounter.dice.roll(
                combatant, purpose, value, need=lambda: f"{combatant}'s {purpose} time, in seconds"
            )
            return max(roll.total, 0) * MS_PER_SECOND, roll
        return to_ms(Decimal(str(value))), None

    def after_attack(self, encounter: Arena, event: AttackResolved, attacker: Loadout, arm: Arm) -> None:
        """What a landed blow or shot does beyond its damage: a knock-out (E14), a disabled location (E20),
        special damage (S1-S6) when the module is on, then ``after_damage``."""
        if event.damage is None:
            return
        target = encounter.state.combatants[event.target]
        if event.damage.subdue == "knocked_out" and not target.out:
            self.put_out(encounter, event.target, "knocked out by a blow struck to subdue")
            return
        location = event.hit.location
        if self.locations is not None and location is not None and location not in target.disabled:
            part = self.locations.location_named(location)
            taken = target.location_damage[location]
            effect = location_state(target.damage_points, part, taken)
            if effect != "ok":
                encounter.emit(
                    LocationDisabled(
                        combatant=target.id,
                        location=location,
                        effect=effect,
                        damage=taken,
                        share=disabling_damage(target.damage_points, part),
                    )
                )
                if effect == "dead" and not target.out:
                    self.put_out(
                        encounter, target.id, f"{location} wound of {tidy(taken)} damage points: death"
                    )
                    return
        if self.special is not None and event.outcome == "hit":
            divisor = self.scenario.special_damage.level_divisor
            hit = energion_hit(event, attacker, arm, divisor, target.reacted)
            self.special.after_hit(encounter, self, hit)
        self.after_damage(encounter, event.target)

    def profile(self, combatant: str) -> SpecialProfile:
        """What the special_damage module reads of ``combatant``: Reaction Speed is AG // rs_divisor."""
        loadout = self.loadouts[combatant]
        return SpecialProfile(
            traits=loadout.spec,
            size_m2=Decimal(str(loadout.spec.size_m2)),
            reaction_speed=loadout.spec.stats.AG // self.scenario.special_damage.rs_divisor,
            weapons=tuple(arm.weapon.name for arm in loadout.arms),
        )

    def after_damage(self, encounter: Arena, target_id: str) -> None:
        """Put the target out at 0 damage points, ending the encounter when one side is left; a target
        still standing loses the spell it was casting (E23)."""
        target = encounter.state.combatants[target_id]
        if target.out:
            return
        if target.damage_left > 0:
            if target.casting is not None and target_id not in self.interrupted:
                self.interrupted.add(target_id)
                self.processes[target_id].interrupt(f"took damage while casting {target.casting}")
            return
        self.put_out(encounter, target_id, f"damage points at {tidy(target.damage_left)}")
