"""Explain the fivestep events (``affray explain``): each outcome as its rules work it out, step by step.

A to-hit is laid out as F8 (MARKS or BRAWL, with injuries and the referee's modifier), F1 (reach), the
chance by its procedure (1: the skill; 2: Table 3-1; 3: Table 3-1 less Table 3-2 at the sum of the 3-7.x
adversity modifiers), the d100 and where a hit lands; damage as F10 (the DAMAGE DIE ROLL or WEP MOD vs
range, grazing, the referee's points) and F11, F12 (the part's damage percentage, category, structure,
function, description and organ systems); a grenade as F9 (the d100 against BRAWL, a bounce or a miss, and
where it lands). The other kinds by their rolls and fields under their rules.

Rulings are cited by their numbers in docs/rulesets/fivestep.md ("ruling 27"; "damage ruling 2" for the
numbered list under "Damage (F10-F12)"). The tables are user-supplied and the events do not name their
files, so a source names the table and the row read.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction

from affray.events.base import Event
from affray.events.fivestep.kinds import (
    ActionTaken,
    AlertnessRaised,
    ApBorrowed,
    CombatantJoined,
    DamageResolved,
    DieRoll,
    Grazing,
    GrenadeThrown,
    PoisonResolved,
    PrimaryAttackRolled,
    RoundStarted,
    StepChosen,
    SurpriseChecked,
    ToHitResolved,
    TurnStarted,
    WepModRead,
)
from affray.events.fivestep.state import FivestepState
from affray.events.special_damage.kinds import SpecialDamage
from affray.kernel.explanation import Because, Explainer, Explanation, History, Step, by_rule, roll_step
from affray.replays.telling import at, number, signed
from affray.rules.fivestep.damage import CATEGORY_WIDTH, DESTRUCTION_MULTIPLE, parse_damage_die_roll
from affray.rules.fivestep.damage_tables import CATEGORY_COUNT
from affray.rules.fivestep.hitting import (
    DIRECT_MARGIN,
    GRENADE_BOUNCE_LIMIT,
    GRENADE_MISS_BASE_M,
    HAND_TO_HAND_REACH_M,
    WEAPONRY_MAX_M,
    WEAPONRY_MIN_M,
    in_reach,
)

SKILL_INPUTS = {"MARKS": ("AIM", "WEP DIF"), "BRAWL": ("BRAWL", "ATTACK DIF")}
"""Rule F8: the attribute and the weapon's difficulty each skill is the mean of."""

REFEREE = "the referee's ruling"
"""How a step that a referee's ruling made says so (a ruling has no rule id)."""

# --- F1, F8: percent to hit -------------------------------------------------------------------------


def _skill(event: ToHitResolved) -> list[Step]:
    """Rule F8: MARKS = (AIM + WEP DIF) / 2 or BRAWL = (BRAWL + ATTACK DIF) / 2; then the injuries'
    penalties (S3) and the referee's modifier, both already in ``skill``."""
    attribute, difficulty = SKILL_INPUTS[event.skill_name]
    base = Decimal(event.attribute + event.difficulty) / 2
    steps = [
        Step(
            what=event.skill_name,
            value=number(base),
            how=f"({attribute} {event.attribute} + {difficulty} {event.difficulty}) / 2",
            rule="F8",
        )
    ]
    if not event.injury and not event.ruled_modifier:
        return steps
    arithmetic = number(base)
    if event.injury:
        injury = signed(Decimal(event.injury))
        how = f"the to-hit penalties of {event.attacker}'s injuries"
        steps.append(Step(what="injuries", value=injury, how=how, rule="S3"))
        arithmetic += f" {injury}"
    if event.ruled_modifier:
        ruled = signed(Decimal(event.ruled_modifier))
        steps.append(Step(what="ruled modifier", value=ruled, how=f"{REFEREE} (ruling 57)"))
        arithmetic += f" {ruled}"
    steps.append(Step(what="skill", value=number(event.skill), how=arithmetic, rule="F8"))
    return steps


