"""Step 4 of an attack (rules F1, F8): percent to hit by the scenario's procedure, and where a hit lands;
then what it does (:mod:`.wounds`), and the special_damage module's roll when it rides along."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from affray.events.base import Roll
from affray.events.fivestep.kinds import AdversityApplied, ToHitResolved
from affray.events.fivestep.state import FivestepCombatant
from affray.handlers.fivestep.fighters import Arm, Fighter
from affray.handlers.fivestep.grenades import throw
from affray.handlers.fivestep.host import Arena, FivestepHost
from affray.handlers.fivestep.scenario import Weapon
from affray.handlers.fivestep.wounds import alert, hurt
from affray.handlers.special_damage.host import SpecialHit
from affray.kernel.referee import RulingTerms
from affray.kernel.space import distance
from affray.rules.fivestep.dice import D100
from affray.rules.fivestep.hitting import (
    Adversity,
    ToHit,
    brawlmanship,
    marksmanship,
    percent_to_hit_1,
    percent_to_hit_2,
    percent_to_hit_3,
    random_hit_location,
    roll_needed,
)
from affray.rules.fivestep.usertables import require

DEFAULT_SPECIAL_TYPES = {"hand_to_hand": "Short melee", "grenade": "Grenade"}
"""Table 2 weapon types (S9) for weapons that name none; weaponry must name its own."""


def special_type(weapon: Weapon) -> str | None:
    """The weapon's Table 2 type for the special_damage module: its own, or its kind of combat's default."""
    return weapon.special_type or DEFAULT_SPECIAL_TYPES.get(weapon.combat)


def strike(
    encounter: Arena, battle: FivestepHost, fighter: Fighter, arm: Arm, target_id: str, round_start: int
) -> None:
    """One attack on ``target_id``: a thrown grenade (F9), or percent to hit (F8) and damage (F10-F12).
    ``round_start`` is when this round (and the attacker's turn) began."""
    state = encounter.state
    live, target = state.combatants[fighter.id], state.combatants[target_id]
    if arm.spec.combat == "grenade":
        throw(encounter, battle, fighter, arm, target)
        return
    combat: Literal["hand_to_hand", "weaponry"] = arm.spec.combat
    range_m = distance(live.position, target.position)
    skill_name, attribute, skill = _skill(fighter, arm, combat)
    injury = live.special.to_hit()
    modifiers = battle.referee.due(encounter, fighter.id, "modifier")
    ruled_modifier = sum(ruling.modifier or 0 for _, ruling in modifiers)
    skill += injury + ruled_modifier
    procedure = battle.procedures.to_hit
    adversity = _adversity(battle, live, target, round_start) if procedure == 3 else ()
    conditions = [Adversity(table=a.table, condition=a.condition) for a in adversity]  # type: ignore[arg-type]
    judge = _Judge(battle, skill, conditions, combat, range_m)
    result, roll = _rolled(encounter, fighter, target, arm, judge)
    misses = battle.referee.due(encounter, fighter.id, "outcome")
    lands = result.hit and not misses
    part, part_roll = _where(encounter, battle, fighter, target, result) if lands else (None, None)
    encounter.emit(
        ToHitResolved(
            attacker=fighter.id,
            target=target.id,
            weapon=arm.spec.name,
            procedure=procedure,
            combat=combat,
            range_m=range_m,
            skill_name=skill_name,
            attribute=attribute,
            difficulty=arm.spec.difficulty,
            skill=skill,
            injury=injury,
            outcome="miss" if misses else result.outcome,
            percent_to_hit=result.percent_to_hit,
            adversity=adversity,
            modifier_sum=result.modifier_sum,
            percent_against=result.percent_against,
            chance=result.result,
            roll=roll,
            under=result.under,
            part=part,
            part_roll=part_roll,
            ruled_modifier=ruled_modifier,
            ruled_miss=bool(misses),
        )
    )
    _record_rulings(encounter, battle, fighter.id, modifiers, misses)
    alert(encounter, battle, target)
    if part is None:
        return
    hurt(encounter, battle, fighter, arm, target, part, range_m, result)
    battle.after_damage(encounter, target.id)
    if battle.special is not None and roll is not None and result.result is not None and not target.out:
        _special(encounter, battle, fighter, arm, target, skill, (roll.total, result.result, part))


def _record_rulings(
    encounter: Arena,
    battle: FivestepHost,
    attacker: str,
    modifiers: list[tuple[int, RulingTerms]],
    misses: list[tuple[int, RulingTerms]],
) -> None:
    """Each referee's ruling that took effect on the attack, recorded after it."""
    for number, ruling in modifiers:
        battle.referee.record(encounter, number, attacker, f"{ruling.modifier:+d} to skill")
    for number, _ in misses:
        battle.referee.record(encounter, number, attacker, "the attack is a miss")


def _skill(
    fighter: Fighter, arm: Arm, combat: Literal["hand_to_hand", "weaponry"]
) -> tuple[Literal["MARKS", "BRAWL"], int, Decimal]:
    """Rule F8: the skill an attack is made with, the attribute it comes from, and its value with the
    weapon's difficulty: MARKS from AIM for weaponry, BRAWL for hand to hand."""
    if combat == "weaponry":
        return "MARKS", fighter.spec.aim, marksmanship(fighter.spec.aim, arm.spec.difficulty)
    return "BRAWL", fighter.spec.brawl, brawlmanship(fighter.spec.brawl, arm.spec.difficulty)


class _Judge:
    """Rule F8: what a d100 face makes of an attack, by the scenario's to-hit procedure."""

    def __init__(
        self,
        battle: FivestepHost,
        skill: Decimal,
        conditions: list[Adversity],
        combat: Literal["hand_to_hand", "weaponry"],
        range_m: Decimal,
    ) -> None:
        self.battle, self.skill, self.conditions = battle, skill, conditions
        self.combat, self.range_m = combat, range_m

    def __call__(self, face: int) -> ToHit:
        """The attack's result had the d100 come up ``face``."""
        battle, options = self.battle, self.battle.options
        procedure = battle.procedures.to_hit
        if procedure == 1:
            return percent_to_hit_1(
                self.skill, face, kind=self.combat, range_m=self.range_m, at_or_under=options.at_or_under
            )
        if procedure == 2:
            return percent_to_hit_2(
                battle.tables.user,
                self.skill,
                face,
                kind=self.combat,
                range_m=self.range_m,
                at_or_under=options.at_or_under,
            )
        return percent_to_hit_3(
            battle.tables.user,
            self.skill,
            self.conditions,
            face,
            kind=self.combat,
            range_m=self.range_m,
            over_misses=options.over_misses,
        )


def _rolled(
    encounter: Arena, fighter: Fighter, target: FivestepCombatant, arm: Arm, judge: _Judge
) -> tuple[ToHit, Roll | None]:
    """The attack's result and the d100 rolled for it. Only an attack the rules settle by the d100 rolls
    it: out of reach, off the table or hopeless, none."""
    result = judge(1)
    if result.roll is None:
        return result, None
    options = judge.battle.options

    def need() -> str:
        wanted = roll_needed(result, at_or_under=options.at_or_under, over_misses=options.over_misses)
        return f"{fighter.id} attacks {target.id} with {arm.spec.name}: {wanted}"

    roll = encounter.dice.roll(fighter.id, "to hit", str(D100), need=need)
    return judge(roll.total), roll


def _special(
    encounter: Arena,
    battle: FivestepHost,
    fighter: Fighter,
    arm: Arm,
    target: FivestepCombatant,
    skill: Decimal,
    hit: tuple[int, Decimal, str],
) -> None:
    """The special_damage module's chance at a hit that landed (``hit``: its roll, its result and the
    part it struck), at the attacker's skill level with the weapon."""
    assert battle.special is not None
    roll, result, part = hit
    battle.special.after_hit(
        encounter,
        battle,
        SpecialHit(
            attacker=fighter.id,
            target=target.id,
            weapon=arm.spec.name,
            weapon_type=special_type(arm.spec) or "",
            electrical=arm.spec.electrical,
            level=max(int(skill), 0) // battle.scenario.special_damage.level_divisor,
            hit_roll=roll,
            hit_chance=result,
            part=part,
            target_aware=_aware(encounter, target),
        ),
    )


def _aware(encounter: Arena, target: FivestepCombatant) -> bool:
    """Whether the target knows it is in a fight: not while another side has surprise over it (F5)."""
    rounds = encounter.state.rounds
    return rounds.surprise is None or target.side in rounds.acting


def _adversity(
    battle: FivestepHost, live: FivestepCombatant, target: FivestepCombatant, round_start: int
) -> tuple[AdversityApplied, ...]:
    """Rule F8 (procedure 3b): the scenario's standing conditions, and movement in this round (the
    attacker's turn began with it; a move ending at its first instant was the last round's)."""
    settings = battle.scenario.adversity
    chosen = list(settings.always)
    if settings.attacker_moved and live.moved_ms is not None and live.moved_ms > round_start:
        chosen.append(settings.attacker_moved)
    if settings.target_moved and target.moved_ms is not None and target.moved_ms > round_start:
        chosen.append(settings.target_moved)
    applied = []
    for condition in chosen:
        row = require(battle.tables.user, condition.table, "procedure 3 to hit").named(condition.condition)
        applied.append(
            AdversityApplied(table=condition.table, condition=row.condition, modifier=row.modifier)
        )
    return tuple(applied)


def _where(
    encounter: Arena, battle: FivestepHost, fighter: Fighter, target: FivestepCombatant, result: ToHit
) -> tuple[str, Roll | None]:
    """Rule F8: a direct hit lands on the part aimed at; a random one where Table 3-3.4 says. Procedures 1
    and 2 follow ``options.locate_hits``."""
    random = result.outcome == "random" or (
        result.outcome == "hit" and battle.options.locate_hits == "random"
    )
    if random:
        roll = encounter.dice.roll(fighter.id, "hit location", str(D100))
        return random_hit_location(battle.tables.user, roll.total), roll
    return aimed_part(battle, fighter, target), None


def aimed_part(battle: FivestepHost, fighter: Fighter, target: FivestepCombatant) -> str:
    """The part the attacker aims at if the target has one of that name, else the target's first vital
    part."""
    victim = battle.fighters[target.id]
    wanted = victim.part(fighter.spec.aim_at) if fighter.spec.aim_at else None
    return (wanted or victim.first_vital()).name
