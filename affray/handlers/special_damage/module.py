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

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from msgspec import UNSET

from affray.errors import first_named, printable
from affray.events.base import Roll
from affray.events.shared import CheckRolled
from affray.events.special_damage.kinds import (
    Injury,
    RefereeRuling,
    SpecialDamage,
    SpecialModifier,
)
from affray.events.special_damage.state import Carrier, Field
from affray.handlers.rulings import Ruling
from affray.handlers.special_damage.conditions import start_conditions
from affray.handlers.special_damage.host import SpecialHit, SpecialHost, SpecialProfile
from affray.handlers.special_damage.losses import lose_equipment, lose_programs
from affray.handlers.special_damage.scenario import SpecialDamageOptions, replacement
from affray.kernel.clock import MS_PER_SECOND
from affray.kernel.encounter import Encounter
from affray.rules.special_damage import rolls
from affray.rules.special_damage.movement import TURN_SECONDS, per_second
from affray.rules.special_damage.recovery import healing_kind, vrusk_arm
from affray.rules.special_damage.tables import (
    Effect,
    load_living,
    load_modifiers,
    load_robots,
    load_weapon_modifiers,
)

TYPE_DIE = "1d10"
PERCENT_DIE = "1d100"
TURN_MS = TURN_SECONDS * MS_PER_SECOND
SIZE_MODIFIERS = ((Decimal("0.25"), "Tiny target"), (Decimal("0.5"), "Small target"))
"""Table 1's small targets: under this many square metres (S9)."""
LARGE_MODIFIERS = ((Decimal(4), "Giant target"), (Decimal(1), "Large target"))
"""Table 1's large targets: over this many square metres (S9)."""


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

    def after_hit(self, encounter: Encounter[Any], host: SpecialHost, hit: SpecialHit) -> None:
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
        # The target's RS check, a modifier, is rolled and logged before the type roll it modifies.
        modifiers = self._modifiers(encounter, host.profile(hit.attacker), defender, target, hit, hit_twice)
        roll = encounter.dice.roll(hit.attacker, "special", TYPE_DIE)
        modifiers.append(SpecialModifier(hit.weapon_type, self.weapons.named(hit.weapon_type).modifier))
        total = rolls.type_total(roll.total, (m.value for m in modifiers))
        if target.special.body == "computer":
            lose_programs(encounter, host, defender, target, roll, modifiers, total)
            return
        self._table_damage(encounter, host, hit, defender, target, chance, roll, modifiers, total)

    def _table_damage(
        self,
        encounter: Encounter[Any],
        host: SpecialHost,
        hit: SpecialHit,
        defender: SpecialProfile,
        target: Carrier,
        chance: int,
        roll: Roll,
        modifiers: list[SpecialModifier],
        total: int,
    ) -> None:
        robot = target.special.body == "robot"
        table: Any = self.robots if robot else self.living
        row, effect, stamina = self._ruled_row(encounter, table, table.row_for(total), target)
        heals_as = row.repair if robot else _healing(row, defender, hit)
        name = _vrusk_arm(encounter, defender, target, row.damage)
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
            start_conditions(encounter, host, target, row.damage, effect)
        if row.equipment and not target.out:
            lose_equipment(encounter, host, defender, target, row.equipment)
        host.after_damage(encounter, target.id)
        # An unconscious, stunned or deactivated last enemy ends the fight as well as one put out.
        host.check_end(encounter)

    def _ruled_row(
        self, encounter: Encounter[Any], table: Any, row: Any, target: Carrier
    ) -> tuple[Any, Any, Decimal]:
        """The row rolled on the table, its effect and stamina, as a referee's ruling on this target's
        hit (S10) replaces them, which is recorded."""
        effect, stamina = table.effect_of(row), Decimal(row.stamina)
        ruling = self._ruling(target)
        if ruling is None:
            return row, effect, stamina
        rolled_name, rolled_stamina = row.damage, stamina
        if ruling.replace_with is not None:
            row = replacement(table.rows, ruling.replace_with)
            assert row is not None  # checked on loading
            effect, stamina = table.effect_of(row), Decimal(row.stamina)
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
        return row, effect, stamina

    def _ruling(self, target: Carrier) -> Ruling | None:
        number = ruling_on(self.rulings, target.id, target.special.hits + 1)
        return None if number is None else self.rulings[number]

    def unused(self, state: Field) -> str | None:
        """Rule S10: the rulings on special damage that never altered one, once the fight is over, each
        by its number in the scenario's rulings and why, in words for a warning (None when all were used).
        Another seed or a what-if may well not give a target its nth special damage: no error."""
        left = [
            f"$.rulings[{number}] ({why})"
            for number, ruling in enumerate(self.rulings)
            if ruling.target is not None and (why := self._why_unused(number, ruling, state))
        ]
        if not left:
            return None
        verb = "was" if len(left) == 1 else "were"
        return f"{len(left)} of the rulings on special damage (S10) {verb} never used: {first_named(left, 5)}"

    def _why_unused(self, number: int, ruling: Ruling, state: Field) -> str:
        """Why ruling ``number`` (special damage's) altered no special damage, or "" when it did one."""
        assert ruling.target is not None
        target = printable(ruling.target)
        carrier: Carrier | None = state.combatants.get(ruling.target)
        if carrier is None:
            return f"{target} never joined the fight"
        if carrier.special.body == "computer":
            return f"{target} is a computer: its special damage destroys programs and reads no table"
        hits = carrier.special.hits
        if hits == 0:
            return f"{target} never took special damage"
        if hits < ruling.nth:
            return f"nth = {ruling.nth}, but {target} took special damage only {_times(hits)}"
        first = ruling_on(self.rulings, ruling.target, ruling.nth)
        return f"$.rulings[{first}] ruled on the same special damage" if first != number else ""

    def _modifiers(
        self,
        encounter: Encounter[Any],
        attacker: SpecialProfile,
        defender: SpecialProfile,
        target: Carrier,
        hit: SpecialHit,
        hit_twice: bool,
    ) -> list[SpecialModifier]:
        """Table 1 (S9), from what the encounter knows; the target's RS check last."""
        modifiers: list[SpecialModifier] = []
        for reason, count in self._situation(encounter, attacker, defender, target, hit, hit_twice):
            row = self.modifiers.named(reason)
            value = row.contribution(count) if row.applies(target.special.body) else 0
            if value:
                modifiers.append(SpecialModifier(reason, value))
        now = int(encounter.now)
        if target.special.body != "computer" and hit.target_aware and not target.incapacitated(now):
            made = self._rs_check(encounter, target.id, defender.reaction_speed)
            if made is not None:
                modifiers.append(made)
        return modifiers

    def _situation(
        self,
        encounter: Encounter[Any],
        attacker: SpecialProfile,
        defender: SpecialProfile,
        target: Carrier,
        hit: SpecialHit,
        hit_twice: bool,
    ) -> list[tuple[str, int]]:
        """The Table 1 rows that apply to this hit, each with how many times (S9)."""
        rows = _hit_rows(hit, hit_twice)
        traits = attacker.traits
        skill = {"robot": traits.robotics_skill, "computer": traits.computer_skill}.get(
            target.special.body, 0
        )
        if skill:
            rows.append(("Per Robotics or Computer skill", skill))
        size = _size_row(defender.size_m2)
        if size is not None:
            rows.append((size, 1))
        now = int(encounter.now)
        if any(any(c.velocity_at(now)) for c in (encounter.state.combatants[hit.attacker], target)):
            rows.append(("Moving target", 1))
        if defender.traits.suit_defense:
            rows.append(("Suit-type defense", 1))
        if self.underwater:
            rows.append(("Target is underwater", 1))
        return rows

    def _rs_check(self, encounter: Encounter[Any], target: str, rs: int) -> SpecialModifier | None:
        """The target's Reaction Speed check (Table 1): made, it lowers the roll."""
        check = encounter.dice.roll(
            target, "rs-check", PERCENT_DIE, need=lambda: f"{target}'s RS check: {rs} or under (S9)"
        )
        encounter.emit(
            CheckRolled(
                combatant=target, check="RS check", roll=check, chance=Decimal(rs), under=check.total <= rs
            )
        )
        if check.total > rs:
            return None
        reason = f"Target makes RS check ({check.total} <= RS {rs})"
        return SpecialModifier(reason, self.modifiers.named("Target makes RS check").modifier)


