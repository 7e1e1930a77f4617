"""The special_damage module (seed 001) over a host ruleset's hit: rules S1-S6, S9, S10 on the clock.

The host (an Energion or a fivestep battle) describes each landed hit as a :class:`SpecialHit` and each
combatant as a :class:`SpecialProfile`. A hit's d100 roll is the add-on's "to hit" roll: special damage is
scored when the attack hit, the hit chance is at least the special chance, and the roll is at or under it.
The type roll (1d10 plus Table 1 and Table 2) reads Table 3 (living beings) or Table 4 (robots); a computer
loses programs instead. The extra Stamina damage is extra damage points (under fivestep, to the part the hit
struck); the effects become an ``Injury`` whose penalties later rolls apply;
unconsciousness, stuns and deactivation are timed conditions on the clock; equipment, weapons, programs and
explosions are events of their own. docs/rulesets/special_damage.md lists the rulings.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from decimal import Decimal
from typing import Any

from msgspec import UNSET

from affray.events.base import Roll
from affray.events.special import (
    BlastHit,
    CheckRolled,
    ConditionEnded,
    ConditionStarted,
    EquipmentLost,
    Exploded,
    Injury,
    LostItem,
    ProgramsDestroyed,
    RefereeRuling,
    SpecialDamage,
    SpecialModifier,
)
from affray.handlers.attack import velocity_now
from affray.handlers.special_host import SpecialHit, SpecialHost, SpecialProfile
from affray.kernel.clock import MS_PER_SECOND
from affray.kernel.encounter import Encounter
from affray.kernel.space import distance
from affray.kernel.state import CombatantState
from affray.rules.special_damage import rolls
from affray.rules.special_damage.movement import TURN_SECONDS, per_second
from affray.rules.special_damage.recovery import healing_kind, vrusk_arm
from affray.rules.special_damage.tables import (
    Effect,
    Explosion,
    load_living,
    load_modifiers,
    load_robots,
    load_weapon_modifiers,
)
from affray.scenario import Ruling, SpecialDamageOptions

TYPE_DIE = "1d10"
PERCENT_DIE = "1d100"
UNIT_MS = {"minutes": 60 * MS_PER_SECOND, "hours": 3600 * MS_PER_SECOND, "days": 86400 * MS_PER_SECOND}
TURN_MS = TURN_SECONDS * MS_PER_SECOND
SECURITY_PROGRAM = "computer security"


class SpecialDamageModule:
    """Scores and applies special damage for one encounter."""

    def __init__(self, options: SpecialDamageOptions, rulings: Sequence[Ruling]) -> None:
        self.options = options
        self.underwater = options.underwater
        self.rulings = rulings
        self.living = load_living()
        self.robots = load_robots()
        self.modifiers = load_modifiers()
        self.weapons = load_weapon_modifiers()
        self._last_hit: dict[tuple[str, str], int] = {}

    def after_hit(self, encounter: Encounter, host: SpecialHost, hit: SpecialHit) -> None:
        """Roll for special damage on a landed hit and apply what it does."""
        defender = host.profile(hit.target)
        target = encounter.state.combatants[hit.target]
        now = int(encounter.now)
        hit_twice = self._last_hit.get((hit.attacker, target.id), -TURN_MS) > now - TURN_MS
        self._last_hit[(hit.attacker, target.id)] = now
        if defender.traits.defensive_screen or target.out:
            return
        chance = rolls.special_chance(hit.level, hit.aim_rounds)
        if not rolls.scores(hit.hit_roll, chance, hit.hit_chance):
            return
        roll = encounter.dice.roll(hit.attacker, "special", TYPE_DIE)
        modifiers = self._modifiers(encounter, host.profile(hit.attacker), defender, target, hit, hit_twice)
        modifiers.append(SpecialModifier(hit.weapon_type, self.weapons.named(hit.weapon_type).modifier))
        total = rolls.type_total(roll.total, (m.value for m in modifiers))
        if target.kind == "computer":
            self._computer(encounter, host, defender, target, roll, modifiers, total)
            return
        self._table_damage(encounter, host, hit, defender, target, chance, roll, modifiers, total)

    def _table_damage(
        self,
        encounter: Encounter,
        host: SpecialHost,
        hit: SpecialHit,
        defender: SpecialProfile,
        target: CombatantState,
        chance: int,
        roll: Roll,
        modifiers: list[SpecialModifier],
        total: int,
    ) -> None:
        robot = target.kind == "robot"
        table: Any = self.robots if robot else self.living
        row = table.row_for(total)
        effect = table.effect_of(row)
        stamina = Decimal(row.stamina)
        ruling = self._ruling(target)
        if ruling is not None:
            rolled_name, rolled_stamina = row.damage, stamina
            if ruling.replace_with is not None:
                row = next(r for r in table.rows if r.damage.casefold() == ruling.replace_with.casefold())
                effect = table.effect_of(row)
                stamina = Decimal(row.stamina)
            if ruling.stamina is not None:
                stamina = Decimal(ruling.stamina)
            encounter.emit(
                RefereeRuling(
                    target=target.id,
                    nth=ruling.nth,
                    rolled=rolled_name,
                    ruled=row.damage,
                    stamina_rolled=rolled_stamina,
                    stamina_ruled=stamina,
                    reason=ruling.reason,
                )
            )
        if robot:
            heals_as = row.repair
        else:
            heals_as = row.heals_as and healing_kind(
                row.heals_as,
                dralasite=defender.traits.race.casefold() == "dralasite",
                electrical=hit.electrical,
            )
        name = row.damage
        if defender.traits.race.casefold() == "vrusk" and "arm" in name.casefold():
            # S7: "A Vrusk with a damaged arm requires a 1d10 roll to find out which arm was hit".
            arm_roll = encounter.dice.roll(target.id, "vrusk-arm", TYPE_DIE)
            encounter.emit(
                CheckRolled(
                    combatant=target.id,
                    check="Vrusk arm (1-5 left)",
                    roll=arm_roll,
                    chance=Decimal(5),
                    under=arm_roll.total <= 5,
                )
            )
            side = vrusk_arm(arm_roll.total)
            name = f"{name} ({side} arms)"
        injury = _injury(name, effect, heals_as, row if robot else None) if effect is not None else None
        dead = bool(effect and effect.dead)
        encounter.emit(
            SpecialDamage(
                attacker=hit.attacker,
                target=target.id,
                weapon=hit.weapon,
                skill_level=hit.level,
                aim_rounds=hit.aim_rounds,
                chance=chance,
                hit_roll=hit.hit_roll,
                type_roll=roll,
                modifiers=tuple(modifiers),
                total=total,
                table="robot" if robot else "living",
                damage=row.damage,
                stamina=stamina,
                equipment=row.equipment,
                injury=injury,
                dead=dead,
                part=UNSET if hit.part is None else hit.part,
            )
        )
        if dead:
            host.put_out(encounter, target.id, f"special damage: {row.damage}")
            return
        if effect is not None:
            self._conditions(encounter, host, target, row.damage, effect)
        if row.equipment and not target.out:
            self._equipment(encounter, host, defender, target, row.equipment)
        host.after_damage(encounter, target.id)
        # An unconscious, stunned or deactivated last enemy ends the fight as well as one put out.
        host.check_end(encounter)

    def _ruling(self, target: CombatantState) -> Any:
        nth = target.special_hits + 1
        return next((r for r in self.rulings if r.target == target.id and r.nth == nth), None)

    def _modifiers(
        self,
        encounter: Encounter,
        attacker: SpecialProfile,
        defender: SpecialProfile,
        target: CombatantState,
        hit: SpecialHit,
        hit_twice: bool,
    ) -> list[SpecialModifier]:
        """Table 1 (S9), from what the encounter knows."""
        found: list[SpecialModifier] = []

        def add(reason: str, count: int = 1) -> None:
            value = self.modifiers.named(reason).contribution(count)
            if value:
                found.append(SpecialModifier(reason, value))

        if hit.range_modifier is not None:
            add(hit.range_modifier)
        if hit.aim_rounds:
            add("Careful aiming", hit.aim_rounds)
        now = int(encounter.now)
        if hit_twice:
            add("Target hit twice in same turn")
        if hit.level:
            add("Per skill level with weapon", hit.level)
        skill = {"robot": attacker.traits.robotics_skill, "computer": attacker.traits.computer_skill}.get(
            target.kind, 0
        )
        if skill:
            add("Per Robotics or Computer skill", skill)
        area = defender.size_m2
        if area < Decimal("0.25"):
            add("Tiny target")
        elif area < Decimal("0.5"):
            add("Small target")
        elif area > 4:
            add("Giant target")
        elif area > 1:
            add("Large target")
        attacker_state = encounter.state.combatants[hit.attacker]
        if any(any(velocity_now(c, now)) for c in (attacker_state, target)):
            add("Moving target")
        if defender.traits.suit_defense:
            add("Suit-type defense")
        if self.underwater:
            add("Target is underwater")
        if target.kind != "computer" and hit.target_aware and not target.incapacitated(now):
            rs = defender.reaction_speed
            check = encounter.dice.roll(target.id, "rs-check", PERCENT_DIE)
            encounter.emit(
                CheckRolled(
                    combatant=target.id,
                    check="RS check",
                    roll=check,
                    chance=Decimal(rs),
                    under=check.total <= rs,
                )
            )
            if check.total <= rs:
                reason = f"Target makes RS check ({check.total} <= RS {rs})"
                found.append(SpecialModifier(reason, self.modifiers.named("Target makes RS check").modifier))
        return found

    def _conditions(
        self,
        encounter: Encounter,
        host: SpecialHost,
        target: CombatantState,
        cause: str,
        effect: Effect,
    ) -> None:
        """Unconsciousness, stuns and deactivation (S4, S5) as timed conditions; a robot's explosion."""
        if effect.unconscious and effect.unconscious_unit:
            self._timed(
                encounter,
                target.id,
                "unconscious",
                cause,
                effect.unconscious_chance or 100,
                effect.unconscious,
                effect.unconscious_unit,
            )
        if effect.stun and effect.stun_unit:
            self._timed(
                encounter,
                target.id,
                "stunned",
                cause,
                effect.stun_chance or 100,
                effect.stun,
                effect.stun_unit,
            )
        if effect.deactivated:
            encounter.emit(ConditionStarted(combatant=target.id, condition="deactivated", cause=cause))
        elif effect.deactivation_chance:
            roll = encounter.dice.roll(target.id, "deactivation", PERCENT_DIE)
            if roll.total > effect.deactivation_chance:
                encounter.emit(
                    CheckRolled(
                        combatant=target.id,
                        check="deactivation",
                        roll=roll,
                        chance=Decimal(effect.deactivation_chance),
                        under=False,
                    )
                )
            else:
                encounter.emit(
                    ConditionStarted(
                        combatant=target.id,
                        condition="deactivated",
                        cause=cause,
                        chance=effect.deactivation_chance,
                        chance_roll=roll,
                    )
                )
        if effect.explosion is not None:
            self.explode(encounter, host, target.id, effect.explosion)

    def _timed(
        self,
        encounter: Encounter,
        combatant: str,
        condition: str,
        cause: str,
        chance: int,
        dice: str,
        unit: str,
    ) -> None:
        chance_roll = None
        if chance < 100:
            chance_roll = encounter.dice.roll(combatant, condition, PERCENT_DIE)
            if chance_roll.total > chance:
                encounter.emit(
                    CheckRolled(
                        combatant=combatant,
                        check=condition,
                        roll=chance_roll,
                        chance=Decimal(chance),
                        under=False,
                    )
                )
                return
        duration = encounter.dice.roll(combatant, f"{condition}-time", dice)
        until = int(encounter.now) + max(duration.total, 0) * UNIT_MS[unit]
        encounter.emit(
            ConditionStarted(
                combatant=combatant,
                condition=condition,  # type: ignore[arg-type]
                cause=cause,
                chance=chance if chance < 100 else None,
                chance_roll=chance_roll,
                duration=duration,
                until_ms=until,
            )
        )
        encounter.process(_condition_ends(encounter, combatant, condition, until))

    def _equipment(
        self,
        encounter: Encounter,
        host: SpecialHost,
        defender: SpecialProfile,
        target: CombatantState,
        units: int,
    ) -> None:
        """S3: one time in ten a weapon instead; else the pieces the victim's controller gives up (by default
        the last listed first), two units of a kind it has more than one of."""
        left = {e.name: e.count - target.lost.get(e.name, 0) for e in defender.traits.equipment}
        if not any(left.values()):
            return  # nothing to destroy: no roll for a weapon "instead of equipment"
        roll = encounter.dice.roll(target.id, "equipment", PERCENT_DIE)
        if rolls.weapon_instead(roll.total):
            names = [name for name in defender.weapons if name not in target.destroyed_weapons]
            if names:
                encounter.emit(EquipmentLost(combatant=target.id, weapon_roll=roll, weapon=names[-1]))
                return
        give_up = getattr(host.controllers.get(target.id), "give_up", last_listed_first)
        order = [name for name in give_up(tuple(left.items()), units) if name in left]
        order += [name for name in last_listed_first(tuple(left.items()), units) if name not in order]
        items: list[LostItem] = []
        for name in order:
            while units and left[name] > 0:
                lost = min(rolls.equipment_lost(1, left[name] > 1), left[name])
                left[name] -= lost
                units -= 1
                items.append(LostItem(name, lost))
        encounter.emit(EquipmentLost(combatant=target.id, weapon_roll=roll, items=_merged(items)))

    def _computer(
        self,
        encounter: Encounter,
        host: SpecialHost,
        defender: SpecialProfile,
        target: CombatantState,
        roll: Roll,
        modifiers: list[SpecialModifier],
        total: int,
    ) -> None:
        """S6: programs destroyed lowest level first; an intact security program's alarms; an explosion."""
        remaining = [p for p in defender.traits.programs if p.name not in target.programs_lost]
        count = rolls.programs_destroyed(total)
        order = sorted(range(len(remaining)), key=lambda i: remaining[i].level)
        gone = [remaining[i] for i in order[:count]]
        kept = [p for p in remaining if p not in gone]
        security = [p for p in kept if p.name.casefold() == SECURITY_PROGRAM]
        alarms = tuple(alarm for p in security for alarm in p.alarms) if gone else ()
        boom = rolls.explodes(count, len(remaining))
        encounter.emit(
            ProgramsDestroyed(
                computer=target.id,
                total=total,
                destroyed=tuple(p.name for p in gone),
                remaining=tuple(p.name for p in kept),
                alarms=alarms,
                explodes=boom,
                type_roll=roll,
                modifiers=tuple(modifiers),
            )
        )
        if boom:
            self.explode(encounter, host, target.id, rolls.COMPUTER_EXPLOSION)
            if not target.out:
                host.put_out(encounter, target.id, "exploded: more programs destroyed than it had")

    def explode(self, encounter: Encounter, host: SpecialHost, source: str, blast: Explosion) -> None:
        """S5/S6: the dice to everyone within the radius; a Reaction Speed check (AG) halves it (ruling)."""
        state = encounter.state
        centre = state.combatants[source].position
        roll = encounter.dice.roll(source, "explosion", blast.dice)
        hits = []
        for other in state.combatants.values():
            if other.id == source or other.out:
                continue
            gap = distance(centre, other.position)
            if gap > blast.radius_m:
                continue
            rs = host.profile(other.id).reaction_speed
            check = encounter.dice.roll(other.id, "rs-check", PERCENT_DIE)
            halved = check.total <= rs
            damage = Decimal(roll.total) / 2 if halved else Decimal(roll.total)
            hits.append(
                BlastHit(
                    combatant=other.id,
                    distance=gap,
                    rs_target=rs,
                    rs_roll=check,
                    halved=halved,
                    damage=damage,
                )
            )
        encounter.emit(Exploded(source=source, roll=roll, radius_m=blast.radius_m, hits=tuple(hits)))
        for hit in hits:
            host.after_damage(encounter, hit.combatant)