def _reach(event: ToHitResolved) -> Step:
    """Rule F1: hand to hand up to 3 m, weaponry from 0.25 m to 3 km, both ends included (ruling 23)."""
    distance = f"{number(event.range_m)} m"
    inside = in_reach(event.combat, event.range_m)
    if event.combat == "hand_to_hand":
        how = f"hand to hand: {distance} {'<=' if inside else '>'} {number(HAND_TO_HAND_REACH_M)} m"
    else:
        span = f"{number(WEAPONRY_MIN_M)} m to {number(WEAPONRY_MAX_M)} m"
        how = f"weaponry: {distance} {'within' if inside else 'outside'} {span}"
    value = "in reach" if inside else "out of reach"
    return Step(what="reach", value=value, how=f"{how} (ruling 23)", rule="F1")


def _percent_to_hit(event: ToHitResolved) -> Step:
    """Rule F8, procedures 2 and 3: Table 3-1's figure for the skill at the range (BRAWL for hand to
    hand, ruling 56)."""
    range_m, skill = number(event.range_m), number(event.skill)
    source = f"Table 3-1, the row for {range_m} m, the {event.skill_name} {skill} column"
    how = f"{event.skill_name} {skill} at {range_m} m"
    if event.skill_name == "BRAWL":
        how += " (BRAWL for MARKS, ruling 56)"
    return Step(
        what="percent to hit",
        value=f"{number(event.percent_to_hit or 0)}%",
        how=how,
        rule="F8",
        source=source,
    )


def _against(event: ToHitResolved) -> list[Step]:
    """Rule F8, procedure 3b: each adversity condition's modifier (Tables 3-7.x), their sum, and the
    Percent Against that sum at the range (Table 3-2, read with no conditions too, ruling 28)."""
    steps = [
        Step(
            what=f"adversity: {a.condition}",
            value=signed(a.modifier),
            rule="F8",
            source=f"Table {a.table}, {a.condition} row",
        )
        for a in event.adversity
    ]
    total = event.modifier_sum if event.modifier_sum is not None else Decimal(0)
    how = (
        " + ".join(number(a.modifier) for a in event.adversity)
        if event.adversity
        else "no conditions (ruling 28)"
    )
    steps.append(Step(what="adversity sum", value=number(total), how=how, rule="F8"))
    if event.percent_against is not None:
        steps.append(
            Step(
                what="percent against",
                value=f"{number(event.percent_against)}%",
                how=f"adversity {number(total)} at {number(event.range_m)} m",
                rule="F8",
                source=f"Table 3-2, the row for {number(event.range_m)} m, "
                f"the adversity {number(total)} column",
            )
        )
    return steps


def _chance(event: ToHitResolved) -> list[Step]:
    """Rule F8: what the d100 is rolled under, by the procedure; a range a table has no row for misses
    (ruling 25)."""
    if event.procedure == 1:
        how = f"procedure 1: {event.skill_name} itself"
        return [Step(what="chance", value=number(event.skill), how=how, rule="F8")]
    steps = [_percent_to_hit(event)] if event.percent_to_hit is not None else []
    if event.procedure == 3:
        steps += _against(event)
    if event.chance is None:
        tables = "Table 3-1" if event.procedure == 2 else "Table 3-1 or 3-2"
        how = f"{tables} has no row for {number(event.range_m)} m: a miss with no roll (rulings 25, 54)"
        steps.append(_verdict(event, "off_table", how, "F8"))
    elif event.procedure == 3:
        how = f"{number(event.percent_to_hit or 0)} - {number(event.percent_against or 0)}"
        steps.append(Step(what="result", value=number(event.chance), how=f"{how} (ruling 27)", rule="F8"))
    return steps


