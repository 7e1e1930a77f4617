"""Tell the fivestep events (rules F3-F12): each step's line names its procedure and shows its figures."""

from __future__ import annotations

from decimal import Decimal

from affray.events.fivestep.kinds import (
    ActionTaken,
    AlertnessRaised,
    ApBorrowed,
    CombatantJoined,
    DamageResolved,
    GrenadeThrown,
    PoisonResolved,
    PrimaryAttackRolled,
    RoundStarted,
    StepChosen,
    SurpriseChecked,
    ToHitResolved,
    TurnStarted,
)
from affray.events.fivestep.state import FivestepState
from affray.events.sealed import is_sealed
from affray.kernel.clock import seconds
from affray.kernel.ruleset import Teller
from affray.replays.telling import at, decided, number, rolled, signed


def _joined(event: CombatantJoined, state: FivestepState) -> str:
    body = ", ".join(f"{p.name} {p.points}" for p in event.parts)
    return (
        f"{event.combatant} ({event.name}) joins side {event.side}: {event.weapon or 'unarmed'}; body {body} "
        f"({number(event.damage_points)} points), at {at(event.position)}"
    )


def _surprise(event: SurpriseChecked, state: FivestepState) -> str:
    sides = "; ".join(
        f"{m.side} {rolled(m.roll)} vs {number(m.target)} ({signed(m.margin)})" for m in event.margins
    )
    if event.outcome == "tie":
        result = "a tie at the top: every side rolls again"
    elif event.outcome == "none":
        result = "nobody rolled under: no surprise"
    else:
        result = f"side {event.winner} has surprise; {', '.join(event.surprised)} surprised"
    return f"round {event.round}: surprise, procedure {event.procedure} ({event.reason}): {sides} -> {result}"


def _primary(event: PrimaryAttackRolled, state: FivestepState) -> str:
    scores = "; ".join(
        f"{x.side} {rolled(x.roll)}"
        + (
            f" {'+' if x.score > x.roll.total else '-'} {number(x.damage_percent)}%/2"
            if x.damage_percent
            else ""
        )
        + f" = {number(x.score)}"
        for x in event.scores
    )
    procedure = (
        f"{event.procedure} (by {event.each_round}, every round)"
        if event.each_round
        else str(event.procedure)
    )
    joiner = f" (side {event.joiner} joins)" if event.joiner else ""
    if event.outcome == "tie":
        return (
            f"round {event.round}: primary attack, procedure {procedure}{joiner}: {scores} -> a tie: roll "
            f"again"
        )
    extras = f"; {event.order[0]} has the sole attack" if event.sole_attack else ""
    extras += f"; {event.passed} passed and acts last" if event.passed else ""
    return (
        f"round {event.round}: primary attack, procedure {procedure}{joiner}: {scores} -> order "
        f"{', '.join(event.order)}{extras}"
    )


def _round(event: RoundStarted, state: FivestepState) -> str:
    pieces = f"; turns in {event.pieces} sub-turns" if event.pieces > 1 else ""
    return f"round {event.round} begins: {', '.join(event.acting) or 'nobody'} act ({event.reason}){pieces}"


def _turn(event: TurnStarted, state: FivestepState) -> str:
    piece = f", sub-turn {event.piece}/{event.pieces}" if event.pieces > 1 else ""
    if event.no_move:
        return (
            f"{event.combatant}'s turn{piece}: no movement, the previous turn borrowed all {event.owed} "
            f"points"
        )
    owed = f" ({event.owed} owed to the last turn)" if event.owed else ""
    return (
        f"{event.combatant}'s turn{piece}: {event.available} of {event.agility} points{owed}, until "
        f"{seconds(event.end_ms)} s"
    )


def _step_chosen(event: StepChosen, state: FivestepState) -> str:
    chooser = f"{event.combatant} ({event.controller})"
    return decided(chooser, event.step, event.scores, "declares:", "declares nothing more")


def _borrowed(event: ApBorrowed, state: FivestepState) -> str:
    why = f": {event.reason}" if event.reason else ""
    return (
        f"{event.combatant} borrows {event.points} points of its next turn for {event.gained} now "
        f"(the next turn keeps {event.next_turn_left}){why}"
    )


def _action(event: ActionTaken, state: FivestepState) -> str:
    times = f" x{event.times}" if event.times != 1 else ""
    why = f" [{event.controller}: {event.reason}]" if event.reason else ""
    return (
        f"{event.combatant}: {event.action}{times} (action procedure {event.procedure}): {event.cost} "
        f"points, "
        f"{event.available} left, {seconds(event.elapsed_ms)} s into the piece{why}"
    )


def _to_hit(event: ToHitResolved, state: FivestepState) -> str:
    head = (
        f"{event.attacker} attacks {event.target} with {event.weapon} at {number(event.range_m)} m, "
        f"to hit procedure {event.procedure}: "
        f"{event.skill_name} ({event.attribute} {signed(Decimal(event.difficulty))})/2{_skill_extras(event)}"
        f" = {number(event.skill)}"
    )
    if event.outcome == "out_of_reach":
        reach = "3 m" if event.combat == "hand_to_hand" else "0.25 m to 3 km"
        return f"{head}; out of reach ({event.combat.replace('_', ' ')}: {reach}): it fails"
    if event.outcome == "off_table":
        return f"{head}; beyond the last range of the table: a miss"
    roll = f"; {rolled(event.roll)}" if event.roll is not None else ""
    ruled = " (a ruling)" if event.ruled_miss else ""
    return f"{head}{_tables(event)}{roll}{_under(event)} -> {event.outcome}{ruled}{_part(event)}"


