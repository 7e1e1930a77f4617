"""Explain the special_damage events (``affray explain``): each outcome as the add-on works it out.

A special damage is laid out as S1 (the chance and the hit roll under it), S9 (the target's RS check,
each Table 1 modifier and the Table 2 weapon type), S2 (the type roll and its total), S3 or S5 (the row of
Table 3 or 4 it reads), S10 (the referee's ruling on it, if any) and S4 or S5 (the effect and the injury
it leaves); a condition by its cause, chance and time (S4, S5); an explosion by its dice and each RS check
(S5, S6); a ruling by what was rolled and what the referee put instead (S10); healing and repair by their
time (S7, S8). The other kinds are shown by their rolls and fields under their rules.

The hit a special damage rides on is the host's: its kinds, the chance of its roll and the rulings to cite
come from the host's adapter (hosting.py), found by the state the explanation is given, as a module names
no host. Ruling numbers are those of docs/rulesets/special_damage.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import NamedTuple

from affray.events.base import Event
from affray.events.shared import CheckRolled
from affray.events.special_damage.kinds import (
    AftermathEnded,
    AftermathStarted,
    BlastHit,
    ConditionEnded,
    ConditionStarted,
    EquipmentLost,
    Exploded,
    Healed,
    HealingScheduled,
    Injury,
    NotHealed,
    ProgramsDestroyed,
    RefereeRuling,
    SpecialDamage,
    SpecialModifier,
)
from affray.events.special_damage.state import Field
from affray.kernel.clock import UNIT_MS, game_time
from affray.kernel.explanation import Because, Explainer, Explanation, History, Step, by_rule, roll_step
from affray.replays.telling import number, signed
from affray.rules.special_damage import rolls
from affray.rules.special_damage.recovery import HEALING_FILE, REPAIR_FILE
from affray.rules.special_damage.tables import (
    LIVING_FILE,
    MODIFIERS_FILE,
    OR_LESS,
    OR_MORE,
    ROBOTS_FILE,
    WEAPON_MODIFIERS_FILE,
    DamageTable,
    Effect,
    LivingRow,
    Modifier,
    RobotRow,
    load_living,
    load_modifiers,
    load_robots,
    load_weapon_modifiers,
)
from affray.rulesets.special_damage.hosting import HostRulings, SpecialDamageHost, host_of

TABLES = "affray/rules/special_damage/data"
"""Where the tables an explanation cites are kept."""
VRUSK_CHECK = "Vrusk arm"
"""How the check of a Vrusk's damaged arm is named (rule S7), as the handler rolls it."""
RS_CHECK = "Target makes RS check"
"""Table 1's row for the target's Reaction Speed check; the event's reason adds the roll to it."""

_Row = LivingRow | RobotRow
_Table = DamageTable[LivingRow] | DamageTable[RobotRow]


SITUATIONS = {
    "short range": "the shot's E8 range band",
    "point blank range": "the shot's E8 range band",
    "long range": "the shot's E8 range band",
    "extreme range": "the shot's E8 range band",
    "target hit twice in same turn": "the same attacker hit this target within the last 6 s",
    "tiny target": "the target's area",
    "small target": "the target's area",
    "large target": "the target's area",
    "giant target": "the target's area",
    "moving target": "either moved in the last second; counted once",
    "suit-type defense": "the target wears a suit-type defense",
    "target is underwater": "the fight is underwater",
}
"""What in the fight a Table 1 row that counts once was read from."""
NOT_HEALED = {
    "it does not heal": "its row gives no healing kind",
    "it cannot be repaired": "its row of Table 4 gives no repair",
    "no one of its side has Robotics skill": "a repair needs Robotics skill, ruling 24",
    "destroyed": "the dead are not healed or repaired, ruling 25",
}
"""Why an injury is not healed or repaired, and the rule or ruling that says so."""


# --- looking up what came before ---------------------------------------------------------------------


def _before(
    history: History, kind: str, who: str, event: Event, since: int = 0, **fields: str
) -> Event | None:
    """The last earlier event of ``kind`` naming ``who``, at ``e``'s moment and after seq ``since``, with
    these field values."""
    latest = history.latest(kind, who)
    if latest is None or not since < latest.seq < event.seq or latest.t != event.t:
        return None
    return latest if all(getattr(latest, name, None) == value for name, value in fields.items()) else None