def _judged_1_2(event: ToHitResolved, roll: int, chance: Decimal) -> tuple[str, str]:
    """Rule F8, procedures 1 and 2: strictly under the chance hits (ruling 24; option at_or_under)."""
    shown = f"{roll} {'<' if roll < chance else '>' if roll > chance else '='} {number(chance)}"
    if roll < chance:
        return "hit", f"{shown}: under (ruling 24)"
    if roll > chance:
        return "miss", f"{shown}: not under (ruling 24)"
    if event.outcome == "hit":
        return "hit", f"{shown}: at or under, the option at_or_under (ruling 24)"
    return "miss", f"{shown}: not under (ruling 24; a hit under the option at_or_under)"


def _judged_3(event: ToHitResolved, under: Decimal) -> tuple[str, str]:
    """Rule F8, procedure 3: more than 20 under the result is a direct hit, any other roll a random one
    (ruling 27; option over_misses: at or over the result misses)."""
    if under > DIRECT_MARGIN:
        return "direct", f"{number(under)} under, more than {DIRECT_MARGIN} (ruling 27)"
    if under <= 0 and event.outcome == "miss" and not event.ruled_miss:
        return "miss", f"{number(-under)} over: a miss under the option over_misses (ruling 27)"
    margin = f"{number(under)} under" if under > 0 else f"{number(-under)} over"
    how = f"{margin}, not more than {DIRECT_MARGIN} under: a random hit (ruling 27)"
    return "random", how


def _rolled(event: ToHitResolved) -> list[Step]:
    """Rule F8: the d100, how far under the chance it came, and the outcome it gives; a referee's ruled
    miss overrides it (ruling 57). A procedure-3 result of 0 or less misses with no roll (ruling 27)."""
    if event.chance is None:
        return []
    if event.roll is None:
        how = f"result {number(event.chance)} is 0 or less: a miss with no roll (ruling 27)"
        return [_verdict(event, "miss", how, "F8")]
    roll = event.roll.total
    under = event.under if event.under is not None else event.chance - roll
    steps = [
        roll_step("to-hit roll", event.roll, "F8"),
        Step(what="under", value=number(under), how=f"{number(event.chance)} - {roll}", rule="F8"),
    ]
    verdict, how = _judged_3(event, under) if event.procedure == 3 else _judged_1_2(event, roll, event.chance)
    steps.append(_verdict(event, verdict, how, "F8"))
    return steps


def _verdict(event: ToHitResolved, outcome: str, how: str, rule: str) -> Step:
    """The outcome the rules give: the attack's, or what a referee's ruled miss overrode."""
    return Step(what="by the rules" if event.ruled_miss else "outcome", value=outcome, how=how, rule=rule)


def _located(event: ToHitResolved) -> list[Step]:
    """Rule F8: a direct hit lands on the part aimed at; a random one where a d100 on Table 3-3.4 says;
    procedures 1 and 2 as the scenario's ``locate_hits`` says (rulings 29, 44)."""
    if event.part is None:
        return []
    if event.part_roll is not None:
        why = (
            "a random hit (ruling 44)" if event.outcome == "random" else "locate_hits random (rulings 29, 44)"
        )
        return [
            roll_step("hit location roll", event.part_roll, "F8"),
            Step(
                what="hit location",
                value=event.part,
                how=why,
                rule="F8",
                source=f"Table 3-3.4, row of d100 {event.part_roll.total}",
            ),
        ]
    how = "a direct hit lands on the part aimed at (ruling 44)"
    if event.outcome == "hit":
        how = "the part aimed at, locate_hits aimed (rulings 29, 44)"
    return [Step(what="hit location", value=event.part, how=how, rule="F8")]


def _to_hit(event: ToHitResolved, state: FivestepState, history: History) -> Explanation:
    """Rules F1, F8: the skill, the reach, the chance by the procedure, the roll and where a hit lands."""
    steps = _skill(event)
    steps.append(_reach(event))
    if in_reach(event.combat, event.range_m):
        steps += _chance(event) + _rolled(event) + _located(event)
    else:
        steps.append(_verdict(event, "out_of_reach", "fails with no roll (rulings 23, 54)", "F1"))
    if event.ruled_miss:
        steps.append(Step(what="outcome", value="miss", how=f"{REFEREE}, whatever the roll (ruling 57)"))
    return Explanation(steps=steps, depends_on=_to_hit_depends(event, state, history))


