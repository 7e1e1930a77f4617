"""Explain the Energion events (``affray explain``): each outcome as its rules work it out, step by step.

An attack is laid out as E4 (hit chance, with E8 and E16-E19 for a shot), E9 and E5 (armor and shield),
E6 (roll and quality), E5 (the parry), E7 (damage) and E20 (location); the other kinds by their rolls
and fields under their rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from affray.events.base import Event
from affray.events.energion.kinds import (
    AimStarted,
    AttackResolved,
    CombatantJoined,
    GrappleResolved,
    HitDerivation,
    HoldDamage,
    HoldEscapeRolled,
    LocationDisabled,
    Perceived,
    RangedDerivation,
    Reacted,
    SpellCast,
    SpellInterrupted,
    SpellStarted,
    StoodUp,
    TargetChosen,
    Waited,
    WeaponChanged,
    WeaponReadied,
)
from affray.events.energion.state import EnergionState
from affray.kernel.clock import seconds
from affray.kernel.explanation import Because, Explainer, Explanation, History, Step, by_rule, roll_step
from affray.replays.telling import number, signed

CHARTS = "affray/rules/energion/data"
"""Where the charts an explanation cites are kept."""


def _chance(h: HitDerivation) -> Step:
    """Rule E4: Skill% plus the melee or mechanical bonus (E12 proficiency, E13 martial arts, injuries)."""
    parts = [f"skill {number(h.skill)}"]
    if h.proficiency:
        parts.append(f"proficiency {signed(Decimal(h.proficiency))} (E12)")
    if h.martial_bonus:
        parts.append(f"martial arts {signed(h.martial_bonus)} (E13)")
    parts.append(f"{h.bonus_kind} bonus {signed(h.bonus)}")
    how = " + ".join(parts)
    if h.injury_penalty:
        how += f" - injuries {h.injury_penalty} (S3)"
    if h.ruled_modifier:
        how += f" {signed(Decimal(h.ruled_modifier))} (the referee's ruling)"
    chance = h.ranged.chance_before if h.ranged is not None else h.hit_chance
    return Step(what="hit chance", value=f"{number(chance)}%", how=how, rule="E4")


def _shot(r: RangedDerivation, h: HitDerivation) -> list[Step]:
    """Rules E8 and E16-E19: the range band's factor, then what size, speed and aim take off or add."""
    steps = [
        Step(
            what="range band",
            value=f"x{number(r.range_factor)}",
            how=f"{r.band} at {number(r.distance)} m",
            rule="E8",
            source=f"weapon chart, range bands ({CHARTS}/weapons.toml)",
        )
    ]
    if r.size_penalty:
        how = f"{number(r.visible_area)} m2 visible of {number(r.target_area)}, cover {r.cover}%"
        steps.append(Step(what="target size", value=f"-{number(r.size_penalty)}", how=how, rule="E16, E18"))
    if r.speed_penalty:
        how = f"relative speed {number(r.relative_speed)} m/s" + (", maneuvering" if r.maneuvering else "")
        steps.append(Step(what="relative speed", value=f"-{number(r.speed_penalty)}", how=how, rule="E19"))
    if r.aim_bonus:
        steps.append(
            Step(what="aim", value=f"+{number(r.aim_bonus)}", how=f"aimed {seconds(r.aim_ms)} s", rule="E17")
        )
    if r.unaimed_penalty:
        how = f"aimed {seconds(r.aim_ms)} of the {seconds(r.gap_ms)} s gap"
        steps.append(Step(what="unaimed", value=f"-{number(r.unaimed_penalty)}", how=how, rule="E17"))
    arithmetic = f"{number(r.chance_before)} x {number(r.range_factor)}"
    arithmetic += f" - {number(r.size_penalty)}" if r.size_penalty else ""
    arithmetic += f" - {number(r.speed_penalty)}" if r.speed_penalty else ""
    arithmetic += f" + {number(r.aim_bonus)}" if r.aim_bonus else ""
    arithmetic += f" - {number(r.unaimed_penalty)}" if r.unaimed_penalty else ""
    steps.append(
        Step(what="shot's hit chance", value=f"{number(h.hit_chance)}%", how=arithmetic, rule="E8, E16-E19")
    )
    return steps


def _armor(h: HitDerivation) -> list[Step]:
    """Rules E9, E20 and E5: the armor chart's value for the weapon type, plus a shield's parry plus."""
    where = f" at the {h.location}" if h.location else ""
    steps = []
    if h.location_roll is not None:
        steps.append(roll_step("hit location roll", h.location_roll, "E20"))
    steps.append(
        Step(
            what="armor value",
            value=number(h.armor_value),
            how=f"{h.armor}{where} against weapon type {h.weapon_type}",
            rule="E9",
            source=f"armor chart, row {h.armor}, type {h.weapon_type} ({CHARTS}/armor.toml)",
        )
    )
    if h.shield_bonus:
        steps.append(
            Step(
                what="shield",
                value=f"+{h.shield_bonus}",
                rule="E5",
                source=f"shield chart ({CHARTS}/shields.toml)",
            )
        )
    return steps