def _hit(
    host: SpecialDamageHost, history: History, e: Event, attacker: str | None, target: str
) -> list[Event]:
    """The host's events of the hit on ``target`` at ``e``'s moment (by ``attacker``, if known)."""
    events = []
    for kind in host.hit_kinds:
        event = _before(history, kind, attacker or target, e, target=target)
        if event is not None and (attacker is None or getattr(event, "attacker", None) == attacker):
            events.append(event)
    return events


def _hit_depends(host: SpecialDamageHost, hit: Sequence[Event], why: str) -> list[Because]:
    """The hit's events, each with ``why`` or with what the host says the event gave it."""
    return [Because(event.seq, host.hit_reason(event) or why) for event in hit]


def _hit_chance(host: SpecialDamageHost, hit: Sequence[Event]) -> Decimal | None:
    """The chance the hit roll was made under, as the first of the hit's events to hold one gives it."""
    return next((chance for chance in map(host.hit_chance, hit) if chance is not None), None)


# --- the tables ---------------------------------------------------------------------------------------


def _table(kind: str) -> _Table:
    return load_robots() if kind == "robot" else load_living()


def _table_name(kind: str) -> str:
    return "Table 4" if kind == "robot" else "Table 3"


def _damage_source(kind: str, name: str, stamina: Decimal) -> str:
    """The rows a damage of that name and Stamina may have been read from, when its total is not known."""
    rows = [row for row in _rows_named(kind, name) if row.stamina == stamina] or _rows_named(kind, name)
    spans = " or ".join(_span(row) for row in rows) or "-"
    return f"{_table_name(kind)}, row {spans} {name} ({_table_file(kind)})"


def _table_file(kind: str) -> str:
    return f"{TABLES}/{ROBOTS_FILE if kind == 'robot' else LIVING_FILE}"


def _row_rule(kind: str) -> str:
    """Rule S3 reads Table 3 (living beings), S5 Table 4 (robots)."""
    return "S5" if kind == "robot" else "S3"


def _effect_rule(kind: str) -> str:
    """Rule S4 gives the living beings' effects, S5 the robots'."""
    return "S5" if kind == "robot" else "S4"


def _span(row: _Row) -> str:
    """A row's range of the modified roll as printed: "1 or less", "9-10", "23+"."""
    if row.low == OR_LESS:
        return f"{row.high} or less"
    if row.high == OR_MORE:
        return f"{row.low}+"
    return str(row.low) if row.low == row.high else f"{row.low}-{row.high}"


def _row_source(kind: str, row: _Row) -> str:
    return f"{_table_name(kind)}, row {_span(row)} {row.damage} ({_table_file(kind)})"


def _rows_named(kind: str, name: str) -> list[_Row]:
    """The rows of that damage (case ignored): two may share a name (an arm wound of either side)."""
    return [row for row in _table(kind).rows if row.damage.casefold() == name.casefold()]


def _applied_row(event: SpecialDamage) -> _Row | None:
    """The row whose damage a special damage did: the one its total reads, or the referee's instead."""
    row = _table(event.table).row_for(event.total)
    if row.damage == event.damage:
        return row
    return next(
        iter(_rows_named(event.table, event.damage)), None
    )  # a ruling's replacement: the first so named


def _effect(kind: str, row: _Row | None) -> Effect | None:
    return None if row is None or row.effect is None else _table(kind).effect_named(row.effect)


def _effect_source(kind: str, effect: Effect) -> str:
    return f"{_table_name(kind)} effects, entry {effect.name} ({_table_file(kind)})"


def _body(state: Field, combatant: str) -> str:
    """What special damage does to a combatant: "living", "robot" or "computer" (living if unknown)."""
    combatant_state = state.combatants.get(combatant)
    return str(combatant_state.special.body) if combatant_state is not None else "living"


# --- special damage (S1, S2, S3, S5, S9, S10) --------------------------------------------------------


class _Checks(NamedTuple):
    """The target's checks behind a special damage: its RS check (Table 1), a Vrusk's arm (S7)."""

    rs: CheckRolled | None
    vrusk: CheckRolled | None