def _found(history: History, wanted: list[tuple[str, str, str]]) -> list[Because]:
    """The latest event of each (kind, combatant) wanted, with why, in the log's order."""
    latest = [(history.latest(kind, who), why) for kind, who, why in wanted]
    return sorted(
        (Because(event.seq, why) for event, why in latest if event is not None), key=lambda b: b.seq
    )


def _to_hit_depends(event: ToHitResolved, state: FivestepState, history: History) -> list[Because]:
    """The events a to-hit rests on: the attacker's turn, the action it spent on the attack, and the
    special damage that left the injury whose penalty is in its skill (S3)."""
    wanted = [
        ("turn_started", event.attacker, f"{event.attacker}'s turn, in which it attacks (F7)"),
        ("action_taken", event.attacker, f"{event.attacker}'s action (F7)"),
    ]
    reasons = _found(history, wanted)
    if event.injury:
        injured = history.latest_as("special_damage", "target", event.attacker)
        if isinstance(injured, SpecialDamage) and injured.injury is not None:
            reasons.append(Because(injured.seq, f"{event.attacker}'s injury and its to-hit penalty (S3)"))
    return sorted(reasons, key=lambda b: b.seq)


# --- F10-F12: damage --------------------------------------------------------------------------------


def _ruled(event: DamageResolved) -> int:
    """What the referee's ruling added to the points (0 without one)."""
    return event.ruled_points or 0


def _blast(event: DamageResolved) -> list[Step]:
    """Rule F9 (ruling 46): a blast strikes a part of a d100 on Table 3-3.4."""
    if not event.blast:
        return []
    steps = []
    if event.part_roll is not None:
        steps.append(roll_step("hit location roll", event.part_roll, "F9"))
    source = f"Table 3-3.4, row of d100 {event.part_roll.total}" if event.part_roll is not None else ""
    how = f"the blast, {number(event.range_m)} m from where it lands (ruling 46)"
    steps.append(Step(what="hit location", value=event.part, how=how, rule="F9", source=source))
    return steps


def _fraction_of(expression: str) -> Fraction:
    """The fractional part of a DAMAGE DIE ROLL's X (0 when whole or when the text does not read)."""
    try:
        return parse_damage_die_roll(expression).fractional
    except ValueError:
        return Fraction(0)


def _dice_read(d: DieRoll, fraction: Fraction) -> str:
    """Rule F10: what "X+Y" rolls: X's whole part in d10, one more d10 times its fraction, plus Y."""
    whole = len(d.roll.faces) - (1 if fraction else 0)
    parts = [f"{whole} d10"] if whole else []
    if fraction:
        parts.append(f"1 d10 x {fraction}")
    if d.bonus:
        parts.append(str(d.bonus))
    return "X:10sd + Y: " + " + ".join(parts)


def _die_roll(d: DieRoll, weapon: str) -> list[Step]:
    """Rule F10, procedure 2: X d10 + Y, a fractional X's last die times the fraction (damage rulings 1-3)."""
    fraction = _fraction_of(d.expression)
    steps = [
        Step(
            what="DAMAGE DIE ROLL",
            value=d.expression,
            how=_dice_read(d, fraction),
            rule="F10",
            source=f"{weapon}'s data sheet",
        ),
        roll_step("damage dice", d.roll, "F10"),
    ]
    whole_count = len(d.roll.faces) - (1 if fraction else 0)
    parts = [f"whole dice {d.whole_dice}"] if whole_count > 0 else []
    if fraction:
        last = d.roll.faces[-1]
        exact = Fraction(last) * fraction
        how = f"{last} x {fraction} = {number(Decimal(exact.numerator) / exact.denominator)}"
        if exact.denominator != 1:
            how += f" -> {d.fraction_points} (damage ruling 2)"
        steps.append(Step(what="fractional die", value=str(d.fraction_points), how=how, rule="F10"))
        parts.append(f"fraction {d.fraction_points}")
    if d.bonus:
        parts.append(f"Y {d.bonus}")
    total = d.whole_dice + d.fraction_points + d.bonus
    steps.append(Step(what="damage points", value=str(total), how=" + ".join(parts) or "0", rule="F10"))
    return steps