def _tables(event: ToHitResolved) -> str:
    """The percent to hit (Table 3-1, procedures 2 and 3) and the percent against (Table 3-2, procedure
    3, with the adversity conditions that add up to its column)."""
    figure = ""
    if event.procedure >= 2 and event.percent_to_hit is not None:
        figure = f"; Table 3-1: {number(event.percent_to_hit)}%"
    if event.procedure == 3 and event.percent_against is not None:
        listed = ", ".join(f"{a.condition} {signed(a.modifier)}" for a in event.adversity) or "none"
        figure += (
            f" - against {number(event.percent_against)}% (Table 3-2 at adversity "
            f"{number(event.modifier_sum or 0)}: {listed}) = {number(event.chance or 0)}"
        )
    return figure


def _under(event: ToHitResolved) -> str:
    """How far under (or over) the chance the roll came."""
    if event.under is None or is_sealed(event.under):
        return ""
    return f", {number(event.under)} under" if event.under >= 0 else f", {number(-event.under)} over"


def _part(event: ToHitResolved) -> str:
    """The part hit, aimed at or rolled on Table 3-3.4."""
    if event.part is None:
        return ""
    how = f" ({rolled(event.part_roll)} on Table 3-3.4)" if event.part_roll is not None else " (aimed)"
    return f", on the {event.part}{how}"


def _skill_extras(event: ToHitResolved) -> str:
    """What injuries (S3) and a referee's ruling added to the skill."""
    extras = f" {signed(Decimal(event.injury))} injuries" if event.injury else ""
    return extras + (f" {signed(Decimal(event.ruled_modifier))} ruling" if event.ruled_modifier else "")


def _grenade(event: GrenadeThrown, state: FivestepState) -> str:
    head = (
        f"{event.thrower} throws {event.weapon} at {event.target} ({number(event.range_m)} m of "
        f"{number(event.max_range_m)} m): "
        f"{rolled(event.roll)} vs BRAWL {event.brawl} ({signed(event.over)} over)"
    )
    if event.outcome == "exact":
        return f"{head} -> lands where aimed, {at(event.landed)}"
    way = f" {event.direction}" if event.direction else ""
    if event.outcome == "bounce":
        note = f"; {event.note}" if event.note else ""
        off = f"{number(event.off_m)} m{way} of the mark"
        return f"{head} -> bounces {event.bounces} times, {off}, to {at(event.landed)}{note}"
    miss = f" ({rolled(event.miss_roll)} + 13)" if event.miss_roll else ""
    return f"{head} -> misses, {number(event.off_m)} m{miss}{way} of the mark, to {at(event.landed)}"


def _damage(event: DamageResolved, state: FivestepState) -> str:
    if event.die_roll is not None:
        d = event.die_roll
        how = f"DAMAGE DIE ROLL {d.expression}: {rolled(d.roll)}"
    elif event.wep_mod is not None:
        band = number(event.wep_mod.band_bound_m)
        how = f"WEP MOD {event.wep_mod.wep_mod} at {number(event.range_m)} m (Table 3-3, band to {band} m)"
    else:
        how = "?"
    if event.grazing is not None:
        g = event.grazing
        if is_sealed(g.percent_under) or g.percent_under > 0:
            how += f"; grazing {g.points_before} x {number(g.percent_under)}/{number(g.target)}"
        else:
            how += f"; grazing: {g.points_before} x 0, the roll was not under {number(g.target)}"
    blast = " in the blast" if event.blast else ""
    if event.part_roll is not None:
        blast += f" ({rolled(event.part_roll)} on Table 3-3.4)"
    left = (
        "destroyed"
        if event.destroyed
        else "no function left"
        if not event.functional
        else f"{event.function_left} function left"
    )
    category = f", category {event.category}" if event.category else ""
    text = f": {event.description}" if event.description else ""
    organs = "".join(f"; {o.system} {number(o.value)}: {o.effect}" for o in event.organs if o.effect)
    if event.ruled_points is not None:
        blast += f" ({event.points - event.ruled_points} {signed(Decimal(event.ruled_points))} ruling)"
    return (
        f"{event.target}'s {event.part} takes {event.points}{blast} from {event.weapon} "
        f"(damage procedure {event.procedure}, {how}): "
        f"{event.part_taken} of {event.part_points} points ({number(event.percentage)}%{category}), "
        f"{left}{text}{organs}"
    )


def _poison(event: PoisonResolved, state: FivestepState) -> str:
    organs = "; ".join(f"{o.system} {number(o.value)}: {o.effect or 'no effect'}" for o in event.organs)
    return (
        f"the poison of {event.attacker}'s {event.weapon} enters {event.target}'s {event.part}: WEP MOD "
        f"{event.wep_mod.wep_mod} "
        f"gives {event.points} points, {number(event.tissue_percentage)}% of the part; {organs}"
    )


def _alertness(event: AlertnessRaised, state: FivestepState) -> str:
    return f"{event.who}'s alertness rises from {event.before} to {event.after}"


TELLERS: dict[type, Teller] = {
    CombatantJoined: _joined,
    SurpriseChecked: _surprise,
    PrimaryAttackRolled: _primary,
    RoundStarted: _round,
    TurnStarted: _turn,
    ApBorrowed: _borrowed,
    StepChosen: _step_chosen,
    ActionTaken: _action,
    ToHitResolved: _to_hit,
    GrenadeThrown: _grenade,
    DamageResolved: _damage,
    AlertnessRaised: _alertness,
    PoisonResolved: _poison,
}
"""One teller per fivestep event kind."""