def _checks(event: SpecialDamage, history: History, since: int) -> _Checks:
    """The target's checks after the hit (seq ``since``); the history keeps its last check only, so a
    Vrusk's arm, when rolled, hides the RS check."""
    check = _before(history, "check_rolled", event.target, event, since)
    if not isinstance(check, CheckRolled):
        return _Checks(None, None)
    if check.check.startswith(VRUSK_CHECK):
        return _Checks(None, check)
    return _Checks(check if check.check == "RS check" else None, None)


def _scoring(event: SpecialDamage, host: HostRulings, hit_chance: Decimal | None) -> list[Step]:
    """Rule S1: chance = 3 + 2 x level (+ aim, at most 10); a hit roll at or under it scores."""
    chance = f"{rolls.BASE_CHANCE} + {rolls.PER_SKILL_LEVEL} x level {event.skill_level}"
    if event.aim_rounds:
        chance += f" + aim {min(event.aim_rounds, rolls.AIMING_MAX)}"
    scored = f"hit roll {event.hit_roll} <= {event.chance}% ({host.roll})"
    if hit_chance is not None:
        scored += f"; hit chance {number(hit_chance)}% >= {event.chance}%"
    return [
        Step(
            what="special damage chance",
            value=f"{event.chance}%",
            how=f"{chance} = {event.chance} ({host.level})",
            rule="S1",
        ),
        Step(what="special damage", value="scored", how=scored, rule="S1"),
    ]


def _split(
    event: SpecialDamage,
) -> tuple[list[SpecialModifier], list[SpecialModifier], list[SpecialModifier]]:
    """The modifiers of Table 1, of Table 2 and the others (the referee's own, rule S2)."""
    table_1 = {m.reason.casefold() for m in load_modifiers().modifiers}
    table_2 = {w.name.casefold() for w in load_weapon_modifiers().weapons}
    first: list[SpecialModifier] = []
    second: list[SpecialModifier] = []
    others: list[SpecialModifier] = []
    for modifier in event.modifiers:
        key = modifier.reason.casefold()
        if key in table_1 or key.startswith(RS_CHECK.casefold()):
            first.append(modifier)
        elif key in table_2:
            second.append(modifier)
        else:
            others.append(modifier)
    return first, second, others


def _table_1_row(modifier: SpecialModifier) -> Modifier:
    name = RS_CHECK if modifier.reason.casefold().startswith(RS_CHECK.casefold()) else modifier.reason
    return load_modifiers().named(name)


def _table_1_source(row: Modifier) -> str:
    return f"Table 1, row {row.reason} ({TABLES}/{MODIFIERS_FILE})"


def _rs_check(event: SpecialDamage, host: HostRulings, check: CheckRolled | None, hidden: bool) -> Step:
    """Table 1 (rule S9): the aware target's RS check, rolled before the type roll; made, it is -2.

    ``hidden``: a later check of the target (a Vrusk's arm) stands before it in the history, so a check
    that failed cannot be told from none rolled."""
    source = _table_1_source(load_modifiers().named(RS_CHECK))
    made = next((m for m in event.modifiers if m.reason.casefold().startswith(RS_CHECK.casefold())), None)
    if made is not None:
        rolled = made.reason[len(RS_CHECK) :].strip(" ()")
        how = f"1d100 {rolled}: made ({host.reaction_speed})"
        return Step(what="RS check", value=signed(Decimal(made.value)), how=how, rule="S9", source=source)
    if check is not None:
        how = f"1d100 {check.roll.total} > RS {number(check.chance)}: failed ({host.reaction_speed})"
    elif hidden:
        how = "not made: no modifier"
    else:
        how = "none rolled: the target was unaware of the fight or could not act"
    return Step(what="RS check", value="0", how=how, rule="S9", source=source)


def _vrusk_arm(check: CheckRolled) -> list[Step]:
    """Rule S7 (ruling 12): a Vrusk with a damaged arm rolls 1d10 for the side, 1-5 the left."""
    side = "left" if check.under else "right"
    sign = "<=" if check.under else ">"
    how = f"{check.roll.total} {sign} {number(check.chance)}: its {side} arms (ruling 12)"
    return [
        roll_step("Vrusk arm roll", check.roll, "S7"),
        Step(what="Vrusk arm", value=side, how=how, rule="S7"),
    ]