def _wep_mod(w: WepModRead, event: DamageResolved, points: int) -> Step:
    """Rule F10, procedure 3: Table 3-3's figure for the WEP MOD at the range, the first band at or above
    it (damage ruling 4); a blast reads the distance from where it lands (ruling 46)."""
    how = f"WEP MOD {w.wep_mod} at {number(event.range_m)} m"
    how += " from the blast (ruling 46)" if event.blast else " (damage ruling 4)"
    source = f"Table 3-3, WEP MOD {w.wep_mod} row, band to {number(w.band_bound_m)} m"
    return Step(what="damage points", value=str(points), how=how, rule="F10", source=source)


def _grazed(g: Grazing, points: int) -> list[Step]:
    """Rule F10: a grazing shot: %UNDER = the figure rolled under - the roll, points x %UNDER / that
    figure, made whole (damage rulings 2, 5, 6); a roll not under it does 0 points (ruling 47)."""
    roll = g.target - g.percent_under
    steps = [
        Step(
            what="%UNDER",
            value=number(g.percent_under),
            how=f"{number(g.target)} - {number(roll)} (damage ruling 6)",
            rule="F10",
        )
    ]
    if g.percent_under <= 0:
        how = f"the roll was not under {number(g.target)}: {g.points_before} x 0 (ruling 47)"
    else:
        exact = Decimal(g.points_before) * g.percent_under / g.target
        how = f"{g.points_before} x {number(g.percent_under)} / {number(g.target)} = {number(exact)}"
        how += f" -> {points} (damage rulings 2, 5)"
    steps.append(Step(what="grazed points", value=str(points), how=how, rule="F10"))
    return steps


def _points(event: DamageResolved) -> list[Step]:
    """Rule F10: the hit's points by the damage procedure, grazed, then the referee's points (ruling 57)."""
    before_ruling = event.points - _ruled(event)
    steps: list[Step] = []
    if event.die_roll is not None:
        steps += _die_roll(event.die_roll, event.weapon)
    elif event.wep_mod is not None:
        figure = event.grazing.points_before if event.grazing is not None else before_ruling
        steps.append(_wep_mod(event.wep_mod, event, figure))
    if event.grazing is not None:
        steps += _grazed(event.grazing, before_ruling)
    if event.ruled_points is not None:
        ruled = signed(Decimal(event.ruled_points))
        how = f"{REFEREE}: {before_ruling} {ruled} = {event.points}, never below 0"
        steps.append(
            Step(what="ruled points", value=signed(Decimal(event.ruled_points)), how=f"{how} (ruling 57)")
        )
    return steps


def _category(event: DamageResolved) -> Step:
    """Rule F11: category k covers above 5(k - 1) % up to 5k %; none at 0 %; 20 above 100 % (damage
    ruling 8)."""
    if event.category is None:
        return Step(what="category", value="none", how="0 %: no category (damage ruling 8)", rule="F11")
    if event.percentage > 100:
        how = f"{number(event.percentage)} % is above 100 %: category {CATEGORY_COUNT} (damage ruling 8)"
    else:
        low, high = CATEGORY_WIDTH * (event.category - 1), CATEGORY_WIDTH * event.category
        how = f"{number(event.percentage)} % is above {low} % up to {high} % (damage ruling 8)"
    return Step(what="category", value=str(event.category), how=how, rule="F11")


