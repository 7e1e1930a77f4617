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
    SurpriseChecked,
    ToHitResolved,
    TurnStarted,
)
from affray.events.fivestep.state import FivestepState
from affray.kernel.clock import seconds
from affray.kernel.ruleset import Teller
from affray.replays.telling import at, number, rolled, signed


def _joined(e: CombatantJoined, s: FivestepState) -> str:
    body = ", ".join(f"{p.name} {p.points}" for p in e.parts)
    return (
        f"{e.combatant} ({e.name}) joins side {e.side}: {e.weapon or 'unarmed'}; body {body} "
        f"({number(e.damage_points)} points), at {at(e.position)}"
    )


def _surprise(e: SurpriseChecked, s: FivestepState) -> str:
    sides = "; ".join(
        f"{m.side} {rolled(m.roll)} vs {number(m.target)} ({signed(m.margin)})" for m in e.margins
    )
    if e.outcome == "tie":
        result = "a tie at the top: every side rolls again"
    elif e.outcome == "none":
        result = "nobody rolled under: no surprise"
    else:
        result = f"side {e.winner} has surprise; {', '.join(e.surprised)} surprised"
    return f"round {e.round}: surprise, procedure {e.procedure} ({e.reason}): {sides} -> {result}"


def _primary(e: PrimaryAttackRolled, s: FivestepState) -> str:
    scores = "; ".join(
        f"{x.side} {rolled(x.roll)}"
        + (
            f" {'+' if x.score > x.roll.total else '-'} {number(x.damage_percent)}%/2"
            if x.damage_percent
            else ""
        )
        + f" = {number(x.score)}"
        for x in e.scores
    )
    procedure = f"{e.procedure} (by {e.each_round}, every round)" if e.each_round else str(e.procedure)
    joiner = f" (side {e.joiner} joins)" if e.joiner else ""
    if e.outcome == "tie":
        return (
            f"round {e.round}: primary attack, procedure {procedure}{joiner}: {scores} -> a tie: roll again"
        )
    extras = f"; {e.order[0]} has the sole attack" if e.sole_attack else ""
    extras += f"; {e.passed} passed and acts last" if e.passed else ""
    return (
        f"round {e.round}: primary attack, procedure {procedure}{joiner}: {scores} -> order "
        f"{', '.join(e.order)}{extras}"
    )


def _round(e: RoundStarted, s: FivestepState) -> str:
    pieces = f"; turns in {e.pieces} sub-turns" if e.pieces > 1 else ""
    return f"round {e.round} begins: {', '.join(e.acting) or 'nobody'} act ({e.reason}){pieces}"


def _turn(e: TurnStarted, s: FivestepState) -> str:
    piece = f", sub-turn {e.piece}/{e.pieces}" if e.pieces > 1 else ""
    if e.no_move:
        return f"{e.combatant}'s turn{piece}: no movement, the previous turn borrowed all {e.owed} points"
    owed = f" ({e.owed} owed to the last turn)" if e.owed else ""
    return (
        f"{e.combatant}'s turn{piece}: {e.available} of {e.agility} points{owed}, until {seconds(e.end_ms)} s"
    )


def _borrowed(e: ApBorrowed, s: FivestepState) -> str:
    why = f": {e.reason}" if e.reason else ""
    return (
        f"{e.combatant} borrows {e.points} points of its next turn for {e.gained} now "
        f"(the next turn keeps {e.next_turn_left}){why}"
    )


def _action(e: ActionTaken, s: FivestepState) -> str:
    times = f" x{e.times}" if e.times != 1 else ""
    why = f" [{e.controller}: {e.reason}]" if e.reason else ""
    return (
        f"{e.combatant}: {e.action}{times} (action procedure {e.procedure}): {e.cost} points, "
        f"{e.available} left, {seconds(e.elapsed_ms)} s into the piece{why}"
    )


def _to_hit(e: ToHitResolved, s: FivestepState) -> str:
    head = (
        f"{e.attacker} attacks {e.target} with {e.weapon} at {number(e.range_m)} m, "
        f"to hit procedure {e.procedure}: "
        f"{e.skill_name} ({e.attribute} {signed(Decimal(e.difficulty))})/2{_skill_extras(e)}"
        f" = {number(e.skill)}"
    )
    if e.outcome == "out_of_reach":
        reach = "3 m" if e.combat == "hand_to_hand" else "0.25 m to 3 km"
        return f"{head}; out of reach ({e.combat.replace('_', ' ')}: {reach}): it fails"
    if e.outcome == "off_table":
        return f"{head}; beyond the last range of the table: a miss"
    roll = f"; {rolled(e.roll)}" if e.roll is not None else ""
    ruled = " (a ruling)" if e.ruled_miss else ""
    return f"{head}{_tables(e)}{roll}{_under(e)} -> {e.outcome}{ruled}{_part(e)}"