def _quality(e: AttackResolved) -> list[Step]:
    """Rule E6: HitQuality = hit chance - armor value - roll; the parry (E5) may stop a hit."""
    h = e.hit
    armor = h.armor_value + h.shield_bonus
    steps = [
        roll_step("hit roll", h.roll, "E6"),
        Step(
            what="hit quality",
            value=number(h.quality),
            how=f"{number(h.hit_chance)} - {armor} - {h.roll.total}",
            rule="E6",
        ),
    ]
    if e.parry is not None:
        p = e.parry
        steps.append(roll_step(f"parry roll ({p.device})", p.roll, "E5"))
        verdict = "parried" if p.parried else "fails"
        sign = "<=" if p.parried else ">"
        steps.append(
            Step(what="parry", value=verdict, how=f"{p.roll.total} {sign} {number(p.chance)}%", rule="E5")
        )
    return steps


def _damage(e: AttackResolved, s: EnergionState) -> list[Step]:
    """Rule E7: D = base + ST bonus + weapon bonus + skill bonus; DMG = TRUNC((Q + 10) / 10) / 10 x D."""
    d = e.damage
    if d is None:
        if e.hit.ruled_miss:
            return [Step(what="outcome", value=e.outcome, how="the referee's ruling, whatever the rolls")]
        why = "quality not above 0" if e.hit.quality <= 0 else "parried"
        return [Step(what="outcome", value=e.outcome, how=why, rule="E6")]
    potential = f"{d.base} + {number(d.strength_bonus)} + {number(d.weapon_bonus)} + {number(d.skill_bonus)}"
    steps = [
        Step(
            what="damage potential",
            value=number(d.potential),
            how=f"base + ST/20 + weapon + skill = {potential}",
            rule="E7",
            source=f"weapon chart, row {e.weapon} ({CHARTS}/weapons.toml)",
        ),
        Step(
            what="multiplier",
            value=f"x{number(d.multiplier)}",
            how=f"TRUNC(({number(e.hit.quality)} + 10) / 10) / 10",
            rule="E7",
        ),
    ]
    range_factor = f" x {number(d.range_factor)} (range, E8)" if d.range_factor else ""
    rolled = d.damage - (d.ruled_points or 0)
    steps.append(
        Step(
            what="damage",
            value=number(d.full_damage if d.full_damage is not None else rolled),
            how=f"{number(d.multiplier)} x {number(d.potential)}{range_factor}",
            rule="E7",
        )
    )
    if d.ruled_points is not None:
        steps.append(
            Step(
                what="damage dealt",
                value=number(d.damage),
                how=f"{number(rolled)} {signed(d.ruled_points)} (the referee's ruling)",
            )
        )
    target = s.combatants[e.target]
    steps.append(
        Step(what=f"{e.target} left", value=f"{number(target.damage_left)}/{number(target.damage_points)} DP")
    )
    return steps


def _attack(e: AttackResolved, s: EnergionState, history: History) -> Explanation:
    h = e.hit
    steps = [_chance(h)]
    if h.ranged is not None:
        steps += _shot(h.ranged, h)
    steps += _armor(h) + _quality(e) + _damage(e, s)
    return Explanation(steps=steps, depends_on=_attack_depends(e, history))


def _attack_depends(e: AttackResolved, history: History) -> list[Because]:
    """The events an attack rests on: the weapon readied or changed to, the target chosen, the aim begun
    (a shot), the hold it is in, the special damage whose penalties it carries."""
    wanted: list[tuple[str, str, str]] = [
        ("weapon_readied", e.attacker, f"{e.attacker} readied a weapon (its initiative and speed, E2, E3)"),
        ("weapon_changed", e.attacker, f"{e.attacker} changed weapons (E3)"),
        ("target_chosen", e.attacker, f"{e.attacker} chose its target"),
    ]
    if e.hit.ranged is not None:
        wanted.append(("aim_started", e.attacker, f"{e.attacker} began to aim (E17)"))
    if e.hit.injury_penalty:
        wanted.append(("special_damage", e.attacker, f"{e.attacker}'s injury and its penalties (S3)"))
    found = [(history.latest(kind, who), why) for kind, who, why in wanted]
    return sorted((Because(event.seq, why) for event, why in found if event is not None), key=lambda b: b.seq)


EXPLAINERS: Mapping[type[Event], Explainer] = {
    AttackResolved: _attack,
    CombatantJoined: by_rule("E1"),
    Perceived: by_rule("E1"),
    Reacted: by_rule("E1"),
    WeaponReadied: by_rule("E2, E3"),
    WeaponChanged: by_rule("E3"),
    TargetChosen: by_rule("E1"),
    Waited: by_rule("E1"),
    AimStarted: by_rule("E17"),
    SpellStarted: by_rule("E23"),
    SpellCast: by_rule("E23"),
    SpellInterrupted: by_rule("E23"),
    GrappleResolved: by_rule("E15"),
    HoldEscapeRolled: by_rule("E15"),
    HoldDamage: by_rule("E15"),
    StoodUp: by_rule("E15"),
    LocationDisabled: by_rule("E20, E22"),
}
"""The explainer of each Energion kind."""
