"""Tell a fight one line per event: game time in seconds, what happened, and the numbers behind it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from typing import Any

from affray.events.base import Event, Roll
from affray.events.kinds import (
    AttackResolved,
    CombatantJoined,
    CombatantOut,
    EncounterEnded,
    Moved,
    Perceived,
    Position,
    Reacted,
    TargetChosen,
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
    line = (
        f"{e.attacker} attacks {e.target} with {e.weapon}: {number(h.hit_chance)}% "
        f"(skill {number(h.skill)} {h.bonus_kind} {_signed(h.bonus)}) - armor {armor} "
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
        f"{line} -> x{number(d.multiplier)} of {number(d.potential)} (base {d.base}"
        f" + ST {number(d.strength_bonus)} + weapon {number(d.weapon_bonus)}"
        f" + skill {number(d.skill_bonus)}) = {number(d.damage)} damage; "
        f"{e.target} has {number(left)}/{number(total)} DP"
    )


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