def _modifier_steps(event: SpecialDamage, host: HostRulings) -> list[Step]:
    """Rule S9: each Table 1 row that applies (the RS check apart), the Table 2 weapon type, the others."""
    first, second, others = _split(event)
    steps = []
    for modifier in first:
        row = _table_1_row(modifier)
        if row.reason == RS_CHECK:
            continue
        if row.per is not None and row.modifier:
            how = f"{signed(Decimal(row.modifier))} per {row.per} x {modifier.value // row.modifier}"
            how += f", at most {signed(Decimal(row.max))}" if row.max is not None else ""
        else:
            how = SITUATIONS.get(row.reason.casefold(), "")
        steps.append(
            Step(
                what=f"Table 1: {row.reason}",
                value=signed(Decimal(modifier.value)),
                how=f"{how} ({host.table_1})" if how else host.table_1,
                rule="S9",
                source=_table_1_source(row),
            )
        )
    for modifier in second:
        row_2 = load_weapon_modifiers().named(modifier.reason)
        steps.append(
            Step(
                what=f"Table 2: {row_2.name}",
                value=signed(Decimal(modifier.value)),
                how=f"{event.weapon}'s weapon type ({host.table_2})",
                rule="S9",
                source=f"Table 2, row {row_2.name} ({TABLES}/{WEAPON_MODIFIERS_FILE})",
            )
        )
    steps += [Step(what=f"modifier: {m.reason}", value=signed(Decimal(m.value)), rule="S2") for m in others]
    return steps


def _listed(modifiers: Sequence[SpecialModifier]) -> str:
    return " ".join(f"{signed(Decimal(m.value))} ({m.reason.split(' (')[0]})" for m in modifiers)


def _type_total(event: SpecialDamage) -> Step:
    """Rule S2: 1d10 + Table 1 + Table 2 (+ the referee's own)."""
    first, second, others = _split(event)
    how = f"{event.type_roll.expr} {event.type_roll.total}"
    for label, group in (("Table 1", first), ("Table 2", second), ("other", others)):
        how += f" + {label} {_listed(group)}" if group else ""
    return Step(what="type total", value=str(event.total), how=f"{how} = {event.total}", rule="S2")


def _type_roll(event: SpecialDamage, host: HostRulings, checks: _Checks) -> list[Step]:
    """Rules S9 and S2: the RS check, the type roll, each modifier, and their total."""
    steps = [
        _rs_check(event, host, checks.rs, checks.vrusk is not None),
        roll_step("type roll", event.type_roll, "S2"),
    ]
    return [*steps, *_modifier_steps(event, host), _type_total(event)]


def _row_read(event: SpecialDamage, host: HostRulings, ruling: RefereeRuling | None) -> list[Step]:
    """Rules S3/S5 (and S10): the row the total reads; the referee's instead; Stamina and equipment."""
    rule = _row_rule(event.table)
    rolled = _table(event.table).row_for(event.total)
    equipment = rolled.equipment
    steps = [
        Step(
            what=f"{_table_name(event.table)} row",
            value=rolled.damage,
            how=f"{event.total} reads row {_span(rolled)}: Stamina +{rolled.stamina}, equipment {equipment}",
            rule=rule,
            source=_row_source(event.table, rolled),
        )
    ]
    if ruling is not None:
        how = f"{ruling.rolled} (+{number(ruling.stamina_rolled)}) ruled {ruling.ruled} "
        how += f"(+{number(ruling.stamina_ruled)}): {ruling.reason} (ruling 13)"
        steps.append(Step(what="referee's ruling", value=ruling.ruled, how=how, rule="S10"))
    where = f" to the {event.part}" if isinstance(event.part, str) else ""
    origin = "the referee's ruling" if ruling is not None else "the row's Stamina"
    steps.append(
        Step(
            what="extra damage",
            value=f"+{number(event.stamina)}",
            how=f"{origin}{where} ({host.stamina})",
            rule="S10" if ruling is not None else rule,
        )
    )
    if event.equipment:
        how = f"{event.equipment} unit{'s' if event.equipment > 1 else ''}: the victim picks, ruling 10"
        steps.append(Step(what="equipment lost", value=str(event.equipment), how=how, rule="S3"))
    return steps