def _tables(e: ToHitResolved) -> str:
    """The percent to hit (Table 3-1, procedures 2 and 3) and the percent against (Table 3-2, procedure
    3, with the adversity conditions that add up to its column)."""
    figure = ""
    if e.procedure >= 2 and e.percent_to_hit is not None:
        figure = f"; Table 3-1: {number(e.percent_to_hit)}%"
    if e.procedure == 3 and e.percent_against is not None:
        listed = ", ".join(f"{a.condition} {signed(a.modifier)}" for a in e.adversity) or "none"
        figure += (
            f" - against {number(e.percent_against)}% (Table 3-2 at adversity {number(e.modifier_sum or 0)}: "
            f"{listed}) = {number(e.chance or 0)}"
        )
    return figure


def _under(e: ToHitResolved) -> str:
    """How far under (or over) the chance the roll came."""
    if e.under is None:
        return ""
    return f", {number(e.under)} under" if e.under >= 0 else f", {number(-e.under)} over"


def _part(e: ToHitResolved) -> str:
    """The part hit, aimed at or rolled on Table 3-3.4."""
    if e.part is None:
        return ""
    how = f" ({rolled(e.part_roll)} on Table 3-3.4)" if e.part_roll is not None else " (aimed)"
    return f", on the {e.part}{how}"


def _skill_extras(e: ToHitResolved) -> str:
    """What injuries (S3) and a referee's ruling added to the skill."""
    extras = f" {signed(Decimal(e.injury))} injuries" if e.injury else ""
    return extras + (f" {signed(Decimal(e.ruled_modifier))} ruling" if e.ruled_modifier else "")


def _grenade(e: GrenadeThrown, s: FivestepState) -> str:
    head = (
        f"{e.thrower} throws {e.weapon} at {e.target} ({number(e.range_m)} m of {number(e.max_range_m)} m): "
        f"{rolled(e.roll)} vs BRAWL {e.brawl} ({signed(e.over)} over)"
    )
    if e.outcome == "exact":
        return f"{head} -> lands where aimed, {at(e.landed)}"
    way = f" {e.direction}" if e.direction else ""
    if e.outcome == "bounce":
        note = f"; {e.note}" if e.note else ""
        off = f"{number(e.off_m)} m{way} of the mark"
        return f"{head} -> bounces {e.bounces} times, {off}, to {at(e.landed)}{note}"
    miss = f" ({rolled(e.miss_roll)} + 13)" if e.miss_roll else ""
    return f"{head} -> misses, {number(e.off_m)} m{miss}{way} of the mark, to {at(e.landed)}"


def _damage(e: DamageResolved, s: FivestepState) -> str:
    if e.die_roll is not None:
        d = e.die_roll
        how = f"DAMAGE DIE ROLL {d.expression}: {rolled(d.roll)}"
    elif e.wep_mod is not None:
        band = number(e.wep_mod.band_bound_m)
        how = f"WEP MOD {e.wep_mod.wep_mod} at {number(e.range_m)} m (Table 3-3, band to {band} m)"
    else:
        how = "?"
    if e.grazing is not None:
        g = e.grazing
        if g.percent_under > 0:
            how += f"; grazing {g.points_before} x {number(g.percent_under)}/{number(g.target)}"
        else:
            how += f"; grazing: {g.points_before} x 0, the roll was not under {number(g.target)}"
    blast = " in the blast" if e.blast else ""
    if e.part_roll is not None:
        blast += f" ({rolled(e.part_roll)} on Table 3-3.4)"
    state = (
        "destroyed"
        if e.destroyed
        else "no function left"
        if not e.functional
        else f"{e.function_left} function left"
    )
    category = f", category {e.category}" if e.category else ""
    text = f": {e.description}" if e.description else ""
    organs = "".join(f"; {o.system} {number(o.value)}: {o.effect}" for o in e.organs if o.effect)
    if e.ruled_points is not None:
        blast += f" ({e.points - e.ruled_points} {signed(Decimal(e.ruled_points))} ruling)"
    return (
        f"{e.target}'s {e.part} takes {e.points}{blast} from {e.weapon} "
        f"(damage procedure {e.procedure}, {how}): "
        f"{e.part_taken} of {e.part_points} points ({number(e.percentage)}%{category}), {state}{text}{organs}"
    )


def _poison(e: PoisonResolved, s: FivestepState) -> str:
    organs = "; ".join(f"{o.system} {number(o.value)}: {o.effect or 'no effect'}" for o in e.organs)
    return (
        f"the poison of {e.attacker}'s {e.weapon} enters {e.target}'s {e.part}: WEP MOD {e.wep_mod.wep_mod} "
        f"gives {e.points} points, {number(e.tissue_percentage)}% of the part; {organs}"
    )


def _alertness(e: AlertnessRaised, s: FivestepState) -> str:
    return f"{e.who}'s alertness rises from {e.before} to {e.after}"


TELLERS: dict[type, Teller] = {
    CombatantJoined: _joined,
    SurpriseChecked: _surprise,
    PrimaryAttackRolled: _primary,
    RoundStarted: _round,
    TurnStarted: _turn,
    ApBorrowed: _borrowed,
    ActionTaken: _action,
    ToHitResolved: _to_hit,
    GrenadeThrown: _grenade,
    DamageResolved: _damage,
    AlertnessRaised: _alertness,
    PoisonResolved: _poison,
}
"""One teller per fivestep event kind."""