def last_listed_first(pieces: tuple[tuple[str, int], ...], units: int) -> list[str]:
    """The default pick (S3): the pieces listed last, taken to be the least valuable, go first."""
    return [name for name, left in reversed(pieces) if left > 0]


def _merged(items: list[LostItem]) -> tuple[LostItem, ...]:
    merged: dict[str, int] = {}
    for item in items:
        merged[item.name] = merged.get(item.name, 0) + item.units
    return tuple(LostItem(name, units) for name, units in merged.items())


def _condition_ends(
    encounter: Encounter, combatant: str, condition: str, until: int
) -> Generator[Any, Any, None]:
    yield encounter.timeout(until - int(encounter.now))
    state = encounter.state
    mine = state.combatants[combatant]
    current = mine.unconscious_until_ms if condition == "unconscious" else mine.stunned_until_ms
    if not state.ended and not mine.out and current == until:
        encounter.emit(ConditionEnded(combatant=combatant, condition=condition))  # type: ignore[arg-type]


def _injury(name: str, effect: Effect, heals_as: str | None, robot_row: Any = None) -> Injury:
    """The effect as the host applies it: metres per turn to metres per second (a 6 s turn)."""
    return Injury(
        name=name,
        to_hit=effect.to_hit or 0,
        movement=per_second(effect.movement or 0),
        movement_max=per_second(effect.movement_max) if effect.movement_max is not None else None,
        cannot_move=effect.cannot_move,
        skills=effect.skills or 0,
        int_log=effect.int_log or 0,
        dex_rs=effect.dex_rs or 0,
        carry_kg=effect.carry_kg or 0,
        no_rifles=effect.no_rifles,
        one_weapon_only=effect.one_weapon_only,
        no_melee=effect.no_melee,
        melee_damage=effect.melee_damage or 0,
        malfunction_chance=effect.malfunction_chance or 0,
        repair_penalty=effect.repair_penalty or 0,
        heals_as=heals_as,
        joints=robot_row.joints if robot_row is not None else 0,
        brain_casing_hit=bool(robot_row and robot_row.brain_casing_hit),
        brain_and_body_cracked=bool(robot_row and robot_row.brain_and_body_cracked),
    )