def _penalties(injury: Injury, robot: bool) -> str:
    """What an injury does to later rolls, in the host's units (a 6 s turn, ruling 4), and how it mends."""
    mends = "repaired" if robot else "heals"
    listed = [
        (injury.to_hit, f"{injury.to_hit:+d} to hit"),
        (injury.movement, f"{number(injury.movement)} m/s"),
        (injury.movement_max is not None, f"at most {number(injury.movement_max or 0)} m/s"),
        (injury.cannot_move, "cannot move"),
        (injury.skills, f"{injury.skills:+d}% skills"),
        (injury.int_log, f"{injury.int_log:+d} INT/LOG"),
        (injury.dex_rs, f"{injury.dex_rs:+d} DEX/RS"),
        (injury.carry_kg, f"{injury.carry_kg:+d} kg carried"),
        (injury.no_rifles, "no rifles"),
        (injury.one_weapon_only, "one weapon only"),
        (injury.no_melee, "no melee"),
        (injury.melee_damage, f"{injury.melee_damage:+d} melee damage"),
        (injury.malfunction_chance, f"{injury.malfunction_chance}% malfunction"),
        (injury.repair_penalty, f"{injury.repair_penalty:+d}% to repair"),
        (injury.heals_as is not None, f"{mends} as {injury.heals_as}"),
    ]
    return ", ".join(text for present, text in listed if present) or "no penalties"


def _effect_steps(event: SpecialDamage) -> list[Step]:
    """Rules S4/S5: the row's effect as printed, and the injury it leaves on the target."""
    rule = _effect_rule(event.table)
    effect = _effect(event.table, _applied_row(event))
    if effect is None:
        return [Step(what="effect", value="none", how="the row has no effect", rule=rule)]
    steps = [
        Step(
            what="effect",
            value=effect.name,
            how=f'"{effect.text}"',
            rule=rule,
            source=_effect_source(event.table, effect),
        )
    ]
    if event.injury is not None:
        steps.append(
            Step(
                what="injury",
                value=event.injury.name,
                how=_penalties(event.injury, event.table == "robot"),
                rule=rule,
            )
        )
    if event.dead:
        steps.append(Step(what="outcome", value="dead", how=f"{event.target} is out", rule=rule))
    return steps


def _special(event: SpecialDamage, state: Field, history: History) -> Explanation:
    host = host_of(state)
    hit = _hit(host, history, event, event.attacker, event.target)
    since = max((blow.seq for blow in hit), default=0)
    checks = _checks(event, history, since)
    earlier = _before(history, "referee_ruling", event.target, event, since, ruled=event.damage)
    ruling = earlier if isinstance(earlier, RefereeRuling) else None
    target = state.combatants[event.target]
    left = f"{number(target.damage_left)}/{number(target.damage_points)} DP"
    cited = host.rulings
    steps = (
        _scoring(event, cited, _hit_chance(host, hit))
        + _type_roll(event, cited, checks)
        + _row_read(event, cited, ruling)
    )
    if checks.vrusk is not None:
        steps += _vrusk_arm(checks.vrusk)
    steps += [*_effect_steps(event), Step(what=f"{event.target} left", value=left)]
    return Explanation(steps=steps, depends_on=_special_depends(event, host, hit, checks, ruling))


def _special_depends(
    event: SpecialDamage,
    host: SpecialDamageHost,
    hit: Sequence[Event],
    checks: _Checks,
    ruling: RefereeRuling | None,
) -> list[Because]:
    """The hit that scored it, the target's RS check or Vrusk arm roll, the referee's ruling on it."""
    reasons = _hit_depends(host, hit, f"{event.attacker}'s hit on {event.target}: its roll and chance (S1)")
    if checks.rs is not None:
        reasons.append(Because(checks.rs.seq, f"{event.target}'s RS check (Table 1, S9)"))
    if checks.vrusk is not None:
        reasons.append(Because(checks.vrusk.seq, f"{event.target}'s Vrusk arm roll (S7)"))
    if ruling is not None:
        reasons.append(Because(ruling.seq, f"the referee's ruling on it (S10): {ruling.reason}"))
    return sorted(reasons, key=lambda b: b.seq)


# --- conditions (S4, S5) -----------------------------------------------------------------------------


def _unit(total: int, span_ms: int) -> str:
    """The unit of time a duration of ``total`` spanning ``span_ms`` was counted in."""
    return next((unit for unit, ms in UNIT_MS.items() if total > 0 and total * ms == span_ms), "")


