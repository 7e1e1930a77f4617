"""Explain the Energion events (``affray explain``): each outcome as its rules work it out, step by step.

An attack is laid out as E4 (hit chance, with E8 and E16-E19 for a shot), E9 and E5 (armor and shield),
E6 (roll and quality), E5 (the parry), E7 (damage) and E20 (location); the other kinds by their rolls
and fields under their rules.
"""

from __future__ import annotations

from collections.abc import Mapping

from affray.events.base import Event
from affray.events.energion.kinds import (
    INJURIES,
    AimStarted,
    AttackResolved,
    AvoidanceRoll,
    CombatantJoined,
    GrappleResolved,
    HitDerivation,
    HoldDamageDealt,
    HoldEscapeRolled,
    IntentChosen,
    LocationDisabled,
    Modifier,
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
    """Rule E4: Skill% plus the melee or mechanical bonus, plus each modifier the hit lists (E12
    proficiency, E13 martial arts, S4 and S5 injuries, a referee's ruling)."""
    how = f"skill {number(h.skill)} + {h.bonus_kind} bonus {signed(h.bonus)}" + modified(h.modifiers)
    chance = h.ranged.chance_before if h.ranged is not None else h.hit_chance
    return Step(what="hit chance", value=f"{number(chance)}%", how=how, rule="E4")


def modified(modifiers: tuple[Modifier, ...]) -> str:
    """Each modifier, signed and cited: `` + proficiency +5 (E12) + injuries -9 (S4, S5)``."""
    return "".join(f" + {m.name} {signed(m.value)} ({m.rule})" for m in modifiers)


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


def _quality(event: AttackResolved) -> list[Step]:
    """Rule E6: HitQuality = hit chance - armor value - roll; the parry (E5) may stop a hit."""
    h = event.hit
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
    if event.parry is not None:
        p = event.parry
        steps.append(roll_step(f"parry roll ({p.device})", p.roll, "E5"))
        verdict = "parried" if p.parried else "fails"
        sign = "<=" if p.parried else ">"
        steps.append(
            Step(what="parry", value=verdict, how=f"{p.roll.total} {sign} {number(p.chance)}%", rule="E5")
        )
    return steps


def _damage(event: AttackResolved, state: EnergionState) -> list[Step]:
    """Rule E7: D = base + ST bonus + weapon bonus + skill bonus; DMG = TRUNC((Q + 10) / 10) / 10 x D."""
    d = event.damage
    if d is None:
        if event.hit.ruled_miss:
            return [Step(what="outcome", value=event.outcome, how="the referee's ruling, whatever the rolls")]
        why = "quality not above 0" if event.hit.quality <= 0 else "parried"
        return [Step(what="outcome", value=event.outcome, how=why, rule="E6")]
    potential = f"{d.base} + {number(d.strength_bonus)} + {number(d.weapon_bonus)} + {number(d.skill_bonus)}"
    steps = [
        Step(
            what="damage potential",
            value=number(d.potential),
            how=f"base + ST/20 + weapon + skill = {potential}",
            rule="E7",
            source=f"weapon chart, row {event.weapon} ({CHARTS}/weapons.toml)",
        ),
        Step(
            what="multiplier",
            value=f"x{number(d.multiplier)}",
            how=f"TRUNC(({number(event.hit.quality)} + 10) / 10) / 10",
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
    steps.append(_left(state, event.target))
    return steps


def _attack(event: AttackResolved, state: EnergionState, history: History) -> Explanation:
    h = event.hit
    steps = [_chance(h)]
    if h.ranged is not None:
        steps += _shot(h.ranged, h)
    steps += _armor(h) + _quality(event) + _damage(event, state)
    return Explanation(steps=steps, depends_on=_attack_depends(event, history))


def _attack_depends(attack: AttackResolved, history: History) -> list[Because]:
    """The events an attack rests on: the weapon readied or changed to, the target chosen, the aim begun
    (a shot), the hold it is in, the special damage whose penalties it carries."""
    wanted: list[tuple[str, str, str]] = [
        (
            "weapon_readied",
            attack.attacker,
            f"{attack.attacker} readied a weapon (its initiative and speed, E2, E3)",
        ),
        ("weapon_changed", attack.attacker, f"{attack.attacker} changed weapons (E3)"),
        ("target_chosen", attack.attacker, f"{attack.attacker} chose its target"),
    ]
    if attack.hit.ranged is not None:
        wanted.append(("aim_started", attack.attacker, f"{attack.attacker} began to aim (E17)"))
    rests_on = [(history.latest(kind, who), why) for kind, who, why in wanted]
    if any(m.name == INJURIES for m in attack.hit.modifiers):
        injury = history.latest_as("special_damage", "target", attack.attacker)
        rests_on.append((injury, f"{attack.attacker}'s injury and its penalties (S3)"))
    return sorted(
        (Because(earlier.seq, why) for earlier, why in rests_on if earlier is not None), key=lambda b: b.seq
    )


def _left(state: EnergionState, who: str) -> Step:
    """What ``who`` has left after the event."""
    c = state.combatants[who]
    return Step(what=f"{who} left", value=f"{number(c.damage_left)}/{number(c.damage_points)} DP")


def _avoidance_steps(a: AvoidanceRoll, rule: str = "E15") -> list[Step]:
    """Rule E15: an avoidance roll at or under its number (half AG, AG, or the parry) avoids."""
    basis = {"half_ag": "half AG", "ag": "AG", "parry_roll": "the parry %"}[a.basis]
    sign = "<=" if a.avoided else ">"
    return [
        Step(what="avoidance number", value=number(a.target_number), how=basis, rule=rule),
        roll_step("avoidance roll", a.roll, rule),
        Step(
            what="avoidance",
            value="avoided" if a.avoided else "fails",
            how=f"{a.roll.total} {sign} {number(a.target_number)}",
            rule=rule,
        ),
    ]


def _grapple(event: GrappleResolved, state: EnergionState, history: History) -> Explanation:
    """Rule E15: the procedure's attack (E4 chance less the armor it meets, E6 quality), the avoidance,
    and what a landed procedure does."""
    armor = "normal armor (E9)" if event.armor == "normal" else "AG/luck armor"
    steps = [
        Step(
            what="procedure",
            value=event.procedure,
            rule="E15",
            source=f"grappling chart, row {event.procedure} ({CHARTS}/grappling.toml)",
        ),
        Step(
            what="hit chance",
            value=f"{number(event.hit_chance)}%",
            how=_grapple_chance(event),
            rule="E4, E15",
        ),
        Step(what="armor", value=number(event.armor_value), how=armor, rule="E15"),
        roll_step("attack roll", event.roll, "E6"),
        Step(
            what="quality",
            value=number(event.quality),
            how=f"{number(event.hit_chance)} - {number(event.armor_value)} - {event.roll.total}",
            rule="E6, E15",
        ),
    ]
    if event.avoidance is not None:
        steps += _avoidance_steps(event.avoidance)
    steps.append(Step(what="outcome", value=event.outcome, how=", ".join(event.effects), rule="E15"))
    if event.damage_roll is not None:
        steps.append(roll_step("damage roll", event.damage_roll, "E15"))
    if event.outcome == "landed":
        how = "the procedure's printed damage at this quality (ruling 44)"
        steps += [
            Step(what="damage", value=number(event.damage), how=how, rule="E15"),
            _left(state, event.target),
        ]
    chosen = history.latest("target_chosen", event.attacker)
    depends = [Because(chosen.seq, f"{event.attacker} chose its target")] if chosen is not None else []
    return Explanation(steps=steps, depends_on=depends)


def _grapple_chance(event: GrappleResolved) -> str:
    """How a procedure's chance is made: skill and melee bonus, less the attacker's injuries (S4, S5)."""
    return "skill + melee bonus" + modified(event.modifiers)


def _escape(event: HoldEscapeRolled, state: EnergionState, history: History) -> Explanation:
    """Rule E15: a held combatant's avoidance roll for the second; success breaks the hold."""
    hold = history.latest("grapple_resolved", event.combatant)
    depends = [Because(hold.seq, f"{event.holder}'s {event.procedure} took hold")] if hold is not None else []
    return Explanation(steps=_avoidance_steps(event.avoidance), depends_on=depends)


def _spell_started(event: SpellStarted, state: EnergionState, history: History) -> Explanation:
    """Rule E23: preparation (battle initiative, rolled or given), one second of initiation, the casting."""
    preparation = (
        roll_step("preparation roll (seconds)", event.roll, "E23")
        if event.roll is not None
        else Step(
            what="preparation", value=f"{seconds(event.preparation_ms)} s", how="the scenario's", rule="E23"
        )
    )
    total = event.preparation_ms + event.initiation_ms + event.casting_ms
    steps = [
        preparation,
        Step(what="initiation", value=f"{seconds(event.initiation_ms)} s", rule="E23"),
        Step(
            what="casting",
            value=f"{seconds(event.casting_ms)} s",
            how="the spell's casting seconds",
            rule="E23",
        ),
        Step(
            what="cast at",
            value=f"+{seconds(total)} s",
            how=(
                f"{seconds(event.preparation_ms)} + {seconds(event.initiation_ms)} + "
                f"{seconds(event.casting_ms)}"
            ),
            rule="E23",
        ),
    ]
    return Explanation(steps=steps)


def _spell_cast(event: SpellCast, state: EnergionState, history: History) -> Explanation:
    """Rule E23: the spell takes effect: its damage roll (the scenario's expression) on the target."""
    target = state.combatants[event.target]
    steps = [
        roll_step("damage roll", event.roll, "E23"),
        Step(what="damage", value=number(event.damage), how="the spell's damage expression", rule="E23"),
        Step(
            what=f"{event.target} left",
            value=f"{number(target.damage_left)}/{number(target.damage_points)} DP",
        ),
    ]
    started = history.latest("spell_started", event.combatant)
    depends = [Because(started.seq, f"{event.combatant} began {event.spell}")] if started is not None else []
    return Explanation(steps=steps, depends_on=depends)


def _location(event: LocationDisabled, state: EnergionState, history: History) -> Explanation:
    """Rule E20: damage to a location at or above its share of the damage points disables it (or kills)."""
    who = state.combatants[event.combatant]
    steps = [
        Step(
            what="share",
            value=number(event.share),
            how=f"{number(who.damage_points)} DP x the {event.location}'s share",
            rule="E20",
            source=f"hit location chart, row {event.location} ({CHARTS}/hit_locations.toml)",
        ),
        Step(
            what="effect",
            value=event.effect,
            how=f"{number(event.damage)} damage there >= {number(event.share)}",
            rule="E20",
        ),
    ]
    blow = history.latest("attack_resolved", event.combatant)
    depends = [Because(blow.seq, "the blow that reached the share")] if blow is not None else []
    return Explanation(steps=steps, depends_on=depends)


def _intent(event: IntentChosen, state: EnergionState, history: History) -> Explanation:
    """A decision from outside affray: who made it, what it chose and why, and what it scored."""
    chose = event.intent.words() if event.intent is not None else "nothing more"
    steps = [
        Step(
            what="controller", value=event.controller, how="played from outside affray (docs/controllers.md)"
        ),
        Step(what="intent", value=chose, how=event.intent.reason if event.intent is not None else ""),
    ]
    steps.extend(Step(what="score", value=f"{score.score:g}", how=score.option) for score in event.scores)
    return Explanation(steps=steps)


EXPLAINERS: Mapping[type[Event], Explainer] = {
    AttackResolved: _attack,
    CombatantJoined: by_rule("E1"),
    Perceived: by_rule("E1"),
    Reacted: by_rule("E1"),
    WeaponReadied: by_rule("E2, E3"),
    WeaponChanged: by_rule("E3"),
    TargetChosen: by_rule("E1"),
    IntentChosen: _intent,
    Waited: by_rule("E1"),
    AimStarted: by_rule("E17"),
    SpellStarted: _spell_started,
    SpellCast: _spell_cast,
    SpellInterrupted: by_rule("E23"),
    GrappleResolved: _grapple,
    HoldEscapeRolled: _escape,
    HoldDamageDealt: by_rule("E15"),
    StoodUp: by_rule("E15"),
    LocationDisabled: _location,
}
"""The explainer of each Energion kind."""