def ruling_on(rulings: Sequence[Ruling], target: str, nth: int) -> int | None:
    """Rule S10: the number (in the scenario's rulings) of the ruling on ``target``'s ``nth`` special
    damage: the first that names both, if any (a later one on the same damage is never used)."""
    return next((n for n, r in enumerate(rulings) if r.target == target and r.nth == nth), None)


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def malfunction(encounter: Encounter[Any], combatant: Carrier) -> str:
    """Rule S5: a damaged robot's systems may fail it, action by action. The check is rolled (and kept in
    the log) when its injuries give a chance; the reason the action fails, or ""."""
    chance = combatant.special.malfunction_chance()
    if not chance:
        return ""
    check = encounter.dice.roll(
        combatant.id,
        "malfunction",
        PERCENT_DIE,
        need=lambda: f"{combatant.id}'s systems: {chance} or under and they fail (S5)",
    )
    failed = check.total <= chance
    encounter.emit(
        CheckRolled(
            combatant=combatant.id, check="malfunction", roll=check, chance=Decimal(chance), under=failed
        )
    )
    return f"malfunction: {check.total} within {chance}%" if failed else ""


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


def _hit_rows(hit: SpecialHit, hit_twice: bool) -> list[tuple[str, int]]:
    """The Table 1 rows the hit itself brings (S9): its range, careful aiming, a second hit this turn and
    the attacker's skill level with the weapon, each with how many times."""
    rows: list[tuple[str, int]] = []
    if hit.range_modifier is not None:
        rows.append((hit.range_modifier, 1))
    if hit.aim_rounds:
        rows.append(("Careful aiming", hit.aim_rounds))
    if hit_twice:
        rows.append(("Target hit twice in same turn", 1))
    if hit.level:
        rows.append(("Per skill level with weapon", hit.level))
    return rows


def _size_row(area: Decimal) -> str | None:
    """The Table 1 row of a target's size (S9), if its area is small or large enough to have one."""
    small = next((row for limit, row in SIZE_MODIFIERS if area < limit), None)
    return small or next((row for limit, row in LARGE_MODIFIERS if area > limit), None)


def _healing(row: Any, defender: SpecialProfile, hit: SpecialHit) -> str | None:
    """How a living being's injury heals (S7): the row's kind, as a Dralasite's or an electrical
    weapon's changes it."""
    return row.heals_as and healing_kind(
        row.heals_as, dralasite=defender.traits.race.casefold() == "dralasite", electrical=hit.electrical
    )


def _vrusk_arm(encounter: Encounter[Any], defender: SpecialProfile, target: Carrier, name: str) -> str:
    """S7: "A Vrusk with a damaged arm requires a 1d10 roll to find out which arm was hit"; the injury's
    name says which (any other's is as the table names it)."""
    if defender.traits.race.casefold() != "vrusk" or "arm" not in name.casefold():
        return name
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
    return f"{name} ({vrusk_arm(arm_roll.total)} arms)"