def _condition_chance(event: ConditionStarted, rule: str) -> list[Step]:
    if event.chance is not None and event.chance_roll is not None:
        roll = event.chance_roll
        how = f"{roll.expr} {roll.total} <= {event.chance}: {event.condition}"
        return [
            roll_step("chance roll", roll, rule),
            Step(what="chance", value=f"{event.chance}%", how=how, rule=rule),
        ]
    how = "the effect gives no chance: it always happens"
    return [Step(what="chance", value="100%", how=how, rule=rule)]


def _condition_time(event: ConditionStarted, rule: str) -> list[Step]:
    if event.duration is None or event.until_ms is None:
        return [Step(what="until", value="for good", how="a deactivation lasts, ruling 9", rule=rule)]
    unit = _unit(event.duration.total, event.until_ms - event.t)
    how = (
        f"{game_time(event.t)} + {max(event.duration.total, 0)} {unit}".rstrip() + " (on the clock, ruling 9)"
    )
    return [
        roll_step(f"{event.condition} time", event.duration, rule),
        Step(what="until", value=game_time(event.until_ms), how=how, rule=rule),
    ]


def _condition(event: ConditionStarted, state: Field, history: History) -> Explanation:
    special = _before(history, "special_damage", event.combatant, event, target=event.combatant)
    cause = special if isinstance(special, SpecialDamage) else None
    kind = cause.table if cause is not None else _body(state, event.combatant)
    rule = _effect_rule(kind)
    effect = _effect(kind, _applied_row(cause)) if cause is not None else None
    steps = [
        Step(
            what="cause",
            value=event.cause,
            how=f'"{effect.text}"' if effect is not None else "",
            rule=rule,
            source=_effect_source(kind, effect) if effect is not None else "",
        )
    ]
    steps += _condition_chance(event, rule) + _condition_time(event, rule)
    why = f"the special damage that left {event.combatant} {event.condition} ({rule})"
    depends = [Because(cause.seq, why)] if cause is not None else []
    return Explanation(steps=steps, depends_on=depends)


# --- explosions (S5, S6) -----------------------------------------------------------------------------


def _blast_hit(hit: BlastHit, blast: int, rule: str) -> list[Step]:
    """One combatant in the blast: its RS check halves the damage when made (ruling 6)."""
    sign = "<=" if hit.halved else ">"
    how = f"{blast} / 2, RS check made" if hit.halved else f"{blast}, RS check failed"
    return [
        roll_step(f"{hit.combatant}'s RS check", hit.rs_roll, rule),
        Step(
            what=f"{hit.combatant} at {number(hit.distance)} m",
            value=number(hit.damage),
            how=f"{hit.rs_roll.total} {sign} RS {hit.rs_target}: {how} (ruling 6)",
            rule=rule,
        ),
    ]


def _exploded(event: Exploded, state: Field, history: History) -> Explanation:
    robot = _body(state, event.source) == "robot"
    rule = "S5" if robot else "S6"
    if robot:
        why = "Table 4's Explosion effect"
        source = f"Table 4 effects, entry Explosion ({TABLES}/{ROBOTS_FILE})"
    else:
        why = "more programs destroyed than it had"
        source = "COMPUTER_EXPLOSION (affray/rules/special_damage/rolls.py)"
    steps = [
        Step(
            what="explosion",
            value=f"{event.roll.expr} within {event.radius_m} m",
            how=why,
            rule=rule,
            source=source,
        ),
        roll_step("blast roll", event.roll, rule),
    ]
    for hit in event.hits:
        steps += _blast_hit(hit, event.roll.total, rule)
    if not event.hits:
        steps.append(Step(what="caught", value="no one", how=f"no one within {event.radius_m} m", rule=rule))
    return Explanation(steps=steps, depends_on=_exploded_depends(event, host_of(state), history, robot))


def _exploded_depends(
    event: Exploded, host: SpecialDamageHost, history: History, robot: bool
) -> list[Because]:
    """A robot's special damage that made it explode; a computer's, the hit that wrecked its programs."""
    if robot:
        special = _before(history, "special_damage", event.source, event, target=event.source)
        return (
            [Because(special.seq, f"the special damage to {event.source} (S5)")]
            if special is not None
            else []
        )
    why = f"the hit on {event.source} that destroyed its programs (S6)"
    return _hit_depends(host, _hit(host, history, event, None, event.source), why)


# --- referee's rulings (S10) ----------------------------------------------------------------------