def _part(event: DamageResolved) -> list[Step]:
    """Rule F11: the part's points taken, its damage percentage and category, the structure (the first
    ceil(points / 10)) and function lost, and destruction at 5 x its points (damage rulings 8-12)."""
    structure = -(-event.part_points // 10)
    function = event.part_points - structure
    destroyed_at = DESTRUCTION_MULTIPLE * event.part_points
    function_how = f"{function} function points - {function - event.function_left} lost"
    if not event.functional:
        function_how += f"; all {event.part_points} points taken: no function"
    return [
        Step(
            what="part's points taken",
            value=f"{event.part_taken} of {event.part_points}",
            how=f"{event.part_taken - event.points} earlier + {event.points}",
            rule="F11",
        ),
        Step(
            what="damage percentage",
            value=f"{number(event.percentage)}%",
            how=f"{event.part_taken} / {event.part_points} x 100",
            rule="F11",
        ),
        _category(event),
        Step(
            what="structure lost",
            value=f"{event.structure_lost} of {structure}",
            how=f"the first ceil({event.part_points} / 10) = {structure} taken are structure "
            "(damage ruling 10)",
            rule="F11",
        ),
        Step(what="function left", value=str(event.function_left), how=function_how, rule="F11"),
        Step(
            what="destroyed",
            value="yes" if event.destroyed else "no",
            how=f"{event.part_taken} {'>=' if event.destroyed else '<'} 5 x {event.part_points} = "
            f"{destroyed_at} (damage ruling 12)",
            rule="F11",
        ),
    ]


def _described(event: DamageResolved) -> list[Step]:
    """Rules F11, F12: the description of the category on the weapon's damage type's table (3-8 to 3-14),
    and each organ system's damage, the percentage x Table 3-3.1's factor, read on its Table 3-15.x."""
    steps = []
    if event.description is not None and event.category is not None:
        source = f"Tables 3-8 to 3-14, the {event.damage_type} table, category {event.category} row"
        steps.append(
            Step(
                what="description",
                value=f"category {event.category}",
                how=event.description,
                rule="F11",
                source=source,
            )
        )
    for o in event.organs:
        effect = o.effect or "no effect"
        steps.append(
            Step(
                what=f"{o.system} damage",
                value=number(o.value),
                how=f"{number(event.percentage)} x {number(o.factor)}: {effect}",
                rule="F12",
                source=f"Table 3-3.1, the {event.part}'s organ row, {o.system}; the {o.system} Table 3-15.x",
            )
        )
    return steps


def _damage(event: DamageResolved, state: FivestepState, history: History) -> Explanation:
    """Rules F10-F12: where a blast strikes, the points, and what the part is left with."""
    steps = _blast(event) + _points(event) + _part(event) + _described(event)
    return Explanation(steps=steps, depends_on=_damage_depends(event, state, history))


def _damage_depends(event: DamageResolved, state: FivestepState, history: History) -> list[Because]:
    """What a damage rests on: the to-hit it follows (same attacker and target) or, for a blast, the
    grenade its attacker threw."""
    if event.blast:
        thrown = history.latest_as("grenade_thrown", "thrower", event.attacker)
        return (
            []
            if thrown is None
            else [Because(thrown.seq, f"{event.attacker}'s grenade, whose blast it is (F9)")]
        )
    hit = history.latest("to_hit_resolved", event.attacker)
    if not isinstance(hit, ToHitResolved) or hit.target != event.target or hit.seq >= event.seq:
        return []
    return [Because(hit.seq, f"{event.attacker}'s hit on {event.target}'s {hit.part or event.part} (F8)")]


# --- F9: grenades -----------------------------------------------------------------------------------


def _throw(event: GrenadeThrown) -> list[Step]:
    """Rule F9: the range and reach (Table 3-4.0), the d100 against the BRAWL attribute (ruling 30), how
    far over it, and what that gives."""
    roll = event.roll.total
    if event.outcome == "exact":
        verdict = f"{roll} < BRAWL {event.brawl}: lands where aimed (ruling 30)"
    elif event.outcome == "bounce":
        verdict = f"0 <= {number(event.over)} <= {GRENADE_BOUNCE_LIMIT} over: bounces (ruling 30)"
    else:
        verdict = f"{number(event.over)} > {GRENADE_BOUNCE_LIMIT} over: misses (ruling 30)"
    return [
        Step(
            what="range",
            value=f"{number(event.range_m)} m",
            how=f"within the {number(event.max_range_m)} m it can be thrown",
            rule="F9",
            source="Table 3-4.0, the thrower's strength and the grenade's weight",
        ),
        Step(
            what="BRAWL", value=str(event.brawl), how="the BRAWL attribute, as printed (ruling 30)", rule="F9"
        ),
        roll_step("throw roll", event.roll, "F9"),
        Step(what="over", value=signed(event.over), how=f"{roll} - {event.brawl}", rule="F9"),
        Step(what="outcome", value=event.outcome, how=verdict, rule="F9"),
    ]


def _off(event: GrenadeThrown) -> list[Step]:
    """Rule F9: how far from the mark a bounce (Table 3-4.1) or a miss (1d10 + 13 m) lands, which way
    (a d8, ruling 46), and where."""
    if event.outcome == "exact":
        return [Step(what="lands at", value=at(event.landed), how="where it was aimed", rule="F9")]
    steps = []
    if event.outcome == "bounce":
        how = f"{event.bounces} bounces" + (f"; {event.note}" if event.note else "")
        source = f"Table 3-4.1, row for {number(event.over)} over"
        steps.append(
            Step(what="distance", value=f"{number(event.off_m)} m", how=how, rule="F9", source=source)
        )
    else:
        if event.miss_roll is not None:
            steps.append(roll_step("miss roll", event.miss_roll, "F9"))
        base = (
            f"{event.miss_roll.total} + {GRENADE_MISS_BASE_M}" if event.miss_roll is not None else "1d10 + 13"
        )
        steps.append(Step(what="distance", value=f"{number(event.off_m)} m", how=base, rule="F9"))
    if event.direction_roll is not None:
        steps.append(roll_step("direction roll", event.direction_roll, "F9"))
    how = "a d8: north, north-east, ... north-west (ruling 46)"
    steps.append(Step(what="direction", value=event.direction or "-", how=how, rule="F9"))
    how = f"{number(event.off_m)} m {event.direction} of the mark {at(event.aimed_at)}".replace("  ", " ")
    steps.append(Step(what="lands at", value=at(event.landed), how=how, rule="F9"))
    return steps


def _grenade(event: GrenadeThrown, state: FivestepState, history: History) -> Explanation:
    """Rule F9: the throw against BRAWL and where the grenade lands."""
    wanted = [
        ("turn_started", event.thrower, f"{event.thrower}'s turn, in which it throws (F7)"),
        ("action_taken", event.thrower, f"{event.thrower}'s action (F7)"),
    ]
    return Explanation(steps=_throw(event) + _off(event), depends_on=_found(history, wanted))


def _step_chosen(event: StepChosen, state: FivestepState, history: History) -> Explanation:
    """Rule F7 from outside affray: who declared the step, what it was and why, and what it scored."""
    step = event.step
    steps = [
        Step(
            what="controller", value=event.controller, how="played from outside affray (docs/controllers.md)"
        ),
        Step(
            what="step",
            value=step.words() if step is not None else "nothing more",
            how=step.reason if step is not None else "",
            rule="F7",
        ),
    ]
    steps.extend(Step(what="score", value=f"{score.score:g}", how=score.option) for score in event.scores)
    return Explanation(steps=steps)


EXPLAINERS: Mapping[type[Event], Explainer] = {
    CombatantJoined: by_rule("F2"),
    StepChosen: _step_chosen,
    SurpriseChecked: by_rule("F5"),
    PrimaryAttackRolled: by_rule("F6"),
    RoundStarted: by_rule("F3, F4"),
    TurnStarted: by_rule("F3, F7"),
    ApBorrowed: by_rule("F7"),
    ActionTaken: by_rule("F7"),
    ToHitResolved: _to_hit,
    GrenadeThrown: _grenade,
    DamageResolved: _damage,
    PoisonResolved: by_rule("F10"),
    AlertnessRaised: by_rule("F5"),
}
"""The explainer of each fivestep kind: the outcomes step by step, the others by their fields and rolls."""
