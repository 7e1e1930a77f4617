"""Tell a fight one line per event: game time in seconds, what happened, and the numbers behind it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from typing import Any

from affray.events.base import Event, Roll
from affray.events.kinds import (
    ActionRefused,
    AimStarted,
    AttackResolved,
    CombatantJoined,
    CombatantOut,
    EncounterEnded,
    Moved,
    Perceived,
    Position,
    RangedDerivation,
    Reacted,
    TargetChosen,
    Waited,
    WeaponChanged,
    WeaponReadied,
)
from affray.kernel.clock import seconds
from affray.kernel.state import EncounterState, apply_checked


def number(value: Decimal) -> str:
    """A decimal for people: at most three places, no trailing zeros."""
    text = f"{value.quantize(Decimal('0.001')):f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def _signed(value: Decimal) -> str:
    text = number(value)
    return text if text.startswith("-") else f"+{text}"


def _at(p: Position) -> str:
    return f"({number(p[0])}, {number(p[1])})"


def _roll(roll: Roll, unit: str = "") -> str:
    faces = " [" + "+".join(str(f) for f in roll.faces) + "]" if len(roll.faces) > 1 else ""
    manual = ", manual" if roll.source == "manual" else ""
    return f"{roll.expr}={roll.total}{unit}{faces}{manual}"


def _joined(e: CombatantJoined, s: EncounterState) -> str:
    shield = f", shield {e.shield}" if e.shield else ""
    return (
        f"{e.combatant} ({e.name}) joins side {e.side}: {number(e.damage_points)} DP, {e.weapon}, "
        f"{e.armor}{shield}, at {_at(e.position)}"
    )


def _perceived(e: Perceived, s: EncounterState) -> str:
    how = f" (perception {_roll(e.roll, ' s')})" if e.roll else ""
    return f"{e.combatant} perceives the other party{how}"


def _reacted(e: Reacted, s: EncounterState) -> str:
    if e.prepared:
        return f"{e.combatant} had a prepared reaction: no reaction time"
    how = f", {_roll(e.roll, ' s')}" if e.roll else ""
    return f"{e.combatant} reacts after {seconds(e.reaction_ms)} s{how}"


def _readied(e: WeaponReadied, s: EncounterState) -> str:
    floor = " (the 1 s minimum)" if e.chart_speed - e.speed_adjustment < 1 else ""
    return (
        f"{e.combatant} readies {e.weapon} ({e.readiness.replace('_', ' ')}): initiative "
        f"{seconds(e.initiative_ms)} s; speed {e.chart_speed} - {number(e.speed_adjustment)} = "
        f"{seconds(e.speed_ms)} s between attacks{floor}"
    )


def _target(e: TargetChosen, s: EncounterState) -> str:
    return f"{e.combatant} targets {e.target} ({e.controller}: {e.reason})"


def _moved(e: Moved, s: EncounterState) -> str:
    return f"{e.combatant} moves {number(e.distance)} m toward {e.toward}, {_at(e.start)} -> {_at(e.end)}"


def _attack(e: AttackResolved, s: EncounterState) -> str:
    h = e.hit
    armor = h.armor_value + h.shield_bonus
    shield = f" incl. shield {h.shield_bonus}" if h.shield_bonus else ""
    verb = "attacks" if h.ranged is None else "shoots at" if h.ranged.mode == "missile" else "throws at"
    chance = f"(skill {number(h.skill)} {h.bonus_kind} {_signed(h.bonus)})"
    if h.ranged is not None:
        chance = _shot(h.ranged, chance)
    line = (
        f"{e.attacker} {verb} {e.target} with {e.weapon}: {number(h.hit_chance)}% {chance} - armor {armor} "
        f"({h.armor} vs type {h.weapon_type}{shield}) - roll {h.roll.total} = quality {number(h.quality)}"
    )
    if e.parry is not None:
        p = e.parry
        verdict = "parried" if p.parried else "fails"
        line += f"; parry with {p.device} {number(p.chance)}%, roll {p.roll.total}: {verdict}"
    if e.outcome == "miss":
        return line + " -> miss"
    if e.damage is None:
        return line + " -> no damage"
    d = e.damage
    left = s.combatants[e.target].damage_left
    total = s.combatants[e.target].damage_points
    return (
        f"{line} -> x{number(d.multiplier)} of {number(d.potential)} ({'(' if d.range_factor else ''}"
        f"base {d.base} + ST {number(d.strength_bonus)} + weapon {number(d.weapon_bonus)}"
        f" + skill {number(d.skill_bonus)}{f') x{number(d.range_factor)} range' if d.range_factor else ''})"
        f" = {number(d.damage)} damage; "
        f"{e.target} has {number(left)}/{number(total)} DP"
    )


def _shot(r: RangedDerivation, melee_chance: str) -> str:
    """``(skill 75 mechanical +20) x0.9 MED at 85.6 m - size 0 - speed 4 + aim 30``: rules E8, E16-E19."""
    text = f"({number(r.chance_before)}% {melee_chance} x{number(r.range_factor)} {r.band}"
    text += f" at {number(r.distance)} m"
    if r.size_penalty:
        cover = f", {r.cover}% covered" if r.cover else ""
        text += f" - size {number(r.size_penalty)} ({number(r.visible_area)} m2 visible{cover})"
    if r.speed_penalty:
        text += f" - speed {number(r.speed_penalty)} ({number(r.relative_speed)} m/s)"
    if r.unaimed_penalty:
        text += f" - unaimed {number(r.unaimed_penalty)} (aimed {seconds(r.aim_ms)} of {seconds(r.gap_ms)} s)"
    elif r.aim_bonus:
        text += f" + aim {number(r.aim_bonus)} ({seconds(r.aim_ms - r.gap_ms)} s beyond the gap)"
    return text + ")"


def _changed(e: WeaponChanged, s: EncounterState) -> str:
    how = "drops and grabs" if e.method == "drop_and_grab" else "puts away and draws"
    if e.from_weapon is None:
        return f"{e.combatant} takes up {e.to_weapon} in {seconds(e.took_ms)} s"
    return f"{e.combatant} {how}: {e.from_weapon} -> {e.to_weapon} in {seconds(e.took_ms)} s"


def _aim(e: AimStarted, s: EncounterState) -> str:
    return f"{e.combatant} aims {e.weapon} at {e.target}"


def _waited(e: Waited, s: EncounterState) -> str:
    return f"{e.combatant} waits {e.seconds} s: {e.reason}"


def _refused(e: ActionRefused, s: EncounterState) -> str:
    return f"{e.combatant} cannot {e.action}: {e.reason}"


def _out(e: CombatantOut, s: EncounterState) -> str:
    return f"{e.combatant} is out: {e.reason}"


def _ended(e: EncounterEnded, s: EncounterState) -> str:
    who = f"side {e.winner} wins" if e.winner else "no winner"
    return f"the encounter ends: {who} ({e.reason})"


_TELLERS: dict[type[Event], Callable[[Any, EncounterState], str]] = {
    CombatantJoined: _joined,
    Perceived: _perceived,
    Reacted: _reacted,
    WeaponReadied: _readied,
    TargetChosen: _target,
    Moved: _moved,
    AttackResolved: _attack,
    WeaponChanged: _changed,
    AimStarted: _aim,
    ActionRefused: _refused,
    Waited: _waited,
    CombatantOut: _out,
    EncounterEnded: _ended,
}


def narrate(events: Iterable[Event]) -> Iterator[str]:
    """One line per event, each told against the state right after it."""
    state = EncounterState()
    for event in events:
        apply_checked(state, event)
        text = _TELLERS[type(event)](event, state)
        yield f"{seconds(event.t):>9} s  #{event.seq:<4} {text}"