def _ruling(event: RefereeRuling, state: Field, history: History) -> Explanation:
    kind = _body(state, event.target)
    extra, rolled = number(event.stamina_ruled), number(event.stamina_rolled)
    how = f"+{extra} extra damage instead of +{rolled}: {event.reason}"
    steps = [
        Step(
            what="damage rolled",
            value=event.rolled,
            how=f"+{number(event.stamina_rolled)} extra damage",
            rule=_row_rule(kind),
            source=_damage_source(kind, event.rolled, event.stamina_rolled),
        ),
        Step(
            what="damage ruled",
            value=event.ruled,
            how=f"{how} (ruling 13)",
            rule="S10",
            source=f"the scenario's rulings: {event.target}'s special damage #{event.nth}",
        ),
    ]
    host = host_of(state)
    hit = _hit(host, history, event, None, event.target)
    why = f"the hit on {event.target} whose special damage it alters"
    return Explanation(steps=steps, depends_on=_hit_depends(host, hit, why))


# --- healing and repair (S7, S8) ---------------------------------------------------------------------


def _healing_rule(state: Field, combatant: str) -> tuple[str, str]:
    """Rule S8 and the repair times for a robot, S7 and the healing times for a living being."""
    if _body(state, combatant) == "robot":
        return "S8", f"repair times ({TABLES}/{REPAIR_FILE})"
    return "S7", f"healing times ({TABLES}/{HEALING_FILE})"


def _healed(event: Healed, state: Field, history: History) -> Explanation:
    rule, times = _healing_rule(state, event.combatant)
    scheduled = history.latest("healing_scheduled", event.combatant)
    scheduled = (
        scheduled
        if isinstance(scheduled, HealingScheduled)
        and scheduled.injury == event.injury
        and scheduled.seq < event.seq
        else None
    )
    done = Step(
        what="healed",
        value="its penalties are gone",
        how=f"its time is up at {game_time(event.t)}",
        rule=rule,
    )
    if scheduled is None:
        return Explanation(steps=[done])
    roll = scheduled.roll
    extra = scheduled.extra_minutes * UNIT_MS["minutes"]
    unit = _unit(roll.total, scheduled.ready_ms - scheduled.t - extra)
    how = f"{game_time(scheduled.t)} + {max(roll.total, 0)} {unit}".rstrip()
    how += f" + {scheduled.extra_minutes} minutes" if scheduled.extra_minutes else ""
    clock = "one repair after another, ruling 24" if rule == "S8" else "each on its own clock, ruling 22"
    steps = [
        Step(
            what="heals as", value=scheduled.heals_as, rule=rule, source=f"{times}, kind {scheduled.heals_as}"
        ),
        roll_step("time", roll, rule),
        Step(what="ready at", value=game_time(scheduled.ready_ms), how=f"{how} ({clock})", rule=rule),
        done,
    ]
    why = f"the time {event.combatant}'s {event.injury} takes ({rule})"
    return Explanation(steps=steps, depends_on=[Because(scheduled.seq, why)])


def _not_healed(event: NotHealed, state: Field, history: History) -> Explanation:
    rule, times = _healing_rule(state, event.combatant)
    how = f"{event.reason}: {NOT_HEALED[event.reason]}" if event.reason in NOT_HEALED else event.reason
    steps = [Step(what="not healed", value=event.injury, how=how, rule=rule, source=times)]
    damage = history.latest("special_damage", event.combatant)
    injury = damage.injury if isinstance(damage, SpecialDamage) and damage.target == event.combatant else None
    if damage is None or injury is None or injury.name != event.injury:
        return Explanation(steps=steps)
    return Explanation(
        steps=steps, depends_on=[Because(damage.seq, f"the special damage that left the {event.injury}")]
    )


EXPLAINERS: Mapping[type[Event], Explainer] = {
    SpecialDamage: _special,
    ConditionStarted: _condition,
    ConditionEnded: by_rule("S4, S5"),
    EquipmentLost: by_rule("S3"),
    ProgramsDestroyed: by_rule("S6"),
    Exploded: _exploded,
    RefereeRuling: _ruling,
    AftermathStarted: by_rule("S7, S8"),
    HealingScheduled: by_rule("S7, S8"),
    Healed: _healed,
    NotHealed: _not_healed,
    AftermathEnded: by_rule("S7, S8"),
}
"""The explainer of each special_damage kind: the outcomes step by step, the others by their fields."""
